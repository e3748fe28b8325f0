/*
 * posix.timeq.* (suite posix): paper 003's experiment. A `time` process
 * (this one) asks for the time in a loop, alone and then while a `fileread`
 * process (a forked child) reads a file that is not in the cache, over and
 * over: the cache is dropped before every pass over data16m (16 MiB beside
 * this program; FS_DROP_CACHE on Myrmex, posix_fadvise(DONTNEED) on Linux).
 * Per call of the time loop:
 *
 *   posix.timeq.clock_gettime[.kernel].{alone,fileread}
 *       clock_gettime(CLOCK_MONOTONIC): on Myrmex answered by the time
 *       server (1 IPC), or with ".kernel" by the kernel (the runner's second
 *       pass, after stopping the time server); on Linux by the vDSO.
 *   posix.timeq.lseek.{alone,fileread}
 *       lseek(fd, 0, SEEK_SET) on a file: on Myrmex a null request to the
 *       file manager (1 IPC), standing for the time as MINIX's single file
 *       server answered it: behind the file reads, while the file manager
 *       waits for the disk. (Myrmex never answers the time from the file
 *       manager; this is what it would cost.) On Linux a plain system call.
 *
 * Each run of the loop lasts about WINDOW_MS (the number of calls is found
 * by a probe first, under the same conditions), several scheduler slices,
 * so that the figure includes the time the process does not get the CPU,
 * as the paper's elapsed times do. Each .fileread figure also gets .worst
 * (the slowest single call, one "run") and .reader (the reader's TSC ticks
 * per 4 KiB over its whole run, bytes=4096, so that the report shows its
 * MB/s: what the time loop leaves to the reader).
 */
#define _GNU_SOURCE
#include "bench.h"
#include "posix.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DATA_NAME  "data16m"
#define CHUNK      (64 * 1024)
#define BLOCK      4096u
#define WINDOW_MS  100u
#define RUNS       11u

static const char prog[] = "posix.timeq";

enum kind { KIND_CLOCK, KIND_LSEEK };

struct timeq {
	enum kind kind;
	int fd;               /* KIND_LSEEK's file */
	uint64_t worst;       /* the slowest call, TSC ticks */
	uint64_t bad;
};

static void timeq_body(void *ctx, uint64_t iters)
{
	struct timeq *q = ctx;
	struct timespec ts;
	for (uint64_t i = 0; i < iters; i++) {
		uint64_t t0 = myrmex_rdtsc();
		long r = q->kind == KIND_CLOCK ? clock_gettime(CLOCK_MONOTONIC, &ts)
		                               : (long)lseek(q->fd, 0, SEEK_SET);
		uint64_t t = myrmex_rdtsc() - t0;
		if (r != 0)
			q->bad++;
		if (t > q->worst)
			q->worst = t;
	}
}

