/*
 * echo_server: the demo server of the communication mechanism. Registers
 * coreid 10 (it needs the server right, MYRMEX_SPAWN_SERVER) and serves
 * forever in the paper's style: get() waits for a request; after handling
 * one, get(p) returns p's result and takes the next in one kernel entry.
 * ECHO upper-cases the bytes of the request's data ICA in place and returns
 * that ICA (echo_proto.h). init kills it when the demo is over.
 */
#include <errno.h>
#include <stdio.h>
#include <myrmex.h>

#include "echo_proto.h"

/* Handles one request in frame f; d is the kernel's trusted description. */
static void handle(struct myrmex_frame *f, const struct myrmex_delivery *d)
{
	f->ndata = 0;
	if (d->opcode != ECHO_OP_ECHO || d->ndata < 1) {
		f->status = d->opcode != ECHO_OP_ECHO ? -ENOSYS : -EINVAL;
		return;
	}
	uint32_t data = d->data[0];
	myrmex_ica_attach(data);   /* in case it came parked; -EINVAL if already mapped */
	uint64_t len = f->arg[0] < ECHO_MAX_LEN ? f->arg[0] : ECHO_MAX_LEN;
	unsigned char *text = myrmex_ica_addr(data);
	for (uint64_t i = 0; i < len; i++)
		if (text[i] >= 'a' && text[i] <= 'z')
			text[i] = (unsigned char)(text[i] - 'a' + 'A');
	f->status = (int64_t)len;
	f->ndata = 1;
	f->data[0] = data;
}

int main(void)
{
	long r = myrmex_registserver(ECHO_COREID);
	if (r < 0) {
		fprintf(stderr, "echo_server: registserver(%u): error %ld\n", ECHO_COREID, -r);
		return 1;
	}
	printf("echo_server: serving coreid %u\n", ECHO_COREID);
	fflush(stdout);

	void *p = NULL;
	for (;;) {
		struct myrmex_delivery d;
		long got = myrmex_get(p, &d);
		if (got < 0 && p) {
			/* Our result was refused (its frame was rewritten): return an
			 * error without data, then take the next request. */
			struct myrmex_frame *f = myrmex_ctl_top(p);
			if (f) {
				f->ndata = 0;
				f->status = -EIO;
			}
			myrmex_ret(p);
			p = NULL;
			continue;
		}
		if (got < 0) {
			fprintf(stderr, "echo_server: get: error %ld\n", -got);
			return 1;
		}
		if (d.kind != MYRMEX_DELIVERY_REQUEST) {
			p = NULL;   /* not a request: nothing to return */
			continue;
		}
		p = (void *)got;
		struct myrmex_frame *f = myrmex_ctl_frame(p, d.frame);
		if (!f) {   /* cannot happen: the kernel names a real frame */
			myrmex_ret(p);
			p = NULL;
			continue;
		}
		handle(f, &d);
	}
}
