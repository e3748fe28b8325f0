/*
 * Benchmark sched.thread_switch (suite kernel): two threads of one process
 * on one CPU hand the CPU to each other with sched_yield. Each iteration of
 * the measuring thread is a round trip of two switches (there and back), so
 * the figure is ticks / (2 * iterations): one yield system call plus one
 * thread switch within the same address space.
 */
#include "bench.h"

#include <stdatomic.h>

static atomic_int helper_started;
static atomic_int helper_stop;

/* The partner thread: yields until told to stop. It uses no libc (it shares
 * the creator's TLS, see myrmex_thread_create). */
static void helper(void *arg)
{
	(void)arg;
	atomic_store(&helper_started, 1);
	while (!atomic_load_explicit(&helper_stop, memory_order_relaxed))
		bench_yield();
}

static void yield_body(void *ctx, uint64_t iters)
{
	(void)ctx;
	for (uint64_t i = 0; i < iters; i++)
		bench_yield();
}

int main(void)
{
	struct myrmex_thread t;
	long err = myrmex_thread_create(&t, helper, NULL, 64 * 1024);
	if (err < 0) {
		bench_fail("bench_thread_switch", "thread_create", err);
		return 1;
	}
	while (!atomic_load(&helper_started)) /* the helper is running */
		bench_yield();

	const struct bench b = {
		.suite = "kernel",
		.name = "sched.thread_switch",
		.runs = 21,
		.iters = 2000,
		.ops_per_iter = 2,
		.body = yield_body,
	};
	int ret = bench_run(&b); /* its warm-up run gets both threads going */

	atomic_store(&helper_stop, 1);
	myrmex_thread_join(&t);
	return ret == 0 ? 0 : 1;
}