/* ------------------------------------------------------------ the reader */

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static void drop_cache(int fd)
{
	if (myrmex_is_native())
		myrmex_fs_drop_cache();
	else
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

/* The child: reads path cold until SIGTERM, then writes {bytes, ticks} to
 * out. One byte on out once the first chunk is in: the reading has begun. */
static _Noreturn void reader(const char *path, int out)
{
	static char buf[CHUNK];
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	int fd = open(path, O_RDONLY);
	uint64_t result[2] = { 0, 0 };
	uint64_t t0 = myrmex_rdtsc();
	int told = 0;
	while (fd >= 0 && !stop) {
		drop_cache(fd);
		if (lseek(fd, 0, SEEK_SET) != 0)
			break;
		ssize_t n;
		while (!stop && (n = read(fd, buf, sizeof buf)) > 0) {
			result[0] += (uint64_t)n;
			if (!told) {
				told = write(out, "r", 1) == 1;
			}
		}
	}
	result[1] = myrmex_rdtsc() - t0;
	if (!told && write(out, "x", 1) != 1)
		_exit(1);
	_exit(write(out, result, sizeof result) == (ssize_t)sizeof result ? 0 : 1);
}

struct reading {
	pid_t pid;
	int in;
};

static int reader_start(const char *path, struct reading *r)
{
	int p[2];
	if (pipe(p) != 0)
		return -errno;
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		close(p[0]);
		reader(path, p[1]);
	}
	close(p[1]);
	char c = 0;
	if (read(p[0], &c, 1) != 1 || c != 'r') {
		close(p[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -EIO;
	}
	r->pid = pid;
	r->in = p[0];
	return 0;
}

/* Stops the reader; its {bytes, ticks}, or zeros. */
static void reader_stop(struct reading *r, uint64_t result[2])
{
	result[0] = result[1] = 0;
	kill(r->pid, SIGTERM);
	ssize_t got = 0;
	while (got < (ssize_t)(2 * sizeof(uint64_t))) {
		ssize_t n = read(r->in, (char *)result + got, 2 * sizeof(uint64_t) - (size_t)got);
		if (n <= 0)
			break;
		got += n;
	}
	close(r->in);
	waitpid(r->pid, NULL, 0);
}

/* ------------------------------------------------------------ figures */

/* "BENCH posix <name> median=<v> min=<v> runs=1 [bytes=<n>]", one write. */
static void single_figure(const char *name, uint64_t value, unsigned bytes)
{
	char line[192];
	int n = snprintf(line, sizeof line, "BENCH posix %s median=%" PRIu64 " min=%" PRIu64
	                 " runs=1", name, value, value);
	if (n > 0 && bytes)
		n += snprintf(line + n, sizeof line - (size_t)n, " bytes=%u", bytes);
	if (n > 0 && n < (int)sizeof line - 1) {
		line[n++] = '\n';
		if (write(1, line, (size_t)n) != n)
			return;
	}
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* TSC ticks per millisecond: Myrmex's calibration, else measured against
 * CLOCK_MONOTONIC over 50 ms. */
static uint64_t tsc_per_ms(void)
{
	struct myrmex_kstats ks;
	if (myrmex_kstats(&ks) == (long)sizeof ks && ks.tsc_khz)
		return ks.tsc_khz;
	uint64_t t0 = monotonic_ns(), c0 = myrmex_rdtsc(), t1;
	do
		t1 = monotonic_ns();
	while (t1 - t0 < 50000000u);
	return (myrmex_rdtsc() - c0) * 1000000u / (t1 - t0);
}

/* The calls that fill one window now (at least 1). */
static uint64_t calls_per_window(struct timeq *q, uint64_t window)
{
	uint64_t n = 0, t0 = myrmex_rdtsc();
	while (myrmex_rdtsc() - t0 < window) {
		timeq_body(q, 1);
		n++;
	}
	return n ? n : 1;
}

static int measure(struct timeq *q, const char *name, uint64_t window)
{
	const struct bench b = {
		.suite = "posix", .name = name, .runs = RUNS, .iters = calls_per_window(q, window),
		.ops_per_iter = 1, .body = timeq_body, .ctx = q,
	};
	q->worst = 0;
	return bench_run(&b);
}

static int one_kind(struct timeq *q, const char *kind, const char *path, uint64_t window)
{
	char name[96];
	int ret = 0;
	snprintf(name, sizeof name, "posix.timeq.%s.alone", kind);
	if (measure(q, name, window) != 0)
		ret = -1;

	struct reading r = { -1, -1 };
	int err = reader_start(path, &r);
	if (err < 0) {
		bench_fail(prog, "cannot start the reader", err);
		return -1;
	}
	snprintf(name, sizeof name, "posix.timeq.%s.fileread", kind);
	if (measure(q, name, window) != 0)
		ret = -1;
	uint64_t read_result[2];
	reader_stop(&r, read_result);
	snprintf(name, sizeof name, "posix.timeq.%s.fileread.worst", kind);
	single_figure(name, q->worst, 0);
	if (read_result[0] >= BLOCK) {
		snprintf(name, sizeof name, "posix.timeq.%s.fileread.reader", kind);
		single_figure(name, read_result[1] / (read_result[0] / BLOCK), BLOCK);
	} else {
		bench_fail(prog, "the reader read nothing", (long)read_result[0]);
		ret = -1;
	}
	return ret;
}

int main(int argc, char **argv)
{
	char path[256];
	if (posix_sibling(path, sizeof path, argc > 0 ? argv[0] : NULL, DATA_NAME) != 0) {
		bench_fail(prog, "path too long", 0);
		return 1;
	}
	struct timeq q = { .kind = KIND_CLOCK, .fd = open(path, O_RDONLY) };
	if (q.fd < 0) {
		bench_fail(prog, "cannot open " DATA_NAME, -errno);
		return 1;
	}
	const char *suffix = posix_time_suffix();
	uint64_t window = tsc_per_ms() * WINDOW_MS;
	char kind[32];
	snprintf(kind, sizeof kind, "clock_gettime%s", suffix);
	int ret = one_kind(&q, kind, path, window);
	/* The file manager's null request does not depend on who tells the
	 * time: measured in the first pass only. */
	if (suffix[0] == '\0') {
		q.kind = KIND_LSEEK;
		if (one_kind(&q, "lseek", path, window) != 0)
			ret = -1;
	}
	if (q.bad) {
		bench_fail(prog, "calls failed", (long)q.bad);
		ret = -1;
	}
	close(q.fd);
	return ret == 0 ? 0 : 1;
}
