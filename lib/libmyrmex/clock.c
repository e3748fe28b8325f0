/*
 * Time helpers shared by the tests and benchmarks: the CLOCK_MONOTONIC
 * reading in nanoseconds and a relative sleep, both through raw system
 * calls (no vDSO, no errno) so that threads sharing TLS may use them.
 */
#define _GNU_SOURCE
#include "myrmex.h"

#include <sys/syscall.h>
#include <time.h>

uint64_t myrmex_now_ns(void)
{
	struct timespec ts;

	if (myrmex_syscall6(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&ts, 0, 0, 0, 0) < 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

long myrmex_sleep_ns(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000u),
		.tv_nsec = (long)(ns % 1000000000u),
	};

	return myrmex_syscall6(SYS_nanosleep, (long)&ts, 0, 0, 0, 0, 0);
}
