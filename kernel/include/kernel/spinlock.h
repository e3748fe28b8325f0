/*
 * Spinlocks for data shared between CPUs. The kernel runs with interrupts
 * disabled, so a lock never has to mask them. A port that brings up one CPU
 * (ARCH_MAX_CPUS == 1, kernel/arch.h) gets locks that only record that they
 * are held: nothing can contend, and the record is what spin_held checks,
 * so `make test` verifies the locking rules on one CPU already. With more
 * CPUs the same calls spin on an atomic exchange. ARCH_MAX_CPUS is a
 * constant, so the branch below costs nothing at run time.
 *
 * The locks of the kernel, in the order they are taken (an inner lock is
 * never held while an outer one is taken):
 *   kernel_lock (kernel/klock.h) -> pmm_lock (pmm.c) -> a kmem cache's lock
 *   (kmem.h) -> console_lock (printk.c).
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <stdbool.h>
#include <kernel/arch.h>

struct spinlock {
	volatile int locked;   /* the holding CPU's id + 1, or 0 */
	const char *name;
};

#define SPINLOCK_INIT(n) { 0, n }

static inline void spin_lock(struct spinlock *l)
{
	int me = (int)arch_cpu_id() + 1;
	if (ARCH_MAX_CPUS == 1) {
		l->locked = me;
		return;
	}
	int free = 0;
	while (!__atomic_compare_exchange_n(&l->locked, &free, me, false, __ATOMIC_ACQUIRE,
	                                    __ATOMIC_RELAXED)) {
		free = 0;
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
			arch_cpu_relax();
	}
}

static inline void spin_unlock(struct spinlock *l)
{
	if (ARCH_MAX_CPUS == 1)
		l->locked = 0;
	else
		__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

/* Whether this CPU holds l. */
static inline bool spin_held(const struct spinlock *l)
{
	return l->locked == (int)arch_cpu_id() + 1;
}

#endif
