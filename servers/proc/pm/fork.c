/*
 * fork.c - PM_FORK: the kernel makes the child (copy-on-write, stopped),
 * the file manager gives it a copy of the parent's descriptor table, the
 * parent gets the child's pid, then the child runs (pm_fork_start, after
 * the reply: the parent goes first, as programs written for Linux tend to
 * expect). If the file manager refuses, the child goes without a trace.
 */
#include "pm.h"

static long child_to_start;

void pm_fork_start(void)
{
	if (child_to_start > 0)
		myrmex_proc_start((int)child_to_start, 0);
	child_to_start = 0;
}

int64_t do_fork(struct server_request *rq)
{
	const struct pm_fork_args *a = SERVER_IN(rq, struct pm_fork_args);
	int pid = rq->d.requester;
	int tid = (int)a->tid;
	uint64_t sp = a->sp;
	long child = myrmex_proc_fork(tid, sp);
	if (child < 0)
		return child;
	uint64_t args[8] = { (uint64_t)pid, (uint64_t)child };
	long r = pm_fs_call(FS_FORK, args, 0, NULL);
	if (r < 0) {
		myrmex_proc_start((int)child, 1);
		return r;
	}
	child_to_start = child;
	return child;
}
