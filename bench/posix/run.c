/*
 * run: the runner of the POSIX benchmarks, the same static binary on both
 * systems. On Myrmex it is the first POSIX program of the benchmark boot
 * (`sysinit /bench/posix/run`: sysinit powers off when it exits); on Linux
 * the guest's /init runs it (tools/bench_posix.py). It prints the TSC
 * frequency (Myrmex's kstats, or on Linux the TSC measured against
 * CLOCK_MONOTONIC), runs the benchmark programs beside it one after the
 * other (fork, execve, waitpid: each in a fresh process), prints
 * `BENCH-ERROR <name> ...` for one that fails, then BENCH-DONE, and exits
 * with 0 when all passed. With arguments it runs only the programs named.
 * On Myrmex, after the whole list, it tries to stop the time server
 * (SIGKILL) to run the time benchmarks again with the time calls answered by
 * the kernel (figures ending in ".kernel"); since issue 14 a POSIX process
 * may not signal a server, so it says BENCH-SKIP instead.
 */
#define _DEFAULT_SOURCE
#include "bench.h"
#include "posix.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const all_benchmarks[] = {
	"getpid",
	"read4k",
	"fork_exec_wait",
	"pipe_pingpong",
	"clock_gettime",
	"time_fileread",
	"futex_roundtrip",
	"eventfd_roundtrip",
	"unix_roundtrip",
	"net_loopback",
	"net_send",
};

/* Run again once the time server is stopped: the kernel's answers. */
static const char *const time_benchmarks[] = {
	"clock_gettime",
	"time_fileread",
};

extern char **environ;

/* One line with a single write(). */
static void say(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	if (len > (int)sizeof line - 1)
		len = sizeof line - 1;
	if (write(1, line, (size_t)len) < 0)
		return;
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Myrmex's calibrated TSC kHz, else TSC ticks over 100 ms of CLOCK_MONOTONIC. */
static uint64_t tsc_khz(void)
{
	struct myrmex_kstats ks;
	if (myrmex_kstats(&ks) == (long)sizeof ks)
		return ks.tsc_khz;
	uint64_t t0 = monotonic_ns(), c0 = myrmex_rdtsc(), t1;
	do
		t1 = monotonic_ns();
	while (t1 - t0 < 100000000u);
	return (myrmex_rdtsc() - c0) * 1000000u / (t1 - t0);
}

/* Runs <our folder>/<name> to its end; 0 when it exited with status 0. */
static int run_one(const char *self, const char *name)
{
	char path[256];
	if (posix_sibling(path, sizeof path, self, name) != 0) {
		say("BENCH-ERROR %s path too long\n", name);
		return -1;
	}
	char *argv[] = { path, NULL };
	pid_t pid = fork();
	if (pid == 0) {
		execve(path, argv, environ);
		_exit(127);
	}
	if (pid < 0) {
		say("BENCH-ERROR %s fork=%d\n", name, -errno);
		return -1;
	}
	int status;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			say("BENCH-ERROR %s wait=%d\n", name, -errno);
			return -1;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFSIGNALED(status))
		say("BENCH-ERROR %s signal=%d\n", name, WTERMSIG(status));
	else
		say("BENCH-ERROR %s exit=%d\n", name, WEXITSTATUS(status));
	return -1;
}

/* Stops the time server; 0 once it is gone, -1 when there is none (Linux)
 * or it stays. */
static int stop_time_server(void)
{
	long pid = myrmex_server_pid(MYRMEX_COREID_TIME);
	if (pid <= 0)
		return -1;
	if (kill((pid_t)pid, SIGKILL) != 0) {
		/* Since issue 14 a POSIX process may signal only POSIX processes,
		 * and the service manager would start the server again anyway. */
		say("BENCH-SKIP posix.clock_gettime.kernel the time server cannot be stopped "
		    "(kill: errno %d)\n", errno);
		return -1;
	}
	for (int i = 0; i < 1000; i++) {
		if (myrmex_server_pid(MYRMEX_COREID_TIME) == -ESRCH)
			return 0;
		myrmex_sleep_ns(1000000);
	}
	say("BENCH-ERROR time server did not stop\n");
	return -1;
}

int main(int argc, char **argv)
{
	const char *self = argc > 0 ? argv[0] : NULL;
	int failed = 0;
	say("BENCH-TSC-KHZ %" PRIu64 "\n", tsc_khz());
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			failed += run_one(self, argv[i]) != 0;
	} else {
		for (size_t i = 0; i < sizeof all_benchmarks / sizeof all_benchmarks[0]; i++)
			failed += run_one(self, all_benchmarks[i]) != 0;
		if (stop_time_server() == 0)
			for (size_t i = 0; i < sizeof time_benchmarks / sizeof time_benchmarks[0]; i++)
				failed += run_one(self, time_benchmarks[i]) != 0;
	}
	say("BENCH-DONE\n");
	return failed ? 1 : 0;
}
