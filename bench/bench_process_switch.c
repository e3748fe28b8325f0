/*
 * Benchmark sched.process_switch (suite kernel): this process and a partner
 * process (bench_yield_partner, same priority, one CPU) hand the CPU to each
 * other with sched_yield. Each iteration is a round trip of two switches, so
 * the figure is ticks / (2 * iterations): one yield system call plus one
 * switch to another address space. On Linux, where there is no spawn, the
 * partner is a fork() of this process running the same yield loop.
 */
#define _DEFAULT_SOURCE /* wait4, clock_gettime, kill with -std=c17 */
#include "bench.h"

#include <errno.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static const char prog[] = "bench_process_switch";

/* Starts the partner; returns its pid or -errno. */
static long start_partner(void)
{
	static char name[] = "bench_yield_partner";
	char *argv[] = { name, NULL };
	char *envp[] = { NULL };

	long pid = myrmex_spawn(name, argv, envp, -1);
	if (pid != -ENOSYS)
		return pid;
	pid_t child = fork(); /* Linux: no boot modules */
	if (child == 0)
		bench_yield_forever();
	return child < 0 ? -errno : child;
}

static void yield_body(void *ctx, uint64_t iters)
{
	(void)ctx;
	for (uint64_t i = 0; i < iters; i++)
		bench_yield();
}

int main(void)
{
	long pid = start_partner();
	if (pid < 0) {
		bench_fail(prog, "starting bench_yield_partner", pid);
		return 1;
	}

	const struct bench b = {
		.suite = "kernel",
		.name = "sched.process_switch",
		.runs = 21,
		.iters = 2000,
		.ops_per_iter = 2,
		.body = yield_body,
	};
	int ret = bench_run(&b); /* its warm-up run gets the partner going */

	if (kill((pid_t)pid, SIGKILL) < 0) {
		bench_fail(prog, "kill partner, errno", errno);
		return 1;
	}
	int status;
	while (wait4((pid_t)pid, &status, 0, NULL) < 0) {
		if (errno != EINTR) {
			bench_fail(prog, "wait4 partner, errno", errno);
			return 1;
		}
	}
	/* Anything but death by our SIGKILL means the partner was not
	 * yielding during the measurement: the figure is worthless. */
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL) {
		bench_fail(prog, "partner ended early, wait status", status);
		return 1;
	}
	return ret == 0 ? 0 : 1;
}
