/*
 * posix.clock_gettime (suite posix): clock_gettime(CLOCK_MONOTONIC) as an
 * unmodified program calls it (musl), per call; posix.clock_gettime.syscall
 * the same through the raw system call. On both systems musl's call is
 * the vDSO's (AT_SYSINFO_EHDR; on Myrmex include/myrmex/vdso.h): rdtsc and
 * the time server's clock from the clock page, no system call, no IPC. The
 * raw system call is, on Myrmex, forwarded to the time server, one IPC
 * round trip (docs/posix.md), and on Linux Linux's kernel path. When no
 * time server runs (the runner's second pass, after stopping it) the names
 * end in ".kernel": the clock page then says "nothing published", so the
 * vDSO makes the system call too, which the kernel answers itself.
 */
#define _GNU_SOURCE
#include "bench.h"
#include "posix.h"

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct clock_ctx {
	struct timespec ts;
	uint64_t bad;
	uint64_t last;
};

static void check(struct clock_ctx *c, int r)
{
	uint64_t ns = (uint64_t)c->ts.tv_sec * 1000000000u + (uint64_t)c->ts.tv_nsec;
	if (r != 0 || ns < c->last)
		c->bad++;
	c->last = ns;
}

static void libc_body(void *ctx, uint64_t iters)
{
	struct clock_ctx *c = ctx;
	for (uint64_t i = 0; i < iters; i++)
		check(c, clock_gettime(CLOCK_MONOTONIC, &c->ts));
}

static void syscall_body(void *ctx, uint64_t iters)
{
	struct clock_ctx *c = ctx;
	for (uint64_t i = 0; i < iters; i++)
		check(c, (int)myrmex_syscall6(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&c->ts, 0, 0, 0,
		                              0));
}

int main(void)
{
	static struct clock_ctx c;
	const char *suffix = posix_time_suffix();
	char name[2][64];
	snprintf(name[0], sizeof name[0], "posix.clock_gettime%s", suffix);
	snprintf(name[1], sizeof name[1], "posix.clock_gettime.syscall%s", suffix);
	const struct bench b[2] = {
		{ .suite = "posix", .name = name[0], .runs = 21, .iters = 1000, .ops_per_iter = 1,
		  .body = libc_body, .ctx = &c },
		{ .suite = "posix", .name = name[1], .runs = 21, .iters = 1000, .ops_per_iter = 1,
		  .body = syscall_body, .ctx = &c },
	};
	int ret = 0;
	for (int i = 0; i < 2; i++)
		if (bench_run(&b[i]) != 0)
			ret = 1;
	if (c.bad) {
		bench_fail("posix.clock_gettime", "calls failed or went back", (long)c.bad);
		ret = 1;
	}
	return ret;
}
