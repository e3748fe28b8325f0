/*
 * What the POSIX benchmarks (bench/posix/, suite posix) share: the folder
 * they run from, and the two sides of a one-byte ping-pong between a parent
 * and a child. The programs and the read4k data file sit side by side in
 * /bench/posix on the benchmark disk (tools/bench_posix.py), on Myrmex as on
 * Linux, and find each other through argv[0], so they also run from any
 * other folder.
 */
#ifndef BENCH_POSIX_H
#define BENCH_POSIX_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <myrmex.h>
#include <myrmex/time.h>
#include <errno.h>

/* The folder of the POSIX benchmarks when argv[0] names none. */
#define POSIX_BENCH_DIR "/bench/posix"

/*
 * Writes "<folder of self>/<name>" to out (size bytes). Returns 0, or -1
 * when it does not fit.
 */
static inline int posix_sibling(char *out, size_t size, const char *self, const char *name)
{
	const char *slash = self ? strrchr(self, '/') : NULL;
	int n = slash ? snprintf(out, size, "%.*s/%s", (int)(slash - self), self, name)
	              : snprintf(out, size, "%s/%s", POSIX_BENCH_DIR, name);
	return n > 0 && (size_t)n < size ? 0 : -1;
}

/*
 * The end of the name of a time benchmark: "" when the time server answers
 * the time calls (or on Linux), ".kernel" on Myrmex without a time server
 * (the runner's second pass, after it has stopped timed: the kernel then
 * answers them itself, docs/posix.md).
 */
static inline const char *posix_time_suffix(void)
{
	return myrmex_server_pid(MYRMEX_COREID_TIME) == -ESRCH ? ".kernel" : "";
}

/*
 * "BENCH-SKIP <name> <why> <errno name>" on stdout in one write: a workload
 * this system does not offer (bench.py reports it as a note, not a
 * failure), e.g. eventfd and socketpair on Myrmex, which say ENOSYS.
 */
static inline void posix_skip(const char *name, const char *why, int err)
{
	char line[160];
	int n = snprintf(line, sizeof line, "BENCH-SKIP %s %s: %s\n", name, why,
	                 err == ENOSYS ? "not available here (ENOSYS)" : strerror(err));
	if (n > 0 && fwrite(line, 1, (size_t)n, stdout) == (size_t)n)
		fflush(stdout);
}

/* The child of a ping-pong: answers every byte b read from rfd with b + 1
 * on wfd, until end of file (exit 0) or an error (exit 1). */
static inline _Noreturn void posix_pong(int rfd, int wfd)
{
	for (;;) {
		unsigned char c;
		ssize_t n = read(rfd, &c, 1);
		if (n == 0)
			_exit(0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		c++;
		if (write(wfd, &c, 1) != 1)
			_exit(1);
	}
}

/* The parent's side: iters round trips of one byte out on wfd and back on
 * rfd; returns how many failed or brought a wrong byte. */
static inline uint64_t posix_ping(int wfd, int rfd, uint64_t iters)
{
	uint64_t bad = 0;
	for (uint64_t i = 0; i < iters; i++) {
		unsigned char out = (unsigned char)i, in = 0;
		if (write(wfd, &out, 1) != 1 || read(rfd, &in, 1) != 1 ||
		    in != (unsigned char)(out + 1))
			bad++;
	}
	return bad;
}

/* Reaps the ping-pong's child and reports what went wrong: ret, or -1 when
 * the child failed or a round trip was bad. */
static inline int posix_pong_end(const char *name, pid_t child, uint64_t bad, int ret)
{
	int status = 0;
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		bench_fail(name, "child status", status);
		ret = -1;
	}
	if (bad) {
		bench_fail(name, "bad round trips", (long)bad);
		ret = -1;
	}
	return ret;
}

#endif
