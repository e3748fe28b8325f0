/*
 * The time protocol: what the kernel (for the Linux time calls of POSIX
 * processes, docs/posix.md) or any program sends to the time server
 * (servers/time/timed) and what it gets back; and clock_info, the kernel
 * call that tells the server how to read the clocks. Shared by the kernel,
 * the server and the tests.
 *
 * Paper 003 splits MINIX's file server into a file server and a time
 * server, so that a process asking for the time does not wait while the
 * file server waits for the disk. Here the clocks and the sleeps are the
 * time server's; the kernel answers them itself only for native processes
 * and when no time server runs (or it died).
 *
 * A call is one frame (include/myrmex/ica.h) with target MYRMEX_COREID_TIME,
 * an opcode below and its arguments in arg[]; no data ICA is used (one that
 * comes is given back untouched). Results come back in the frame's arg[];
 * status is >= 0 on success, -errno on failure.
 *
 * The clocks are Linux's clock ids (TIME_CLOCK_*). They all count
 * nanoseconds from the TSC, with the kernel's calibration and the kernel's
 * formula (myrmex_clock_monotonic below, from clock_info), so that a process
 * reads one clock whether the server or the kernel answers:
 *     MONOTONIC = (tsc - tsc_boot) * mult >> 32, since boot;
 *     REALTIME  = epoch_ns + MONOTONIC (the RTC's time at boot, moved by
 *                 clock_settime: TIME_SET);
 *     MONOTONIC_RAW, MONOTONIC_COARSE and BOOTTIME read as MONOTONIC (nothing
 *     slews the clock, nothing suspends), REALTIME_COARSE as REALTIME.
 *
 *   TIME_GET     arg[0] clock. status 0; result arg[0] seconds, arg[1]
 *                nanoseconds (0..999999999). -EINVAL unknown clock.
 *   TIME_GETRES  arg[0] clock. status 0; result arg[0] seconds, arg[1]
 *                nanoseconds of the clock's resolution (1 ns: the clocks
 *                are read from the TSC, not from a tick). -EINVAL.
 *   TIME_SLEEP   arg[0] clock (any but MONOTONIC_RAW), arg[1] flags (0:
 *                relative, or TIME_ABSTIME), arg[2] seconds (>= 0 as a
 *                signed number), arg[3] nanoseconds (0..999999999). The
 *                request is parked and answered with status 0 once the
 *                clock has reached the time: a relative sleep counts from
 *                when the server took the request, so it never ends before
 *                the caller's time is up. A time already past is answered
 *                at once. -EINVAL bad clock, flags or time; -EAGAIN the
 *                server's table is full (TIME_MAX_SLEEPS) or the requester
 *                has TIME_MAX_SLEEPS_PER_PROCESS parked already (the kernel
 *                then sleeps in its own clock instead).
 *   TIME_CANCEL  the kernel only (the delivery's origin MYRMEX_ORIGIN_KERNEL,
 *                else -EPERM): arg[0] the handle of the control ICA of a
 *                TIME_SLEEP of the same process (the requester pid must
 *                match) whose thread a signal took away: that sleep is
 *                answered at once with -EINTR (the result goes to nobody,
 *                the kernel frees it) and leaves the table. status 0, or
 *                -ESRCH when no such sleep is parked (it was answered
 *                already). The kernel sends it asynchronously, as FS_CANCEL;
 *                the time left that nanosleep reports is the kernel's own
 *                count from its clock, which is the same clock.
 *   TIME_STATS   no arguments; result arg[TIME_STAT_*]: the server's counters.
 *   TIME_SET     the kernel only (else -EPERM), which has checked the
 *                caller's right and the time: arg[0] seconds, arg[1]
 *                nanoseconds of the new REALTIME. The server moves its
 *                epoch (REALTIME at MONOTONIC 0; MONOTONIC never moves),
 *                publishes it (clock_publish: the vDSO's page and the
 *                kernel's own epoch) and moves the deadlines of parked
 *                absolute REALTIME sleeps, as Linux wakes them when the
 *                clock is set. status 0; -EINVAL a time before MONOTONIC.
 *
 * Anyone may ask the time or sleep: a program's own sleeps delay only
 * itself, and the per-process limit keeps one process from filling the
 * table (a full table only sends the kernel's callers back to the kernel's
 * own sleep). A cancel must come from the kernel and name a sleep of the
 * requester itself; a process that rewrites the origin of its own frame
 * can at most cancel its own sleeps. Unknown opcodes: -ENOSYS.
 */
