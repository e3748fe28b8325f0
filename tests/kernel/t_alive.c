/*
 * t_alive: uses each basic kernel service once, to show the kernel still
 * works (the init runs it after every hostile test): write, getpid, an
 * anonymous mapping touched and unmapped, a thread made and joined (clone,
 * futex), a short sleep and the clock.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_alive"
#include "test_check.h"

#include <sys/mman.h>
#include <time.h>

#define MAPPING (64 * 1024L)
#define PAGE 4096L

/* The raw calls of a 32-bit port (SH-4): mmap2 (the old SYS_mmap takes
 * its arguments in memory), clock_gettime's 32-bit call, and a timespec
 * of two longs (musl's has a 64-bit tv_sec there), as in t_mmap, t_futex. */
#ifdef SYS_mmap2
#define SYS_MMAP_RAW SYS_mmap2
#else
#define SYS_MMAP_RAW SYS_mmap
#endif
#ifndef SYS_clock_gettime
#define SYS_clock_gettime SYS_clock_gettime32
#endif
struct raw_timespec {
	long tv_sec;
	long tv_nsec;
};

static volatile int thread_ran;

static void mark_ran(void *arg)
{
	(void)arg;
	thread_ran = 1;
}

int main(void)
{
	myrmex_puts("t_alive: the kernel is alive\n");

	long pid = raw0(SYS_getpid);
	CHECK(pid > 0, "getpid returned %ld", pid);

	long map = myrmex_syscall6(SYS_MMAP_RAW, 0, MAPPING, PROT_READ | PROT_WRITE,
	                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map < 0) {
		test_fail("mmap of 64 KiB returned %ld", map);
	} else {
		for (long off = 0; off < MAPPING; off += PAGE)
			((volatile char *)map)[off] = 1;
		CHECK(((volatile char *)map)[MAPPING - PAGE] == 1, "the mapping lost a write");
		CHECK_EQ(raw2(SYS_munmap, map, MAPPING), 0);
	}

	struct myrmex_thread t;
	long err = myrmex_thread_create(&t, mark_ran, NULL, 0);
	if (err < 0) {
		test_fail("myrmex_thread_create returned %ld", err);
	} else {
		myrmex_thread_join(&t);
		CHECK(thread_ran, "the joined thread never ran");
	}

	struct raw_timespec nap = { 0, 1000000 };
	CHECK_EQ(raw2(SYS_nanosleep, (long)&nap, 0), 0);

	struct raw_timespec now;
	CHECK_EQ(raw2(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&now), 0);
	return test_exit_code();
}
