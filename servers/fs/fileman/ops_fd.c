/*
 * ops_fd.c - the handlers for descriptors as such: dup, dup2 (and dup3),
 * fcntl, pipe, ioctl and poll.
 *
 * Duplicates share the open-file description (one offset, one set of
 * status flags); close-on-exec belongs to each descriptor. poll answers at
 * once with what is ready now; the kernel does any waiting.
 */
#include "fileman.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>

int64_t do_dup(struct server_request *rq)
{
	const struct fs_dup_args *a = SERVER_IN(rq, struct fs_dup_args);
	struct open_file *f = files_get(rq->d.requester, a->fd);
	if (!f)
		return -EBADF;
	if (a->cloexec > 1)
		return -EINVAL;
	int64_t fd = files_install(rq->d.requester, f, a->lowest, a->cloexec);
	result_kind(rq, fd);
	return fd;
}

int64_t do_dup2(struct server_request *rq)
{
	const struct fs_dup2_args *a = SERVER_IN(rq, struct fs_dup2_args);
	struct open_file *f = files_get(rq->d.requester, a->fd);
	if (!f)
		return -EBADF;
	if (a->cloexec > 1)
		return -EINVAL;
	if (a->newfd >= FS_MAX_FDS)
		return -EBADF;
	if (a->fd == a->newfd)
		return (int64_t)a->newfd;
	int rc = files_install_at(rq->d.requester, a->newfd, f, a->cloexec);
	if (rc < 0)
		return rc;
	result_kind(rq, (int64_t)a->newfd);
	return (int64_t)a->newfd;
}

int64_t do_fcntl(struct server_request *rq)
{
	const struct fs_fcntl_args *a = SERVER_IN(rq, struct fs_fcntl_args);
	struct open_file *f = files_get(rq->d.requester, a->fd);
	if (!f)
		return -EBADF;
	uint64_t value = a->value;
	switch (a->cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		return files_install(rq->d.requester, f, value, a->cmd == F_DUPFD_CLOEXEC);
	case F_GETFD:
		return files_cloexec(rq->d.requester, a->fd) ? FD_CLOEXEC : 0;
	case F_SETFD:
		files_set_cloexec(rq->d.requester, a->fd, value & FD_CLOEXEC);
		return 0;
	case F_GETFL:
		return f->flags;
	case F_SETFL:
		f->flags = (f->flags & ~FM_STATUS_FLAGS) | ((int)value & FM_STATUS_FLAGS);
		return 0;
	default:
		return -EINVAL;
	}
}

