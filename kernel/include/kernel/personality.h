/*
 * The personality contract: what the microkernel (kernel/core) asks of the
 * personality that gives programs their system-call ABI. Today there is one,
 * the Linux personality in kernel/posix (docs/posix.md). As kernel/arch.h is
 * for a CPU port, this header is the only way the core reaches the
 * personality: the core calls the functions below, the personality
 * implements every one of them, and no file of kernel/core includes a
 * header of kernel/include/posix.
 *
 * The personality keeps its own state per thread and per process (signals,
 * its server channel, the umask...) in objects the core sees only as
 * pointers (struct thread.px, struct process.px); it allocates them when the
 * core makes a thread or a process and frees them when the core frees one.
 *
 * Locking: called with the kernel lock held (kernel/klock.h), as every
 * kernel entry runs; the personality's state in threads and processes is
 * guarded by it too.
 */
#ifndef KERNEL_PERSONALITY_H
#define KERNEL_PERSONALITY_H

#include <kernel/types.h>

struct thread;
struct process;
struct vm_space;
struct vma;
struct boot_module;
struct syscall_args;
struct posix_thread;    /* the personality's per-thread state (opaque here) */
struct posix_process;   /* the personality's per-process state (opaque here) */
struct fmap;            /* a pager object backing file regions (opaque here) */

typedef long (*syscall_fn)(const struct syscall_args *a);

/* ---- Boot ----
 * init: once, after the page allocator and the clocks, before the first
 * process (the Linux personality makes its vDSO's frames). */
void personality_init(void);

/* ---- Objects ----
 * process_init: p is a new process spawned from a boot module (parent may be
 * NULL); thread_init: t is a new thread, made by spawn (creator NULL) or by
 * clone within creator's process. Both allocate the personality's state:
 * 0 or -ENOMEM (nothing to undo then). The free calls take it back; they
 * accept an object whose init failed or never ran. */
int personality_process_init(struct process *p, struct process *parent);
void personality_process_free(struct process *p);
int personality_thread_init(struct thread *t, const struct thread *creator);
void personality_thread_free(struct thread *t);

/* ---- Program images ----
 * Loads boot module m into the empty address space vm as a new program with
 * arguments argv[argc] and environment envp[envc] (kernel strings), and
 * tells where it starts: 0 or -errno, vm to be destroyed by the caller.
 * posix: the program is one of the personality's (MYRMEX_SPAWN_POSIX),
 * which gets what its ABI gives a program beyond the image (the vDSO). */
int personality_load_module(struct vm_space *vm, const struct boot_module *m,
                            const char *const *argv, int argc,
                            const char *const *envp, int envc, bool posix,
                            uptr_t *entry, uptr_t *sp);

/* ---- System calls ----
 * personality_calls: the handlers of the personality's own numbers (Linux's
 * on this port) from 0, NULL where none; the core indexes it directly, the
 * hottest lookup of the kernel. personality_syscall: the handler of a
 * number at MYRMEX_SYS_BASE or above that the core's native table does not
 * serve (the personality's own native calls), or NULL. With no handler the
 * core returns -ENOSYS and calls personality_unknown_syscall(nr), which
 * counts it (quietly: no console line). */
extern const syscall_fn personality_calls[];
/* Unknown calls counted per number (the last slot: all numbers beyond). */
#define PERSONALITY_UNKNOWN_SLOTS 512
extern uint64_t personality_unknown_counts[PERSONALITY_UNKNOWN_SLOTS];
extern const uint64_t personality_call_count;
syscall_fn personality_syscall(uint64_t nr);
void personality_unknown_syscall(uint64_t nr);

/* ---- Wrapped calls (kernel/core/batch.c) ----
 * batch_allows: whether the call whose handler is fn may run as an entry
 * of a batch; not the calls that replace, copy or end the caller's user
 * registers (the batch's own trapframe: rt_sigreturn, clone, fork, execve,
 * exit...). batch_entry_end: after each entry, whose result is final: a
 * restart the entry asked for (an -EINTR under SA_RESTART) is dropped, as
 * the batch call is never run again. */
bool personality_batch_allows(syscall_fn fn);
void personality_batch_entry_end(void);
/* batch_may_group: whether an entry whose handler is fn (NULL: unknown)
 * may start a group: the cheap test, before batch_group. */
