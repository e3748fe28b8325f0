/*
 * Time and futex system calls: clock_gettime, nanosleep, clock_nanosleep and
 * futex wait/wake with timeouts, over the TSC clock (kernel/time.h) and the
 * scheduler's timed sleeps.
 */
#include <kernel/syscall.h>
#include <kernel/errno.h>
#include <kernel/futex.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/signal.h>
#include <kernel/time.h>
#include <kernel/usercopy.h>

#define CLOCK_REALTIME          0
#define CLOCK_MONOTONIC         1
#define CLOCK_MONOTONIC_RAW     4
#define CLOCK_REALTIME_COARSE   5
#define CLOCK_MONOTONIC_COARSE  6
#define CLOCK_BOOTTIME          7
#define TIMER_ABSTIME           1

#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_PRIVATE_FLAG   128
#define FUTEX_CLOCK_REALTIME 256

#define NS_PER_S 1000000000ull

struct timespec64 {
	int64_t sec, nsec;
};

static bool is_realtime(uint64_t clock)
{
	return clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE;
}

static bool clock_known(uint64_t clock)
{
	return clock == CLOCK_REALTIME || clock == CLOCK_MONOTONIC || clock == CLOCK_MONOTONIC_RAW ||
	       clock == CLOCK_REALTIME_COARSE || clock == CLOCK_MONOTONIC_COARSE ||
	       clock == CLOCK_BOOTTIME;
}

/* Reads and checks a user timespec; returns its nanoseconds (saturating). */
static int read_timespec(uptr_t p, uint64_t *ns)
{
	struct timespec64 ts;
	if (copy_from_user(&ts, p, sizeof(ts)) < 0)
		return -EFAULT;
	if (ts.sec < 0 || ts.nsec < 0 || (uint64_t)ts.nsec >= NS_PER_S)
		return -EINVAL;
	uint64_t max_sec = (UINT64_MAX - NS_PER_S) / NS_PER_S;
	*ns = (uint64_t)ts.sec > max_sec ? UINT64_MAX / 2 : (uint64_t)ts.sec * NS_PER_S + (uint64_t)ts.nsec;
	return 0;
}

static int write_timespec(uptr_t p, uint64_t ns)
{
	struct timespec64 ts = { (int64_t)(ns / NS_PER_S), (int64_t)(ns % NS_PER_S) };
	return copy_to_user(p, &ts, sizeof(ts));
}

long sys_clock_gettime(const struct syscall_args *a)
{
	uint64_t clock = a->arg[0];
	if (!clock_known(clock))
		return -EINVAL;
	return write_timespec(a->arg[1], is_realtime(clock) ? time_realtime_ns() : time_monotonic_ns());
}

/* clock_getres: the clocks count in nanoseconds from the TSC. */
long sys_clock_getres(const struct syscall_args *a)
{
	if (!clock_known(a->arg[0]))
		return -EINVAL;
	return a->arg[1] ? write_timespec(a->arg[1], 1) : 0;
}

/* Sleeps until the monotonic deadline; on interruption writes what remains. */
static long sleep_until(uint64_t deadline, uptr_t remaining)
{
	int r = thread_block(NULL, deadline);
	if (r == -EINTR) {
		uint64_t now = time_monotonic_ns();
		if (remaining)
			write_timespec(remaining, deadline > now ? deadline - now : 0);
		return -EINTR;
	}
	return 0;
}

static uint64_t deadline_after(uint64_t ns)
{
	uint64_t now = time_monotonic_ns();
	return ns > UINT64_MAX - now ? UINT64_MAX : now + ns;
}

long sys_nanosleep(const struct syscall_args *a)
{
	uint64_t ns;
	int err = read_timespec(a->arg[0], &ns);
	if (err)
		return err;
	if (a->arg[1] && !user_range_ok(a->arg[1], sizeof(struct timespec64)))
		return -EFAULT;
	return sleep_until(deadline_after(ns), a->arg[1]);
}

long sys_clock_nanosleep(const struct syscall_args *a)
{
	uint64_t clock = a->arg[0], flags = a->arg[1];
	if (!clock_known(clock) || clock == CLOCK_MONOTONIC_RAW || flags & ~(uint64_t)TIMER_ABSTIME)
		return -EINVAL;
	uint64_t ns;
	int err = read_timespec(a->arg[2], &ns);
	if (err)
		return err;
	uint64_t deadline;
	if (flags & TIMER_ABSTIME) {
		/* An absolute time on the chosen clock, as a monotonic deadline. */
		uint64_t offset = is_realtime(clock) ? time_realtime_ns() - time_monotonic_ns() : 0;
		deadline = ns > offset ? ns - offset : 1;
		return sleep_until(deadline, 0);
	}
	deadline = deadline_after(ns);
	return sleep_until(deadline, a->arg[3]);
}

long sys_futex(const struct syscall_args *a)
{
	uptr_t uaddr = a->arg[0];
	uint64_t op = a->arg[1] & ~(uint64_t)(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME);
	struct process *p = current_thread()->proc;
	if (uaddr & 3)
		return -EINVAL;
	if (!user_range_ok(uaddr, 4))
		return -EFAULT;
	switch (op) {
	case FUTEX_WAIT: {
		uint64_t deadline = 0;
		if (a->arg[3]) {
			uint64_t ns;
			int err = read_timespec(a->arg[3], &ns);
			if (err)
				return err;
			deadline = deadline_after(ns);
		}
		long r = futex_wait(p, uaddr, (uint32_t)a->arg[2], deadline);
		/* Without a timeout the wait runs again after an SA_RESTART
		 * handler, as on Linux; with one, -EINTR (Linux would go on
		 * with the time left). */
		if (r == -EINTR && !deadline)
			return signal_eintr(SIG_RESTART_SA);
		return r;
	}
	case FUTEX_WAKE:
		return futex_wake(p, uaddr, (int)MIN(a->arg[2], (uint64_t)INT32_MAX));
	default:
		return -ENOSYS;
	}
}
