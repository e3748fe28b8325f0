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

/* The child: answers every byte b with b + 1 until end of file. */
static _Noreturn void answer(struct pair *p)
{
	close(p->sv[0]);
	for (;;) {
		unsigned char c;
		ssize_t n = read(p->sv[1], &c, 1);
		if (n == 0)
			_exit(0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		c++;
		if (write(p->sv[1], &c, 1) != 1)
			_exit(1);
	}
}

static void roundtrip_body(void *ctx, uint64_t iters)
{
	struct pair *p = ctx;
	for (uint64_t i = 0; i < iters; i++) {
		unsigned char out = (unsigned char)i, in = 0;
		if (write(p->sv[0], &out, 1) != 1 || read(p->sv[0], &in, 1) != 1 ||
		    in != (unsigned char)(out + 1))
			p->bad++;
	}
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
	if (child == 0)
		answer(&p);
	close(p.sv[1]);
	const struct bench b = {
		.suite = "posix", .name = NAME, .runs = 21, .iters = 200, .ops_per_iter = 1,
		.body = roundtrip_body, .ctx = &p,
	};
	int ret = bench_run(&b);
	close(p.sv[0]);   /* end of file: the child exits */
	int status = 0;
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		bench_fail(NAME, "child status", status);
		ret = -1;
	}
	if (p.bad) {
		bench_fail(NAME, "bad round trips", (long)p.bad);
		ret = -1;
	}
	return ret == 0 ? 0 : 1;
}