bool personality_batch_may_group(syscall_fn fn);
/* batch_group: may run several entries of a batch as one request to
 * their server (docs/syscalls.md, "Forwarded calls in one IPC"). first is
 * the core's copy of the entry at user address at, STORED, with left
 * entries from it to the batch's end. Returns how many entries from it it
 * ran and wrote back (each result and state DONE), or 0 when the core is to
 * run first alone. *memo is the batch's own word for the personality (0 at
 * the start of each batch). Sets BATCH_GROUP_STOP in *flags when a result
 * could not be written back (the batch stops), and BATCH_GROUP_ALONE when
 * the entry after the ones run must run alone. */
struct myrmex_batch_entry;
#define BATCH_GROUP_STOP  1u
#define BATCH_GROUP_ALONE 2u
uint64_t personality_batch_group(const struct myrmex_batch_entry *first, uptr_t at,
                                 uint64_t left, uint64_t *memo, unsigned *flags);

/* ---- Ends ----
 * thread_exit: t, the current thread, leaves (its process may go on).
 * process_exit: p's last thread has gone; called before the core tears down
 * p's ICAs and address space, so the personality may still send requests
 * in p's name (closing descriptors, releasing file mappings).
 * thread_gone: after the core has counted a thread out (an exec waiting
 * for the other threads of its target looks again).
 * child_exit: child of parent has ended; true when parent keeps no
 * zombies (the core frees the child at once).
 * wait_event: wait4 of child's parent, with the personality's options
 * `events` (opaque to the core), looks at child, which is alive: true
 * when child has news for it (stopped or continued), consumed and its wait
 * status in *status. */
void personality_thread_exit(struct thread *t);
void personality_process_exit(struct process *p);
void personality_thread_gone(void);
bool personality_child_exit(struct process *parent, const struct process *child);
bool personality_wait_event(struct process *child, unsigned events, int *status);

/* ---- The way back to user mode and waiting ----
 * return_to_user: on every return towards user mode, after the core has let
 * a killed thread go (signals are delivered here). interrupts: whether
 * something the personality holds for t (a pending signal) must cut t's
 * wait short; thread_block returns -EINTR then. tick: on every timer tick,
 * with the monotonic time (interval timers). */
void personality_return_to_user(void);
bool personality_interrupts(const struct thread *t);
void personality_tick(uint64_t now_ns);

/* ---- User faults (from the port's trap handler) ----
 * The current thread faulted in user mode: the personality raises what its
 * ABI raises (a signal) or ends the process. cause names the fault for the
 * kernel's one-line message; addr is the faulting address (the instruction
 * for all but memory faults), ip the instruction. */
enum user_fault {
	USER_FAULT_UNMAPPED,     /* memory access to no mapping */
	USER_FAULT_PROTECTION,   /* memory access the mapping does not allow */
	USER_FAULT_BUS,          /* a file page past the end, revoked or unreadable */
	USER_FAULT_ALIGNMENT,    /* a misaligned access the CPU refused */
	USER_FAULT_SEGMENT,      /* a stack-segment fault */
	USER_FAULT_ILLEGAL,      /* an undefined or privileged instruction */
	USER_FAULT_DIVIDE,       /* integer division by zero */
	USER_FAULT_FLOAT,        /* a floating-point or SIMD exception */
	USER_FAULT_BREAKPOINT,   /* a breakpoint or single step */
	USER_FAULT_GENERAL,      /* any other exception (the address is unknown) */
};
void personality_user_fault(enum user_fault kind, uptr_t addr, const char *cause, uptr_t ip);

/* ---- Pagers: regions of an address space backed by an fmap ----
 * The core's address spaces (kernel/vm.h) keep, for a region backed by a
 * pager object, the object and the object page of its first page; the
 * personality's pager (kernel/posix/fmap.c) brings pages in.
 * region_add/remove: a region starts or stops naming m. is_shared: stores
 * reach the object (MAP_SHARED) rather than a private copy. may_protect:
 * whether the region may take protection prot (MAP_* bits; a shared map made
 * without write access cannot become writable). fault: page fpage of m is
 * not present at va, with room pages of the region from va on; the pager is
 * asked (for a few more pages it has at hand) and the answer mapped. Blocks,
 * waking only for the thread's death. 0 or -errno (-EINTR: dying; -ENXIO,
 * -EIO, -ENOMEM: a bus error). */
void fmap_region_add(struct fmap *m, struct vma *v);
void fmap_region_remove(struct vma *v);
bool fmap_is_shared(const struct fmap *m);
bool fmap_may_protect(const struct fmap *m, unsigned prot);
int fmap_fault(struct vm_space *vm, struct fmap *m, uint64_t fpage, vaddr_t va, unsigned access,
               uint64_t room);

#endif
