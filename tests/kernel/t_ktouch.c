/*
 * t_ktouch: the kernel's evaluation function of paper 001's cache and TLB
 * experiment (MYRMEX_SYS_KTOUCH, bench/bench_wsc_cache.c). Every width up
 * to the limit is read and summed (0: the array is the kernel's zeroed
 * one); a width past the limit, negative or huge, is -EINVAL, through
 * syscall, through the trap gate and as one entry of a batch, where it
 * fails alone.
 */
#define TEST_NAME "t_ktouch"
#include "test_check.h"

#include <errno.h>
#include <stdint.h>

static union {
	struct myrmex_batch_area area;
	char bytes[sizeof(struct myrmex_batch_area) + 4 * sizeof(struct myrmex_batch_entry)];
} area __attribute__((aligned(4096)));

static void test_widths(void)
{
	static const long good[] = { 0, 1, 127, 128, 4096, 65536 + 5,
	                             MYRMEX_KTOUCH_MAX - 1, MYRMEX_KTOUCH_MAX };
	for (unsigned i = 0; i < sizeof good / sizeof good[0]; i++) {
		CHECK(raw1(MYRMEX_SYS_KTOUCH, good[i]) == 0, "ktouch(%ld) not 0", good[i]);
		CHECK(myrmex_trapcall6(MYRMEX_SYS_KTOUCH, good[i], 0, 0, 0, 0, 0) == 0,
		      "trap ktouch(%ld) not 0", good[i]);
	}
	static const long bad[] = { MYRMEX_KTOUCH_MAX + 1, MYRMEX_KTOUCH_MAX + 128,
	                            -1, -(long)MYRMEX_KTOUCH_MAX, INT64_MAX, INT64_MIN,
	                            1L << 32 };
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CHECK(raw1(MYRMEX_SYS_KTOUCH, bad[i]) == -EINVAL, "ktouch(%ld) not -EINVAL", bad[i]);
		CHECK(myrmex_trapcall6(MYRMEX_SYS_KTOUCH, bad[i], 0, 0, 0, 0, 0) == -EINVAL,
		      "trap ktouch(%ld) not -EINVAL", bad[i]);
	}
}

/* In a batch, a bad width fails its entry alone. */
static void test_batched(void)
{
	struct myrmex_batch_area *a = &area.area;
	a->capacity = 4;
	const long widths[4] = { MYRMEX_KTOUCH_MAX, MYRMEX_KTOUCH_MAX + 1, -1, 4096 };
	for (unsigned i = 0; i < 4; i++) {
		const long v[6] = { widths[i], 0, 0, 0, 0, 0 };
		myrmex_batch_store(a, i, MYRMEX_SYS_KTOUCH, v);
	}
	CHECK_EQ(raw2(MYRMEX_SYS_BATCH, (long)a, 4), 4);
	CHECK_EQ(a->entry[0].result, 0);
	CHECK_EQ(a->entry[1].result, -EINVAL);
	CHECK_EQ(a->entry[2].result, -EINVAL);
	CHECK_EQ(a->entry[3].result, 0);
	for (unsigned i = 0; i < 4; i++)
		CHECK(a->entry[i].state == MYRMEX_BATCH_DONE, "entry %u not DONE", i);
}

int main(void)
{
	test_widths();
	test_batched();
	return test_exit_code();
}
