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
	struct myrmex_ctl_header *h = rq->ctl;
	uint32_t below = h->currentp;
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_CONSOLE,
	                                         write ? CONSOLE_WRITE : CONSOLE_READ);
	if (!f)
		return -EINVAL;
	f->arg[0] = rq->arg[0];
	f->arg[1] = rq->arg[1];
	for (unsigned i = 0; i < rq->d.ndata && i < MYRMEX_FRAME_DATA; i++)
		f->data[f->ndata++] = rq->d.data[i];
	uint32_t flags = h->flags;
	h->flags = flags | MYRMEX_CTL_DIRECT_RETURN;
	long r = myrmex_callasync(h);
	if (r < 0) {
		h->currentp = below;
		h->flags = flags;
		return r == -ESRCH ? -ENXIO : r;   /* no console server runs */
	}
	return FM_LATER;
}
