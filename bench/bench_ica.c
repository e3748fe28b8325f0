/*
 * Benchmarks of the ICA's partial costs (suite ica; paper 002's parts):
 *   ica.attach        the ica_attach system call on a parked one-page ICA
 *   ica.detach        the ica_detach system call on an attached one
 *   ica.first_access  one store to the ICA's page right after attach (the
 *                     mapping is made by attach; this is the TLB miss and
 *                     page walk, not a fault)
 *   ica.alloc_free.1p ica_alloc(1) + ica_free, per pair
 * Myrmex only: on Linux it prints nothing and exits 0.
 */
#include "bench.h"

static const char prog[] = "bench_ica";

static void attach_detach_body(void *arg, uint64_t iters, uint64_t *ticks)
{
	uint32_t h = *(uint32_t *)arg;
	volatile char *p = myrmex_ica_addr(h);
	for (uint64_t i = 0; i < iters; i++) {
		uint64_t t0 = myrmex_rdtsc();
		long a = myrmex_ica_attach(h);
		uint64_t t1 = myrmex_rdtsc();
		p[0] = (char)i;
		uint64_t t2 = myrmex_rdtsc();
		long d = myrmex_ica_detach(h);
		uint64_t t3 = myrmex_rdtsc();
		if (a != 0 || d != 0) {
			bench_fail(prog, "attach/detach", a ? a : d);
			return;
		}
		ticks[0] += t1 - t0;
		ticks[1] += t3 - t2;
		ticks[2] += t2 - t1;
	}
}

static void alloc_free_body(void *arg, uint64_t iters)
{
	(void)arg;
	for (uint64_t i = 0; i < iters; i++) {
		long h = myrmex_ica_alloc(1);
		if (h < 0) {
			bench_fail(prog, "ica_alloc", h);
			return;
		}
		myrmex_ica_free((uint32_t)h);
	}
}

int main(void)
{
	if (!myrmex_is_native())
		return 0;
	long h = myrmex_ica_alloc(1);
	if (h < 0 || myrmex_ica_detach((uint32_t)h) != 0) {
		bench_fail(prog, "setup", h);
		return 1;
	}
	uint32_t handle = (uint32_t)h;
	const struct bench_parts parts = {
		.suite = "ica",
		.names = { "ica.attach", "ica.detach", "ica.first_access" },
		.nparts = 3,
		.runs = 21,
		.iters = 1000,
		.body = attach_detach_body,
		.ctx = &handle,
	};
	int ret = bench_run_parts(&parts);
	myrmex_ica_free(handle);

	const struct bench b = {
		.suite = "ica",
		.name = "ica.alloc_free.1p",
		.runs = 21,
		.iters = 1000,
		.ops_per_iter = 1,
		.body = alloc_free_body,
	};
	ret |= bench_run(&b);
	return ret == 0 ? 0 : 1;
}
