/*
 * Benchmarks ipc.async.* (suite ipc), paper 004 section 3.3: a client and a
 * server (bench_ipcsrv, coreid 201, same priority, already waiting in get).
 * The client calls with callasync and then waits for the result in get().
 *   ipc.async.request   client's TSC just before callasync -> server's TSC
 *                       just after its get() returned the request (includes
 *                       the client's return from callasync and its entry
 *                       into get, where it blocks)
 *   ipc.async.return    server's TSC just before get(p) -> client's TSC just
 *                       after its get() returned the result
 * and the same with suffix .data4k (a one-page data ICA goes and comes
 * back). Myrmex only: on Linux it prints nothing and exits 0.
 */
#include "bench_ipc.h"

#define COREID 201u

struct ctx {
	struct myrmex_ctl_header *h;
	uint32_t data;   /* 0: none */
};

static void async_body(void *arg, uint64_t iters, uint64_t *ticks)
{
	struct ctx *c = arg;
	for (uint64_t i = 0; i < iters; i++) {
		struct myrmex_frame *f = myrmex_ctl_push(c->h, 1, COREID, BENCH_IPC_OP);
		if (c->data) {
			f->ndata = 1;
			f->data[0] = c->data;
		}
		struct myrmex_delivery d;
		uint64_t t0 = myrmex_rdtsc();
		long r = myrmex_callasync(c->h);
		long got = r == 0 ? myrmex_get(NULL, &d) : r;
		uint64_t t1 = myrmex_rdtsc();
		if (got != (long)(uintptr_t)c->h) {
			bench_fail("bench_ipc_async", "callasync/get", got);
			return;
		}
		ticks[0] += f->arg[BENCH_IPC_T_GOT] - t0;
		ticks[1] += t1 - f->arg[BENCH_IPC_T_RET];
	}
}

int main(void)
{
	if (!myrmex_is_native())
		return 0;
	struct myrmex_ctl_header *h;
	uint32_t data;
	long pid = bench_ipc_setup("bench_ipc_async", COREID, &h, &data);
	if (!pid)
		return 1;
	struct ctx c = { h, 0 };
	struct bench_parts b = {
		.suite = "ipc",
		.names = { "ipc.async.request", "ipc.async.return" },
		.nparts = 2,
		.runs = 21,
		.iters = 500,
		.body = async_body,
		.ctx = &c,
	};
	int ret = bench_run_parts(&b);
	c.data = data;
	b.names[0] = "ipc.async.request.data4k";
	b.names[1] = "ipc.async.return.data4k";
	ret |= bench_run_parts(&b);
	bench_ipc_stop(pid);
	return ret == 0 ? 0 : 1;
}
