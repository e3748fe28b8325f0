/*
 * Myrmex native system-call ABI, shared by the kernel and user programs.
 *
 * Linux system calls keep their Linux x86-64 numbers (see docs/syscalls.md).
 * Native Myrmex calls live at MYRMEX_SYS_BASE and above, outside Linux's range,
 * and use the same register convention: number in rax, arguments in
 * rdi, rsi, rdx, r10, r8, r9, result in rax (negative errno on failure).
 *
 * Every structure here has fixed-width fields and a size assert so that a
 * 32-bit port agrees with x86-64.
 */
#ifndef MYRMEX_SYSCALL_H
#define MYRMEX_SYSCALL_H

#include <stdint.h>

#define MYRMEX_SYS_BASE      4096

/*
 * spawn(const char *module, char *const argv[], char *const envp[], int prio,
 *       unsigned flags)
 * Starts a new process from the boot module whose name (basename of the
 * module's first command-line word) is `module`. argv/envp are NULL-terminated
 * arrays as for execve. prio is 0..MYRMEX_PRIO_MAX, or -1 to inherit the
 * caller's priority. Returns the new pid, which becomes the caller's child
 * (reap it with wait4). Errors: -ENOENT no such module, -EFAULT bad pointer,
 * -E2BIG argv/envp too large, -EINVAL bad prio or bad ELF (-ENOEXEC),
 * -EAGAIN process limit reached, -ENOMEM out of memory.
 * flags: MYRMEX_SPAWN_SERVER (include/myrmex/ica.h) gives the child the
 * right to register as a server; only a process with the right may pass it
 * (-EPERM); other bits -EINVAL.
 * Only until the process manager server exists (the POSIX personality issue).
 */
#define MYRMEX_SYS_SPAWN     (MYRMEX_SYS_BASE + 0)

/*
 * kstats(struct myrmex_kstats *out, uint64_t size)
 * Copies min(size, sizeof(struct myrmex_kstats)) bytes of the kernel's
 * counters to out. Returns the number of bytes copied or -EFAULT.
 */
#define MYRMEX_SYS_KSTATS    (MYRMEX_SYS_BASE + 1)

/*
 * poweroff(int code)
 * Stops the machine: QEMU exits through isa-debug-exit with status
 * (code << 1) | 1. Only pid 1 may call it (-EPERM otherwise).
 */
#define MYRMEX_SYS_POWEROFF  (MYRMEX_SYS_BASE + 2)

/*
 * setprio(int tid, int prio)
 * Sets the fixed scheduling priority of a thread of the calling process
 * (tid 0 means the caller). Higher numbers run first. A process may not raise
 * a thread above its own process's ceiling (the priority it was spawned
 * with): -EPERM. -ESRCH unknown tid, -EINVAL bad prio.
 */
#define MYRMEX_SYS_SETPRIO   (MYRMEX_SYS_BASE + 3)

/*
 * batch(struct myrmex_batch_area *area, uint64_t n)
 * Wrapped system calls (paper 001): runs the first n entries of area, in
 * order, one at a time, each as if the caller had made it, and writes each
 * entry's result and state DONE back before the next starts. An entry holds
 * any native or Linux call number and six arguments, and must be in state
 * STORED. The kernel copies each entry before checking it; an entry that
 * fails (unknown number -ENOSYS, a call refused in a batch -EINVAL, not
 * STORED -EINVAL, a bad pointer argument the call's own -EFAULT...) fails
 * alone. Refused in a batch, -EINVAL: the calls that replace or copy the
 * caller's registers or end it (rt_sigreturn, clone, fork, vfork, execve,
 * exit, exit_group), batch itself, and callsync and get (the IPC fast path
 * may finish them on a fresh kernel stack). A blocking entry blocks the
 * batch. A signal to deliver or a kill stops the batch after the entry that
 * runs: an interrupted entry keeps -EINTR (a batch is never restarted, even
 * under SA_RESTART), the entries after it stay STORED.
 * Returns the number of entries run (n, or fewer when stopped), -EINVAL for
 * n > MYRMEX_BATCH_MAX, n > area->capacity, capacity > MYRMEX_BATCH_MAX or an
 * unknown flag, -EFAULT when the header cannot be read or the
 * first entry cannot be read. An entry that cannot be read, or whose result
 * cannot be written, later in the batch (the area unmapped meanwhile) stops
 * it there: the entries run so far are returned.
 * The area is ordinary user memory (docs/syscalls.md, "Wrapped calls").
 */
#define MYRMEX_SYS_BATCH     (MYRMEX_SYS_BASE + 4)

#define MYRMEX_BATCH_MAX     64

/* Entry states. The caller stores STORED; the kernel writes DONE. */
#define MYRMEX_BATCH_FREE    0u
#define MYRMEX_BATCH_STORED  1u
#define MYRMEX_BATCH_DONE    2u

struct myrmex_batch_entry {
	uint64_t nr;          /* call number, as in rax */
	uint64_t arg[6];      /* as in rdi, rsi, rdx, r10, r8, r9 */
	int64_t result;       /* written by the kernel: the value or -errno */
	uint32_t state;       /* MYRMEX_BATCH_* */
	uint32_t reserved;
};
_Static_assert(sizeof(struct myrmex_batch_entry) == 72, "batch entry layout");

/* Area flags. ALONE: every forwarded call goes to its server in a request
 * of its own, as made one by one (else consecutive calls for the file
 * manager travel in one request, docs/syscalls.md); for comparison. */
