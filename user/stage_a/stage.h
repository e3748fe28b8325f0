/*
 * The three-stage demo (user/stage_a, stage_b, stage_c, stage_client): the
 * protocol they share and the forwarding loop of the two middle stages.
 * Header only; each stage is its own program.
 *
 * STAGE_OP_RUN: arg[0] = a number, data[0] = a one-page data ICA holding a
 * NUL-terminated path text. A and B each append " -> <name>" to the path,
 * push a frame for the next stage with arg[0] + 1 and the same data ICA,
 * and pass the call on with callasync. C appends its name and returns
 * arg[0] = its arg[0] * 10, status = the path's length, and the data ICA.
 * With MYRMEX_CTL_DIRECT_RETURN (what stage_client sets) C's result goes
 * straight to the client; without it the result comes back to each middle
 * stage through get(), which returns it on to its own caller.
 */
#ifndef STAGE_H
#define STAGE_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <myrmex.h>

#define STAGE_A_COREID 21u
#define STAGE_B_COREID 22u
#define STAGE_C_COREID 23u
#define STAGE_OP_RUN   1u
#define STAGE_PATH_MAX 4096u

/* Appends " -> <name>" to the path text in data ICA handle (one page). */
static inline void stage_append(uint32_t handle, const char *name)
{
	myrmex_ica_attach(handle);   /* in case it came parked */
	char *path = myrmex_ica_addr(handle);
	path[STAGE_PATH_MAX - 1] = '\0';
	size_t len = strlen(path);
	snprintf(path + len, STAGE_PATH_MAX - len, " -> %s", name);
}

static inline void stage_copy_data(struct myrmex_frame *to, uint32_t n, const uint32_t *data)
{
	to->ndata = n <= MYRMEX_FRAME_DATA ? n : 0;
	for (uint32_t i = 0; i < to->ndata; i++)
		to->data[i] = data[i];
}

/* A request: append our name and pass it on to next with callasync. */
static inline void stage_pass_on(struct myrmex_ctl_header *h, const struct myrmex_delivery *d,
                                 const char *name, uint32_t next)
{
	struct myrmex_frame *mine = myrmex_ctl_frame(h, d->frame);
	if (d->ndata >= 1)
		stage_append(d->data[0], name);
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, next, d->opcode);
	long r = -ENOSPC;
	if (f) {
		f->arg[0] = mine->arg[0] + 1;
		stage_copy_data(f, d->ndata, d->data);
		r = myrmex_callasync(h);
		if (r < 0)
			h->currentp = f->prev;   /* not sent: take our frame off again */
	}
	if (r < 0) {
		mine->status = r;
		stage_copy_data(mine, d->ndata, d->data);
		myrmex_ret(h);
	}
}

/* A result of our forward (sequential return): hand it on to our caller. */
static inline void stage_hand_back(struct myrmex_ctl_header *h, const struct myrmex_delivery *d)
{
	struct myrmex_frame *res = myrmex_ctl_frame(h, d->frame);
	struct myrmex_frame *mine = myrmex_ctl_top(h);
	if (!mine || !res)
		return;
	mine->status = d->status;
	mine->arg[0] = res->arg[0];
	stage_copy_data(mine, d->ndata, d->data);
	myrmex_ret(h);
}

/* The whole life of a middle stage: register, then serve forever. */
static inline int stage_forward_main(const char *name, uint32_t me, uint32_t next)
{
	long r = myrmex_registserver(me);
	if (r < 0) {
		fprintf(stderr, "%s: registserver(%u): error %ld\n", name, me, -r);
		return 1;
	}
	printf("%s: serving coreid %u, passing calls on to %u\n", name, me, next);
	fflush(stdout);
	for (;;) {
		struct myrmex_delivery d;
		long got = myrmex_get(NULL, &d);
		if (got < 0) {
			fprintf(stderr, "%s: get: error %ld\n", name, -got);
			return 1;
		}
		if (d.kind == MYRMEX_DELIVERY_REQUEST)
			stage_pass_on((struct myrmex_ctl_header *)got, &d, name, next);
		else if (d.kind == MYRMEX_DELIVERY_RESULT)
			stage_hand_back((struct myrmex_ctl_header *)got, &d);
	}
}

#endif
