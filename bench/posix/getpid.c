/*
 * posix.getpid (suite posix): libc's getpid() in a POSIX process, per call.
 * musl keeps no cached pid, so every call is a system call; on Myrmex the
 * kernel answers it itself (docs/posix.md: ids are in the kernel, 0 IPCs).
 * Unlike kernel/sys.getpid (the raw syscall instruction), this is the call
 * as an unmodified program makes it, through libc's wrapper.
 */
#include "bench.h"

#include <sys/types.h>
#include <unistd.h>

static void getpid_body(void *ctx, uint64_t iters)
{
	volatile pid_t *sink = ctx;
	for (uint64_t i = 0; i < iters; i++)
		*sink = getpid();
}

int main(void)
{
	static volatile pid_t sink;
	const struct bench b = {
		.suite = "posix",
		.name = "posix.getpid",
		.runs = 21,
		.iters = 5000,
		.ops_per_iter = 1,
		.body = getpid_body,
		.ctx = (void *)&sink,
	};
	if (bench_run(&b) != 0)
		return 1;
	if (sink != getpid()) {
		bench_fail("posix.getpid", "getpid changed", (long)sink);
		return 1;
	}
	return 0;
}
