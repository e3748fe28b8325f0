/*
 * poll, ppoll, select and pselect6 for POSIX processes. The file manager
 * answers FS_POLL at once with the readiness of every descriptor (asking the
 * console server for console ones); when nothing is ready the kernel sleeps
 * until the next readiness notice (posix/poll_notice.h), the timeout or a
 * signal, then asks again; at a timerfd's expiry too (the answer's
 * wake_by). A descriptor of a kind whose changes nobody notices (a socket:
 * FS_POLL_NOTICED unset) makes it ask again after 10 ms at the latest
 * (poll_wake_time; docs/posix.md).
 */
#include <posix/syscall.h>
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <posix/forward.h>
#include <kernel/pmm.h>
#include <posix/posix.h>
#include <posix/signalfd.h>
#include <posix/poll_notice.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/usercopy.h>
#include <myrmex/fs.h>
#include <arch/linux_abi.h>

#define POLL_MAX          1024                /* records in one poll (RLIMIT_NOFILE) */
#define FD_SETSIZE        1024
#define POLLIN   0x001
#define POLLPRI  0x002
#define POLLOUT  0x004
#define POLLERR  0x008
#define POLLHUP  0x010
#define POLLNVAL 0x020
#define NS_PER_S 1000000000ll

struct pollfd64 {
	int32_t fd;
	int16_t events, revents;
};

/* Asks the file manager once: fills revents of recs, returns the count
 * ready or -errno; *noticed: whether a notice will come when nothing was;
 * *wake_by: when a timerfd looked at expires (monotonic ns, 0: none). */
static long poll_once(struct pollfd64 *recs, uint32_t n, bool *noticed, uint64_t *wake_by)
{
	uint32_t bytes = n * (uint32_t)sizeof(*recs);
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_POLL, bytes);
	if (err)
		return err;
	memcpy(forward_data(&f), recs, bytes);
	f.arg[0] = n;
	f.arg[1] = signalfd_pending();   /* a signalfd's readiness */
	long r = forward_call(&f);
	if (r < 0)
		return r;
	if ((uint64_t)r > n || !f.data)
		return -EIO;
	*noticed = f.res[0] == FS_POLL_NOTICED;
	*wake_by = f.res[1];
	const struct pollfd64 *answer = forward_data(&f);
	for (uint32_t i = 0; i < n; i++)
		recs[i].revents = answer[i].revents;
	return r;
}

/* Polls until ready, timeout (ns; < 0 forever) or a signal. */
static long poll_wait(struct pollfd64 *recs, uint32_t n, int64_t timeout_ns)
{
	uint64_t deadline = timeout_ns < 0 ? 0 : time_monotonic_ns() + (uint64_t)timeout_ns;
	for (;;) {
		uint64_t seen = poll_notice_count();   /* before asking: no notice lost */
		bool noticed = true;
		uint64_t wake_by = 0;
		long r = n ? poll_once(recs, n, &noticed, &wake_by) : 0;
		if (r != 0)
			return r;
		uint64_t now = time_monotonic_ns();
		if (timeout_ns == 0 || (deadline && now >= deadline))
			return 0;
		uint64_t wake = poll_wake_time(deadline, now, noticed, wake_by);
		int b = n ? poll_notice_wait(seen, wake) : thread_block(NULL, wake);
		if (b == -EINTR)
			return -EINTR;
	}
}

/* A kernel buffer for up to POLL_MAX records (two pages). */
static struct pollfd64 *records_alloc(void)
{
	paddr_t pa = pmm_alloc(2);
	return pa ? arch_phys_to_virt(pa) : NULL;
}

static void records_free(struct pollfd64 *recs)
{
	pmm_free(arch_virt_to_phys(recs), 2);
}

static long do_poll(uptr_t fds, uint64_t nfds, int64_t timeout_ns)
{
	if (nfds > POLL_MAX)
		return -EINVAL;
	uint64_t bytes = nfds * sizeof(struct pollfd64);
	if (!user_range_ok(fds, bytes))
		return -EFAULT;
	struct pollfd64 *recs = records_alloc();
	if (!recs)
		return -ENOMEM;
	long r = copy_from_user(recs, fds, bytes) < 0 ? -EFAULT : poll_wait(recs, (uint32_t)nfds, timeout_ns);
	for (uint64_t i = 0; r >= 0 && i < nfds; i++)
		if (copy_to_user(fds + i * sizeof(*recs) + 6, &recs[i].revents, 2) < 0)
			r = -EFAULT;
	records_free(recs);
	return r;
}

