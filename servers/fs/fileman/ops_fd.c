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
	struct open_file *f = files_get(rq->d.requester, rq->in[0]);
	if (!f)
		return -EBADF;
	if (rq->in[2] > 1)
		return -EINVAL;
	return files_install(rq->d.requester, f, rq->in[1], rq->in[2]);
}

int64_t do_dup2(struct server_request *rq)
{
	struct open_file *f = files_get(rq->d.requester, rq->in[0]);
	if (!f)
		return -EBADF;
	if (rq->in[2] > 1)
		return -EINVAL;
	if (rq->in[1] >= FS_MAX_FDS)
		return -EBADF;
	if (rq->in[0] == rq->in[1])
		return (int64_t)rq->in[1];
	int rc = files_install_at(rq->d.requester, rq->in[1], f, rq->in[2]);
	return rc < 0 ? rc : (int64_t)rq->in[1];
}

int64_t do_fcntl(struct server_request *rq)
{
	struct open_file *f = files_get(rq->d.requester, rq->in[0]);
	if (!f)
		return -EBADF;
	uint64_t value = rq->in[2];
	switch (rq->in[1]) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		return files_install(rq->d.requester, f, value, rq->in[1] == F_DUPFD_CLOEXEC);
	case F_GETFD:
		return files_cloexec(rq->d.requester, rq->in[0]) ? FD_CLOEXEC : 0;
	case F_SETFD:
		files_set_cloexec(rq->d.requester, rq->in[0], value & FD_CLOEXEC);
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
	if (rq->in[0] & ~(uint64_t)(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	int nonblock = (int)rq->in[0] & O_NONBLOCK, err = 0;
	bool cloexec = rq->in[0] & O_CLOEXEC;
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
	server_out(rq, 0, (uint64_t)rfd);
	server_out(rq, 1, (uint64_t)wfd);
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
	struct open_file *f = files_get(rq->d.requester, rq->in[0]);
	if (!f)
		return -EBADF;
	switch (rq->in[1]) {
	case FIOCLEX:
	case FIONCLEX:
		files_set_cloexec(rq->d.requester, rq->in[0], rq->in[1] == FIOCLEX);
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
	return f->kind == FM_CONSOLE ? console_ioctl(rq) : -ENOTTY;
}

/* What description f is ready for now (POLL* bits); *console caches the
 * console server's answer for one request (-1: not asked yet). */
static unsigned readiness(const struct open_file *f, int *console)
{
	switch (f->kind) {
	case FM_PIPE:
		return pipe_poll(f->pipe, ofd_can_write(f));
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

int64_t do_poll(struct server_request *rq)
{
	uint64_t n = rq->in[0];
	if (!rq->data || n > rq->data_size / sizeof(struct pollfd))
		return -EINVAL;
	int console = -1;
	int64_t ready = 0;
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
	return ready;
}