#ifndef MYRMEX_TIME_H
#define MYRMEX_TIME_H

#include <stdint.h>
#include <myrmex/syscall.h>
#include <myrmex/clock.h>

#define MYRMEX_COREID_TIME 6u

#define TIME_GET     1u
#define TIME_GETRES  2u
#define TIME_SLEEP   3u
#define TIME_CANCEL  4u
#define TIME_STATS   5u
#define TIME_SET     6u

/* TIME_SLEEP flags: Linux's TIMER_ABSTIME. */
#define TIME_ABSTIME 1u

#define TIME_MAX_SLEEPS              256u
#define TIME_MAX_SLEEPS_PER_PROCESS  32u   /* a process's thread limit */

/* TIME_STATS result indexes. */
#define TIME_STAT_GETS       0   /* TIME_GET and TIME_GETRES answered */
#define TIME_STAT_SLEEPS     1   /* TIME_SLEEP requests taken */
#define TIME_STAT_PARKED     2   /* sleeps parked now (not a counter) */
#define TIME_STAT_WOKEN      3   /* sleeps answered at their time */
#define TIME_STAT_CANCELLED  4   /* sleeps answered -EINTR by TIME_CANCEL */
#define TIME_STAT_REFUSED    5   /* requests refused: -EINVAL, -EAGAIN, -EPERM */

/* Linux's clock ids, the ones Myrmex has. */
#define TIME_CLOCK_REALTIME          0u
#define TIME_CLOCK_MONOTONIC         1u
#define TIME_CLOCK_MONOTONIC_RAW     4u
#define TIME_CLOCK_REALTIME_COARSE   5u
#define TIME_CLOCK_MONOTONIC_COARSE  6u
#define TIME_CLOCK_BOOTTIME          7u

static inline int time_clock_valid(uint64_t clock)
{
	return clock == TIME_CLOCK_REALTIME || clock == TIME_CLOCK_MONOTONIC ||
	       clock == TIME_CLOCK_MONOTONIC_RAW || clock == TIME_CLOCK_REALTIME_COARSE ||
	       clock == TIME_CLOCK_MONOTONIC_COARSE || clock == TIME_CLOCK_BOOTTIME;
}

static inline int time_clock_is_realtime(uint64_t clock)
{
	return clock == TIME_CLOCK_REALTIME || clock == TIME_CLOCK_REALTIME_COARSE;
}

/* The clocks one may sleep on (clock_nanosleep refuses MONOTONIC_RAW). */
static inline int time_clock_sleeps(uint64_t clock)
{
	return time_clock_valid(clock) && clock != TIME_CLOCK_MONOTONIC_RAW;
}

/* clock_info and the one clock formula: include/myrmex/clock.h. */

/* ---- Typed requests and results: views of the frame's uint64_t arg[8],
 * one uint64_t field per argument word (the positional layout above), so
 * that they hold on 32-bit targets too. ---- */

struct time_get_args {       /* TIME_GET, TIME_GETRES */
	uint64_t clock;
};
struct time_get_result {     /* TIME_GET, TIME_GETRES */
	uint64_t sec;
	uint64_t nsec;
};
struct time_sleep_args {     /* TIME_SLEEP */
	uint64_t clock;
	uint64_t flags;          /* 0 or TIME_ABSTIME */
	uint64_t sec;            /* >= 0 as a signed number */
	uint64_t nsec;
};
struct time_set_args {       /* TIME_SET */
	uint64_t sec;
	uint64_t nsec;
};
struct time_cancel_args {    /* TIME_CANCEL */
	uint64_t handle;         /* the sleep's control ICA */
};
struct time_stats_result {   /* TIME_STATS: v[TIME_STAT_*] */
	uint64_t v[6];
};
_Static_assert(sizeof(struct time_get_args) <= 64, "time_get_args fits arg[]");
_Static_assert(sizeof(struct time_get_result) <= 64, "time_get_result fits arg[]");
_Static_assert(sizeof(struct time_sleep_args) <= 64, "time_sleep_args fits arg[]");
_Static_assert(sizeof(struct time_set_args) <= 64, "time_set_args fits arg[]");
_Static_assert(sizeof(struct time_cancel_args) <= 64, "time_cancel_args fits arg[]");
_Static_assert(sizeof(struct time_stats_result) <= 64, "time_stats_result fits arg[]");

#endif
