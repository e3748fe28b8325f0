/*
 * Futexes: threads sleep on a user word and are woken by address. A private
 * futex (or any word outside shared memory) is keyed by (process, address);
 * a shared one (no FUTEX_PRIVATE_FLAG) on a page of shared memory (an
 * anonymous shared or a shared file mapping) by the page's frame and the
 * offset in it, so that a wake from any process mapping the page finds it.
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
int futex_wait(struct process *p, uptr_t uaddr, uint32_t expected, uint64_t deadline_ns,
               bool shared);
/* Wakes up to max waiters on uaddr; returns how many. */
int futex_wake(struct process *p, uptr_t uaddr, int max, bool shared);

#endif