static int read_timeout(uptr_t ts, int64_t *ns)
{
	if (!ts) {
		*ns = -1;
		return 0;
	}
	struct linux_timespec t;
	if (copy_from_user(&t, ts, sizeof(t)) < 0)
		return -EFAULT;
	int64_t sec = t.sec, nsec = t.nsec;
	if (sec < 0 || nsec < 0 || nsec >= NS_PER_S)
		return -EINVAL;
	*ns = sec > INT64_MAX / NS_PER_S - 1 ? INT64_MAX : sec * NS_PER_S + nsec;
	return 0;
}

long sys_poll(const struct syscall_args *a)
{
	int64_t ms = (int32_t)a->arg[2];
	return do_poll(a->arg[0], a->arg[1], ms < 0 ? -1 : ms * 1000000);
}

/* ppoll: the signal mask argument is not applied (no race to close with one
 * thread per program that waits). */
long sys_ppoll(const struct syscall_args *a)
{
	int64_t ns;
	int err = read_timeout(a->arg[2], &ns);
	return err ? err : do_poll(a->arg[0], a->arg[1], ns);
}

/* select: the three sets become poll records and back. */
static long do_select(uint64_t nfds, const uptr_t sets[3], int64_t timeout_ns)
{
	if ((int64_t)nfds < 0 || nfds > FD_SETSIZE)
		return -EINVAL;
	/* An fd_set is an array of the ABI's longs: its bytes are those of
	 * 64-bit words on a little-endian CPU, whatever the long's size. */
	uint64_t bits = 8 * sizeof(linux_ulong);
	uint64_t bytes = (nfds + bits - 1) / bits * sizeof(linux_ulong), in[3][FD_SETSIZE / 64];
	memset(in, 0, sizeof(in));
	for (int s = 0; s < 3; s++)
		if (sets[s] && copy_from_user(in[s], sets[s], bytes) < 0)
			return -EFAULT;
	struct pollfd64 *recs = records_alloc();
	if (!recs)
		return -ENOMEM;
	uint32_t n = 0;
	for (uint64_t fd = 0; fd < nfds; fd++) {
		int16_t ev = 0;
		uint64_t bit = 1ull << (fd % 64);
		ev |= (in[0][fd / 64] & bit) ? POLLIN : 0;
		ev |= (in[1][fd / 64] & bit) ? POLLOUT : 0;
		ev |= (in[2][fd / 64] & bit) ? POLLPRI : 0;
		if (ev)
			recs[n++] = (struct pollfd64){ (int32_t)fd, ev, 0 };
	}
	long r = poll_wait(recs, n, timeout_ns);
	uint64_t out[3][FD_SETSIZE / 64];
	memset(out, 0, sizeof(out));
	long count = 0;
	for (uint32_t i = 0; r >= 0 && i < n; i++) {
		int16_t rev = recs[i].revents;
		uint64_t fd = (uint64_t)recs[i].fd, bit = 1ull << (fd % 64);
		if (rev & POLLNVAL) {
			r = -EBADF;
			break;
		}
		bool rd = (recs[i].events & POLLIN) && (rev & (POLLIN | POLLHUP | POLLERR));
		bool wr = (recs[i].events & POLLOUT) && (rev & (POLLOUT | POLLERR));
		bool ex = (recs[i].events & POLLPRI) && (rev & POLLPRI);
		out[0][fd / 64] |= rd ? bit : 0;
		out[1][fd / 64] |= wr ? bit : 0;
		out[2][fd / 64] |= ex ? bit : 0;
		count += rd + wr + ex;
	}
	records_free(recs);
	if (r < 0)
		return r;
	for (int s = 0; s < 3; s++)
		if (sets[s] && copy_to_user(sets[s], out[s], bytes) < 0)
			return -EFAULT;
	return count;
}

long sys_select(const struct syscall_args *a)
{
	int64_t ns = -1;
	if (a->arg[4]) {
		struct linux_timeval tv;
		if (copy_from_user(&tv, a->arg[4], sizeof(tv)) < 0)
			return -EFAULT;
		if (tv.sec < 0 || tv.usec < 0 || tv.usec >= 1000000)
			return -EINVAL;
		ns = (int64_t)tv.sec * NS_PER_S + (int64_t)tv.usec * 1000;
	}
	const uptr_t sets[3] = { a->arg[1], a->arg[2], a->arg[3] };
	return do_select(a->arg[0], sets, ns);
}

long sys_pselect6(const struct syscall_args *a)
{
	int64_t ns;
	int err = read_timeout(a->arg[4], &ns);
	if (err)
		return err;
	const uptr_t sets[3] = { a->arg[1], a->arg[2], a->arg[3] };
	return do_select(a->arg[0], sets, ns);
}
