/*
 * Time helpers shared by the tests and benchmarks: the CLOCK_MONOTONIC
 * reading in nanoseconds and a relative sleep, both through raw system
 * calls (no vDSO, no errno) so that threads sharing TLS may use them, with
 * the kernel's timespec (raw_time.h).
 */
#define _GNU_SOURCE
#include "myrmex.h"

#include "raw_time.h"

#include <sys/syscall.h>
#include <time.h>

uint64_t myrmex_now_ns(void)
{
	struct myrmex_raw_timespec ts;

	if (myrmex_syscall6(MYRMEX_SYS_RAW_CLOCK_GETTIME, CLOCK_MONOTONIC, (long)&ts, 0, 0, 0,
	                    0) < 0)
		return 0;
	return (uint64_t)ts.sec * 1000000000u + (uint64_t)ts.nsec;
}

long myrmex_sleep_ns(uint64_t ns)
{
	struct myrmex_raw_timespec ts = {
		.sec = (long)(ns / 1000000000u),
		.nsec = (long)(ns % 1000000000u),
	};

	return myrmex_syscall6(SYS_nanosleep, (long)&ts, 0, 0, 0, 0, 0);
}
