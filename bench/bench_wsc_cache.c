/*
 * Benchmark wsc.cache.<uw>.<kw>.<metric> (suite wsc-cache): paper 001's
 * cache and TLB experiment (its figures 5-10). The evaluation function
 * reads an array every 128 bytes over a width: in user space over the
 * user width uw, in the kernel (MYRMEX_SYS_KTOUCH) over the kernel width
 * kw, alternately, F = 512 times; conventionally (one kernel entry per
 * kernel evaluation) and wrapped (the kernel evaluations stored, N = 32 per
 * batch). Both widths go from 0 to 256 KiB in steps of WSC_CACHE_STEP_KIB
 * (32 here; bench_wsc_cache4 is the paper's 4 KiB grid).
 *
 * It is meant for the cachesim plugin (tools/cachesim, tools/bench_wsc_cache.py),
 * which counts modelled misses between the markers set around each measured
 * loop; the program prints one line per loop, in the order of the plugin's:
 *   WSCCACHE <uw KiB> <kw KiB> <conv|wrapped> ticks=<rdtsc difference>
 * Under -icount the ticks are instructions. Myrmex only (the batch call).
 */
#include "bench.h"

#include <stdio.h>
#include <string.h>

#ifndef WSC_CACHE_STEP_KIB
#define WSC_CACHE_STEP_KIB 32u
#endif
#define F 512u               /* the paper's repetitions */
#define N 32u                /* kernel evaluations per batch */
#define WARM 32u             /* repetitions before each measured loop */
#define KIB 1024u
#define MARK_START 1
#define MARK_STOP 2

static uint8_t user_array[MYRMEX_KTOUCH_MAX] __attribute__((aligned(4096)));

static union {
	struct myrmex_batch_area area;
	char bytes[sizeof(struct myrmex_batch_area) + N * sizeof(struct myrmex_batch_entry)];
} wsc_area __attribute__((aligned(4096)));

/* The plugin's marker: a no-op whose displacement carries "MY" and code. */
#define MARK(code) \
	__asm__ volatile(".byte 0x0f, 0x1f, 0x84, 0x00; .long 0x4d590000 + %c0" :: "i"(code) : "memory")

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* The evaluation function, user side. */
static __attribute__((noinline)) long user_eval(uint64_t width)
{
	const volatile uint8_t *a = user_array;
	long sum = 0;
	for (uint64_t off = 0; off < width; off += MYRMEX_KTOUCH_STRIDE)
		sum += a[off];
	return sum;
}

static long kernel_eval(uint64_t width)
{
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "0"((long)MYRMEX_SYS_KTOUCH), "D"(width)
	                 : "rcx", "r11", "memory");
	return ret;
}

static long run_conventional(uint64_t uw, uint64_t kw, unsigned reps)
{
	long sum = 0;
	for (unsigned f = 0; f < reps; f++) {
		sum += user_eval(uw);
		sum += kernel_eval(kw);
	}
	return sum;
}

/* reps is a multiple of N. */
static long run_wrapped(uint64_t uw, uint64_t kw, unsigned reps)
{
	struct myrmex_batch_area *a = &wsc_area.area;
	long sum = 0;
	unsigned stored = 0;
	for (unsigned f = 0; f < reps; f++) {
		sum += user_eval(uw);
		a->entry[stored].nr = MYRMEX_SYS_KTOUCH;
		a->entry[stored].arg[0] = kw;
		a->entry[stored].state = MYRMEX_BATCH_STORED;
		if (++stored == N) {
			long ret;
			__asm__ volatile("syscall" : "=a"(ret)
			                 : "0"((long)MYRMEX_SYS_BATCH), "D"(a), "S"((long)N)
			                 : "rcx", "r11", "memory");
			for (unsigned i = 0; i < N; i++)
				sum += a->entry[i].result;
			stored = 0;
		}
	}
	return sum;
}

static int measure(unsigned uw_kib, unsigned kw_kib, int wrapped)
{
	uint64_t uw = (uint64_t)uw_kib * KIB, kw = (uint64_t)kw_kib * KIB;
	long (*run)(uint64_t, uint64_t, unsigned) = wrapped ? run_wrapped : run_conventional;
	long sum = run(uw, kw, WARM);
	MARK(MARK_START);
	uint64_t t0 = rdtsc();
	sum += run(uw, kw, F);
	uint64_t t1 = rdtsc();
	MARK(MARK_STOP);
	printf("WSCCACHE %u %u %s ticks=%llu\n", uw_kib, kw_kib, wrapped ? "wrapped" : "conv",
	       (unsigned long long)(t1 - t0));
	fflush(stdout);
	return sum == 0 ? 0 : -1;   /* both arrays are zero */
}

int main(void)
{
	if (!myrmex_is_native()) {
		printf("BENCH-SKIP bench_wsc_cache Myrmex only (batch call, ktouch)\n");
		return 0;
	}
	wsc_area.area.capacity = N;
	memset(user_array, 0, sizeof user_array);   /* every page in before measuring */
	int failed = 0;
	for (unsigned uw = 0; uw <= MYRMEX_KTOUCH_MAX / KIB; uw += WSC_CACHE_STEP_KIB)
		for (unsigned kw = 0; kw <= MYRMEX_KTOUCH_MAX / KIB; kw += WSC_CACHE_STEP_KIB) {
			failed |= measure(uw, kw, 0);
			failed |= measure(uw, kw, 1);
		}
	printf("WSCCACHE-END step=%u\n", WSC_CACHE_STEP_KIB);
	return failed;
}
