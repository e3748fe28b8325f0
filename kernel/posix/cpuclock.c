/*
 * CPU-time clocks (posix/cpuclock.h), as Linux's posix-cpu-timers.c finds
 * the process or thread a clock id names: pid 0 the caller; a thread's
 * clock only for a thread of the caller's process; a process's clock for
 * any process (its pid, or the caller's own tid), zombies included.
 */
#include <posix/cpuclock.h>
#include <kernel/cputime.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/sched.h>

#define CPUCLOCK_PROF     0
#define CPUCLOCK_VIRT     1
#define CPUCLOCK_SCHED    2
#define CPUCLOCK_MAX      3
#define CPUCLOCK_PERTHREAD 4

/* The usage the clock reads: 0 or -EINVAL. */
static int usage_of(int32_t clock, struct cpu_usage *u, int *kind)
{
	struct thread *me = current_thread();
	if (clock == CLOCK_PROCESS_CPUTIME_ID || clock == CLOCK_THREAD_CPUTIME_ID) {
		*kind = CPUCLOCK_SCHED;
		*u = clock == CLOCK_THREAD_CPUTIME_ID ? cputime_thread(me) : cputime_process(me->proc);
		return 0;
	}
	*kind = clock & 3;
	if (*kind >= CPUCLOCK_MAX)
		return -EINVAL;
	int32_t id = ~(clock >> 3);   /* arithmetic shift: clock is negative */
	if (clock & CPUCLOCK_PERTHREAD) {
		struct thread *t = id == 0 ? me : proc_find_thread(me->proc, id);
		if (!t)
			return -EINVAL;
		*u = cputime_thread(t);
		return 0;
	}
	struct process *p = id == 0 || id == me->tid ? me->proc : proc_find(id);
	if (!p)
		return -EINVAL;
	*u = cputime_process(p);
	return 0;
}

int cpuclock_read(int32_t clock, uint64_t *ns)
{
	struct cpu_usage u;
	int kind;
	int err = usage_of(clock, &u, &kind);
	if (err)
		return err;
	*ns = kind == CPUCLOCK_VIRT ? u.user_ns : u.user_ns + u.sys_ns;
	return 0;
}

int cpuclock_check(int32_t clock)
{
	uint64_t ns;
	return cpuclock_read(clock, &ns);
}
