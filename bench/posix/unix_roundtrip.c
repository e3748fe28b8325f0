/*
 * linux.unix.roundtrip (suite posix, for reference): this process and a
 * forked child pass one byte back and forth over a Unix stream socket pair
 * (socketpair(AF_UNIX, SOCK_STREAM)); per round trip (our send, the
 * child's receive, its send, our receive), as posix.pipe_pingpong does
 * over pipes. Myrmex has no sockets yet (ENOSYS): the benchmark then says
 * BENCH-SKIP and succeeds, and only Linux gets a figure.
 */
#define _GNU_SOURCE
#include "bench.h"
#include "posix.h"

#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define NAME "linux.unix.roundtrip"

struct pair {
	int sv[2];        /* [0] ours, [1] the child's */
	uint64_t bad;
};

static void roundtrip_body(void *ctx, uint64_t iters)
{
	struct pair *p = ctx;
	p->bad += posix_ping(p->sv[0], p->sv[0], iters);
}

int main(void)
{
	static struct pair p;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, p.sv) != 0) {
		posix_skip(NAME, "socketpair", errno);
		return 0;
	}
	pid_t child = fork();
	if (child < 0) {
		bench_fail(NAME, "fork", -errno);
		return 1;
	}
	if (child == 0) {
		close(p.sv[0]);
		posix_pong(p.sv[1], p.sv[1]);
	}
	close(p.sv[1]);
	const struct bench b = {
		.suite = "posix", .name = NAME, .runs = 21, .iters = 200, .ops_per_iter = 1,
		.body = roundtrip_body, .ctx = &p,
	};
	int ret = bench_run(&b);
	close(p.sv[0]);   /* end of file: the child exits */
	ret = posix_pong_end(NAME, child, p.bad, ret);
	return ret == 0 ? 0 : 1;
}
