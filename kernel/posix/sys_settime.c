/*
 * Setting the clock: clock_settime and settimeofday, as Linux's
 * kernel/time/posix-timers.c and time.c check them. Only CLOCK_REALTIME is
 * settable: it moves by an offset (the epoch, REALTIME at MONOTONIC 0) and
 * MONOTONIC stays as it is. The epoch lives where the clocks are kept: the
 * time server sets its own and publishes it (TIME_SET, then clock_publish,
 * which writes the vDSO's clock page and the kernel's epoch), so the time
 * server, the vDSO, the kernel's own answers and /proc agree. Without a
 * time server the kernel sets its epoch alone.
 *
 * Errors in Linux's order: an unknown clock, a clock that cannot be set
 * (MONOTONIC, CLOCK_PROCESS_CPUTIME_ID and the others) -EINVAL; a bad
 * pointer -EFAULT; a CPU-time clock id of clock_getcpuclockid -EPERM (or
 * -EINVAL when it names nothing); a bad time (nanoseconds
 * out of range, negative seconds, beyond Linux's limit, or before the
 * system started: REALTIME may not go below MONOTONIC) -EINVAL; a caller
 * that may not set the time (not root) -EPERM. settimeofday's time zone is checked
 * (within 15 hours) and not kept: gettimeofday reports UTC.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <posix/posix.h>
#include <kernel/usercopy.h>
#include <posix/cpuclock.h>
#include <posix/timesrv.h>
#include <myrmex/time.h>
#include <arch/linux_abi.h>

#define NS_PER_S 1000000000ull
/* Linux's TIME_SETTOD_SEC_MAX: KTIME_SEC_MAX less 30 years of uptime. */
#define SETTOD_SEC_MAX (9223372036ll - 30ll * 365 * 24 * 3600)

/* Whether the caller may set the clock (Linux: CAP_SYS_TIME, which root
 * holds: an effective uid of 0, posix/cred.h). */
static bool may_set_time(void)
{
	struct process *p = current_thread()->proc;
	return !p->px || p->px->cred.euid == 0;
}

/* Linux's timespec64_valid_settod. */
static bool settod_valid(int64_t sec, int64_t nsec)
{
	return sec >= 0 && sec < SETTOD_SEC_MAX && nsec >= 0 && (uint64_t)nsec < NS_PER_S;
}

/* Sets REALTIME to sec, nsec: 0 or -EINVAL, -EPERM. */
static long set_realtime(int64_t sec, int64_t nsec)
{
	if (!settod_valid(sec, nsec))
		return -EINVAL;
	if (!may_set_time())
		return -EPERM;
	uint64_t ns = (uint64_t)sec * NS_PER_S + (uint64_t)nsec;
	if (ns < time_monotonic_ns())
		return -EINVAL;   /* as Linux: REALTIME never below MONOTONIC */
	if (timesrv_serves()) {
		long r = timesrv_set(ns);
		if (r == 0 || r == -EINVAL)
			return r;
		/* The server is gone or could not: the kernel's own clock. */
	}
	time_set_realtime(ns);
	return 0;
}

long sys_clock_settime(const struct syscall_args *a)
{
	int32_t clock = (int32_t)a->arg[0];
	bool cpu = clock < 0;   /* a clock_getcpuclockid id; the two fixed ones are EINVAL */
	if (!cpu && clock != (int32_t)TIME_CLOCK_REALTIME)
		return -EINVAL;
	struct linux_timespec ts;
	if (copy_from_user(&ts, a->arg[1], sizeof(ts)) < 0)
		return -EFAULT;
	if (cpu) {
		int err = cpuclock_check(clock);
		return err ? err : -EPERM;   /* nobody sets a CPU-time clock */
	}
	return set_realtime(ts.sec, ts.nsec);
}

long sys_settimeofday(const struct syscall_args *a)
{
	uptr_t utv = a->arg[0], utz = a->arg[1];
	struct linux_timeval tv;
	if (utv) {
		if (copy_from_user(&tv, utv, sizeof(tv)) < 0)
			return -EFAULT;
		if (tv.usec < 0 || tv.usec > 1000000)
			return -EINVAL;
	}
	int32_t tz[2];
	if (utz && copy_from_user(tz, utz, sizeof(tz)) < 0)
		return -EFAULT;
	if (utv && !settod_valid(tv.sec, (int64_t)tv.usec * 1000))
		return -EINVAL;
	if (!may_set_time())
		return -EPERM;
	if (utz && (tz[0] > 15 * 60 || tz[0] < -15 * 60))
		return -EINVAL;
	return utv ? set_realtime(tv.sec, tv.usec * 1000) : 0;
}
