/*
 * fsconf (suite fsconf, issue 19): paper 003's figure 1 and concurrent
 * readers, run once per configuration of the file service by
 * tools/bench_fsconf.py (`sysinit fsconf=<name> /bench/posix/run fsconf`),
 * which puts the configuration into the figure names. Myrmex only.
 *
 *   fsconf.pair.elapsed   a reader of PAIR_BYTES of data16m, cold (the
 *                         cache dropped first), and a time querier making
 *                         TIME_CALLS clock_gettime system calls (each one
 *                         IPC to whoever answers the time calls: the time
 *                         server in split, else the file manager), started
 *                         together: TSC ticks until both are done
 *   fsconf.pair.system    the same run's busy ticks: elapsed less the
 *                         ticks the CPU spent halted (kstats.idle_tsc), so
 *                         kernel and servers (the two clients only loop
 *                         around their calls)
 *   fsconf.pair.timecall  one time call's ticks during the pair: median and
 *                         minimum over all calls of all runs, and worst= the
 *                         slowest (the calls that waited behind the reader's
 *                         disk waits)
 *   fsconf.readers.<k>    k = 1, 2, 4, 8 processes, each reading its own
 *                         READER_BYTES part of data16m cold with 64 KiB
 *                         reads: ticks per 4 KiB read by all of them
 *                         (bytes=4096)
 *
 * Each figure is the median of RUNS runs.
 */
#define _GNU_SOURCE
#include "bench.h"
#include "posix.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>

#define DATA_NAME    "data16m"
#define CHUNK        (64 * 1024)
#define PAIR_BYTES   (8u << 20)
#define TIME_CALLS   2000u
#define READER_BYTES (2u << 20)
#define MAX_READERS  8u
#define RUNS         3u

static char path[256];

static int idle_and_khz(uint64_t *idle, uint64_t *khz)
{
	struct myrmex_kstats ks;
	if (myrmex_kstats(&ks) != (long)sizeof ks)
		return -1;
	*idle = ks.idle_tsc;
	if (khz)
		*khz = ks.tsc_khz;
	return 0;
}

/* Reads len bytes of the data file from off, cold; exits 0 when all came. */
static _Noreturn void reader(uint64_t off, uint64_t len)
{
	static char buf[CHUNK];
	int fd = open(path, O_RDONLY);
	uint64_t done = 0;
	while (fd >= 0 && done < len) {
		ssize_t n = pread(fd, buf, CHUNK, (off_t)(off + done));
		if (n <= 0)
			break;
		done += (uint64_t)n;
	}
	_exit(done >= len ? 0 : 1);
}

static pid_t start_reader(uint64_t off, uint64_t len)
{
	pid_t pid = fork();
	if (pid == 0)
		reader(off, len);
	return pid;
}

static int wait_ok(pid_t pid)
{
	int status = 0;
	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

static void figure(const char *name, uint64_t *v, unsigned n, unsigned bytes)
{
	for (unsigned i = 1; i < n; i++)   /* a few values: insertion sort */
		for (unsigned j = i; j > 0 && v[j] < v[j - 1]; j--) {
			uint64_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	printf("BENCH fsconf %s median=%" PRIu64 " min=%" PRIu64 " runs=%u", name, v[n / 2], v[0], n);
	if (bytes)
		printf(" bytes=%u", bytes);
	printf("\n");
	fflush(stdout);
}

static uint64_t calls[RUNS * TIME_CALLS];

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static int pair(void)
{
	uint64_t elapsed[RUNS], busy[RUNS];
	for (unsigned r = 0; r < RUNS; r++) {
		myrmex_fs_drop_cache();
		uint64_t idle0, idle1;
		if (idle_and_khz(&idle0, NULL) < 0)
			return -1;
		uint64_t t0 = myrmex_rdtsc();
		pid_t pid = start_reader(0, PAIR_BYTES);
		struct timespec ts;
		for (unsigned i = 0; i < TIME_CALLS; i++) {
			uint64_t c0 = myrmex_rdtsc();
			if (syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts) != 0)
				return -1;
			calls[r * TIME_CALLS + i] = myrmex_rdtsc() - c0;
		}
		if (!wait_ok(pid))
			return -1;
		uint64_t t1 = myrmex_rdtsc();
		if (idle_and_khz(&idle1, NULL) < 0)
			return -1;
		elapsed[r] = t1 - t0;
		uint64_t idle = idle1 - idle0;
		busy[r] = idle < elapsed[r] ? elapsed[r] - idle : 0;
	}
	figure("fsconf.pair.elapsed", elapsed, RUNS, 0);
	figure("fsconf.pair.system", busy, RUNS, 0);
	unsigned n = RUNS * TIME_CALLS;
	qsort(calls, n, sizeof calls[0], cmp_u64);
	printf("BENCH fsconf fsconf.pair.timecall median=%" PRIu64 " min=%" PRIu64
	       " runs=%u worst=%" PRIu64 "\n", calls[n / 2], calls[0], n, calls[n - 1]);
	fflush(stdout);
	return 0;
}

static int readers(unsigned k)
{
	uint64_t per4k[RUNS];
	for (unsigned r = 0; r < RUNS; r++) {
		myrmex_fs_drop_cache();
		pid_t pids[MAX_READERS];
		uint64_t t0 = myrmex_rdtsc();
		for (unsigned i = 0; i < k; i++)
			pids[i] = start_reader((uint64_t)i * READER_BYTES, READER_BYTES);
		int ok = 1;
		for (unsigned i = 0; i < k; i++)
			ok &= wait_ok(pids[i]);
		if (!ok)
			return -1;
		per4k[r] = (myrmex_rdtsc() - t0) / ((uint64_t)k * READER_BYTES / 4096);
	}
	char name[64];
	snprintf(name, sizeof name, "fsconf.readers.%u", k);
	figure(name, per4k, RUNS, 4096);
	return 0;
}

int main(int argc, char **argv)
{
	(void)argc;
	if (!myrmex_is_native()) {
		posix_skip("fsconf", "the file service's configurations are Myrmex's", ENOSYS);
		return 0;
	}
	if (posix_sibling(path, sizeof path, argv[0], DATA_NAME) < 0)
		return 1;
	if (pair() < 0) {
		printf("BENCH-ERROR fsconf pair failed\n");
		return 1;
	}
	for (unsigned k = 1; k <= MAX_READERS; k *= 2)
		if (readers(k) < 0) {
			printf("BENCH-ERROR fsconf readers.%u failed\n", k);
			return 1;
		}
	return 0;
}
