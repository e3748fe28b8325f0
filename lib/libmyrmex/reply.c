/*
 * reply.c - the one way a server returns a request: the status and the data
 * ICAs the kernel delivered with it written into the request's frame, then
 * ret(). If ret refuses, it is because a data ICA came parked (the kernel
 * could not map it at get(), and only an attached one travels back) or a
 * caller's other thread rewrote the frame: both are mended once and ret is
 * tried again. A request that still cannot go back is claimed (the frame is
 * then ours alone) and returned without its data ICAs, which are freed, with
 * a line on stderr.
 */
#include "myrmex.h"

static void fill_result(const struct myrmex_delivery *d, int64_t status)
{
	struct myrmex_frame *f = (struct myrmex_frame *)(uintptr_t)(d->control + d->frame);
	f->status = status;
	f->ndata = 0;
	for (uint32_t i = 0; i < d->ndata && i < MYRMEX_FRAME_DATA; i++)
		f->data[f->ndata++] = d->data[i];
}

long myrmex_reply(const char *who, const struct myrmex_delivery *d, int64_t status)
{
	void *ctl = (void *)(uintptr_t)d->control;
	fill_result(d, status);
	long r = myrmex_ret(ctl);
	if (r == 0)
		return 0;
	for (uint32_t i = 0; i < d->ndata && i < MYRMEX_FRAME_DATA; i++)
		myrmex_ica_attach(d->data[i]);
	fill_result(d, status);
	r = myrmex_ret(ctl);
	if (r == 0)
		return 0;
	/* The caller keeps rewriting the frame: take the control ICA from it
	 * (claim), so that the frame is ours alone, and return the status
	 * without data; the data ICAs, which would stay here for good, go. */
	myrmex_log(who, "cannot return a request of pid %d (opcode %u): %ld; returned without "
	           "its data ICAs, which are freed", d->requester, d->opcode, r);
	myrmex_claim(ctl);
	for (uint32_t i = 0; i < d->ndata && i < MYRMEX_FRAME_DATA; i++)
		myrmex_ica_free(d->data[i]);
	struct myrmex_frame *f = (struct myrmex_frame *)(uintptr_t)(d->control + d->frame);
	f->status = status;
	f->ndata = 0;
	return myrmex_ret(ctl);
}
