/*
 * libmyrmex: the user-side library for Myrmex's native system calls and for
 * the small helpers that test and benchmark programs share. Programs are
 * built with musl-gcc -static and link this library; everything that is not
 * a native call works unchanged on Linux. What only assembly can do is per
 * port, under arch/<port>/ (x86_64, sh4), which the build picks.
 */
#ifndef MYRMEX_H
#define MYRMEX_H

#include <stddef.h>
#include <stdint.h>
#include <myrmex/syscall.h>
#include <myrmex/ica.h>
#include <myrmex/proc.h>
#include <myrmex/rights.h>

/* Native calls (see include/myrmex/syscall.h for the contracts).
 * Each returns the kernel's result: >= 0 on success, -errno on failure. */
long myrmex_spawn(const char *module, char *const argv[], char *const envp[], int prio);
/* spawn with flags (MYRMEX_SPAWN_SERVER: the child may call registserver);
 * myrmex_spawn is this with flags 0. */
long myrmex_spawn_flags(const char *module, char *const argv[], char *const envp[], int prio,
                        unsigned flags);
/* spawn with the child's call rights named (MYRMEX_SPAWN_RIGHTS, added to
 * flags): a subset of the caller's, include/myrmex/rights.h. */
long myrmex_spawn_rights(const char *module, char *const argv[], char *const envp[], int prio,
                         unsigned flags, const struct myrmex_rights *rights);
/* Narrows the caller's call rights to keep (NULL: unchanged); *out (may be
 * NULL) gets the set that remains. */
long myrmex_rights(const struct myrmex_rights *keep, struct myrmex_rights *out);
long myrmex_kstats(struct myrmex_kstats *out);
/* Reads a boot module's bytes (the service table): bytes copied or -errno. */
long myrmex_module_read(const char *name, uint64_t offset, void *buf, uint64_t size);
long myrmex_poweroff(int code);
long myrmex_setprio(int tid, int prio);
/* The pid of the server registered for coreid, or -ESRCH. */
long myrmex_server_pid(unsigned coreid);
/* The process manager's calls (include/myrmex/proc.h): only the process
 * registered as MYRMEX_COREID_PM may make them, for a thread blocked in a
 * call it is handling. fork -> the stopped child's pid; start (discard 0)
 * or destroy (discard 1) it -> 0; exec -> 0 once tid's process runs the
 * image in how's ICAs. -errno on failure. */
long myrmex_proc_fork(int tid, uint64_t sp);
long myrmex_proc_start(int pid, int discard);
long myrmex_proc_exec(int tid, const struct myrmex_exec *how);

/*
 * ICAs and the server communication mechanism (include/myrmex/ica.h,
 * docs/ipc.md). Each returns the kernel's result, -errno on failure.
 *
 * myrmex_ica_alloc(npages) -> handle (>= 0); the ICA is attached, zeroed, at
 *   myrmex_ica_addr(handle). free / detach (park) / attach take a handle.
 * myrmex_callsync(p) -> 0 once the result is back in the control ICA at p
 *   (see myrmex_ctl_result), or -errno when the call was not made or the
 *   server died (-EPIPE). myrmex_callasync(p) -> 0 once queued.
 * myrmex_get(p or NULL, out) -> the address of the next control ICA
 *   delivered to the caller (a request or a result), as a long, or -errno;
 *   0 for a delivery without one (MYRMEX_DELIVERY_INTERRUPT, see
 *   include/myrmex/device.h). With p it first returns p's result. out (may
 *   be NULL) gets the kernel's trusted description; believe it rather than
 *   the control ICA, and look at out->kind before using the address.
 * myrmex_ret(p) -> 0; returns the result of request p without taking another.
 * myrmex_claim(p) -> 0; takes request p's control ICA away from its waiting
 *   caller until the result goes back (see include/myrmex/ica.h).
 */
long myrmex_ica_alloc(uint32_t npages);
long myrmex_ica_free(uint32_t handle);
long myrmex_ica_detach(uint32_t handle);
long myrmex_ica_attach(uint32_t handle);
long myrmex_registserver(uint32_t coreid);
long myrmex_callsync(void *p);
long myrmex_callasync(void *p);
long myrmex_get(void *p, struct myrmex_delivery *out);
long myrmex_ret(void *p);
long myrmex_claim(void *p);
/* A call without arguments (opcode) to coreid on a control ICA of its own,
 * retried every millisecond for up to wait_ms while no server has
 * registered the coreid: 0 with the result words in out (may be NULL), the
 * server's -errno status, or the mechanism's -errno (-ESRCH: nobody came). */
