/*
 * The file manager's event descriptors (issue 20): epoll, eventfd and
 * timerfd, kept by the file manager as descriptions like any other (close,
 * dup, fork, exec's close-on-exec, poll), on the same MYRMEX_COREID_FS
 * protocol as include/myrmex/fs.h. The kernel's Linux personality
 * (kernel/posix/sys_epoll.c, sys_eventfd.c) checks the user's pointers and
 * copies; the file manager (servers/fs/fileman/epoll.c, eventfd.c,
 * timerfd.c) keeps the state and answers at once: waiting is the kernel's,
 * which asks again as poll does (docs/posix.md, "Event descriptors"),
 * except reads of an eventfd or timerfd, which park in the file manager as
 * a pipe's do.
 *
 *   FS_EPOLL_CREATE  arg[0] flags (0 or O_CLOEXEC) -> a descriptor.
 *   FS_EPOLL_CTL     arg[0] epfd, arg[1] op (EPOLL_CTL_ADD/DEL/MOD),
 *                    arg[2] fd, arg[3] events, arg[4] data -> 0. Linux's
 *                    errors: -EBADF, -EPERM (a regular file, a directory,
 *                    /dev/null and its kind: nothing to wait for), -EINVAL
 *                    (epfd not an epoll, fd == epfd, a bad op, EPOLLEXCLUSIVE
 *                    misused), -EEXIST, -ENOENT, -ELOOP (a cycle of epolls,
 *                    or nesting deeper than 4), -ENOSPC (FS_EPOLL_MAX_WATCH
 *                    in one set).
 *   FS_EPOLL_WAIT    arg[0] epfd, arg[1] maxevents (the data ICA holds as
 *                    many 12-byte struct epoll_event, Linux's packed layout)
 *                    -> the number ready now, written to the data ICA; 0
 *                    when none (the kernel waits and asks again; result
 *                    arg[0]: FS_POLL_NOTICED, include/myrmex/fs.h). Level-
 *                    triggered entries are reported while ready; EPOLLET
 *                    ones once per change (a write into a pipe or eventfd,
 *                    a read out of it, an end closed, a timer expiring, or
 *                    readiness rising); EPOLLONESHOT ones once until
 *                    EPOLL_CTL_MOD. -EBADF, -EINVAL (not an epoll).
 *   FS_EVENTFD       arg[0] the initial count, arg[1] flags (EFD_SEMAPHORE,
 *                    EFD_NONBLOCK, EFD_CLOEXEC) -> a descriptor. Reads and
 *                    writes are FS_READ/FS_WRITE of 8 bytes (-EINVAL for
 *                    fewer; a write of 2^64-1 -EINVAL); a read of a zero
 *                    count, or a write that would pass 2^64-2, waits (parked)
 *                    or gives -EAGAIN with O_NONBLOCK.
 *   FS_TIMERFD_CREATE arg[0] clock (CLOCK_REALTIME 0, CLOCK_MONOTONIC 1),
 *                    arg[1] flags (TFD_NONBLOCK, TFD_CLOEXEC) -> a descriptor.
 *   FS_TIMERFD_SET   arg[0] fd, arg[1] flags (TFD_TIMER_ABSTIME), arg[2]
 *                    the value in ns (0: disarm), arg[3] the interval in ns
 *                    (each below 2^63, else -EINVAL) -> 0, with the old
 *                    value and interval (ns, relative) in result words 0, 1.
 *   FS_TIMERFD_GET   arg[0] fd -> 0, the value left and the interval (ns)
 *                    in result words 0 and 1.
 *   FS_TIMERFD_TICK  (the file manager's own timer thread only) answers the
 *                    reads parked on timers that expired.
 *   FS_SIGNALFD      arg[0] FS_SIGNALFD_NEW or a signalfd, arg[1] the mask,
 *                    arg[2] flags (O_NONBLOCK, O_CLOEXEC) -> the descriptor
 *                    (new, or arg[0] with its mask replaced). -EBADF, -EINVAL
 *                    (arg[0] not a signalfd). A read is FS_READ, answered as
 *                    FS_KIND_SIGNAL says below; poll and epoll see it ready
 *                    when the caller's pending signals (FS_POLL's arg[1],
 *                    FS_EPOLL_WAIT's arg[2], put there by the kernel) meet
 *                    the mask.
 * Reads of a timerfd (8 bytes: the expirations since the last read) wait
 * until one expires, or -EAGAIN with O_NONBLOCK; writes are -EINVAL.
 */
#ifndef MYRMEX_FSEVENT_H
#define MYRMEX_FSEVENT_H

#include <stdint.h>

#define FS_EPOLL_CREATE   80u
#define FS_EPOLL_CTL      81u
#define FS_EPOLL_WAIT     82u
#define FS_EVENTFD        83u
#define FS_TIMERFD_CREATE 84u
#define FS_TIMERFD_SET    85u
#define FS_TIMERFD_GET    86u
#define FS_TIMERFD_TICK   87u
#define FS_SIGNALFD       88u

/* FS_READ/FS_WRITE's FS_RESULT_KIND for these descriptors: not split into
 * several requests, no SIGPIPE. */
#define FS_KIND_EVENT     10u
/* A read of a signalfd: status -EAGAIN, result word 0 the mask, 1 whether
 * O_NONBLOCK; the kernel reads the signals itself. */
#define FS_KIND_SIGNAL    11u
#define FS_SIGNALFD_NEW   0xffffffffu   /* FS_SIGNALFD's fd: make a new one */

#define FS_EPOLL_EVENT_BYTES 12u      /* Linux x86-64's packed struct epoll_event */
#define FS_EPOLL_MAX_WATCH   4096u    /* entries in one epoll set */

struct fs_epoll_create_args {  /* FS_EPOLL_CREATE */
	uint64_t flags;
};
struct fs_epoll_ctl_args {     /* FS_EPOLL_CTL */
	uint64_t epfd;
	uint64_t op;
	uint64_t fd;
	uint64_t events;
	uint64_t data;
};
struct fs_epoll_wait_args {    /* FS_EPOLL_WAIT */
	uint64_t epfd;
	uint64_t maxevents;
	uint64_t pending;        /* the caller's pending signals (signalfd readiness) */
};
struct fs_eventfd_args {       /* FS_EVENTFD */
	uint64_t count;
	uint64_t flags;
};
struct fs_timerfd_create_args {   /* FS_TIMERFD_CREATE */
	uint64_t clock;
	uint64_t flags;
};
struct fs_timerfd_set_args {   /* FS_TIMERFD_SET */
	uint64_t fd;
	uint64_t flags;
	uint64_t value_ns;
	uint64_t interval_ns;
};
struct fs_timerfd_result {     /* FS_TIMERFD_SET's old and FS_TIMERFD_GET's setting */
	uint64_t value_ns;
	uint64_t interval_ns;
};
struct fs_signalfd_args {      /* FS_SIGNALFD */
	uint64_t fd;             /* FS_SIGNALFD_NEW, or a signalfd whose mask changes */
	uint64_t mask;           /* the signals (bit sig - 1), never SIGKILL, SIGSTOP */
	uint64_t flags;          /* O_NONBLOCK | O_CLOEXEC */
};
_Static_assert(sizeof(struct fs_epoll_ctl_args) <= 64, "fs_epoll_ctl_args fits arg[]");
_Static_assert(sizeof(struct fs_timerfd_set_args) <= 64, "fs_timerfd_set_args fits arg[]");

#endif
