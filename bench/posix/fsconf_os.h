/*
 * What bench/posix/fsconf.c and fscmd.c need from the system they run on,
 * the same static binary on Myrmex and on Linux (tools/bench_fsconf.py):
 *
 *   fsconf_drop_cache()   on Linux sync() and then "3" written to
 *                         /proc/sys/vm/drop_caches (page cache, dentries and
 *                         inodes; the guest's /init mounts /proc inside the
 *                         chroot for it). On Myrmex nothing: a POSIX process
 *                         holds no right to call the file manager natively,
 *                         so its FS_DROP_CACHE is refused (EPERM), and there
 *                         is no /proc/sys/vm/drop_caches; fsconf.c reads
 *                         cold on both systems by reading each byte of its
 *                         data file once per boot
 *   fsconf_idle_ticks()   TSC ticks the CPU has spent idle since boot: on
 *                         Myrmex kstats.idle_tsc (exact); on Linux the idle
 *                         and iowait fields of /proc/stat's cpu line, in
 *                         USER_HZ units (10 ms), converted with the TSC
 *                         frequency: coarse, stated with the figures
 */
#ifndef BENCH_FSCONF_OS_H
#define BENCH_FSCONF_OS_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <myrmex.h>

static inline int fsconf_drop_cache(void)
{
	if (myrmex_is_native())
		return 0;
	sync();
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd < 0)
		return -1;
	int ok = write(fd, "3\n", 2) == 2;
	close(fd);
	return ok ? 0 : -1;
}

/* TSC kHz: Myrmex's calibrated figure, or on Linux ticks over 50 ms of
 * CLOCK_MONOTONIC (measured once). */
static inline uint64_t fsconf_tsc_khz(void)
{
	static uint64_t khz;
	struct myrmex_kstats ks;
	if (khz)
		return khz;
	if (myrmex_is_native() && myrmex_kstats(&ks) == (long)sizeof ks)
		return khz = ks.tsc_khz;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	uint64_t c0 = myrmex_rdtsc(), ns;
	do {
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns = (uint64_t)(b.tv_sec - a.tv_sec) * 1000000000u + (uint64_t)b.tv_nsec -
		     (uint64_t)a.tv_nsec;
	} while (ns < 50000000u);
	uint64_t ticks = myrmex_rdtsc() - c0;
	return khz = ticks * 1000000u / ns;
}

/* Returns 0 and the idle ticks in *idle, or -1. */
static inline int fsconf_idle_ticks(uint64_t *idle)
{
	if (myrmex_is_native()) {
		struct myrmex_kstats ks;
		if (myrmex_kstats(&ks) != (long)sizeof ks)
			return -1;
		*idle = ks.idle_tsc;
		return 0;
	}
	FILE *f = fopen("/proc/stat", "r");
	unsigned long long user, nice, sys, idl, iow;
	int n = f ? fscanf(f, "cpu %llu %llu %llu %llu %llu", &user, &nice, &sys, &idl, &iow) : 0;
	if (f)
		fclose(f);
	long hz = sysconf(_SC_CLK_TCK);
	if (n != 5 || hz <= 0)
		return -1;
	*idle = (uint64_t)(idl + iow) * fsconf_tsc_khz() * 1000u / (uint64_t)hz;
	return 0;
}

#endif