#define MYRMEX_BATCH_ALONE   1u
#define MYRMEX_BATCH_FLAGS   MYRMEX_BATCH_ALONE

struct myrmex_batch_area {
	uint32_t capacity;    /* entries that follow, at most MYRMEX_BATCH_MAX */
	uint32_t flags;       /* MYRMEX_BATCH_*; any other bit: -EINVAL */
	struct myrmex_batch_entry entry[];
};
_Static_assert(sizeof(struct myrmex_batch_area) == 8, "batch area layout");

/*
 * The trap-gate entry: `int $0x81` (MYRMEX_TRAP_VECTOR) takes the same
 * numbers, registers and results as the syscall instruction, and keeps rcx
 * and r11. The slow entry, for comparison with syscall (paper 001). 0x81,
 * not 0x80: Linux's int $0x80 is the 32-bit ABI, with other numbers.
 */
#define MYRMEX_TRAP_VECTOR   0x81

/*
 * module_read(const char *name, uint64_t offset, void *buf, uint64_t size)
 * Copies up to size bytes of boot module `name` from offset to buf: the
 * boot image's files that are not programs (the service table). Returns the
 * number of bytes copied (0 at or past the end), -ENOENT no such module,
 * -EFAULT bad pointer.
 */
#define MYRMEX_SYS_MODULE_READ (MYRMEX_SYS_BASE + 50)

/*
 * ktouch(uint64_t width)
 * Paper 001's evaluation function run inside the kernel (issue 18's cache
 * and TLB experiment, bench/bench_wsc_cache.c): reads the kernel's own
 * page-aligned array of MYRMEX_KTOUCH_MAX bytes from its start over `width`
 * bytes, one byte every MYRMEX_KTOUCH_STRIDE, and returns the sum of the
 * bytes read (the array is zero, so 0; the reads are the point). Touches no
 * user memory and no state: harmless for any caller. -EINVAL when width >
 * MYRMEX_KTOUCH_MAX.
 */
#define MYRMEX_SYS_KTOUCH    (MYRMEX_SYS_BASE + 70)
#define MYRMEX_KTOUCH_MAX    (256u * 1024u)
#define MYRMEX_KTOUCH_STRIDE 128u

#define MYRMEX_PRIO_MAX      31
#define MYRMEX_PRIO_DEFAULT  16

/*
 * Kernel counters, monotonically increasing since boot. Benchmarks read them
 * before and after a run to report the events that explain a figure.
 */
struct myrmex_kstats {
	uint64_t syscalls;          /* system calls entered */
	uint64_t context_switches;  /* thread switches (any) */
	uint64_t address_space_switches; /* CR3 loads to another address space */
	uint64_t tlb_flushes_full;  /* whole-TLB or whole-PCID flushes */
	uint64_t tlb_invalidations; /* single-page invalidations */
	uint64_t page_faults;       /* page faults taken (user and kernel) */
	uint64_t interrupts;        /* device and timer interrupts */
	uint64_t timer_ticks;       /* scheduler timer interrupts */
	uint64_t free_pages;        /* physical pages free now (not a counter) */
	uint64_t total_pages;       /* physical pages managed */
	uint64_t kernel_objects;    /* kernel objects allocated now */
	uint64_t tsc_khz;           /* calibrated TSC frequency */
	uint64_t processes;         /* live processes now */
	uint64_t threads;           /* live threads now */
	uint64_t bytes_copied;      /* bytes copied between user and kernel */
	uint64_t ipc_calls;         /* callsync + callasync accepted */
	uint64_t ipc_returns;       /* results delivered (ret, get(p), server death) */
	uint64_t ica_attaches;      /* ICAs mapped into an address space */
	uint64_t ica_detaches;      /* ICAs unmapped from an address space */
	uint64_t ica_pages_mapped;  /* pages mapped by those attaches */
	uint64_t ica_live;          /* ICAs allocated now (not a counter) */
	uint64_t idle_tsc;          /* TSC ticks the CPU spent halted with nothing to run
	                               (under -icount: the clock jumps QEMU made while idle) */
	uint64_t pager_calls;       /* page faults sent to a file mapping's pager (FS_PAGEIN) */
	uint64_t fmap_revocations;  /* regions whose file pages the file manager revoked */
	uint64_t ipc_refused;       /* calls refused for want of the right to call the
	                               target (include/myrmex/rights.h) */
	uint64_t ipc_quota_refused; /* calls refused by the per-caller queue quota, and ICA
	                               allocations refused by the ICA quotas */
	uint64_t ipc_fast_calls;    /* of ipc_calls, those the fast path handed straight to
	                               a waiting server thread (docs/ipc.md, "Fast path") */
	uint64_t ipc_fast_returns;  /* of ipc_returns, those the fast path handed straight
	                               to the waiting caller */
	uint64_t syscalls_unknown;  /* system calls answered -ENOSYS for want of a handler
	                               (counted per number in the kernel's
	                               personality_unknown_counts[]) */
	uint64_t ipc_fast_on;       /* 1 when the IPC fast path is on (not a counter; the
	                               kernel option ipc_fast=off turns it off) */
	uint64_t tlb_misses;        /* TLB-miss exceptions taken: a CPU whose TLB software
	                               fills (the SH-4 port); 0 where the CPU walks the
	                               page tables itself (x86-64) */
};
_Static_assert(sizeof(struct myrmex_kstats) == 31 * 8, "kstats layout");

#endif
