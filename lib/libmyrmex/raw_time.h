/*
 * The timespec the kernel's raw time calls read and write: two longs, as
 * Linux's clock_gettime, nanosleep and futex take on every port. On a
 * 32-bit port musl's struct timespec has a 64-bit tv_sec (time64) and its
 * <sys/syscall.h> names the 32-bit calls SYS_*_time32/SYS_*32, so the
 * library's raw calls use this layout and these names instead of libc's.
 */
#ifndef MYRMEX_RAW_TIME_H
#define MYRMEX_RAW_TIME_H

#include <sys/syscall.h>

struct myrmex_raw_timespec {
	long sec;
	long nsec;
};

#ifdef SYS_clock_gettime32
#define MYRMEX_SYS_RAW_CLOCK_GETTIME SYS_clock_gettime32
#else
#define MYRMEX_SYS_RAW_CLOCK_GETTIME SYS_clock_gettime
#endif

#endif
