/*
 * posix.pipe_pingpong (suite posix): this process and a forked child pass
 * one byte back and forth over two pipes; per round trip (our write, the
 * child's read, its write, our read). The child answers until its pipe
 * reaches end of file.
 *
 * On Myrmex (docs/posix.md) each of the four calls is forwarded to the file
 * manager (1 IPC each), which holds the pipes: a read that finds the pipe
 * empty is parked there until the other side's write completes it.
 */
#define _DEFAULT_SOURCE
#include "bench.h"
#include "posix.h"

#include <errno.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static const char prog[] = "posix.pipe_pingpong";

struct pingpong {
	int to_child[2];
	int to_parent[2];
	uint64_t bad;                 /* round trips that failed or brought a wrong byte */
};

static void pingpong_body(void *ctx, uint64_t iters)
{
	struct pingpong *p = ctx;
	p->bad += posix_ping(p->to_child[1], p->to_parent[0], iters);
}

int main(void)
{
	static struct pingpong p;
	if (pipe(p.to_child) != 0 || pipe(p.to_parent) != 0) {
		bench_fail(prog, "pipe", -errno);
		return 1;
	}
	pid_t child = fork();
	if (child < 0) {
		bench_fail(prog, "fork", -errno);
		return 1;
	}
	if (child == 0) {
		close(p.to_child[1]);
		close(p.to_parent[0]);
		posix_pong(p.to_child[0], p.to_parent[1]);
	}
	close(p.to_child[0]);
	close(p.to_parent[1]);

	const struct bench b = {
		.suite = "posix",
		.name = "posix.pipe_pingpong",
		.runs = 21,
		.iters = 200,
		.ops_per_iter = 1,
		.body = pingpong_body,
		.ctx = &p,
	};
	int ret = bench_run(&b);

	close(p.to_child[1]);   /* end of file: the child exits */
	ret = posix_pong_end(prog, child, p.bad, ret);
	close(p.to_parent[0]);
	return ret == 0 ? 0 : 1;
}
