/*
 * Shared benchmark harness: runs a measured loop, times it with the TSC,
 * reads the kernel's counters around the measurement and prints the BENCH
 * line of docs/testing.md. Also small helpers the benchmarks share.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdint.h>
#include <myrmex.h>

/* Most runs a benchmark may ask for. */
#define BENCH_MAX_RUNS 101

/*
 * One benchmark. The harness calls body(ctx, iters) once as a warm-up, then
 * `runs` more times while measuring. The body runs the operation `iters`
 * times in its own loop (no call per iteration). Each iteration performs
 * `ops_per_iter` operations (e.g. 2 switches for a yield round trip): the
 * figure and the kernel counts are reported per operation.
 */
struct bench {
	const char *suite;
	const char *name;
	unsigned runs;
	uint64_t iters;
	unsigned ops_per_iter;
	void (*body)(void *ctx, uint64_t iters);
	void *ctx;
};

/*
 * Measures b and prints one line with a single write():
 *   BENCH <suite> <name> median=<v> min=<v> runs=<R> syscalls=<x> ctxsw=<x>
 *         asswitch=<x> tlbflush=<x> tlbinval=<x> pgfault=<x> ipc=<x>
 *         attach=<x> detach=<x>
 * v are TSC ticks per operation (1 decimal), x kernel events per operation
 * (2 decimals): ipc = calls accepted (callsync + callasync), attach and
 * detach = ICA mappings made and removed. Without kstats (Linux) the counts
 * are left out.
 * Returns 0, or -1 if b is malformed (a message goes to stderr) or the
 * line could not be written.
 */
int bench_run(const struct bench *b);

/*
 * Several figures from one measured loop, for operations whose parts are
 * timed inside the loop (by the program, or by a server that writes its
 * time stamps where the program can read them). The harness calls
 * body(ctx, iters, ticks) once as a warm-up, then `runs` times; each call
 * adds to ticks[f] (zeroed before) the TSC ticks of part f summed over its
 * `iters` iterations. One BENCH line per figure, named names[f], with
 * ticks per iteration; the kernel counts on every line are events per
 * iteration of the whole loop (all parts together).
 */
#define BENCH_MAX_PARTS 4
struct bench_parts {
	const char *suite;
	const char *names[BENCH_MAX_PARTS];
	unsigned nparts;
	unsigned runs;
	uint64_t iters;
	void (*body)(void *ctx, uint64_t iters, uint64_t *ticks);
	void *ctx;
};
int bench_run_parts(const struct bench_parts *b);

/* Writes "<prog>: <what>: <value>\n" to stderr with one write(). */
void bench_fail(const char *prog, const char *what, long value);
/* Linux: the CPU's idle nanoseconds so far (/proc/timer_list's
 * idle_sleeptime of CPU 0, else /proc/stat's idle in USER_HZ steps); 0 when
 * neither says (Myrmex: use kstats.idle_tsc). */
uint64_t bench_linux_idle_ns(void);
/* Sorts n values in place (the runs of a figure, for their median). */
void bench_sort_u64(uint64_t *v, unsigned n);
/* Appends " <key>=<int>.<2 digits>" at line + *len: n events over ops
 * operations, rounded to hundredths (the counts of a BENCH line). */
void bench_put_per_op(char *line, size_t size, size_t *len, const char *key, uint64_t n,
                      uint64_t ops);

/* sched_yield through the raw syscall instruction: no libc, no errno, so it
 * is safe in threads that share the creator's TLS. */
static inline void bench_yield(void)
{
	long ret;
	__asm__ volatile("syscall"
	                 : "=a"(ret)
	                 : "a"(24L) /* __NR_sched_yield */
	                 : "rcx", "r11", "memory");
	(void)ret;
}

/* Yields forever: the partner side of the process-switch benchmark. */
_Noreturn void bench_yield_forever(void);

#endif
