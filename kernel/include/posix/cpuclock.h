/*
 * CPU-time clocks (kernel/posix/cpuclock.c): CLOCK_PROCESS_CPUTIME_ID,
 * CLOCK_THREAD_CPUTIME_ID and the clock ids clock_getcpuclockid and
 * pthread_getcpuclockid make, Linux's encoding: a negative id, the pid or
 * tid as ~(id >> 3), bit 2 for a thread's clock, the low two bits the kind
 * (0 PROF: user + system, 1 VIRT: user, 2 SCHED: all CPU time; 3 is no
 * clock). Pid 0 is the caller. Read from the kernel's accounting
 * (kernel/cputime.h), never by the time server.
 */
#ifndef POSIX_CPUCLOCK_H
#define POSIX_CPUCLOCK_H

#include <kernel/types.h>

#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID  3

/* Whether clock (Linux's clockid_t, an int) is a CPU-time clock id. */
static inline bool cpuclock_is(int32_t clock)
{
	return clock < 0 || clock == CLOCK_PROCESS_CPUTIME_ID || clock == CLOCK_THREAD_CPUTIME_ID;
}
/* The clock's time in ns: 0, or -EINVAL (no such process or thread, a
 * thread of another process, a bad kind). */
int cpuclock_read(int32_t clock, uint64_t *ns);
/* The clock's resolution: 0 (1 ns) or -EINVAL as cpuclock_read. */
int cpuclock_check(int32_t clock);

#endif
