/*
 * t_fs_events: the file manager's event descriptors (include/myrmex/
 * fsevent.h) asked directly, with frames no kernel would write: epoll,
 * eventfd, timerfd and signalfd requests with bad flags, counts,
 * descriptors, values and data ICAs; an epoll record's layout; an eventfd
 * read parked and then answered by a write, or given up (FS_CANCEL,
 * -EINTR); a timerfd read parked until its timer's thread answers it;
 * FS_TIMERFD_TICK and the readiness notice (MYRMEX_SYS_POLL_NOTICE)
 * refused to anyone but the file manager; a signalfd read
 * answered FS_KIND_SIGNAL with its mask, and its readiness from the
 * pending word of FS_POLL and FS_EPOLL_WAIT. And the caller's identity
 * (include/myrmex/fs.h, FS_CRED_*): words a native program writes into its
 * own control ICA header are not believed (only the kernel's channels
 * carry it; anyone else counts as root), and proc_groups refused to all but
 * the file server.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_fs_events"
#include "test_check.h"
#include "ipc_test.h"
#include "fs_test.h"
#include "posix_test.h"

#include <poll.h>
#include <sys/epoll.h>
#include <myrmex/fsevent.h>

static struct chan ch, side;

static void test_epoll(void)
{
	CHECK_EQ(fsx(&ch, FS_EPOLL_CREATE, 1, 0, 0, 0, 0, 0, NULL), -EINVAL);
	long ep = fsx(&ch, FS_EPOLL_CREATE, 0, 0, 0, 0, 0, 0, NULL);
	uint64_t out[8];
	if (!CHECK_EQ(ep >= 0, 1) || !CHECK_EQ(myrmex_fs_call(FS_PIPE, 0, 0, 0, NULL, 0, out), 0))
		return;
	int r = (int)out[0], w = (int)out[1];
	CHECK_EQ(fsx(&ch, FS_EPOLL_CTL, (uint64_t)ep, EPOLL_CTL_ADD, (uint64_t)r, EPOLLIN, 0x1122334455667788ull, 0,
	             NULL), 0);
	CHECK_EQ(fsx(&ch, FS_EPOLL_CTL, (uint64_t)ep, 1ull << 40, (uint64_t)r, EPOLLIN, 0, 0, NULL), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_EPOLL_CTL, (uint64_t)ep, EPOLL_CTL_ADD, 1ull << 40, EPOLLIN, 0, 0, NULL), -EBADF);
	CHECK_EQ(fsx(&ch, FS_EPOLL_CTL, 1ull << 40, EPOLL_CTL_ADD, (uint64_t)r, EPOLLIN, 0, 0, NULL), -EBADF);
	CHECK_EQ(fsx(&ch, FS_EPOLL_WAIT, (uint64_t)ep, 4, 0, 0, 0, 0, NULL), 0);
	CHECK_EQ(myrmex_fs_write(w, "x", 1), 1);
	CHECK_EQ(fsx(&ch, FS_EPOLL_WAIT, (uint64_t)ep, 4, 0, 0, 0, 0, NULL), 1);
	uint32_t events;
	uint64_t data;
	memcpy(&events, chan_buf(&ch), 4);
	memcpy(&data, chan_buf(&ch) + 4, 8);
	CHECK_EQ(events, EPOLLIN);
	/* Not CHECK_EQ, whose long is 32 bits on a 32-bit port. */
	CHECK(data == 0x1122334455667788ull, "epoll data %#llx", (unsigned long long)data);
	/* Counts the data ICA cannot hold, none, no data ICA, not a set. */
	CHECK_EQ(fsx(&ch, FS_EPOLL_WAIT, (uint64_t)ep, 0, 0, 0, 0, 0, NULL), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_EPOLL_WAIT, (uint64_t)ep, CHAN_BYTES / FS_EPOLL_EVENT_BYTES + 1, 0, 0, 0, 0, NULL),
	         -EINVAL);
	CHECK_EQ(fsx(&ch, FS_EPOLL_WAIT, (uint64_t)ep, 1ull << 61, 0, 0, 0, 0, NULL), -EINVAL);
	CHECK_EQ(myrmex_fs_call(FS_EPOLL_WAIT, (uint64_t)ep, 1, 0, NULL, 0, NULL), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_EPOLL_WAIT, (uint64_t)r, 1, 0, 0, 0, 0, NULL), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_EPOLL_WAIT, 1ull << 40, 1, 0, 0, 0, 0, NULL), -EBADF);
	/* The set's own read and write. */
	CHECK_EQ(fsx(&ch, FS_READ, (uint64_t)ep, 8, 0, 0, 0, 0, NULL), -EINVAL);
	CHECK_EQ(myrmex_fs_close(r), 0);   /* its last descriptor: the entry goes */
	CHECK_EQ(fsx(&ch, FS_EPOLL_WAIT, (uint64_t)ep, 4, 0, 0, 0, 0, NULL), 0);
	CHECK_EQ(myrmex_fs_close(w), 0);
	CHECK_EQ(myrmex_fs_close((int)ep), 0);
}

