/*
 * console.c - the console's descriptors (/dev/console, /dev/tty). A read,
 * write or ioctl on one is passed on to the console server (servers/
 * console) as the next stage of the caller's own call, with direct return:
 * the console server's result, and the caller's data ICA with it, go
 * straight back to the caller. The file manager is free again at once; it
 * never waits for a line of input.
 *
 * Readiness (poll, and a non-blocking read) is the one question the file
 * manager asks itself: CONSOLE_POLL, a synchronous call on a control ICA
 * of its own, which the console server answers at once.
 */
#include "fileman.h"

#include <errno.h>
#include <poll.h>
#include <myrmex/console.h>

static struct myrmex_ctl_header *poll_ctl;   /* ours, for CONSOLE_POLL */

static bool console_seen;   /* a console server took a call of ours once */

/* The passed-on frame's arg[0] is the descriptor fd (as ours). No console
 * server: -ENXIO, or -EINTR when there was one (it died, and the service
 * manager is starting it again: the caller asks again). */
static int64_t forward(struct server_request *rq, uint32_t opcode, uint64_t fd, uint64_t a1,
                       uint64_t a2)
{
	server_out(rq, FS_RESULT_KIND, FS_KIND_CONSOLE);
	int64_t r = request_pass_on(rq, MYRMEX_COREID_CONSOLE, opcode, fd, a1, a2);
	if (r != -ESRCH) {
		console_seen |= r == SERVER_LATER;
		return r;
	}
	return console_seen ? -EINTR : -ENXIO;
}

int64_t console_forward(struct server_request *rq, const struct open_file *f, bool write)
{
	const struct fs_io_args *a = SERVER_IN(rq, struct fs_io_args);
	uint64_t length = a->length;
	if (!rq->data || length > rq->data_size)
		return -EINVAL;
	if (!write && (f->flags & O_NONBLOCK) && length > 0) {
		int ready = console_poll();
		if (ready >= 0 && !(ready & POLLIN))
			return -EAGAIN;
	}
	return forward(rq, write ? CONSOLE_WRITE : CONSOLE_READ, a->fd, length, 0);
}

int64_t console_ioctl(struct server_request *rq)
{
	const struct fs_ioctl_args *a = SERVER_IN(rq, struct fs_ioctl_args);
	return forward(rq, CONSOLE_IOCTL, a->fd, a->request, a->value);
}

int console_poll(void)
{
	if (!poll_ctl) {
		long h = myrmex_ica_alloc(1);
		if (h < 0)
			return (int)h;
		poll_ctl = myrmex_ica_addr((uint32_t)h);
	}
	myrmex_ctl_init(poll_ctl);
	struct myrmex_frame *f = myrmex_ctl_push(poll_ctl, 1, MYRMEX_COREID_CONSOLE, CONSOLE_POLL);
	if (!f)
		return -EINVAL;
	long r = myrmex_callsync(poll_ctl);
	if (r < 0)
		return r == -ESRCH ? -ENXIO : (int)r;
	struct myrmex_frame *res = myrmex_ctl_result(poll_ctl);
	if (!res)
		return -EIO;
	/* Believe only the two bits the protocol names. */
	if (res->status < 0)
		return res->status >= -4095 ? (int)res->status : -EIO;
	return (int)(res->status & (POLLIN | POLLOUT));
}
