/*
 * Readiness notices (posix/poll_notice.h): one count and one queue for every
 * waiter, whatever it waits for. A notice wakes them all and each asks its
 * server again: waiters are few, notices come only after a poll found
 * nothing, and one queue keeps the servers free of any list of who waits
 * for what.
 */
#include <posix/poll_notice.h>
#include <posix/posix.h>
#include <posix/route.h>
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/sched.h>
#include <kernel/personality.h>

static struct waitq waiters = { LIST_INIT(waiters.waiters) };
static uint64_t notices;

uint64_t poll_notice_count(void)
{
	return notices;
}

int poll_notice_wait(uint64_t seen, uint64_t deadline_ns)
{
	int r = notices != seen ? 0 : thread_block(&waiters, deadline_ns);
	/* A signal made pending posts a notice before it wakes the thread it
	 * is for (signal.c), which then finds itself woken with 0: the signal
	 * wins, as it would have had the thread still slept (asking the server
	 * again would only see the signal and restart the whole call). */
	if (r == 0 && personality_interrupts(current_thread()))
		return -EINTR;
	return r;
}

void poll_notice(void)
{
	notices++;
	waitq_wake(&waiters, INT32_MAX);
}

uint64_t poll_wake_time(uint64_t deadline, uint64_t now, bool noticed, uint64_t wake_by)
{
	uint64_t wake = deadline;
	if (wake_by && (!wake || wake_by < wake))
		wake = wake_by > now ? wake_by : now + 1;   /* past: look again at once */
	if (!noticed && (!wake || now + POLL_NOTICE_INTERVAL_NS < wake))
		wake = now + POLL_NOTICE_INTERVAL_NS;
	return wake;
}

/* poll_notice() for the servers whose objects polls wait for. */
long sys_poll_notice(const struct syscall_args *a)
{
	(void)a;
	struct process *me = current_thread()->proc;
	if (me != posix_server(SERVICE_FILES) && me != posix_server(SERVICE_CONSOLE) &&
	    me != posix_server(SERVICE_INET))
		return -EPERM;
	poll_notice();
	return 0;
}
