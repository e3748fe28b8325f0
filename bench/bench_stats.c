/*
 * Benchmark harness (see bench.h): warm-up, timed runs, median and minimum
 * per operation, kernel counter deltas, and the single-write BENCH line;
 * also the variant that reports several parts timed inside one loop.
 * All arithmetic is integer fixed point: no floating-point formatting.
 */
#include "bench.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Rounded quotient of n / d, scaled by `scale` (10 = one decimal). */
static uint64_t scaled_div(uint64_t n, uint64_t d, uint64_t scale)
{
	return (n * scale + d / 2) / d;
}

void bench_sort_u64(uint64_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		uint64_t x = v[i];
		unsigned j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

void bench_put_per_op(char *line, size_t size, size_t *len, const char *key, uint64_t n,
                      uint64_t ops)
{
	uint64_t hundredths = scaled_div(n, ops, 100);
	if (*len >= size)
		return;
	int w = snprintf(line + *len, size - *len, " %s=%" PRIu64 ".%02" PRIu64,
	                 key, hundredths / 100, hundredths % 100);
	if (w > 0 && (size_t)w < size - *len)
		*len += (size_t)w;
}

/* Appends " <key>=<events per operation>" for a counter read before and after. */
static void put_count(char *line, size_t size, size_t *len, const char *key,
                      uint64_t before, uint64_t after, uint64_t ops)
{
	bench_put_per_op(line, size, len, key, after >= before ? after - before : 0, ops);
}

void bench_fail(const char *prog, const char *what, long value)
{
	char line[160];
	int len = snprintf(line, sizeof line, "%s: %s: %ld\n", prog, what, value);
	if (len < 0)
		return;
	if (len > (int)sizeof line - 1)
		len = sizeof line - 1;
	if (write(2, line, (size_t)len) < 0)
		return;
}

/* Median and minimum (tenths of a tick per operation) of v[0..runs), sorted in place. */
static void median_min(uint64_t *v, unsigned runs, uint64_t *median, uint64_t *min)
{
	bench_sort_u64(v, runs);
	unsigned mid = runs / 2;
	*median = runs % 2 ? v[mid] : (v[mid - 1] + v[mid] + 1) / 2;
	*min = v[0];
}

/* Prints "BENCH <suite> <name> median=... min=... runs=... [counts]" with one
 * write(); the counts are kernel events per operation over ops operations. */
static int print_line(const char *suite, const char *name, uint64_t *tenths, unsigned runs,
                      const struct myrmex_kstats *before, const struct myrmex_kstats *after,
                      uint64_t ops)
{
	uint64_t median, min;
	median_min(tenths, runs, &median, &min);

	char line[512];
	int n = snprintf(line, sizeof line,
	                 "BENCH %s %s median=%" PRIu64 ".%" PRIu64
	                 " min=%" PRIu64 ".%" PRIu64 " runs=%u",
	                 suite, name, median / 10, median % 10, min / 10, min % 10, runs);
	size_t len = n > 0 ? (size_t)n : 0;
	if (before && after) {
		put_count(line, sizeof line, &len, "syscalls",
		          before->syscalls, after->syscalls, ops);
		put_count(line, sizeof line, &len, "ctxsw",
		          before->context_switches, after->context_switches, ops);
		put_count(line, sizeof line, &len, "asswitch",
		          before->address_space_switches, after->address_space_switches, ops);
		put_count(line, sizeof line, &len, "tlbflush",
		          before->tlb_flushes_full, after->tlb_flushes_full, ops);
		put_count(line, sizeof line, &len, "tlbinval",
		          before->tlb_invalidations, after->tlb_invalidations, ops);
		put_count(line, sizeof line, &len, "pgfault",
		          before->page_faults, after->page_faults, ops);
		put_count(line, sizeof line, &len, "ipc",
		          before->ipc_calls, after->ipc_calls, ops);
		put_count(line, sizeof line, &len, "attach",
		          before->ica_attaches, after->ica_attaches, ops);
		put_count(line, sizeof line, &len, "detach",
		          before->ica_detaches, after->ica_detaches, ops);
	}
	if (len > sizeof line - 2)
		len = sizeof line - 2;
	line[len++] = '\n';
	if (write(1, line, len) != (ssize_t)len)
		return -1;
	return 0;
}

int bench_run(const struct bench *b)
{
	uint64_t tenths[BENCH_MAX_RUNS] = { 0 };
	struct myrmex_kstats before, after;

	if (b->runs == 0 || b->runs > BENCH_MAX_RUNS || b->iters == 0 ||
	    b->ops_per_iter == 0) {
		bench_fail(b->name, "bad runs/iters/ops_per_iter", (long)b->runs);
		return -1;
	}
	uint64_t ops_per_run = b->iters * b->ops_per_iter;

	b->body(b->ctx, b->iters); /* warm-up: caches, TLB, partner running */

	int have_counts = myrmex_kstats(&before) == (long)sizeof before;
	for (unsigned r = 0; r < b->runs; r++) {
		uint64_t t0 = myrmex_rdtsc();
		b->body(b->ctx, b->iters);
		uint64_t t1 = myrmex_rdtsc();
		tenths[r] = scaled_div(t1 - t0, ops_per_run, 10);
	}
	if (have_counts)
		have_counts = myrmex_kstats(&after) == (long)sizeof after;

	return print_line(b->suite, b->name, tenths, b->runs, have_counts ? &before : NULL,
	                  have_counts ? &after : NULL, ops_per_run * b->runs);
}

int bench_run_parts(const struct bench_parts *b)
{
	static uint64_t tenths[BENCH_MAX_PARTS][BENCH_MAX_RUNS];
	struct myrmex_kstats before, after;
	uint64_t ticks[BENCH_MAX_PARTS];

	if (b->runs == 0 || b->runs > BENCH_MAX_RUNS || b->iters == 0 || b->nparts == 0 ||
	    b->nparts > BENCH_MAX_PARTS) {
		bench_fail(b->names[0] ? b->names[0] : "bench_run_parts", "bad runs/iters/nparts",
		           (long)b->runs);
		return -1;
	}
	for (unsigned f = 0; f < b->nparts; f++)
		ticks[f] = 0;
	b->body(b->ctx, b->iters, ticks); /* warm-up */

	int have_counts = myrmex_kstats(&before) == (long)sizeof before;
	for (unsigned r = 0; r < b->runs; r++) {
		for (unsigned f = 0; f < b->nparts; f++)
			ticks[f] = 0;
		b->body(b->ctx, b->iters, ticks);
		for (unsigned f = 0; f < b->nparts; f++)
			tenths[f][r] = scaled_div(ticks[f], b->iters, 10);
	}
	if (have_counts)
		have_counts = myrmex_kstats(&after) == (long)sizeof after;

	int ret = 0;
	for (unsigned f = 0; f < b->nparts; f++)
		if (print_line(b->suite, b->names[f], tenths[f], b->runs,
		               have_counts ? &before : NULL, have_counts ? &after : NULL,
		               b->iters * b->runs) != 0)
			ret = -1;
	return ret;
}

_Noreturn void bench_yield_forever(void)
{
	for (;;)
		bench_yield();
}

/* The CPU's idle nanoseconds so far: /proc/timer_list's idle_sleeptime of
 * CPU 0, else /proc/stat's idle (USER_HZ steps); 0 when neither says. */
uint64_t bench_linux_idle_ns(void)
{
	static char text[65536];
	FILE *f = fopen("/proc/timer_list", "r");
	if (f) {
		size_t n = fread(text, 1, sizeof text - 1, f);
		fclose(f);
		text[n] = 0;
		const char *p = strstr(text, ".idle_sleeptime");
		if (p && (p = strchr(p, ':')))
			return strtoull(p + 1, NULL, 10);
	}
	f = fopen("/proc/stat", "r");
	unsigned long long user, nice, sys, idle = 0;
	if (f) {
		if (fscanf(f, "cpu %llu %llu %llu %llu", &user, &nice, &sys, &idle) != 4)
			idle = 0;
		fclose(f);
	}
	return idle * (1000000000ull / (uint64_t)sysconf(_SC_CLK_TCK));
}
