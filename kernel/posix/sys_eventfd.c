/*
 * eventfd, eventfd2, timerfd_create, timerfd_settime and timerfd_gettime
 * for POSIX processes: the counters and timers are the file manager's
 * (include/myrmex/fsevent.h; their reads and writes are ordinary read and
 * write calls, sys_file.c). Here the flags, clocks and struct itimerspec
 * are checked and converted to nanoseconds.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <posix/forward.h>
#include <posix/posix.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>
#include <myrmex/fs.h>
#include <myrmex/fsevent.h>
#include <myrmex/time.h>
#include <arch/linux_abi.h>

#define O_NONBLOCK    04000
#define O_CLOEXEC     02000000
#define EFD_SEMAPHORE 1
#define TFD_TIMER_ABSTIME        1
#define TFD_TIMER_CANCEL_ON_SET  2
#define NS_PER_S      1000000000ll

long sys_eventfd2(const struct syscall_args *a)
{
	if (a->arg[1] & ~(uint64_t)(EFD_SEMAPHORE | O_NONBLOCK | O_CLOEXEC))
		return -EINVAL;
	return posix_fs_call(FS_EVENTFD, (uint32_t)a->arg[0], a->arg[1], 0, NULL);
}

long sys_eventfd(const struct syscall_args *a)
{
	return posix_fs_call(FS_EVENTFD, (uint32_t)a->arg[0], 0, 0, NULL);
}

/* Linux's clocks for timers: CLOCK_REALTIME, CLOCK_MONOTONIC, CLOCK_BOOTTIME
 * (the *_ALARM ones, which wake a suspended machine, are not served). */
long sys_timerfd_create(const struct syscall_args *a)
{
	uint64_t clock = (uint32_t)a->arg[0], flags = a->arg[1];
	if (flags & ~(uint64_t)(O_NONBLOCK | O_CLOEXEC))
		return -EINVAL;
	if (clock != TIME_CLOCK_REALTIME && clock != TIME_CLOCK_MONOTONIC && clock != TIME_CLOCK_BOOTTIME)
		return -EINVAL;
	return posix_fs_call(FS_TIMERFD_CREATE, clock, flags, 0, NULL);
}

struct linux_itimerspec {
	struct linux_timespec interval, value;
};

static int64_t spec_ns(const struct linux_timespec *t)
{
	int64_t sec = t->sec, nsec = t->nsec;   /* the ABI's longs, whatever their width */
	if (sec > INT64_MAX / NS_PER_S - 1)
		return INT64_MAX;
	return sec * NS_PER_S + nsec;
}

static void ns_spec(uint64_t ns, struct linux_timespec *t)
{
	t->sec = (int64_t)(ns / NS_PER_S);
	t->nsec = (int64_t)(ns % NS_PER_S);
}

/* The result words 0 and 1 (value, interval) to user's itimerspec at p. */
static int put_setting(uptr_t p, const uint64_t res[8])
{
	struct linux_itimerspec out;
	ns_spec(res[0], &out.value);
	ns_spec(res[1], &out.interval);
	return copy_to_user(p, &out, sizeof(out)) < 0 ? -EFAULT : 0;
}

long sys_timerfd_settime(const struct syscall_args *a)
{
	uint64_t flags = a->arg[1];
	if (flags & ~(uint64_t)(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET))
		return -EINVAL;
	struct linux_itimerspec in;
	if (copy_from_user(&in, a->arg[2], sizeof(in)) < 0)
		return -EFAULT;
	const struct linux_timespec *ts[2] = { &in.interval, &in.value };
	for (int i = 0; i < 2; i++) {
		int64_t sec = ts[i]->sec, nsec = ts[i]->nsec;
		if (sec < 0 || nsec < 0 || nsec >= NS_PER_S)
			return -EINVAL;
	}
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_TIMERFD_SET, 0);
	if (err)
		return err;
	f.arg[0] = (uint32_t)a->arg[0];
	f.arg[1] = flags & TFD_TIMER_ABSTIME;
	f.arg[2] = (uint64_t)spec_ns(&in.value);
	f.arg[3] = (uint64_t)spec_ns(&in.interval);
	long r = forward_call(&f);
	if (r < 0)
		return r;
	return a->arg[3] ? put_setting(a->arg[3], f.res) : 0;
}

long sys_timerfd_gettime(const struct syscall_args *a)
{
	uint64_t res[8];
	long r = posix_fs_call(FS_TIMERFD_GET, (uint32_t)a->arg[0], 0, 0, res);
	if (r < 0)
		return r;
	return put_setting(a->arg[1], res);
}
