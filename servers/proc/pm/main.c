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
 * One thread: one request at a time, each answered before the next.
 */
#include "pm.h"

#include <errno.h>
#include <string.h>

static long serve(const struct myrmex_delivery *d)
{
	const struct myrmex_frame *req = (const struct myrmex_frame *)(uintptr_t)(d->control + d->frame);
	switch (d->opcode) {
	case PM_FORK:
		return pm_fork(d->requester, req);
	case PM_EXEC:
		return pm_exec(d->requester, d, req);
	default:
		return -ENOSYS;
	}
}

int main(void)
{
	long r = myrmex_registserver(MYRMEX_COREID_PM);
	if (r < 0) {
		myrmex_log(PM_NAME, "registserver(%u): %ld", MYRMEX_COREID_PM, r);
		return 1;
	}
	for (;;) {
		struct myrmex_delivery d;
		long ctl = myrmex_get(NULL, &d);
		if (ctl <= 0 || d.kind != MYRMEX_DELIVERY_REQUEST)
			continue;
		myrmex_reply(PM_NAME, &d, serve(&d));
		pm_fork_start();
	}
}
