/*
 * Remapping against copying (suite ipc), for n = 1, 4, 16, 64 pages:
 *   ipc.remap.<n>p  a sync round trip to a server (bench_ipcsrv, coreid
 *                   202) with an n-page data ICA going and coming back:
 *                   what zero-copy IPC pays for n pages both ways
 *   ipc.copy.<n>p   memcpy of n * 4096 bytes between two buffers: what a
 *                   copying IPC would pay once per direction
 * Myrmex only: on Linux it prints nothing and exits 0.
 */
#include "bench_ipc.h"

#include <stdlib.h>
#include <string.h>

#define COREID 202u
#define PAGE 4096u
#define MAX_PAGES 64u

static const char prog[] = "bench_ipc_remap";

struct remap_ctx {
	struct myrmex_ctl_header *h;
	uint32_t data;
};

static void remap_body(void *arg, uint64_t iters)
{
	struct remap_ctx *c = arg;
	for (uint64_t i = 0; i < iters; i++) {
		struct myrmex_frame *f = myrmex_ctl_push(c->h, 1, COREID, BENCH_IPC_OP);
		f->ndata = 1;
		f->data[0] = c->data;
		long r = myrmex_callsync(c->h);
		if (r != 0) {
			bench_fail(prog, "callsync", r);
			return;
		}
	}
}

struct copy_ctx {
	char *from, *to;
	size_t bytes;
};

static void copy_body(void *arg, uint64_t iters)
{
	struct copy_ctx *c = arg;
	for (uint64_t i = 0; i < iters; i++) {
		memcpy(c->to, c->from, c->bytes);
		__asm__ volatile("" : : "r"(c->to) : "memory");   /* keep every copy */
	}
}

int main(void)
{
	if (!myrmex_is_native())
		return 0;
	static const unsigned sizes[] = { 1, 4, 16, 64 };
	long pid = bench_ipc_start(COREID, 0);
	long ctl = myrmex_ica_alloc(1);
	long ready = pid > 0 ? bench_ipc_wait(COREID) : pid;
	char *from = malloc(MAX_PAGES * PAGE), *to = malloc(MAX_PAGES * PAGE);
	if (ready != 0 || ctl < 0 || !from || !to) {
		bench_fail(prog, "setup", ready ? ready : ctl);
		bench_ipc_stop(pid);
		return 1;
	}
	memset(from, 1, MAX_PAGES * PAGE);
	memset(to, 2, MAX_PAGES * PAGE);
	int ret = 0;
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		unsigned n = sizes[i];
		char name[32];
		long data = myrmex_ica_alloc(n);
		if (data < 0) {
			bench_fail(prog, "ica_alloc", data);
			ret = 1;
			continue;
		}
		struct remap_ctx rc = { myrmex_ctl_init(myrmex_ica_addr((uint32_t)ctl)),
		                        (uint32_t)data };
		snprintf(name, sizeof name, "ipc.remap.%up", n);
		struct bench b = {
			.suite = "ipc", .name = name, .runs = 21, .iters = 200,
			.ops_per_iter = 1, .body = remap_body, .ctx = &rc,
		};
		ret |= bench_run(&b);
		myrmex_ica_free((uint32_t)data);

		struct copy_ctx cc = { from, to, (size_t)n * PAGE };
		snprintf(name, sizeof name, "ipc.copy.%up", n);
		b.body = copy_body;
		b.ctx = &cc;
		ret |= bench_run(&b);
	}
	bench_ipc_stop(pid);
	free(from);
	free(to);
	return ret == 0 ? 0 : 1;
}
