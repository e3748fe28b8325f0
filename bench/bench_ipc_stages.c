/*
 * Multi-stage calls (suite ipc): a client's sync round trip through a chain
 * of n servers (bench_ipcsrv on coreids 210..214, each passing the call on
 * to the next), for n = 1..5:
 *   ipc.stage<n>.sequential  each stage forwards with callsync and returns
 *                            after: n returns, one frame popped each
 *   ipc.stage<n>.direct      MYRMEX_CTL_DIRECT_RETURN set by the client:
 *                            each stage forwards with callasync and the
 *                            last one's result comes straight back
 * All servers run at the client's priority and are started, and waited
 * for, before any timed region. Myrmex only: on Linux it prints nothing.
 */
#include "bench_ipc.h"

#define BASE 210u
#define MAX_STAGES 5u

static const char prog[] = "bench_ipc_stages";

struct ctx {
	struct myrmex_ctl_header *h;
	uint32_t stages;
	uint32_t flags;
};

static void chain_body(void *arg, uint64_t iters)
{
	struct ctx *c = arg;
	for (uint64_t i = 0; i < iters; i++) {
		c->h->flags = c->flags;
		struct myrmex_frame *f = myrmex_ctl_push(c->h, 1, BASE, BENCH_IPC_OP);
		f->arg[0] = c->stages;
		long r = myrmex_callsync(c->h);
		struct myrmex_frame *res = myrmex_ctl_result(c->h);
		if (r != 0 || !res || res->status != 0) {
			bench_fail(prog, "callsync/status", r ? r : res ? (long)res->status : -1);
			return;
		}
	}
}

int main(void)
{
	if (!myrmex_is_native())
		return 0;
	long pids[MAX_STAGES];
	int ok = 1;
	for (unsigned i = 0; i < MAX_STAGES; i++) {
		pids[i] = bench_ipc_start(BASE + i, i + 1 < MAX_STAGES ? BASE + i + 1 : 0);
		ok &= pids[i] > 0;
	}
	for (unsigned i = 0; i < MAX_STAGES && ok; i++)
		ok &= bench_ipc_wait(BASE + i) == 0;
	long ctl = myrmex_ica_alloc(1);
	int ret = 0;
	if (!ok || ctl < 0) {
		bench_fail(prog, "setup", ctl);
		ret = 1;
	}
	for (unsigned n = 1; n <= MAX_STAGES && ret == 0; n++) {
		char name[40];
		struct ctx c = { myrmex_ctl_init(myrmex_ica_addr((uint32_t)ctl)), n, 0 };
		snprintf(name, sizeof name, "ipc.stage%u.sequential", n);
		struct bench b = {
			.suite = "ipc", .name = name, .runs = 21, .iters = 200,
			.ops_per_iter = 1, .body = chain_body, .ctx = &c,
		};
		ret |= bench_run(&b);
		c.flags = MYRMEX_CTL_DIRECT_RETURN;
		snprintf(name, sizeof name, "ipc.stage%u.direct", n);
		ret |= bench_run(&b);
	}
	for (unsigned i = 0; i < MAX_STAGES; i++)
		bench_ipc_stop(pids[i]);
	return ret == 0 ? 0 : 1;
}
