/*
 * signalfd.c - signalfd descriptors (include/myrmex/fsevent.h): a mask of
 * signals, nothing else. The signals are the kernel's: a read of a signalfd
 * is answered -EAGAIN with FS_KIND_SIGNAL and the mask in the result words,
 * and the kernel takes the pending signals itself (kernel/posix/
 * sys_signalfd.c). Readiness (poll, epoll) needs the caller's pending
 * signals, which the kernel puts in FS_POLL and FS_EPOLL_WAIT requests:
 * fm_caller_pending while one is served.
 */
#include "fileman.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>

#define SFD_FLAGS (O_NONBLOCK | O_CLOEXEC)

uint64_t fm_caller_pending;

int64_t do_signalfd(struct server_request *rq)
{
	const struct fs_signalfd_args *a = SERVER_IN(rq, struct fs_signalfd_args);
	if (a->flags & ~(uint64_t)SFD_FLAGS)
		return -EINVAL;
	if (a->fd != FS_SIGNALFD_NEW) {
		struct open_file *f = files_get(rq->d.requester, a->fd);
		if (!f)
			return -EBADF;
		if (f->kind != FM_SIGNALFD)
			return -EINVAL;
		f->sigmask = a->mask;   /* as Linux: the flags are not changed */
		return (int64_t)a->fd;
	}
	int rc = files_room(rq->d.requester);
	if (rc < 0)
		return rc;
	struct open_file *f = ofd_new(FM_SIGNALFD, O_RDWR | (int)(a->flags & O_NONBLOCK));
	if (!f)
		return -ENFILE;
	f->sigmask = a->mask;
	int fd = files_install(rq->d.requester, f, 0, a->flags & O_CLOEXEC);
	ofd_unref(f);
	return fd;
}

int64_t signalfd_read(struct server_request *rq, const struct open_file *f)
{
	server_out(rq, 0, f->sigmask);
	server_out(rq, 1, (f->flags & O_NONBLOCK) ? 1 : 0);
	server_out(rq, FS_RESULT_KIND, FS_KIND_SIGNAL);
	return -EAGAIN;
}

unsigned signalfd_poll(const struct open_file *f)
{
	return (fm_caller_pending & f->sigmask) ? POLLIN | POLLRDNORM : 0;
}
