/*
 * events.c - the event descriptors (FM_EPOLL, FM_EVENTFD, FM_TIMERFD,
 * FM_SIGNALFD) as the rest of the file manager sees them: one hook each in
 * read, write, fstat, poll, the last close and a process's end, dispatched
 * here to epoll.c, eventfd.c, timerfd.c and signalfd.c.
 */
#include "fileman.h"

#include <errno.h>

bool events_kind(enum fm_kind kind)
{
	return kind == FM_EPOLL || kind == FM_EVENTFD || kind == FM_TIMERFD || kind == FM_SIGNALFD;
}

int64_t events_read(struct server_request *rq, struct open_file *f)
{
	switch (f->kind) {
	case FM_EVENTFD:
		return eventfd_read(rq, f);
	case FM_TIMERFD:
		return timerfd_read(rq, f);
	case FM_SIGNALFD:
		return signalfd_read(rq, f);
	default:
		return -EINVAL;   /* an epoll: as Linux, no read method */
	}
}

int64_t events_write(struct server_request *rq, struct open_file *f)
{
	return f->kind == FM_EVENTFD ? eventfd_write(rq, f) : -EINVAL;
}

/* As Linux's anonymous inodes: mode 0600 and no file type. */
int64_t events_stat(struct server_request *rq, const struct open_file *f)
{
	return stat_special(rq, 0600, 0, 3000u + (uint64_t)f->kind);
}

unsigned events_poll(const struct open_file *f, int *console)
{
	switch (f->kind) {
	case FM_EPOLL:
		return epoll_poll(f->ep, console);
	case FM_EVENTFD:
		return eventfd_poll(f->efd);
	case FM_TIMERFD:
		return timerfd_poll(f->tfd);   /* and its expiry for the waiter (notice.c) */
	case FM_SIGNALFD:
		return signalfd_poll(f);
	default:
		return 0;
	}
}

void events_release(struct open_file *f)
{
	epoll_forget(f);
	switch (f->kind) {
	case FM_EPOLL:
		epoll_free(f->ep);
		break;
	case FM_EVENTFD:
		eventfd_free(f->efd);
		break;
	case FM_TIMERFD:
		timerfd_free(f->tfd);
		break;
	default:
		break;
	}
	f->ep = NULL;
	f->efd = NULL;
	f->tfd = NULL;
}

void events_drop_pid(int pid)
{
	park_drop_pid(pid);
}

void events_cancel(int pid, uint32_t handle)
{
	park_cancel(pid, handle);
}

void fm_wakes(const struct open_file *f, uint64_t *in, uint64_t *out)
{
	*in = *out = 0;
	switch (f->kind) {
	case FM_PIPE:
		pipe_wakes(f->pipe, in, out);
		break;
	case FM_EVENTFD:
		eventfd_wakes(f->efd, in, out);
		break;
	case FM_TIMERFD:
		timerfd_wakes(f->tfd, in);
		break;
	default:
		break;
	}
}
