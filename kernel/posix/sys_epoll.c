/*
 * epoll_create(1), epoll_ctl, epoll_wait, epoll_pwait(2) for POSIX
 * processes. The sets live in the file manager (include/myrmex/fsevent.h,
 * servers/fs/fileman/epoll.c), which answers FS_EPOLL_WAIT at once with
 * what is ready; the kernel waits as poll does (sys_poll.c): it asks again
 * after each readiness notice (posix/poll_notice.h) and at a timerfd's
 * expiry, or every 10 ms when the set holds a kind nobody notices, until
 * something is ready, the timeout passes or a signal comes (-EINTR, never
 * restarted, as on Linux). Every user pointer
 * and count is checked here, every count the server answers against what
 * was asked.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <posix/forward.h>
#include <posix/posix.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <posix/signal.h>
#include <posix/signalfd.h>
#include <posix/poll_notice.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/usercopy.h>
#include <myrmex/fs.h>
#include <myrmex/fsevent.h>
#include <arch/linux_abi.h>

#define O_CLOEXEC         02000000
#define EPOLL_CTL_ADD     1
#define EPOLL_CTL_DEL     2
#define EPOLL_CTL_MOD     3
#define EP_MAX_EVENTS     ((int32_t)(0x7fffffff / FS_EPOLL_EVENT_BYTES))   /* Linux's bound on maxevents */
#define NS_PER_S          1000000000ll
#define SIGSET_BYTES      8u

long sys_epoll_create1(const struct syscall_args *a)
{
	if (a->arg[0] & ~(uint64_t)O_CLOEXEC)
		return -EINVAL;
	return posix_fs_call(FS_EPOLL_CREATE, a->arg[0], 0, 0, NULL);
}

long sys_epoll_create(const struct syscall_args *a)
{
	if ((int32_t)a->arg[0] <= 0)
		return -EINVAL;
	return posix_fs_call(FS_EPOLL_CREATE, 0, 0, 0, NULL);
}

long sys_epoll_ctl(const struct syscall_args *a)
{
	uint64_t op = (uint32_t)a->arg[1];
	uint8_t ev[FS_EPOLL_EVENT_BYTES] = { 0 };
	/* DEL takes no event (Linux reads none, so NULL is fine there). */
	if (op != EPOLL_CTL_DEL && copy_from_user(ev, a->arg[3], sizeof(ev)) < 0)
		return -EFAULT;
	uint32_t events;
	uint64_t data;
	memcpy(&events, ev, 4);
	memcpy(&data, ev + 4, 8);
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_EPOLL_CTL, 0);
	if (err)
		return err;
	f.arg[0] = (uint32_t)a->arg[0];
	f.arg[1] = op;
	f.arg[2] = (uint32_t)a->arg[2];
	f.arg[3] = events;
	f.arg[4] = data;
	return forward_call(&f);
}

/* Asks the file manager once: the number of events written to the user's
 * array, 0, or -errno; *noticed: whether a notice will come (FS_POLL_NOTICED). */
static long wait_once(uint64_t epfd, uptr_t events, uint32_t max, bool *noticed,
                      uint64_t *wake_by)
{
	uint32_t bytes = max * FS_EPOLL_EVENT_BYTES;
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_EPOLL_WAIT, bytes);
	if (err)
		return err;
	f.arg[0] = epfd;
	f.arg[1] = max;
	f.arg[2] = signalfd_pending();   /* a signalfd's readiness */
	long r = forward_call(&f);
	*noticed = f.res[0] == FS_POLL_NOTICED;
	*wake_by = f.res[1];
	if (r <= 0)
		return r;
	if ((uint64_t)r > max || !f.data)
		return -EIO;
	if (copy_to_user(events, forward_data(&f), (uint64_t)r * FS_EPOLL_EVENT_BYTES) < 0)
		return -EFAULT;
	return r;
}

/* Waits until ready, timeout (ns; < 0 forever) or a signal. */
static long epoll_wait_ns(uint64_t epfd, uptr_t events, uint64_t maxevents, int64_t timeout_ns)
{
	int32_t n = (int32_t)maxevents;
	if (n <= 0 || n > EP_MAX_EVENTS)
		return -EINVAL;
	if (!user_range_ok(events, (uint64_t)n * FS_EPOLL_EVENT_BYTES))
		return -EFAULT;
	uint32_t max = (uint32_t)n;
	if (max > FORWARD_LARGE_BYTES / FS_EPOLL_EVENT_BYTES)
		max = FORWARD_LARGE_BYTES / FS_EPOLL_EVENT_BYTES;   /* fewer at a time: allowed */
	epfd = (uint32_t)epfd;
	uint64_t deadline = timeout_ns < 0 ? 0 : time_monotonic_ns() + (uint64_t)timeout_ns;
	for (;;) {
		uint64_t seen = poll_notice_count();   /* before asking: no notice lost */
		bool noticed = false;
		uint64_t wake_by = 0;
		long r = wait_once(epfd, events, max, &noticed, &wake_by);
		if (r != 0)
			return r;
		uint64_t now = time_monotonic_ns();
		if (timeout_ns == 0 || (deadline && now >= deadline))
			return 0;
		uint64_t wake = poll_wake_time(deadline, now, noticed, wake_by);
		if (poll_notice_wait(seen, wake) == -EINTR)
			return -EINTR;
	}
}

long sys_epoll_wait(const struct syscall_args *a)
{
	int64_t ms = (int32_t)a->arg[3];
	return epoll_wait_ns(a->arg[0], a->arg[1], a->arg[2], ms < 0 ? -1 : ms * 1000000);
}

/* The signal mask while waiting, as sigsuspend's: the old one comes back
 * on the way out, after a handler the wait let in. */
static int wait_mask(uptr_t sigmask, uint64_t size)
{
	if (!sigmask)
		return 0;
	if (size != SIGSET_BYTES)
		return -EINVAL;
	uint64_t mask;
	if (copy_from_user(&mask, sigmask, sizeof(mask)) < 0)
		return -EFAULT;
	struct thread *t = current_thread();
	t->px->sig.saved_mask = t->px->sig.blocked;
	t->px->sig.restore_mask = true;
	signal_set_blocked(t, mask);
	return 0;
}

long sys_epoll_pwait(const struct syscall_args *a)
{
	int err = wait_mask(a->arg[4], a->arg[5]);
	if (err)
		return err;
	int64_t ms = (int32_t)a->arg[3];
	return epoll_wait_ns(a->arg[0], a->arg[1], a->arg[2], ms < 0 ? -1 : ms * 1000000);
}

long sys_epoll_pwait2(const struct syscall_args *a)
{
	int64_t ns = -1;
	if (a->arg[3]) {
		struct linux_timespec t;
		if (copy_from_user(&t, a->arg[3], sizeof(t)) < 0)
			return -EFAULT;
		int64_t sec = t.sec, nsec = t.nsec;   /* the ABI's longs, whatever their width */
		if (sec < 0 || nsec < 0 || nsec >= NS_PER_S)
			return -EINVAL;
		ns = sec > INT64_MAX / NS_PER_S - 1 ? INT64_MAX : sec * NS_PER_S + nsec;
	}
	int err = wait_mask(a->arg[4], a->arg[5]);
	if (err)
		return err;
	return epoll_wait_ns(a->arg[0], a->arg[1], a->arg[2], ns);
}
