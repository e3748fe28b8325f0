/*
 * fork.c - PM_FORK: the kernel makes the child (copy-on-write, stopped),
 * the file manager gives it a copy of the parent's descriptor table, then
 * it runs. If the file manager refuses, the child goes without a trace.
 */
#include "pm.h"

long pm_fork(int pid, const struct myrmex_frame *req)
{
	int tid = (int)req->arg[0];
	uint64_t sp = req->arg[1];
	long child = myrmex_proc_fork(tid, sp);
	if (child < 0)
		return child;
	uint64_t args[8] = { (uint64_t)pid, (uint64_t)child };
	long r = pm_fs_call(FS_FORK, args, 0, NULL);
	if (r < 0) {
		myrmex_proc_start((int)child, 1);
		return r;
	}
	r = myrmex_proc_start((int)child, 0);
	return r < 0 ? r : child;
}
