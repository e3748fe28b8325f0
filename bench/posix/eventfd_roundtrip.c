/*
 * linux.eventfd.roundtrip (suite posix, for reference): this process and a
 * forked child pass a count back and forth through two eventfds (one each
 * way); per round trip (our write, the child's read, its write, our read).
 * Myrmex has no eventfd yet (ENOSYS): the benchmark then says BENCH-SKIP
 * and succeeds, and only Linux gets a figure.
 */
#define _GNU_SOURCE
#include "bench.h"
#include "posix.h"

#include <sys/eventfd.h>
#include <sys/wait.h>
#include <unistd.h>

#define NAME "linux.eventfd.roundtrip"

struct pair {
	int to_child, to_parent;
	uint64_t bad;
};

/* The child: answers every count until it reads the count 0xff..ff - 1. */
static _Noreturn void answer(struct pair *p)
{
	for (;;) {
		uint64_t v;
		if (read(p->to_child, &v, sizeof v) != (ssize_t)sizeof v) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		if (v == UINT64_MAX - 1)
			_exit(0);
		if (write(p->to_parent, &v, sizeof v) != (ssize_t)sizeof v)
			_exit(1);
	}
}

static void roundtrip_body(void *ctx, uint64_t iters)
{
	struct pair *p = ctx;
	for (uint64_t i = 0; i < iters; i++) {
		uint64_t out = i + 1, in = 0;
		if (write(p->to_child, &out, sizeof out) != (ssize_t)sizeof out ||
		    read(p->to_parent, &in, sizeof in) != (ssize_t)sizeof in || in != out)
			p->bad++;
	}
}

int main(void)
{
	static struct pair p;
	p.to_child = eventfd(0, 0);
	if (p.to_child < 0) {
		posix_skip(NAME, "eventfd", errno);
		return 0;
	}
	p.to_parent = eventfd(0, 0);
	if (p.to_parent < 0) {
		bench_fail(NAME, "eventfd", -errno);
		return 1;
	}
	pid_t child = fork();
	if (child < 0) {
		bench_fail(NAME, "fork", -errno);
		return 1;
	}
	if (child == 0)
		answer(&p);
	const struct bench b = {
		.suite = "posix", .name = NAME, .runs = 21, .iters = 200, .ops_per_iter = 1,
		.body = roundtrip_body, .ctx = &p,
	};
	int ret = bench_run(&b);
	uint64_t stop = UINT64_MAX - 1;
	if (write(p.to_child, &stop, sizeof stop) != (ssize_t)sizeof stop)
		ret = -1;
	ret = posix_pong_end(NAME, child, p.bad, ret);
	return ret == 0 ? 0 : 1;
}
