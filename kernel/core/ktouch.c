/*
 * ktouch: paper 001's evaluation function inside the kernel (issue 18's
 * cache and TLB experiment, docs/benchmarks.md "Caches and the TLB"). It
 * reads the kernel's own array, never user memory, over a bounded width, so
 * any process may call it: it reveals nothing and changes nothing.
 */
#include <kernel/syscall.h>
#include <kernel/errno.h>
#include <myrmex/syscall.h>

/* Page-aligned, like the paper's arrays, so that a width of w bytes spans
 * exactly w / 4 KiB pages. Zero (bss): the sum is 0; the reads are what
 * the experiment measures. */
static volatile uint8_t ktouch_array[MYRMEX_KTOUCH_MAX] __attribute__((aligned(4096)));

long sys_myrmex_ktouch(const struct syscall_args *a)
{
	uint64_t width = a->arg[0];
	if (width > MYRMEX_KTOUCH_MAX)
		return -EINVAL;
	long sum = 0;
	for (uint64_t off = 0; off < width; off += MYRMEX_KTOUCH_STRIDE)
		sum += ktouch_array[off];
	return sum;
}
