/*
 * Readiness notices (docs/posix.md, "Waiting for readiness"): a poll,
 * select, epoll or signalfd wait that found nothing ready sleeps until the
 * next notice instead of asking again every 10 ms. The file server and the
 * console server post one (MYRMEX_SYS_POLL_NOTICE) when something changes
 * after a poll found nothing, and the kernel when a signal becomes pending
 * (a signalfd's readiness). Every waiter then looks again.
 *
 * No notice is lost: a waiter reads the count before it asks the server,
 * and sleeps only if the count has not moved since (the kernel lock makes
 * the check and the sleep one step), while a server posts its notice after
 * the change, so a change later than the server's answer moves the count.
 */
#ifndef POSIX_POLL_NOTICE_H
#define POSIX_POLL_NOTICE_H

#include <kernel/types.h>

/* The count of notices so far: read before asking a server. */
uint64_t poll_notice_count(void);
/* Sleeps until the count moves past seen (at once if it has), until the
 * monotonic deadline (0: none) or a signal: 0, -ETIMEDOUT, -EINTR. */
int poll_notice_wait(uint64_t seen, uint64_t deadline_ns);
/* Moves the count and wakes every waiter. */
void poll_notice(void);
/* When a waiter that found nothing looks again (a monotonic deadline for
 * poll_notice_wait, 0: only a notice): its own deadline (0: none), the
 * server's wake_by (a timerfd's expiry, 0: none) if earlier, and at most
 * POLL_NOTICE_INTERVAL_NS after now when not noticed (a socket). */
#define POLL_NOTICE_INTERVAL_NS 10000000ull   /* 10 ms */
uint64_t poll_wake_time(uint64_t deadline, uint64_t now, bool noticed, uint64_t wake_by);

#endif
