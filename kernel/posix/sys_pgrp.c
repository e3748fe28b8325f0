/*
 * Process groups and sessions: setpgid, getpgid, getpgrp, setsid, getsid,
 * with the POSIX rules. A process spawned by the kernel without a parent
 * (init) leads its own group and session; every other process starts in
 * its parent's (spawn, fork). Zombies still count as members: their ids
 * stay taken until they are reaped, as on Linux.
 * setpgid on a child that has called execve gives -EACCES, as on Linux.
 */
#include <posix/posix.h>
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/sched.h>

static struct process *self(void)
{
	return current_thread()->proc;
}

/* Whether some process (zombies included) is in group pgid of session sid. */
static bool group_in_session(int pgid, int sid)
{
	for (struct process *p = proc_next(NULL); p; p = proc_next(p))
		if (p->pgid == pgid && p->sid == sid)
			return true;
	return false;
}

/* pid 0 is the caller; others must exist (-ESRCH). */
static struct process *target(int pid)
{
	if (pid == 0)
		return self();
	return pid > 0 ? proc_find(pid) : NULL;
}

long sys_setpgid(const struct syscall_args *a)
{
	struct process *me = self();
	int pid = (int)a->arg[0], pgid = (int)a->arg[1];
	if (pid == 0)
		pid = me->pid;
	if (pgid == 0)
		pgid = pid;
	if (pgid < 0)
		return -EINVAL;
	struct process *p = target(pid);
	/* Only the caller itself or one of its children. */
	if (!p || (p != me && p->parent != me))
		return -ESRCH;
	if (p->sid != me->sid)
		return -EPERM;
	if (p != me && p->px->execed)
		return -EACCES;
	if (p->sid == p->pid)
		return -EPERM;   /* a session leader stays in its own group */
	if (pgid != p->pid && !group_in_session(pgid, me->sid))
		return -EPERM;   /* another group must exist in the same session */
	p->pgid = pgid;
	return 0;
}

long sys_getpgid(const struct syscall_args *a)
{
	struct process *p = target((int)a->arg[0]);
	return p ? p->pgid : -ESRCH;
}

long sys_getpgrp(const struct syscall_args *a)
{
	(void)a;
	return self()->pgid;
}

long sys_setsid(const struct syscall_args *a)
{
	(void)a;
	struct process *me = self();
	/* A group leader (or anyone whose pid is a group's id) cannot: the
	 * new session's group would clash with that group. */
	for (struct process *p = proc_next(NULL); p; p = proc_next(p))
		if (p->pgid == me->pid)
			return -EPERM;
	me->sid = me->pid;
	me->pgid = me->pid;
	return me->sid;
}

long sys_getsid(const struct syscall_args *a)
{
	struct process *p = target((int)a->arg[0]);
	return p ? p->sid : -ESRCH;
}