long myrmex_ask(uint32_t coreid, uint32_t opcode, unsigned wait_ms, uint64_t out[8]);
/* One frame to coreid on control ICA h (made afresh here): arg[0..3] from
 * args (NULL: zeros), data ICA data (0: none). The mechanism's -errno, or
 * the server's status; the result words into out and the data ICA the
 * answer carries into *data_back (0: none), each when not NULL. */
long myrmex_call(struct myrmex_ctl_header *h, uint32_t coreid, uint32_t opcode,
                 const uint64_t args[4], uint32_t data, uint64_t out[8], uint32_t *data_back);
/* Returns request d (as get() delivered it) with status and the data ICAs
 * that came with it, mending a parked ICA or a rewritten frame once (see
 * lib/libmyrmex/reply.c); who names the server in the one line it writes
 * when the request cannot go back. 0 or ret's error. */
long myrmex_reply(const char *who, const struct myrmex_delivery *d, int64_t status);

/*
 * Building and reading a control ICA (layout in include/myrmex/ica.h). The
 * helpers keep nothing hidden: all they know is in the header, and the size
 * of the ICA is a parameter of push.
 *
 * myrmex_ctl_init(ica): writes a fresh header (magic, no frame, no flags)
 *   at the start of the ICA and returns it.
 * myrmex_ctl_push(h, npages, target, opcode): puts a zeroed frame right
 *   after the newest one (or at offset 32 when there is none) with prev =
 *   the newest, target and opcode set, makes it the newest (currentp) and
 *   returns it; NULL if it would not fit in npages pages, if the stack
 *   already holds MYRMEX_MAX_STAGES frames, or if currentp is malformed.
 *   A server pushes onto a control ICA it received the same way.
 * myrmex_ctl_top(h): the newest frame (currentp), NULL when none/malformed.
 * myrmex_ctl_result(h): the frame whose result arrived last (resultp),
 *   NULL when none/malformed.
 * myrmex_ctl_frame(h, offset): the frame at offset, NULL if offset is not a
 *   frame position (0, inside the header, misaligned).
 */
struct myrmex_ctl_header *myrmex_ctl_init(void *ica);
struct myrmex_frame *myrmex_ctl_push(struct myrmex_ctl_header *h, uint32_t npages,
                                     uint32_t target, uint32_t opcode);
struct myrmex_frame *myrmex_ctl_top(struct myrmex_ctl_header *h);
struct myrmex_frame *myrmex_ctl_result(struct myrmex_ctl_header *h);
struct myrmex_frame *myrmex_ctl_frame(struct myrmex_ctl_header *h, uint32_t offset);

/* Raw Linux system call, returning -errno instead of setting errno: the
 * port's convention and Linux's numbers for the port (<sys/syscall.h>). */
long myrmex_syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6);

/* The same call through the port's second entry: x86-64's trap gate
 * (int $0x81, MYRMEX_TRAP_VECTOR), the slow entry, for comparison; SH-4 has
 * one entry (trapa), which this takes too. */
long myrmex_trapcall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6);

/*
 * Wrapped system calls (include/myrmex/syscall.h, MYRMEX_SYS_BATCH).
 * myrmex_batch_store: entry i of area becomes call nr with args a[0..5]
 * (NULL: all 0), STORED. myrmex_batch: runs the first n entries; the number
 * run or -errno. myrmex_batch_trap: the same through int $0x81.
 */
void myrmex_batch_store(struct myrmex_batch_area *area, unsigned i, long nr, const long *a);
long myrmex_batch(struct myrmex_batch_area *area, uint64_t n);
long myrmex_batch_trap(struct myrmex_batch_area *area, uint64_t n);

/*
 * Kernel-scheduled threads of the calling process, made with Linux clone()
 * (CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|
 * CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID). The thread runs fn(arg) on a
 * stack of stack_size bytes taken from mmap and ends with the exit system
 * call when fn returns. It shares the creator's TLS, so it must not rely on
 * errno. Returns 0 and fills *t, or -errno (e.g. -EAGAIN at the thread limit).
 * stack_size 0 means MYRMEX_THREAD_STACK_DEFAULT; it is rounded up to whole
 * pages, and one inaccessible guard page below the stack catches overflow.
 */
