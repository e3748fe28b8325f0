/*
 * The kernel lock: one lock over all kernel state that has no lock of its
 * own (kernel/spinlock.h lists those: the page allocator's, the object
 * caches', the console's; each CPU's scheduler slot is touched by its CPU
 * alone). The kernel does not preempt itself and runs with interrupts off,
 * so a CPU holds the lock from its entry into the kernel to its return to
 * user mode:
 *
 *   - taken by syscall_dispatch and by trap_dispatch (unless this CPU holds
 *     it already: a page fault of a user copy inside a system call), and by
 *     kmain at boot;
 *   - held across a context switch: the thread that switches away took it,
 *     the thread that resumes gives it back (a new thread, in
 *     sched_thread_start);
 *   - let go by the idle loop while it halts, so that the interrupt that
 *     wakes it takes it like any entry.
 *
 * Every structure of kernel/core and kernel/posix without another lock
 * named on it is guarded by this one; the scheduler's and the
 * communication mechanism's entry points assert it (KASSERT). With one CPU
 * the lock is a record only (kernel/spinlock.h). It is the first step of
 * SMP, as a big lock was for other kernels; the data headers name the finer
 * locks each structure moves to when contention asks for it
 * (docs/architecture.md, "Locks").
 */
#ifndef KERNEL_KLOCK_H
#define KERNEL_KLOCK_H

#include <kernel/spinlock.h>

extern struct spinlock kernel_lock;

static inline void kernel_lock_take(void) { spin_lock(&kernel_lock); }
static inline void kernel_lock_give(void) { spin_unlock(&kernel_lock); }
static inline bool kernel_lock_held(void) { return spin_held(&kernel_lock); }

#endif
