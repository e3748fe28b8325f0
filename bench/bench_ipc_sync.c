/*
 * Benchmarks ipc.sync.* (suite ipc), paper 004 section 3.2: a client and a
 * server (bench_ipcsrv, coreid 200, same priority, already waiting in get).
 *   ipc.sync.request    client's TSC just before callsync -> server's TSC
 *                       just after its get() returned the request (a1-a2)
 *   ipc.sync.return     server's TSC just before get(p) -> client's TSC
 *                       just after callsync returned (b1-b2)
 *   ipc.sync.roundtrip  callsync to its return, as the client sees it
 * and the same with suffix .data4k: a one-page data ICA travels with the
 * request and comes back with the result. Myrmex only: on Linux it prints
 * nothing and exits 0.
 */
#include "bench_ipc.h"

#define COREID 200u

struct ctx {
	struct myrmex_ctl_header *h;
	uint32_t data;   /* 0: none */
};

static void sync_body(void *arg, uint64_t iters, uint64_t *ticks)
{
	struct ctx *c = arg;
	for (uint64_t i = 0; i < iters; i++) {
		struct myrmex_frame *f = myrmex_ctl_push(c->h, 1, COREID, BENCH_IPC_OP);
		if (c->data) {
			f->ndata = 1;
			f->data[0] = c->data;
		}
		uint64_t t0 = myrmex_rdtsc();
		long r = myrmex_callsync(c->h);
		uint64_t t1 = myrmex_rdtsc();
		if (r != 0) {
			bench_fail("bench_ipc_sync", "callsync", r);
			return;
		}
		ticks[0] += f->arg[BENCH_IPC_T_GOT] - t0;
		ticks[1] += t1 - f->arg[BENCH_IPC_T_RET];
		ticks[2] += t1 - t0;
	}
}

int main(void)
{
	if (!myrmex_is_native())
		return 0;
	struct myrmex_ctl_header *h;
	uint32_t data;
	long pid = bench_ipc_setup("bench_ipc_sync", COREID, &h, &data);
	if (!pid)
		return 1;
	struct ctx c = { h, 0 };
	struct bench_parts b = {
		.suite = "ipc",
		.names = { "ipc.sync.request", "ipc.sync.return", "ipc.sync.roundtrip" },
		.nparts = 3,
		.runs = 21,
		.iters = 500,
		.body = sync_body,
		.ctx = &c,
	};
	int ret = bench_run_parts(&b);
	c.data = data;
	b.names[0] = "ipc.sync.request.data4k";
	b.names[1] = "ipc.sync.return.data4k";
	b.names[2] = "ipc.sync.roundtrip.data4k";
	ret |= bench_run_parts(&b);
	bench_ipc_stop(pid);
	return ret == 0 ? 0 : 1;
}
