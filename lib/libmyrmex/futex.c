/*
 * Thin wrappers for the futex system call (FUTEX_WAIT and FUTEX_WAKE, the
 * shared, non-private form), used by thread join and by the tests.
 */
#define _GNU_SOURCE
#include "myrmex.h"

#include "raw_time.h"

#include <sys/syscall.h>

long myrmex_futex_wait(volatile int *addr, int expected, int64_t timeout_ns)
{
	struct myrmex_raw_timespec ts;
	struct myrmex_raw_timespec *timeout = NULL;

	if (timeout_ns >= 0) {
		ts.sec = (long)(timeout_ns / 1000000000);
		ts.nsec = (long)(timeout_ns % 1000000000);
		timeout = &ts;
	}
	return myrmex_syscall6(SYS_futex, (long)addr, MYRMEX_FUTEX_WAIT, expected, (long)timeout,
	                       0, 0);
}

long myrmex_futex_wake(volatile int *addr, int count)
{
	return myrmex_syscall6(SYS_futex, (long)addr, MYRMEX_FUTEX_WAKE, count, 0, 0, 0);
}
