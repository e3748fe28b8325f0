/*
 * pm: the process manager server (coreid MYRMEX_COREID_PM). The kernel
 * forwards the Linux fork/vfork/clone (as fork) and execve calls of POSIX
 * processes here as requests (include/myrmex/proc.h, docs/posix.md); pm
 * carries them out with the kernel's proc_fork/proc_start/proc_exec and the
 * file manager. The init starts it with the server right, after the file
 * manager:
 *
 *     pm
 *
 * One thread: one request at a time, each answered before the next (the
 * server library's loop).
 */
#include "pm.h"

/* Both calls come from the kernel alone, for the thread they name. */
static const struct server_op ops[] = {
	[PM_FORK] = { do_fork, SERVER_KERNEL_ONLY },
	[PM_EXEC] = { do_exec, SERVER_KERNEL_ONLY },
};

/* After each reply: a forked child runs once its parent has the answer. */
static void replied(const struct server_request *rq, int64_t status)
{
	(void)rq;
	(void)status;
	pm_fork_start();
}

static const struct server pm_server = {
	.name = PM_NAME,
	.ops = ops,
	.nops = SERVER_NOPS(ops),
	.replied = replied,
};

int main(void)
{
	long r = myrmex_registserver(MYRMEX_COREID_PM);
	if (r < 0) {
		myrmex_log(PM_NAME, "registserver(%u): %ld", MYRMEX_COREID_PM, r);
		return 1;
	}
	server_run(&pm_server);
}
