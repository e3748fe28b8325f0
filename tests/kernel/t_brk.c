/*
 * t_brk: the program break. brk(0) reports the break; growing it by 1 MiB
 * gives zero-filled, writable memory; shrinking it back works; growing again
 * gives fresh zero pages (the old contents are gone). Uses the raw brk
 * system call: musl's brk()/sbrk() refuse to move the break.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_brk"
#include "test_check.h"

#include <stdint.h>

#define PAGE 4096L
#define GROWTH (1024L * 1024L)

static long brk_call(long addr)
{
	return raw1(SYS_brk, addr);
}

/* Checks that [start, start + len) reads as zero, page by page. */
static int all_zero(const volatile unsigned char *start, long len)
{
	for (long off = 0; off < len; off += PAGE / 4)
		if (start[off] != 0)
			return 0;
	return start[len - 1] == 0;
}

int main(void)
{
	long initial = brk_call(0);
	CHECK(initial > 0, "brk(0) returned %ld", initial);
	CHECK_EQ(brk_call(0), initial);

	/* Start the growth at a page boundary so that every page is new. */
	long base = (initial + PAGE - 1) & ~(PAGE - 1);
	long grown = brk_call(base + GROWTH);
	if (grown != base + GROWTH) {
		test_fail("brk(%#lx) to grow by 1 MiB returned %#lx", base + GROWTH, grown);
		return 1;
	}
	CHECK_EQ(brk_call(0), base + GROWTH);

	volatile unsigned char *heap = (volatile unsigned char *)base;
	CHECK(all_zero(heap, GROWTH), "the new break area is not zero-filled");
	for (long off = 0; off < GROWTH; off += PAGE) {
		heap[off] = (unsigned char)(off / PAGE + 1);
		heap[off + PAGE - 1] = 0x5a;
	}
	int bad_pages = 0;
	for (long off = 0; off < GROWTH; off += PAGE)
		if (heap[off] != (unsigned char)(off / PAGE + 1) || heap[off + PAGE - 1] != 0x5a)
			bad_pages++;
	CHECK(bad_pages == 0, "%d pages of the break area did not keep their data", bad_pages);

	/* Shrink to half, then back to the start. */
	CHECK_EQ(brk_call(base + GROWTH / 2), base + GROWTH / 2);
	CHECK_EQ(brk_call(0), base + GROWTH / 2);
	CHECK(heap[0] == 1, "the kept half lost its data after shrinking");
	CHECK_EQ(brk_call(base), base);
	CHECK_EQ(brk_call(0), base);

	/* Grow again: the pages must be fresh, not the old contents. */
	CHECK_EQ(brk_call(base + GROWTH), base + GROWTH);
	CHECK(all_zero(heap, GROWTH), "memory given again after shrinking is not zero");
	heap[GROWTH - 1] = 1;
	CHECK_EQ(brk_call(initial), initial);
	CHECK_EQ(brk_call(0), initial);
	return test_exit_code();
}