static void test_eventfd(void)
{
	CHECK_EQ(fsx(&ch, FS_EVENTFD, 1ull << 32, 0, 0, 0, 0, 0, NULL), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_EVENTFD, 0, 8, 0, 0, 0, 0, NULL), -EINVAL);
	long fd = fsx(&ch, FS_EVENTFD, 0, 0, 0, 0, 0, 0, NULL);
	if (!CHECK_EQ(fd >= 0, 1))
		return;
	uint64_t v = UINT64_MAX, out[8];
	CHECK_EQ(myrmex_fs_write((int)fd, &v, 4), -EINVAL);
	CHECK_EQ(myrmex_fs_write((int)fd, &v, 8), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_READ, (uint64_t)fd, 4, 0, 0, 0, 0, NULL), -EINVAL);
	/* A read parked (asynchronous), answered by a write on another channel. */
	struct fsreq rd = { { (uint64_t)fd, 8, 0, 0, 0, 0, 0, 0 }, { 0 }, 1 };
	CHECK_EQ(chan_send(&ch, FS_READ, &rd), 0);
	v = 3;
	memcpy(chan_buf(&side), &v, 8);
	CHECK_EQ(fsx(&side, FS_WRITE, (uint64_t)fd, 8, 0, 0, 0, 0, out), 8);
	CHECK_EQ(out[FS_RESULT_KIND], FS_KIND_EVENT);
	CHECK_EQ(chan_wait(&ch, &rd), 8);
	memcpy(&v, chan_buf(&ch), 8);
	CHECK_EQ(v, 3);
	/* A read parked, then given up by its thread: -EINTR, nothing taken. */
	CHECK_EQ(chan_send(&ch, FS_READ, &rd), 0);
	CHECK_EQ(fsx(&side, FS_CANCEL, ch.ctl, 0, 0, 0, 0, 0, NULL), 0);
	CHECK_EQ(chan_wait(&ch, &rd), -EINTR);
	v = 5;
	CHECK_EQ(myrmex_fs_write((int)fd, &v, 8), 8);
	v = 0;
	CHECK_EQ(myrmex_fs_read((int)fd, &v, 8), 8);
	CHECK_EQ(v, 5);
	/* A write parked at the ceiling, answered by a read. */
	v = UINT64_MAX - 1;
	CHECK_EQ(myrmex_fs_write((int)fd, &v, 8), 8);
	struct fsreq wr = { { (uint64_t)fd, 8, 0, 0, 0, 0, 0, 0 }, { 0 }, 1 };
	v = 1;
	memcpy(chan_buf(&ch), &v, 8);
	CHECK_EQ(chan_send(&ch, FS_WRITE, &wr), 0);
	CHECK_EQ(fsx(&side, FS_READ, (uint64_t)fd, 8, 0, 0, 0, 0, NULL), 8);
	CHECK_EQ(chan_wait(&ch, &wr), 8);
	CHECK_EQ(myrmex_fs_close((int)fd), 0);
}

static void test_timerfd(void)
{
	CHECK_EQ(fsx(&ch, FS_TIMERFD_CREATE, 99, 0, 0, 0, 0, 0, NULL), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_TIMERFD_CREATE, 1, 1, 0, 0, 0, 0, NULL), -EINVAL);
	long fd = fsx(&ch, FS_TIMERFD_CREATE, 1 /* CLOCK_MONOTONIC */, 0, 0, 0, 0, 0, NULL);
	if (!CHECK_EQ(fd >= 0, 1))
		return;
	CHECK_EQ(fsx(&ch, FS_TIMERFD_SET, (uint64_t)fd, 2, 1000, 0, 0, 0, NULL), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_TIMERFD_SET, (uint64_t)fd, 0, 1ull << 63, 0, 0, 0, NULL), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_TIMERFD_SET, (uint64_t)fd, 0, 1000, UINT64_MAX, 0, 0, NULL), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_TIMERFD_SET, 1ull << 40, 0, 1000, 0, 0, 0, NULL), -EBADF);
	CHECK_EQ(fsx(&ch, FS_TIMERFD_GET, 1ull << 40, 0, 0, 0, 0, 0, NULL), -EBADF);
	CHECK_EQ(fsx(&ch, FS_TIMERFD_TICK, 0, 0, 0, 0, 0, 0, NULL), -EPERM);
	/* Readiness notices are the file and console servers' to post. */
	CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_POLL_NOTICE, 0, 0, 0, 0, 0, 0), -EPERM);
	CHECK_EQ(fsx(&ch, FS_WRITE, (uint64_t)fd, 8, 0, 0, 0, 0, NULL), -EINVAL);
	/* A read parked until the file manager's timer thread answers it. */
	CHECK_EQ(fsx(&ch, FS_TIMERFD_SET, (uint64_t)fd, 0, 20000000, 0, 0, 0, NULL), 0);
	struct fsreq rd = { { (uint64_t)fd, 8, 0, 0, 0, 0, 0, 0 }, { 0 }, 1 };
	CHECK_EQ(chan_send(&ch, FS_READ, &rd), 0);
	CHECK_EQ(chan_wait(&ch, &rd), 8);
	uint64_t v;
	memcpy(&v, chan_buf(&ch), 8);
	CHECK_EQ(v, 1);
	/* A timer's setting on an eventfd: not a timer. */
	long e = fsx(&ch, FS_EVENTFD, 0, 0, 0, 0, 0, 0, NULL);
	CHECK_EQ(fsx(&ch, FS_TIMERFD_SET, (uint64_t)e, 0, 1000, 0, 0, 0, NULL), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_TIMERFD_GET, (uint64_t)e, 0, 0, 0, 0, 0, NULL), -EINVAL);
	myrmex_fs_close((int)e);
	CHECK_EQ(myrmex_fs_close((int)fd), 0);
}

