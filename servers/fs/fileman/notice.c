/*
 * notice.c - readiness notices to the kernel (MYRMEX_SYS_POLL_NOTICE,
 * include/myrmex/fs.h; docs/posix.md, "Waiting for readiness"). A poll or
 * epoll wait that finds nothing ready leaves its caller asleep in the
 * kernel until the next notice; the file manager posts one at the first
 * change after such an answer (data into or out of a pipe or eventfd, an
 * end closed), so a pipe written with nobody polling costs nothing more.
 * The answer says whether every kind it looked at is one of those
 * (FS_POLL_NOTICED); a timerfd or a socket is not, and its waiter looks
 * again every 10 ms.
 *
 * Everything here runs under the file manager's lock (lock.h), as the
 * changes and the answers do: no answer can slip between a change and its
 * notice.
 */
#include "fileman.h"

static bool waiting;     /* an answer found nothing ready since the last notice */
static bool unnoticed;   /* the answer being made looked at a kind without notices */

void notice_answer_begin(void)
{
	unnoticed = false;
}

void notice_unnoticed(void)
{
	unnoticed = true;
}

uint64_t notice_answer_end(int64_t ready)
{
	if (ready == 0)
		waiting = true;
	return unnoticed ? 0 : FS_POLL_NOTICED;
}

void notice_changed(void)
{
	if (!waiting)
		return;
	waiting = false;
	myrmex_syscall6(MYRMEX_SYS_POLL_NOTICE, 0, 0, 0, 0, 0, 0);
}