#define MYRMEX_THREAD_STACK_DEFAULT (64 * 1024)
struct myrmex_thread {
	volatile int tid;   /* set by the kernel at creation, cleared at exit */
	int created_tid;    /* the tid as returned by clone */
	void *stack;        /* the stack mapping, guard page first */
	size_t stack_size;  /* bytes of that mapping, guard page included */
};
long myrmex_thread_create(struct myrmex_thread *t, void (*fn)(void *), void *arg,
                          size_t stack_size);
/* Waits until the thread has exited, then frees its stack. */
void myrmex_thread_join(struct myrmex_thread *t);

/*
 * futex(2) without libc: FUTEX_WAIT on addr while *addr == expected, for at
 * most timeout_ns nanoseconds (negative: no timeout), and FUTEX_WAKE of up to
 * count waiters. Both use the shared (non-private) form and return the
 * kernel's result: 0 or -EAGAIN/-ETIMEDOUT/-EINTR for wait, the number woken
 * for wake, -errno on failure.
 */
#define MYRMEX_FUTEX_WAIT    0
#define MYRMEX_FUTEX_WAKE    1
#define MYRMEX_FUTEX_PRIVATE 128   /* FUTEX_PRIVATE_FLAG, or-ed into the op */
long myrmex_futex_wait(volatile int *addr, int expected, int64_t timeout_ns);
long myrmex_futex_wake(volatile int *addr, int count);

/* CLOCK_MONOTONIC in nanoseconds (0 if the clock is refused), and a relative
 * nanosleep; raw system calls, safe in threads. */
uint64_t myrmex_now_ns(void);
long myrmex_sleep_ns(uint64_t ns);

/* 1 when running on Myrmex (kstats answers), 0 on Linux (-ENOSYS). */
int myrmex_is_native(void);

/* The port's cycle counter, myrmex_rdtsc(): x86-64's time-stamp counter,
 * SH-4's stand-in (arch/<port>/myrmex_arch.h). */
#if defined(__x86_64__)
#include "arch/x86_64/myrmex_arch.h"
#elif defined(__sh__)
#include "arch/sh4/myrmex_arch.h"
#else
#error "libmyrmex: no port for this machine (lib/libmyrmex/arch/)"
#endif

/* Writes a string to fd 1 with one write system call (no stdio buffering). */
void myrmex_puts(const char *s);

/* "<who>: <message>\n" on stderr in one write (lines of at most 320 bytes). */
#include <stdarg.h>
__attribute__((format(printf, 2, 3)))
void myrmex_log(const char *who, const char *fmt, ...);
void myrmex_vlog(const char *who, const char *fmt, va_list ap);

/*
 * Devices for user-level drivers (include/myrmex/device.h). Each returns the
 * kernel's result, -errno on failure (-ENODEV when the caller owns no
 * device).
 *
 * myrmex_dev_info(index, out) -> 0 and PCI device `index` in *out (anyone).
 * myrmex_dev_config_read(offset) -> the 32-bit configuration word (>= 0).
 * myrmex_dev_config_write(offset, value) -> 0 (command register and 64..255).
 * myrmex_dev_map_bar(bar) -> the address of the mapped memory BAR, which is
 *   always myrmex_device_bar(bar).
 * myrmex_dev_irq_ack() -> 0; unmasks the line after an interrupt delivery.
 * myrmex_ica_phys(handle) -> the physical address of an ICA the caller
 *   holds, for DMA.
 * myrmex_dev_find(vendor, devices, n, out) -> the index of the first device
 *   with that vendor and one of the n device ids (its description in *out
 *   when out is not NULL), or -1 when there is none. Legacy devices have
 *   vendor MYRMEX_DEV_VENDOR_LEGACY (COM1: device MYRMEX_DEV_LEGACY_COM1).
 * myrmex_dev_port_read(offset, width) -> the value (>= 0) of the I/O port
 *   at offset in the caller's legacy device's port range; width 1, 2 or 4.
 * myrmex_dev_port_write(offset, width, value) -> 0; -EPERM for a write the
 *   kernel's guard of the device refuses.
 */
#include <myrmex/device.h>

