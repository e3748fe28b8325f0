/*
 * Benchmark wsc.getpid.<entry>.n<N> (suite wsc): paper 001's figure 11.
 * getpid 512 times, conventionally (n0: one kernel entry per call) and
 * wrapped in batches of N = 1, 2, 4, ..., 64 (512/N kernel entries, each
 * running N stored calls, MYRMEX_SYS_BATCH), through the syscall
 * instruction (entry syscall) and the trap gate int $0x81 (entry trap).
 * The figure is per getpid, the user's storing of each entry included
 * (its number and state; the arguments stay zero). On Linux only the
 * conventional syscall figure runs (no batch call, no gate).
 */
#include "bench.h"

#include <stdio.h>

#define CALLS 512
#define NR_GETPID 39L

static union {
	struct myrmex_batch_area area;
	char bytes[sizeof(struct myrmex_batch_area) +
	           MYRMEX_BATCH_MAX * sizeof(struct myrmex_batch_entry)];
} wsc_area __attribute__((aligned(4096)));

struct wsc_case {
	int trap;        /* the entry: int $0x81, else syscall */
	unsigned n;      /* calls per batch; 0 conventional */
};

static inline long enter(int trap, long nr, long a1, long a2)
{
	long ret;
	if (trap)
		__asm__ volatile("int $0x81" : "=a"(ret) : "0"(nr), "D"(a1), "S"(a2) : "memory");
	else
		__asm__ volatile("syscall" : "=a"(ret) : "0"(nr), "D"(a1), "S"(a2)
		                 : "rcx", "r11", "memory");
	return ret;
}

static void wsc_body(void *ctx, uint64_t iters)
{
	const struct wsc_case *c = ctx;
	struct myrmex_batch_area *a = &wsc_area.area;
	for (uint64_t it = 0; it < iters; it++) {
		if (c->n == 0) {
			for (int i = 0; i < CALLS; i++)
				(void)enter(c->trap, NR_GETPID, 0, 0);
			continue;
		}
		for (unsigned done = 0; done < CALLS; done += c->n) {
			for (unsigned i = 0; i < c->n; i++) {
				a->entry[i].nr = (uint64_t)NR_GETPID;
				a->entry[i].state = MYRMEX_BATCH_STORED;
			}
			(void)enter(c->trap, MYRMEX_SYS_BATCH, (long)a, (long)c->n);
		}
	}
}

static int run_case(int trap, unsigned n)
{
	char name[48];
	snprintf(name, sizeof name, "wsc.getpid.%s.n%u", trap ? "trap" : "syscall", n);
	struct wsc_case c = { trap, n };
	const struct bench b = {
		.suite = "wsc",
		.name = name,
		.runs = 11,
		.iters = 8,
		.ops_per_iter = CALLS,
		.body = wsc_body,
		.ctx = &c,
	};
	return bench_run(&b);
}

int main(void)
{
	int failed = run_case(0, 0) != 0;
	if (!myrmex_is_native())
		return failed;
	wsc_area.area.capacity = MYRMEX_BATCH_MAX;
	failed |= run_case(1, 0) != 0;
	for (unsigned n = 1; n <= MYRMEX_BATCH_MAX; n *= 2) {
		failed |= run_case(0, n) != 0;
		failed |= run_case(1, n) != 0;
	}
	return failed;
}
