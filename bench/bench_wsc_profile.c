/*
 * bench_wsc_profile: where the instructions of a wrapped getpid go (issue
 * 18's aim "wrapped getpid at N = 32 at most a third of a plain call").
 * Run under the cachesim plugin with profile=1 by tools/wsc_profile.py,
 * which names the functions; not in `make bench`. Between the plugin's
 * markers: getpid 512 times plainly (syscall), then 512 times wrapped in
 * batches of 32, as bench_wsc does; one line per loop, in the plugin's
 * order:  WSCPROFILE <seq> <what> ticks=<rdtsc difference>
 */
#include "bench.h"

#include <stdio.h>

#define CALLS 512u
#define N 32u
#define NR_GETPID 39L
#define MARK(code) \
	__asm__ volatile(".byte 0x0f, 0x1f, 0x84, 0x00; .long 0x4d590000 + %c0" :: "i"(code) : "memory")

static union {
	struct myrmex_batch_area area;
	char bytes[sizeof(struct myrmex_batch_area) + N * sizeof(struct myrmex_batch_entry)];
} wsc_area __attribute__((aligned(4096)));

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static inline long sys2(long nr, long a1, long a2)
{
	long ret;
	__asm__ volatile("syscall" : "=a"(ret) : "0"(nr), "D"(a1), "S"(a2)
	                 : "rcx", "r11", "memory");
	return ret;
}

static void plain(void)
{
	for (unsigned i = 0; i < CALLS; i++)
		(void)sys2(NR_GETPID, 0, 0);
}

static void wrapped(void)
{
	struct myrmex_batch_area *a = &wsc_area.area;
	for (unsigned done = 0; done < CALLS; done += N) {
		for (unsigned i = 0; i < N; i++) {
			a->entry[i].nr = (uint64_t)NR_GETPID;
			a->entry[i].state = MYRMEX_BATCH_STORED;
		}
		(void)sys2(MYRMEX_SYS_BATCH, (long)a, (long)N);
	}
}

static void measure(unsigned seq, const char *what, void (*loop)(void))
{
	loop();   /* warm */
	MARK(1);
	uint64_t t0 = rdtsc();
	loop();
	uint64_t t1 = rdtsc();
	MARK(2);
	printf("WSCPROFILE %u %s ticks=%llu\n", seq, what, (unsigned long long)(t1 - t0));
	fflush(stdout);
}

int main(void)
{
	if (!myrmex_is_native())
		return 0;
	wsc_area.area.capacity = N;
	measure(0, "plain", plain);
	measure(1, "wrapped32", wrapped);
	return 0;
}
