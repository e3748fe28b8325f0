/*
 * Spinlocks for data shared between CPUs. Myrmex runs its kernel with
 * interrupts disabled, so a lock never has to mask them. On one CPU the locks
 * are uncontended; they mark the shared data so that SMP is a step, not a
 * rewrite.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <stdbool.h>
#include <arch/arch_types.h>

struct spinlock {
	volatile int locked;
	const char *name;
};

#define SPINLOCK_INIT(n) { 0, n }

static inline void spin_lock(struct spinlock *l)
{
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
			arch_cpu_relax();
}

static inline void spin_unlock(struct spinlock *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

static inline bool spin_held(const struct spinlock *l)
{
	return l->locked != 0;
}

#endif
