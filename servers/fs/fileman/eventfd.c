/*
 * eventfd.c - eventfd counters (include/myrmex/fsevent.h): a 64-bit count
 * that writes add to and reads take (all of it, or one with EFD_SEMAPHORE).
 * A read of a zero count and a write that would pass 2^64-2 park (park.c)
 * unless O_NONBLOCK; every change answers what it can, oldest first.
 */
#include "fileman.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#define EFD_SEMAPHORE 1u
#define EFD_MAX UINT64_MAX   /* the count stays below: 2^64-2 at most */

struct eventfd {
	uint64_t count;
	bool semaphore;
	struct park_queue q;
	struct open_file *f;            /* its description (one: dup shares it) */
	uint64_t wakes_in, wakes_out;   /* writes, reads (epoll's EPOLLET) */
	bool polled;                    /* looked at by a poll since the last notice (notice.c) */
};

int64_t do_eventfd(struct server_request *rq)
{
	const struct fs_eventfd_args *a = SERVER_IN(rq, struct fs_eventfd_args);
	if (a->flags & ~(uint64_t)(EFD_SEMAPHORE | O_NONBLOCK | O_CLOEXEC) || a->count > UINT32_MAX)
		return -EINVAL;
	int rc = files_room(rq->d.requester);
	if (rc < 0)
		return rc;
	struct eventfd *e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	struct open_file *f = ofd_new(FM_EVENTFD, O_RDWR | (int)(a->flags & O_NONBLOCK));
	if (!f) {
		free(e);
		return -ENFILE;
	}
	e->count = a->count;
	e->semaphore = a->flags & EFD_SEMAPHORE;
	f->efd = e;
	e->f = f;
	int fd = files_install(rq->d.requester, f, 0, a->flags & O_CLOEXEC);
	ofd_unref(f);
	return fd;
}

/* What a read takes now (0: nothing to take). */
static uint64_t take(struct eventfd *e)
{
	uint64_t v = e->semaphore && e->count ? 1 : e->count;
	e->count -= v;
	if (v) {
		e->wakes_out++;
		notice_changed(&e->polled);
	}
	return v;
}

/* Whether v may be added now. */
static bool fits(const struct eventfd *e, uint64_t v)
{
	return EFD_MAX - e->count > v;
}

/* Answers the parked requests that can go on, until none can. The last
 * answer may drop the last reference to e's description: e is held until
 * the end, and may be gone after. */
static void serve(struct eventfd *e)
{
	struct open_file *f = e->f;
	ofd_ref(f);
	bool again = true;
	while (again) {
		again = false;
		uint64_t len;
		struct server_request *r;
		while (e->count > 0 && (r = park_first(&e->q, false, &len))) {
			uint64_t v = take(e);
			memcpy(r->data, &v, sizeof(v));
			park_finish(&e->q, false, sizeof(v));
			again = true;
		}
		while ((r = park_first(&e->q, true, &len))) {
			uint64_t v;
			memcpy(&v, r->data, sizeof(v));
			if (!fits(e, v))
				break;
			e->count += v;
			e->wakes_in++;
			notice_changed(&e->polled);
			park_finish(&e->q, true, sizeof(v));
			again = true;
		}
	}
	ofd_unref(f);
}

int64_t eventfd_read(struct server_request *rq, struct open_file *f)
{
	struct eventfd *e = f->efd;
	if (SERVER_IN(rq, struct fs_io_args)->length < sizeof(uint64_t))
		return -EINVAL;
	if (e->count == 0) {
		if (f->flags & O_NONBLOCK)
			return -EAGAIN;
		return park_add(&e->q, rq, f, false) ? SERVER_LATER : -EAGAIN;
	}
	uint64_t v = take(e);
	memcpy(rq->data, &v, sizeof(v));
	serve(e);   /* parked writes may fit now */
	return sizeof(v);
}

int64_t eventfd_write(struct server_request *rq, struct open_file *f)
{
	struct eventfd *e = f->efd;
	if (SERVER_IN(rq, struct fs_io_args)->length < sizeof(uint64_t))
		return -EINVAL;
	uint64_t v;
	memcpy(&v, rq->data, sizeof(v));
	if (v == EFD_MAX)
		return -EINVAL;
	if (!fits(e, v)) {
		if (f->flags & O_NONBLOCK)
			return -EAGAIN;
		return park_add(&e->q, rq, f, true) ? SERVER_LATER : -EAGAIN;
	}
	e->count += v;
	e->wakes_in++;
	notice_changed(&e->polled);
	serve(e);   /* parked reads may take it */
	return sizeof(v);
}

unsigned eventfd_poll(struct eventfd *e)
{
	e->polled = true;
	unsigned r = 0;
	if (e->count > 0)
		r |= POLLIN | POLLRDNORM;
	if (EFD_MAX - 1 > e->count)
		r |= POLLOUT | POLLWRNORM;
	return r;
}

void eventfd_wakes(const struct eventfd *e, uint64_t *in, uint64_t *out)
{
	*in = e->wakes_in;
	*out = e->wakes_out;
}

void eventfd_free(struct eventfd *e)
{
	free(e);   /* nothing is parked: each parked request holds a reference */
}
