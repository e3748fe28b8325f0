/*
 * The Linux time calls: clock_gettime, clock_getres, gettimeofday, time,
 * nanosleep and clock_nanosleep; futex wait/wake with timeouts; and the
 * native clock_info. The CPU-time clocks are the kernel's own
 * (posix/cpuclock.h); setting the clock is sys_settime.c's. A POSIX process's clock readings and sleeps go to the
 * time server when one runs (posix/timesrv.h: one IPC each); the kernel
 * answers them itself, from its TSC clock (kernel/time.h) and the
 * scheduler's timed sleeps, for native processes, before the time server
 * has started and after it has gone. Both read the same clock. Arguments
 * are checked here first in every case, so a bad call costs no IPC and
 * fails the same way with or without the server. futex timeouts stay in
 * the kernel.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/futex.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <posix/cpuclock.h>
#include <posix/signal.h>
#include <kernel/time.h>
#include <myrmex/time.h>
#include <posix/timesrv.h>
#include <kernel/usercopy.h>
#include <arch/linux_abi.h>

#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_PRIVATE_FLAG   128
#define FUTEX_CLOCK_REALTIME 256

#define NS_PER_S 1000000000ull

/* Reads and checks a user timespec; returns its nanoseconds (saturating). */
static int read_timespec(uptr_t p, uint64_t *ns)
{
	struct linux_timespec ts;
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
	struct linux_timespec ts = { (int64_t)(ns / NS_PER_S), (int64_t)(ns % NS_PER_S) };
	return copy_to_user(p, &ts, sizeof(ts));
}

/* The time on a valid clock: the time server's answer, else the kernel's. */
static uint64_t clock_now(uint32_t clock)
{
	uint64_t ns;
	if (timesrv_serves() && timesrv_read(TIME_GET, clock, &ns) == 0)
		return ns;
	return time_clock_is_realtime(clock) ? time_realtime_ns() : time_monotonic_ns();
}

long sys_clock_gettime(const struct syscall_args *a)
{
	uint64_t clock = a->arg[0];
	if (cpuclock_is((int32_t)clock)) {   /* the kernel's accounting, no IPC */
		uint64_t ns;
		int err = cpuclock_read((int32_t)clock, &ns);
		return err ? err : write_timespec(a->arg[1], ns);
	}
	if (!time_clock_valid(clock))
		return -EINVAL;
	return write_timespec(a->arg[1], clock_now((uint32_t)clock));
}

/* clock_getres: the clocks count in nanoseconds from the TSC. */
long sys_clock_getres(const struct syscall_args *a)
{
	uint64_t clock = a->arg[0];
	if (cpuclock_is((int32_t)clock)) {   /* counted from the TSC: 1 ns */
		int err = cpuclock_check((int32_t)clock);
		return err ? err : a->arg[1] ? write_timespec(a->arg[1], 1) : 0;
	}
	if (!time_clock_valid(clock))
		return -EINVAL;
	if (!a->arg[1])
		return 0;
	uint64_t ns;
	if (!(timesrv_serves() && timesrv_read(TIME_GETRES, (uint32_t)clock, &ns) == 0))
		ns = 1;
	return write_timespec(a->arg[1], ns);
}

long sys_gettimeofday(const struct syscall_args *a)
{
	if (a->arg[0]) {
		uint64_t ns = clock_now(TIME_CLOCK_REALTIME);
		int64_t tv[2] = { (int64_t)(ns / NS_PER_S), (int64_t)(ns % NS_PER_S / 1000) };
		if (copy_to_user(a->arg[0], tv, sizeof(tv)) < 0)
			return -EFAULT;
	}
	if (a->arg[1]) {
		int32_t tz[2] = { 0, 0 };
		if (copy_to_user(a->arg[1], tz, sizeof(tz)) < 0)
			return -EFAULT;
	}
	return 0;
}

long sys_time(const struct syscall_args *a)
{
	int64_t now = (int64_t)(clock_now(TIME_CLOCK_REALTIME) / NS_PER_S);
	if (a->arg[0] && copy_to_user(a->arg[0], &now, sizeof(now)) < 0)
		return -EFAULT;
	return now;
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

/* A checked sleep: ns relative (flags 0) or absolute on clock, with its
 * monotonic deadline already worked out by the kernel. The time server
 * sleeps for a POSIX process; the kernel does when there is none, or when
 * the server cannot (gone meanwhile, full): then it sleeps out what is
 * left of the same deadline. A signal ends the sleep with -EINTR and the
 * time left to the deadline (not for an absolute sleep, as Linux). */
static long sleep_on(uint32_t clock, uint32_t flags, uint64_t ns, uint64_t deadline,
                     uptr_t remaining)
{
	if (flags & TIME_ABSTIME)
		remaining = 0;
	if (timesrv_serves()) {
		long r = timesrv_sleep(clock, flags, ns);
		if (r == -EINTR) {
			uint64_t now = time_monotonic_ns();
			if (remaining)
				write_timespec(remaining, deadline > now ? deadline - now : 0);
			return -EINTR;
		}
		if (r == 0 || r == -EINVAL)
			return r;
	}
	return sleep_until(deadline, remaining);
}

long sys_nanosleep(const struct syscall_args *a)
{
	uint64_t ns;
	int err = read_timespec(a->arg[0], &ns);
	if (err)
		return err;
	if (a->arg[1] && !user_range_ok(a->arg[1], sizeof(struct linux_timespec)))
		return -EFAULT;
	return sleep_on(TIME_CLOCK_MONOTONIC, 0, ns, deadline_after(ns), a->arg[1]);
}

long sys_clock_nanosleep(const struct syscall_args *a)
{
	uint64_t clock = a->arg[0], flags = a->arg[1];
	if (!time_clock_sleeps(clock) || flags & ~(uint64_t)TIME_ABSTIME)
		return -EINVAL;
	uint64_t ns;
	int err = read_timespec(a->arg[2], &ns);
	if (err)
		return err;
	uint64_t deadline;
	if (flags & TIME_ABSTIME) {
		/* An absolute time on the chosen clock, as a monotonic deadline. */
		uint64_t offset = time_clock_is_realtime(clock) ? time_realtime_ns() - time_monotonic_ns() : 0;
		deadline = ns > offset ? ns - offset : 1;
	} else {
		deadline = deadline_after(ns);
	}
	return sleep_on((uint32_t)clock, (uint32_t)flags, ns, deadline, a->arg[3]);
}

long sys_futex(const struct syscall_args *a)
{
	uptr_t uaddr = a->arg[0];
	uint64_t op = a->arg[1] & ~(uint64_t)(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME);
	bool shared = !(a->arg[1] & FUTEX_PRIVATE_FLAG);
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
		long r = futex_wait(p, uaddr, (uint32_t)a->arg[2], deadline, shared);
		/* Without a timeout the wait runs again after an SA_RESTART
		 * handler, as on Linux; with one, -EINTR (Linux would go on
		 * with the time left). */
		if (r == -EINTR && !deadline)
			return signal_eintr(SIG_RESTART_SA);
		return r;
	}
	case FUTEX_WAKE:
		return futex_wake(p, uaddr, (int)MIN(a->arg[2], (uint64_t)INT32_MAX), shared);
	default:
		return -ENOSYS;
	}
}