static void test_signalfd(void)
{
	uint64_t out[8];
	CHECK_EQ(fsx(&ch, FS_SIGNALFD, FS_SIGNALFD_NEW, 1, 1, 0, 0, 0, NULL), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_SIGNALFD, 1ull << 40, 1, 0, 0, 0, 0, NULL), -EBADF);
	long fd = fsx(&ch, FS_SIGNALFD, FS_SIGNALFD_NEW, 0x200, 0, 0, 0, 0, NULL);
	if (!CHECK_EQ(fd >= 0, 1))
		return;
	long e = fsx(&ch, FS_EVENTFD, 0, 0, 0, 0, 0, 0, NULL);
	CHECK_EQ(fsx(&ch, FS_SIGNALFD, (uint64_t)e, 1, 0, 0, 0, 0, NULL), -EINVAL);
	myrmex_fs_close((int)e);
	CHECK_EQ(fsx(&ch, FS_READ, (uint64_t)fd, 128, 0, 0, 0, 0, out), -EAGAIN);
	CHECK_EQ(out[FS_RESULT_KIND], FS_KIND_SIGNAL);
	CHECK_EQ(out[0], 0x200);
	CHECK_EQ(fsx(&ch, FS_SIGNALFD, (uint64_t)fd, 0x400, 0, 0, 0, 0, NULL), fd);
	struct { int32_t fd; int16_t events, revents; } p = { (int32_t)fd, POLLIN, 0 };
	memcpy(chan_buf(&ch), &p, sizeof p);
	CHECK_EQ(fsx(&ch, FS_POLL, 1, 0x200, 0, 0, 0, 0, NULL), 0);   /* pending, not in the mask */
	memcpy(chan_buf(&ch), &p, sizeof p);
	CHECK_EQ(fsx(&ch, FS_POLL, 1, 0x400, 0, 0, 0, 0, NULL), 1);
	long ep = fsx(&ch, FS_EPOLL_CREATE, 0, 0, 0, 0, 0, 0, NULL);
	CHECK_EQ(fsx(&ch, FS_EPOLL_CTL, (uint64_t)ep, EPOLL_CTL_ADD, (uint64_t)fd, EPOLLIN, 7, 0, NULL), 0);
	CHECK_EQ(fsx(&ch, FS_EPOLL_WAIT, (uint64_t)ep, 1, 0, 0, 0, 0, NULL), 0);
	CHECK_EQ(fsx(&ch, FS_EPOLL_WAIT, (uint64_t)ep, 1, 0x400, 0, 0, 0, NULL), 1);
	myrmex_fs_close((int)ep);
	CHECK_EQ(myrmex_fs_close((int)fd), 0);
}

static void test_forged_identity(void)
{
	/* /text/hello.txt is root's, 0644: uid 1000 could not open it to
	 * write, but this claim of 1000 is the program's own, not the kernel's. */
	strcpy((char *)chan_buf(&ch), "/text/hello.txt");
	struct fsreq r = { { O_WRONLY, 0, 0, 0, 0, 0, 0, 0 }, { 0 }, 1 };
	struct myrmex_ctl_header *h = chan_frame(&ch, FS_OPEN, &r);
	h->reserved[FS_CRED_UID] = 1000;
	h->reserved[FS_CRED_GID] = 1000;
	long rc = myrmex_callsync(h);
	long fd = rc < 0 ? rc : chan_result(&ch, &r);
	if (CHECK_EQ(fd >= 0, 1))
		myrmex_fs_close((int)fd);
	/* The groups behind the checks are the file server's to ask only. */
	uint32_t groups[FS_GROUPS_MAX];
	CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_PROC_GROUPS, 1, (long)groups, 0, 0, 0, 0), -EPERM);
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: nothing to test");
		return 0;
	}
	if (!fs_ready() || !chan_open(&ch) || !chan_open(&side))
		return test_exit_code();
	test_epoll();
	test_eventfd();
	test_timerfd();
	test_signalfd();
	test_forged_identity();
	return test_exit_code();
}