int64_t do_pipe(struct server_request *rq)
{
	uint64_t flags = SERVER_IN(rq, struct fs_pipe_args)->flags;
	if (flags & ~(uint64_t)(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	int nonblock = (int)flags & O_NONBLOCK, err = 0;
	bool cloexec = flags & O_CLOEXEC;
	struct pipe *p = pipe_new(&err);
	if (!p)
		return err;
	struct open_file *r = ofd_new(FM_PIPE, O_RDONLY | nonblock);
	if (!r) {
		pipe_unused(p);
		return -ENFILE;
	}
	r->pipe = p;
	pipe_open_end(p, false);
	struct open_file *w = ofd_new(FM_PIPE, O_WRONLY | nonblock);
	if (!w) {
		ofd_unref(r);   /* the pipe goes with it */
		return -ENFILE;
	}
	w->pipe = p;
	pipe_open_end(p, true);
	int rfd = files_install(rq->d.requester, r, 0, cloexec);
	int wfd = rfd >= 0 ? files_install(rq->d.requester, w, 0, cloexec) : rfd;
	if (wfd < 0 && rfd >= 0)
		files_close(rq->d.requester, (uint64_t)rfd);
	ofd_unref(r);
	ofd_unref(w);
	if (wfd < 0)
		return wfd;
	struct fs_pipe_result *res = SERVER_OUT(rq, struct fs_pipe_result);
	res->read_fd = (uint64_t)rfd;
	res->write_fd = (uint64_t)wfd;
	return 0;
}

/* FIONREAD's answer, an int at the start of the data ICA. */
static int64_t put_int(struct server_request *rq, int value)
{
	if (!rq->data || rq->data_size < sizeof(value))
		return -EINVAL;
	memcpy(rq->data, &value, sizeof(value));
	return 0;
}

int64_t do_ioctl(struct server_request *rq)
{
	const struct fs_ioctl_args *a = SERVER_IN(rq, struct fs_ioctl_args);
	struct open_file *f = files_get(rq->d.requester, a->fd);
	if (!f)
		return -EBADF;
	switch (a->request) {
	case FIOCLEX:
	case FIONCLEX:
		files_set_cloexec(rq->d.requester, a->fd, a->request == FIOCLEX);
		return 0;
	case FIONREAD:
		if (f->kind == FM_PIPE)
			return put_int(rq, (int)pipe_available(f->pipe));
		if (f->kind == FM_FILE) {
			struct ext2_stat st;
			int rc = f->ino ? ext2_stat(fm_fs_for(rq), f->ino, &st) : -ESTALE;
			if (rc < 0)
				return fm_result(rc, "ioctl");
			uint64_t left = st.size > f->offset ? st.size - f->offset : 0;
			return put_int(rq, left > INT32_MAX ? INT32_MAX : (int)left);
		}
		break;
	default:
		break;
	}
	if (f->kind == FM_SOCKET || f->kind == FM_INET)
		return ifconf_ioctl(rq, a->request);
	return f->kind == FM_CONSOLE ? console_ioctl(rq) : -ENOTTY;
}

/* What description f is ready for now (POLL* bits); *console caches the
 * console server's answer for one request (-1: not asked yet). */
static unsigned readiness(const struct open_file *f, int *console)
{
	if (events_kind(f->kind))
		return events_poll(f, console);   /* events.c */
	switch (f->kind) {
	case FM_PIPE:
		return pipe_poll(f->pipe, ofd_can_write(f));
	case FM_SOCKET:
		return socket_poll(f->sock);   /* a frame kept for it posts a notice */
	case FM_INET:
		return inet_poll(f);   /* the TCP/IP server posts the notices */
	case FM_CONSOLE:
		if (*console == -1)
			*console = console_poll();
		if (*console < 0)
			return POLLERR;
		return (*console & POLLIN ? POLLIN | POLLRDNORM : 0) |
		       (*console & POLLOUT ? POLLOUT | POLLWRNORM : 0);
	default:
		/* Files, directories and /dev/null never make anyone wait. */
		return POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM;
	}
}

unsigned fm_readiness(const struct open_file *f, int *console)
{
	return readiness(f, console);
}

int64_t do_poll(struct server_request *rq)
{
	uint64_t n = SERVER_IN(rq, struct fs_poll_args)->nfds;
	fm_caller_pending = SERVER_IN(rq, struct fs_poll_args)->pending;   /* signalfd.c */
	if (!rq->data || n > rq->data_size / sizeof(struct pollfd))
		return -EINVAL;
	int console = -1;
	int64_t ready = 0;
	notice_answer_begin();
	for (uint64_t i = 0; i < n; i++) {
		struct pollfd pfd;
		memcpy(&pfd, rq->data + i * sizeof(pfd), sizeof(pfd));
		unsigned revents = 0;
		if (pfd.fd >= 0) {
			struct open_file *f = files_get(rq->d.requester, (uint64_t)pfd.fd);
			revents = f ? readiness(f, &console) & ((unsigned)(uint16_t)pfd.events | POLLERR | POLLHUP)
			            : POLLNVAL;
		}
		pfd.revents = (short)revents;
		memcpy(rq->data + i * sizeof(pfd), &pfd, sizeof(pfd));
		ready += revents != 0;
	}
	notice_answer_end(rq);
	return ready;
}
