/*
 * getpriority and setpriority: Linux's nice values (-20..19, lower runs
 * first) on the scheduler's fixed priorities (0..MYRMEX_PRIO_MAX, higher
 * runs first). Nice 0 is MYRMEX_PRIO_DEFAULT, the priority POSIX programs
 * start with; 19 is 0, the lowest, below every server; -20 is the highest.
 * Unlike Linux's fair scheduler, a nice-19 process gets the CPU only when
 * nothing of a better priority is runnable (docs/posix.md).
 *
 * Who: PRIO_PROCESS (a pid, 0: the caller), PRIO_PGRP (a group, 0: the
 * caller's) and PRIO_USER (a real uid, 0: the caller's, as Linux).
 * Permission as Linux: another user's process only for an
 * effective uid of 0 or one matching its real or effective uid (EPERM);
 * a lower nice than the process has only for root (EACCES). Every thread of
 * a process takes the new priority; threads it makes later inherit it.
 */
#include <posix/posix.h>
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <myrmex/syscall.h>

#define PRIO_PROCESS 0
#define PRIO_PGRP    1
#define PRIO_USER    2
#define NICE_MIN   (-20)
#define NICE_MAX   19

/* The scheduler's priority for nice n: 0 -> default, 19 -> 0, -20 -> max. */
static int prio_of_nice(int n)
{
	if (n >= 0)
		return MYRMEX_PRIO_DEFAULT - (n * MYRMEX_PRIO_DEFAULT + NICE_MAX - 1) / NICE_MAX;
	int up = MYRMEX_PRIO_MAX - MYRMEX_PRIO_DEFAULT;
	return MYRMEX_PRIO_DEFAULT + (-n * up + (-NICE_MIN) - 1) / -NICE_MIN;
}

static bool matches(const struct process *p, const struct process *me, int which, int who)
{
	if (!p->posix || !p->px || p->state != PROC_ALIVE)
		return false;
	switch (which) {
	case PRIO_PROCESS: return p->pid == (who ? who : me->pid);
	case PRIO_PGRP: return p->pgid == (who ? who : me->pgid);
	case PRIO_USER: return p->px->cred.ruid == (uint32_t)(who ? who : (int)me->px->cred.ruid);
	}
	return false;
}

static long set_one(struct process *p, const struct process *me, int nice)
{
	const struct posix_cred *c = &me->px->cred;
	const struct posix_cred *t = &p->px->cred;
	if (c->euid != 0 && c->euid != t->ruid && c->euid != t->euid)
		return -EPERM;
	if (nice < p->px->nice && c->euid != 0)
		return -EACCES;
	int prio = prio_of_nice(nice);
	if (prio > p->prio_ceiling)
		prio = p->prio_ceiling;
	p->px->nice = (int8_t)nice;
	struct list_node *n;
	list_for_each(n, &p->threads) {
		struct thread *th = container_of(n, struct thread, proc_link);
		sched_set_prio(th, prio);
	}
	return 0;
}

long sys_setpriority(const struct syscall_args *a)
{
	int which = (int)a->arg[0], who = (int)a->arg[1];
	long nice = (long)(int)a->arg[2];
	if (which < PRIO_PROCESS || which > PRIO_USER || who < 0)
		return -EINVAL;
	if (nice < NICE_MIN)
		nice = NICE_MIN;
	if (nice > NICE_MAX)
		nice = NICE_MAX;
	struct process *me = current_thread()->proc;
	long err = -ESRCH;
	bool found = false;
	for (struct process *p = proc_next(NULL); p; p = proc_next(p)) {
		if (!matches(p, me, which, who))
			continue;
		long r = set_one(p, me, (int)nice);
		if (!found || r < 0)
			err = r;   /* as Linux: the last error, else 0 */
		found = true;
	}
	return err;
}

/* The raw call returns 20 - nice of the best (lowest nice) match, as
 * Linux's, so that no success is negative; the C library undoes it. */
long sys_getpriority(const struct syscall_args *a)
{
	int which = (int)a->arg[0], who = (int)a->arg[1];
	if (which < PRIO_PROCESS || which > PRIO_USER || who < 0)
		return -EINVAL;
	struct process *me = current_thread()->proc;
	int best = NICE_MAX + 1;
	for (struct process *p = proc_next(NULL); p; p = proc_next(p))
		if (matches(p, me, which, who) && p->px->nice < best)
			best = p->px->nice;
	return best > NICE_MAX ? -ESRCH : 20 - best;
}
