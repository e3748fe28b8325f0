/*
 * notice.c - readiness notices to the kernel (MYRMEX_SYS_POLL_NOTICE,
 * include/myrmex/fs.h; docs/posix.md, "Waiting for readiness"). A poll or
 * epoll wait that finds nothing ready leaves its caller asleep in the
 * kernel until the next notice; the file manager posts one at the first
 * change to an object a poll looked at since its last notice (data into or
 * out of a pipe or eventfd, an end closed, a timer set, a set changed): a
 * flag in each object, set by its poll and cleared by the notice, so a
 * pipe written with nobody polling it costs nothing more, and a poller is
 * not woken by every write into pipes it does not watch.
 * The answer says whether every kind it looked at is one of those
 * (FS_POLL_NOTICED: all are now; the bit stays in the protocol for a kind
 * that could not, whose waiter would look again every 10 ms) and when the
 * earliest armed timerfd expires (the waiter looks again then). An inet
 * socket's notices come from the TCP/IP server; a packet socket's from
 * here, when a frame is kept for it.
 *
 * Everything here runs under the file manager's lock (lock.h), as the
 * changes and the answers do: no answer can slip between a change and its
 * notice.
 */
#include "fileman.h"

static uint64_t wake_by;  /* and the earliest timerfd expiry it saw (monotonic ns) */

void notice_answer_begin(void)
{
	wake_by = 0;
}

void notice_wake_by(uint64_t monotonic_ns)
{
	if (monotonic_ns && (!wake_by || monotonic_ns < wake_by))
		wake_by = monotonic_ns;
}

void notice_answer_end(struct server_request *rq)
{
	struct fs_poll_result *res = SERVER_OUT(rq, struct fs_poll_result);
	res->noticed = FS_POLL_NOTICED;   /* every kind posts its notices now */
	res->wake_by = wake_by;
}

void notice_changed(bool *polled)
{
	if (!*polled)
		return;
	*polled = false;
	myrmex_syscall6(MYRMEX_SYS_POLL_NOTICE, 0, 0, 0, 0, 0, 0);
}
