/*
 * Futexes: threads of one process sleep on a user word and are woken by
 * address. Only process-private futexes exist (no shared memory yet).
 *
 * Locking: the one wait queue of futex waiters is guarded by the kernel lock
 * (kernel/klock.h); a hashed queue with its own lock when it is split.
 */
#ifndef KERNEL_FUTEX_H
#define KERNEL_FUTEX_H

#include <kernel/types.h>

struct process;

/* Blocks while *uaddr == expected, until woken or the deadline (0 = none).
 * Returns 0, -EAGAIN (value differs), -EFAULT, -ETIMEDOUT or -EINTR. */
int futex_wait(struct process *p, uptr_t uaddr, uint32_t expected, uint64_t deadline_ns);
/* Wakes up to max waiters on uaddr; returns how many. */
int futex_wake(struct process *p, uptr_t uaddr, int max);

#endif
