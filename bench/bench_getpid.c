/*
 * Benchmark sys.getpid (suite kernel): the null system call. getpid is
 * entered with the raw syscall instruction, so the figure is the kernel's
 * entry, dispatch and return path with no libc wrapper around it.
 */
#include "bench.h"

static void getpid_body(void *ctx, uint64_t iters)
{
	(void)ctx;
	for (uint64_t i = 0; i < iters; i++) {
		long ret;
		__asm__ volatile("syscall"
		                 : "=a"(ret)
		                 : "a"(39L) /* __NR_getpid */
		                 : "rcx", "r11", "memory");
		(void)ret;
	}
}

int main(void)
{
	const struct bench b = {
		.suite = "kernel",
		.name = "sys.getpid",
		.runs = 21,
		.iters = 10000,
		.ops_per_iter = 1,
		.body = getpid_body,
	};
	return bench_run(&b) == 0 ? 0 : 1;
}
