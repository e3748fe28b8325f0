/*
 * The edges of CPU-time accounting (kernel/cputime.h), inline because every
 * system call, interrupt and switch passes two of them: the time since the
 * thread's last edge goes to its user time (entering from user mode) or its
 * system time (leaving for user mode, switching away).
 */
#ifndef KERNEL_CPUTIME_EDGES_H
#define KERNEL_CPUTIME_EDGES_H

#include <kernel/arch.h>
#include <kernel/proc.h>

static inline void cputime_from_user(struct thread *t)
{
	uint64_t now = arch_read_tsc();
	t->cpu_user += now - t->cpu_stamp;
	t->cpu_stamp = now;
}

static inline void cputime_to_user(struct thread *t)
{
	uint64_t now = arch_read_tsc();
	t->cpu_sys += now - t->cpu_stamp;
	t->cpu_stamp = now;
}

static inline void cputime_switch(struct thread *prev, struct thread *next)
{
	uint64_t now = arch_read_tsc();
	prev->cpu_sys += now - prev->cpu_stamp;
	prev->cpu_stamp = now;
	next->cpu_stamp = now;
}

#endif
