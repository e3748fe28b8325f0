/*
 * console.c - /dev/console. A read or write on a console descriptor is
 * passed on to the console server (servers/console) as the next stage of
 * the caller's own call, with direct return: the console server's result,
 * and the caller's data ICA with it, go straight back to the caller. The
 * file manager is free again at once; it never waits for a line of input.
 */
#include "fileman.h"

#include <errno.h>
#include <myrmex/console.h>

int64_t console_forward(struct request *rq, bool write)
{
	if (!rq->data || rq->arg[1] > rq->data_size)
		return -EINVAL;
	int64_t r = request_pass_on(rq, MYRMEX_COREID_CONSOLE, write ? CONSOLE_WRITE : CONSOLE_READ,
	                            rq->arg[0], rq->arg[1]);
	return r == -ESRCH ? -ENXIO : r;   /* -ENXIO: no console server runs */
}