long myrmex_dev_info(uint32_t index, struct myrmex_pci_info *out);
long myrmex_dev_config_read(uint32_t offset);
long myrmex_dev_config_write(uint32_t offset, uint32_t value);
long myrmex_dev_map_bar(uint32_t bar);
long myrmex_dev_irq_ack(void);
long myrmex_ica_phys(uint32_t handle);
int myrmex_dev_find(uint16_t vendor, const uint16_t *devices, unsigned ndevices,
                    struct myrmex_pci_info *out);
/* A driver's device: the index given as text in arg (a driver's argv[1]),
 * which must be a device with that vendor and one of the device ids, or,
 * when arg is NULL, the first such device. The index (its description in
 * *out), or -1. */
int myrmex_dev_pick(const char *arg, uint16_t vendor, const uint16_t *devices,
                    unsigned ndevices, struct myrmex_pci_info *out);
long myrmex_dev_port_read(uint32_t offset, uint32_t width);
long myrmex_dev_port_write(uint32_t offset, uint32_t width, uint32_t value);

/*
 * The native file interface: calls to the file manager server over the
 * communication mechanism (include/myrmex/fs.h). Each returns what the file
 * manager answered: >= 0 on success, -errno on failure (-ESRCH when no file
 * manager runs). The library keeps one channel per process, a control ICA
 * and a data ICA of MYRMEX_FS_CHANNEL_BYTES, used by one call at a time
 * (a lock serializes threads). Paths travel in the data ICA.
 *
 * myrmex_fs_read/write move at most MYRMEX_FS_CHANNEL_BYTES per call to the
 * file manager and loop for more; the copy between the data ICA and buf is
 * counted in myrmex_fs_lib_copies. myrmex_fs_read_direct (and pread_direct,
 * at an offset) leaves the bytes in the channel's data ICA and returns their
 * address in *data (valid until the next call): one copy only, the file
 * manager's. A call moving at most 4 KiB uses a one-page data ICA.
 * myrmex_fs_call is the raw form: opcode, arg[0..2], an optional payload
 * copied into the data ICA first, and the result frame's arg[] out.
 */
#include <myrmex/fs.h>

#define MYRMEX_FS_CHANNEL_PAGES 64
#define MYRMEX_FS_CHANNEL_BYTES (MYRMEX_FS_CHANNEL_PAGES * 4096)

int myrmex_fs_open(const char *path, int flags, int mode);
int myrmex_fs_close(int fd);
long myrmex_fs_read(int fd, void *buf, size_t len);
long myrmex_fs_write(int fd, const void *buf, size_t len);
long myrmex_fs_pread(int fd, void *buf, size_t len, uint64_t offset);
long myrmex_fs_pwrite(int fd, const void *buf, size_t len, uint64_t offset);
long myrmex_fs_read_direct(int fd, size_t len, const void **data);
long myrmex_fs_pread_direct(int fd, size_t len, uint64_t offset, const void **data);
long myrmex_fs_lseek(int fd, int64_t offset, int whence);
int myrmex_fs_fstat(int fd, struct myrmex_stat *st);
int myrmex_fs_stat(const char *path, struct myrmex_stat *st);
/* Fills buf with whole struct myrmex_dirent64 records; bytes, 0 at the end. */
long myrmex_fs_readdir(int fd, void *buf, size_t len);
int myrmex_fs_mkdir(const char *path, int mode);
int myrmex_fs_rmdir(const char *path);
int myrmex_fs_unlink(const char *path);
int myrmex_fs_rename(const char *from, const char *to);
int myrmex_fs_ftruncate(int fd, uint64_t size);
int myrmex_fs_sync(void);
int myrmex_fs_statfs(struct myrmex_statfs *out);
int myrmex_fs_stats(uint64_t counters[8]);
int myrmex_fs_drop_cache(void);
int myrmex_fs_shutdown(void);
long myrmex_fs_call(uint32_t opcode, uint64_t a0, uint64_t a1, uint64_t a2,
                    const void *payload, size_t payload_len, uint64_t out[8]);
/* Waits (1 ms steps, up to timeout_ms) until a file manager answers; 0 or
 * -ESRCH. For programs started together with the servers. */
int myrmex_fs_wait(unsigned timeout_ms);
extern uint64_t myrmex_fs_lib_copies;   /* data ICA <-> buffer copies made here */

#endif
