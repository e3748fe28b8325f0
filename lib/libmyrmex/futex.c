/*
 * Thin wrappers for the futex system call (FUTEX_WAIT and FUTEX_WAKE, the
 * shared, non-private form), used by thread join and by the tests.
 */
#define _GNU_SOURCE
#include "myrmex.h"

#include <sys/syscall.h>
#include <time.h>

long myrmex_futex_wait(volatile int *addr, int expected, int64_t timeout_ns)
{
	struct timespec ts;
	struct timespec *timeout = NULL;

	if (timeout_ns >= 0) {
		ts.tv_sec = (time_t)(timeout_ns / 1000000000);
		ts.tv_nsec = (long)(timeout_ns % 1000000000);
		timeout = &ts;
	}
	return myrmex_syscall6(SYS_futex, (long)addr, MYRMEX_FUTEX_WAIT, expected, (long)timeout,
	                       0, 0);
}

long myrmex_futex_wake(volatile int *addr, int count)
{
	return myrmex_syscall6(SYS_futex, (long)addr, MYRMEX_FUTEX_WAKE, count, 0, 0, 0);
}
