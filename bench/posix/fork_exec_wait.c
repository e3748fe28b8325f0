/*
 * posix.fork_exec_wait (suite posix): fork(), execve() of exit0 (a static
 * program that exits at once) in the child, waitpid() in the parent; per
 * iteration. exit0 is the program beside this one.
 *
 * On Myrmex (docs/posix.md) fork and execve are forwarded to the process
 * manager: fork makes a copy-on-write child and asks the file manager to
 * copy the descriptor table; execve has the process manager open and read
 * the file through the file manager and the kernel replace the image; the
 * child's exit tells the file manager (asynchronously) to close its
 * descriptors; wait4 is the kernel's.
 */
#define _DEFAULT_SOURCE
#include "bench.h"
#include "posix.h"

#include <errno.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define TARGET "exit0"

static const char prog[] = "posix.fork_exec_wait";

struct fxw {
	char path[256];
	uint64_t failures;            /* fork failures and children not exiting 0 */
	int last_bad;                 /* the last bad status or -errno */
};

static void fxw_body(void *ctx, uint64_t iters)
{
	struct fxw *f = ctx;
	char *argv[] = { f->path, NULL };
	char *envp[] = { NULL };
	for (uint64_t i = 0; i < iters; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			execve(f->path, argv, envp);
			_exit(127);
		}
		if (pid < 0) {
			f->failures++;
			f->last_bad = -errno;
			continue;
		}
		int status;
		pid_t w;
		while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
			;
		if (w != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			f->failures++;
			f->last_bad = w != pid ? -errno : status;
		}
	}
}

int main(int argc, char **argv)
{
	static struct fxw f;
	if (posix_sibling(f.path, sizeof f.path, argc > 0 ? argv[0] : NULL, TARGET) != 0) {
		bench_fail(prog, "path too long", 0);
		return 1;
	}
	if (access(f.path, X_OK) != 0) {
		bench_fail(prog, "no executable " TARGET " beside us", -errno);
		return 1;
	}
	const struct bench b = {
		.suite = "posix",
		.name = "posix.fork_exec_wait",
		.runs = 21,
		.iters = 20,
		.ops_per_iter = 1,
		.body = fxw_body,
		.ctx = &f,
	};
	int ret = bench_run(&b);
	if (f.failures != 0) {
		bench_fail(prog, "failed iterations", (long)f.failures);
		bench_fail(prog, "last bad status or -errno", f.last_bad);
		ret = -1;
	}
	return ret == 0 ? 0 : 1;
}
