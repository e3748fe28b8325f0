/*
 * t_cachesim: the booted check of the cachesim plugin's model (tools/cachesim,
 * tools/cachesim_check.py), run as the only program of a boot (pid 1, which
 * may power off) under the plugin. Between the plugin's markers it makes
 * patterns whose misses are known, each after one unmeasured pass:
 *   tlb64   10 passes over 64 pages, one read per page: they fit the 64-entry
 *           data TLB (the loop keeps its variables in registers; the call's
 *           stack page may cost one refill of the 64 pages, no more)
 *   tlb65   the same over 65 pages: LRU misses on every read
 *   l2sweep 10 passes over 300 KiB, one read per 64-byte line: every read
 *           misses the 256 KiB L2, none the 512 KiB one (warm)
 * and prints "CACHESIM-CHECK <name>" before each, in the plugin's order;
 * tools/cachesim_check.py checks the counts.
 * Without the plugin the markers are no-ops and it checks nothing.
 */
#include <myrmex.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define PAGE 4096u
#define LINE 64u
#define KIB 1024u
#define PASSES 10u
#define MARK(code) \
	__asm__ volatile(".byte 0x0f, 0x1f, 0x84, 0x00; .long 0x4d590000 + %c0" :: "i"(code) : "memory")

static uint8_t array[300 * KIB] __attribute__((aligned(4096)));

static __attribute__((noinline)) unsigned sweep(uint64_t bytes, uint64_t stride, unsigned passes)
{
	const volatile uint8_t *a = array;
	unsigned sum = 0;
	for (unsigned p = 0; p < passes; p++)
		for (uint64_t off = 0; off < bytes; off += stride)
			sum += a[off];
	return sum;
}

static unsigned measure(const char *name, uint64_t bytes, uint64_t stride)
{
	printf("CACHESIM-CHECK %s\n", name);
	fflush(stdout);
	unsigned sum = sweep(bytes, stride, 1);
	MARK(1);
	sum += sweep(bytes, stride, PASSES);
	MARK(2);
	return sum;
}

int main(void)
{
	memset(array, 1, sizeof array);
	unsigned sum = measure("tlb64", 64 * PAGE, PAGE);
	sum += measure("tlb65", 65 * PAGE, PAGE);
	sum += measure("l2sweep", 300 * KIB, LINE);
	printf("CACHESIM-CHECK-DONE sum=%u\n", sum);
	fflush(stdout);
	myrmex_poweroff(0);
	return 0;
}
