/*
 * fsconf (suite fsconf, issue 19): paper 003's figure 1 and concurrent
 * readers, run once per configuration of the file service by
 * tools/bench_fsconf.py (`sysinit fsconf=<name> /bench/posix/run fsconf`),
 * which puts the configuration into the figure names; on Linux the same
 * binary gives the rows named fsconf.linux.* (the idle time from
 * /proc/stat: fsconf_os.h).
 *
 * Cold reads: every run of every figure reads a part of DATA_NAME that
 * nothing has read since the boot (next_part()), so its blocks come from
 * the disk on both systems; on Linux the caches are also dropped before
 * each run (sync, drop_caches). Myrmex's FS_DROP_CACHE cannot serve here: a
 * POSIX process may not call the file manager natively (before this the
 * program called it, was refused and read warm after its first run).
 *
 *   fsconf.pair.elapsed   a reader of PAIR_BYTES of DATA_NAME, cold, and a
 *                         time querier making
 *                         TIME_CALLS clock_gettime system calls (each one
 *                         IPC to whoever answers the time calls: the time
 *                         server in split, else the file manager), started
 *                         together: TSC ticks until both are done
 *   fsconf.pair.system    the same run's busy ticks: elapsed less the
 *                         ticks the CPU spent halted (kstats.idle_tsc), so
 *                         kernel and servers (the two clients only loop
 *                         around their calls); on Linux to /proc/stat's
 *                         10 ms resolution
 *   fsconf.pair.timecall  one time call's ticks during the pair: median and
 *                         minimum over all calls of all runs, and worst= the
 *                         slowest (the calls that waited behind the reader's
 *                         disk waits)
 *   fsconf.readers.<k>    k = 1, 2, 4, 8 processes, each reading its own
 *                         READER_BYTES part of DATA_NAME cold with 64 KiB
 *                         reads: ticks per 4 KiB read by all of them
 *                         (bytes=4096); .system: the same less the idle
 *                         ticks, as for the pair
 *
 * Each figure is the median of RUNS runs.
 */
#define _GNU_SOURCE
#include "bench.h"
#include "posix.h"
#include "fsconf_os.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>

#define DATA_NAME    "data128m"        /* tools/bench_fsconf.py's DATA_BYTES */
#define DATA_BYTES   (128u << 20)
#define CHUNK        (64 * 1024)
#define PAIR_BYTES   (8u << 20)
#define TIME_CALLS   2000u
#define READER_BYTES (2u << 20)
#define MAX_READERS  8u
#define RUNS         3u

static char path[256];
static uint64_t next_offset;   /* the first byte no run has read yet */

/* The offset of len bytes of the data file nothing has read yet in this
 * boot, or -1 when the file is used up (RUNS * (PAIR_BYTES + 15 *
 * READER_BYTES) = 114 MiB of DATA_BYTES). */
static int64_t next_part(uint64_t len)
{
	if (next_offset + len > DATA_BYTES)
		return -1;
	next_offset += len;
	return (int64_t)(next_offset - len);
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
		uint64_t idle0, idle1;
		int64_t part = next_part(PAIR_BYTES);
		if (part < 0 || fsconf_drop_cache() < 0 || fsconf_idle_ticks(&idle0) < 0)
			return -1;
		uint64_t t0 = myrmex_rdtsc();
		pid_t pid = start_reader((uint64_t)part, PAIR_BYTES);
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
		if (fsconf_idle_ticks(&idle1) < 0)
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
	uint64_t per4k[RUNS], busy4k[RUNS], idle0, idle1;
	uint64_t reads = (uint64_t)k * READER_BYTES / 4096;
	for (unsigned r = 0; r < RUNS; r++) {
		int64_t part = next_part((uint64_t)k * READER_BYTES);
		if (part < 0 || fsconf_drop_cache() < 0 || fsconf_idle_ticks(&idle0) < 0)
			return -1;
		pid_t pids[MAX_READERS];
		uint64_t t0 = myrmex_rdtsc();
		for (unsigned i = 0; i < k; i++)
			pids[i] = start_reader((uint64_t)part + (uint64_t)i * READER_BYTES,
			                       READER_BYTES);
		int ok = 1;
		for (unsigned i = 0; i < k; i++)
			ok &= wait_ok(pids[i]);
		uint64_t elapsed = myrmex_rdtsc() - t0;
		if (!ok || fsconf_idle_ticks(&idle1) < 0)
			return -1;
		uint64_t idle = idle1 - idle0;
		per4k[r] = elapsed / reads;
		busy4k[r] = (idle < elapsed ? elapsed - idle : 0) / reads;
	}
	char name[64];
	snprintf(name, sizeof name, "fsconf.readers.%u", k);
	figure(name, per4k, RUNS, 4096);
	snprintf(name, sizeof name, "fsconf.readers.%u.system", k);
	figure(name, busy4k, RUNS, 4096);
	return 0;
}

int main(int argc, char **argv)
{
	(void)argc;
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
