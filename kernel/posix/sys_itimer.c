/*
 * alarm, setitimer and getitimer: the real-time interval timer only
 * (ITIMER_REAL, posix/itimer.h); ITIMER_VIRTUAL and ITIMER_PROF give
 * -EINVAL (the kernel does not account CPU time per process).
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <posix/itimer.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/usercopy.h>
#include <arch/linux_abi.h>

#define ITIMER_REAL 0
#define NS_PER_S  1000000000ull
#define NS_PER_US 1000ull
#define US_PER_S  1000000

/* A user timeval in nanoseconds (saturating); -EINVAL when malformed. */
static int timeval_ns(const struct linux_timeval *tv, uint64_t *ns)
{
	if (tv->sec < 0 || tv->usec < 0 || tv->usec >= US_PER_S)
		return -EINVAL;
	uint64_t max_sec = (UINT64_MAX - NS_PER_S) / NS_PER_S;
	*ns = (uint64_t)tv->sec > max_sec ? UINT64_MAX / 2
	    : (uint64_t)tv->sec * NS_PER_S + (uint64_t)tv->usec * NS_PER_US;
	return 0;
}

/* Rounded up to microseconds, so that an armed timer never reads as 0. */
static struct linux_timeval ns_timeval(uint64_t ns)
{
	uint64_t us = ns / NS_PER_US + (ns % NS_PER_US != 0);
	return (struct linux_timeval){ (int64_t)(us / US_PER_S), (int64_t)(us % US_PER_S) };
}

static struct linux_itimerval current_value(const struct process *p)
{
	uint64_t value, interval;
	itimer_get(p, &value, &interval);
	return (struct linux_itimerval){ ns_timeval(interval), ns_timeval(value) };
}

long sys_getitimer(const struct syscall_args *a)
{
	if (a->arg[0] != ITIMER_REAL)
		return -EINVAL;
	struct linux_itimerval cur = current_value(current_thread()->proc);
	return copy_to_user(a->arg[1], &cur, sizeof(cur));
}

long sys_setitimer(const struct syscall_args *a)
{
	uptr_t new_value = a->arg[1], old_value = a->arg[2];
	if (a->arg[0] != ITIMER_REAL)
		return -EINVAL;
	/* As Linux: no new value disarms the timer. */
	struct linux_itimerval in = { { 0, 0 }, { 0, 0 } };
	if (new_value && copy_from_user(&in, new_value, sizeof(in)) < 0)
		return -EFAULT;
	uint64_t value, interval;
	if (timeval_ns(&in.value, &value) < 0 || timeval_ns(&in.interval, &interval) < 0)
		return -EINVAL;
	struct process *p = current_thread()->proc;
	if (old_value) {
		struct linux_itimerval old = current_value(p);
		if (copy_to_user(old_value, &old, sizeof(old)) < 0)
			return -EFAULT;
	}
	itimer_set(p, value, value ? interval : 0);
	return 0;
}

long sys_alarm(const struct syscall_args *a)
{
	uint32_t seconds = (uint32_t)a->arg[0];
	struct process *p = current_thread()->proc;
	uint64_t left, interval;
	itimer_get(p, &left, &interval);
	itimer_set(p, (uint64_t)seconds * NS_PER_S, 0);
	/* The old alarm's seconds, rounded to nearest, at least 1 if armed. */
	uint64_t rounded = (left + NS_PER_S / 2) / NS_PER_S;
	return (long)(left && rounded == 0 ? 1 : rounded);
}
