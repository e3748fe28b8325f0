/*
 * bench_ipcsrv <coreid> [next]: the server of the IPC benchmarks (protocol
 * in bench_ipc.h). Not a benchmark itself: benchinit does not run it; the
 * benchmarks spawn it with the server right and kill it when done. Its
 * loop is the paper's: get(p) returns the last result and takes the next
 * request in one kernel entry, with a time stamp on each side of it.
 */
#include "bench_ipc.h"

#include <stdlib.h>

static unsigned next_coreid;

/* Passes the call on to the next stage. Returns 1 when we still hold the
 * request and must return it (sequential), 0 when it has gone (direct). */
static int forward(struct myrmex_ctl_header *h, struct myrmex_frame *mine)
{
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, next_coreid, BENCH_IPC_OP);
	if (!f) {
		mine->status = -ENOSPC;
		return 1;
	}
	f->arg[0] = mine->arg[0] - 1;
	if (h->flags & MYRMEX_CTL_DIRECT_RETURN) {
		long r = myrmex_callasync(h);
		if (r == 0)
			return 0;
		h->currentp = f->prev;
		mine->status = r;
		return 1;
	}
	long r = myrmex_callsync(h);
	if (r < 0)
		h->currentp = f->prev;
	mine->status = r;
	return 1;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	unsigned coreid = (unsigned)strtoul(argv[1], NULL, 0);
	next_coreid = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 0;
	long r = myrmex_registserver(coreid);
	if (r != 0) {
		bench_fail("bench_ipcsrv: registserver", "error", r);
		return 1;
	}
	struct myrmex_ctl_header *p = NULL;
	struct myrmex_frame *f = NULL;
	for (;;) {
		struct myrmex_delivery d;
		if (f)
			f->arg[BENCH_IPC_T_RET] = myrmex_rdtsc();
		long got = myrmex_get(p, &d);
		uint64_t t = myrmex_rdtsc();
		p = NULL;
		f = NULL;
		if (got < 0 || d.kind != MYRMEX_DELIVERY_REQUEST)
			continue;
		struct myrmex_ctl_header *h = (struct myrmex_ctl_header *)got;
		struct myrmex_frame *mine = myrmex_ctl_frame(h, d.frame);
		if (!mine)
			continue;
		mine->arg[BENCH_IPC_T_GOT] = t;
		mine->status = 0;
		mine->ndata = d.ndata;
		for (uint32_t i = 0; i < d.ndata; i++)
			mine->data[i] = d.data[i];
		if (next_coreid && mine->arg[0] > 1 && !forward(h, mine))
			continue;
		p = h;
		f = mine;
	}
}
