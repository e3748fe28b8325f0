/*
 * server.c - the server library (server.h): the receive loop, dispatch by
 * table, the origin check, and the one place that writes a reply into a
 * frame. Replies ride on the next get() (it returns the answered request
 * and takes the next one in one kernel entry); when that ret is refused (a
 * data ICA came parked, or the caller's other thread rewrote the frame),
 * myrmex_reply mends it once and returns it.
 */
#include "server.h"

#include <errno.h>

#define GET_RETRY_NS (1000ull * 1000)

void server_out(struct server_request *rq, unsigned i, uint64_t v)
{
	if (i >= 8)
		return;
	rq->out[i] = v;
	rq->out_mask |= (uint8_t)(1u << i);
}

uint64_t *server_out_words(struct server_request *rq, unsigned n)
{
	rq->out_mask |= (uint8_t)((1u << (n < 8 ? n : 8)) - 1);
	return rq->out;
}

/* The one reply site: results, status and the data ICAs that came with the
 * request, written into its frame. */
static void reply_fill(const struct server_request *rq, int64_t status)
{
	struct myrmex_frame *f = rq->frame;
	for (unsigned i = 0; i < 8; i++)
		if (rq->out_mask & (1u << i))
			f->arg[i] = rq->out[i];
	f->status = status;
	f->ndata = 0;
	for (uint32_t i = 0; i < rq->d.ndata && i < MYRMEX_FRAME_DATA; i++)
		f->data[f->ndata++] = rq->d.data[i];
}

long server_reply_later(const char *name, struct server_request *rq, int64_t status)
{
	reply_fill(rq, status);
	return myrmex_reply(name, &rq->d, status);
}

void *server_data(struct server_request *rq, unsigned i, uint64_t *size)
{
	if (i >= rq->d.ndata || i >= MYRMEX_FRAME_DATA)
		return NULL;
	if ((rq->d.parked & (1u << i)) && !(rq->mapped & (1u << i))) {
		/* The kernel could not map it at get(): map it now, once. */
		long r = myrmex_ica_attach(rq->d.data[i]);
		if (r < 0 && r != -EINVAL) {
			if (size)
				*size = 0;
			return NULL;   /* no room to map it now either */
		}
		rq->mapped |= (uint8_t)(1u << i);
	}
	uint8_t *p = myrmex_ica_addr(rq->d.data[i]);
	uint64_t bytes = (uint64_t)rq->d.data_pages[i] * 4096;
	if (i == 0) {
		rq->data = p;
		rq->data_size = bytes;
	}
	if (size)
		*size = bytes;
	return p;
}

long server_claim(struct server_request *rq)
{
	if (rq->claimed)
		return 0;
	long r = myrmex_claim((void *)(uintptr_t)rq->d.control);
	if (r == 0)
		rq->claimed = true;
	return r;
}

/* Takes the request apart once and runs its handler: the status. */
static int64_t dispatch(const struct server *s, struct server_request *rq)
{
	const volatile struct myrmex_frame *f = rq->frame;
	for (unsigned i = 0; i < 8; i++)
		rq->in[i] = f->arg[i];
	const struct server_op *ops = s->ops;
	uint32_t nops = s->nops;
	if (s->also_ops && rq->d.coreid == s->also_coreid) {
		ops = s->also_ops;   /* the second protocol (server.h) */
		nops = s->also_nops;
	}
	const struct server_op *op = rq->d.opcode < nops ? &ops[rq->d.opcode] : NULL;
	if (!op || !op->run)
		return -ENOSYS;
	if ((op->flags & SERVER_KERNEL_ONLY) && rq->d.origin != MYRMEX_ORIGIN_KERNEL)
		return -EPERM;
	if (s->check) {
		int64_t refused = s->check(rq, op);
		if (refused)
			return refused;
	}
	return op->run(rq);
}

static void other_delivery(const struct server *s, const struct myrmex_delivery *d)
{
	if (d->kind == MYRMEX_DELIVERY_INTERRUPT && s->interrupt)
		s->interrupt(d->opcode);
	else if (d->kind == MYRMEX_DELIVERY_RESULT && s->result)
		s->result(d);
	else
		myrmex_log(s->name, "unexpected delivery of kind %u dropped", d->kind);
}

void server_deliver_other(const struct server *s, const struct myrmex_delivery *d)
{
	other_delivery(s, d);
}

void server_serve_one(const struct server *s, struct server_request *rq)
{
	rq->frame = (struct myrmex_frame *)(uintptr_t)(rq->d.control + rq->d.frame);
	rq->out_mask = 0;
	rq->claimed = false;
	rq->mapped = 0;
	rq->data = NULL;
	rq->data_size = 0;
	int64_t status = dispatch(s, rq);
	if (s->handled)
		s->handled(rq, status);
	if (status == SERVER_LATER)
		return;
	reply_fill(rq, status);
	myrmex_reply(s->name, &rq->d, status);
	if (s->replied)
		s->replied(rq, status);
}

void server_run(const struct server *s)
{
	/* The request answered last, returned by the next get(). */
	void *answered = NULL;
	struct myrmex_delivery answered_d;
	int64_t answered_status = 0;
	for (;;) {
		struct server_request rq;
		long r = myrmex_get(answered, &rq.d);
		if (r == -EINVAL && answered) {
			/* ret refused it: mended and returned, or given up. */
			myrmex_reply(s->name, &answered_d, answered_status);
			answered = NULL;
			continue;
		}
		answered = NULL;
		if (r < 0) {
			/* e.g. -ENOMEM: the control ICA could not be mapped yet. */
			myrmex_log(s->name, "get: %ld", r);
			myrmex_sleep_ns(GET_RETRY_NS);
			continue;
		}
		if (rq.d.kind != MYRMEX_DELIVERY_REQUEST) {
			other_delivery(s, &rq.d);
			continue;
		}
		rq.frame = (struct myrmex_frame *)(uintptr_t)(rq.d.control + rq.d.frame);
		rq.out_mask = 0;
		rq.claimed = false;
		rq.mapped = 0;
		rq.data = NULL;
		rq.data_size = 0;
		int64_t status = dispatch(s, &rq);
		if (s->handled)
			s->handled(&rq, status);
		if (status == SERVER_LATER)
			continue;
		reply_fill(&rq, status);
		if (s->replied) {
			myrmex_reply(s->name, &rq.d, status);
			s->replied(&rq, status);
			continue;
		}
		answered = (void *)(uintptr_t)rq.d.control;
		answered_d = rq.d;
		answered_status = status;
	}
}
