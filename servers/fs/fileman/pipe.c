/*
 * pipe.c - pipes: a 64 KiB ring each, the number of descriptions of each
 * end, and the requests parked on it.
 *
 * The server is one thread, so a read that finds an empty pipe (or a
 * write that finds it full) cannot wait: the request is parked, with its
 * control ICA and data ICA, which stay ours until the reply, and a
 * reference to its description. Every change (data written or read, the
 * last close of an end, a process's end) runs the pipe's service, which
 * answers what can be answered now, oldest first:
 *   - parked reads get what the pipe holds (up to their length), or 0 once
 *     it is empty with no writer left;
 *   - parked writes put in what fits (a write of at most FM_PIPE_BUF bytes
 *     only all at once) and are answered when all of it is in, or, when
 *     the last reader goes, with what went in or -EPIPE.
 * A blocking write longer than the room thus completes in pieces, as on
 * Linux; a non-blocking one gets what fitted or -EAGAIN. A parked request
 * whose process ends (FS_EXIT) is answered -EPIPE; one whose thread gave
 * it up (FS_CANCEL) -EINTR: either way its answer goes to nobody, and it
 * takes no more bytes.
 */
#include "fileman.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#define PIPES 64u
#define PARKED 128u
#define PARKED_PER_PROCESS 32u   /* a POSIX process's threads, one call each */

struct parked {
	bool used;
	bool write;
	struct server_request rq;
	struct open_file *f;          /* a reference held while parked */
	uint64_t len, done;           /* bytes asked, bytes moved so far (writes) */
	struct parked *next;
};

struct pipe {
	bool used;
	uint32_t number;
	uint8_t *ring;                /* FM_PIPE_SIZE bytes */
	uint32_t head, count;         /* the oldest byte, bytes held */
	unsigned readers, writers;    /* descriptions of each end */
	struct parked *reads, *writes;   /* FIFOs of parked requests */
	bool busy, again;             /* the service runs; run it once more */
	uint64_t wakes_in, wakes_out; /* pipe_wakes (epoll.c's EPOLLET) */
	bool polled;                  /* looked at by a poll since the last notice (notice.c) */
};

static struct pipe pipes[PIPES];
static struct parked parked[PARKED];
static unsigned parked_count;   /* entries used: below PARKED_PER_PROCESS, no process
                                   can be at its limit, and park skips the count */
static uint32_t next_number = 1;

struct pipe *pipe_new(int *err)
{
	for (unsigned i = 0; i < PIPES; i++) {
		struct pipe *p = &pipes[i];
		if (p->used)
			continue;
		uint8_t *ring = malloc(FM_PIPE_SIZE);
		if (!ring) {
			*err = -ENOMEM;
			return NULL;
		}
		memset(p, 0, sizeof(*p));
		p->used = true;
		p->ring = ring;
		p->number = next_number++;
		return p;
	}
	*err = -ENFILE;
	return NULL;
}

/* ---- the ring ---- */

static uint32_t ring_take(struct pipe *p, uint8_t *dst, uint64_t len)
{
	uint32_t n = len < p->count ? (uint32_t)len : p->count;
	uint32_t first = FM_PIPE_SIZE - p->head < n ? FM_PIPE_SIZE - p->head : n;
	memcpy(dst, p->ring + p->head, first);
	memcpy(dst + first, p->ring, n - first);
	p->head = (p->head + n) % FM_PIPE_SIZE;
	p->count -= n;
	p->wakes_out++;
	notice_changed(&p->polled);
	return n;
}

static uint32_t ring_put(struct pipe *p, const uint8_t *src, uint64_t len)
{
	uint32_t room = FM_PIPE_SIZE - p->count;
	uint32_t n = len < room ? (uint32_t)len : room;
	uint32_t tail = (p->head + p->count) % FM_PIPE_SIZE;
	uint32_t first = FM_PIPE_SIZE - tail < n ? FM_PIPE_SIZE - tail : n;
	memcpy(p->ring + tail, src, first);
	memcpy(p->ring, src + first, n - first);
	p->count += n;
	p->wakes_in++;
	notice_changed(&p->polled);
	return n;
}

/* ---- parked requests ---- */

/* Parks rq (a reference to f taken) at the end of its pipe's queue; NULL
 * when the pool is full or the process has PARKED_PER_PROCESS parked
 * already (so that one process cannot take every place). */
static struct parked *park(struct server_request *rq, struct open_file *f, bool write, uint64_t done)
{
	if (parked_count >= PARKED_PER_PROCESS) {
		unsigned mine = 0;
		for (unsigned i = 0; i < PARKED; i++)
			mine += parked[i].used && parked[i].rq.d.requester == rq->d.requester;
		if (mine >= PARKED_PER_PROCESS)
			return NULL;
	}
	for (unsigned i = 0; i < PARKED; i++) {
		struct parked *k = &parked[i];
		if (k->used)
			continue;
		k->used = true;
		parked_count++;
		k->write = write;
		k->rq = *rq;
		request_rebase(&k->rq, rq);
		k->f = f;
		k->len = SERVER_IN(rq, struct fs_io_args)->length;
		k->done = done;
		k->next = NULL;
		ofd_ref(f);
		struct parked **q = write ? &f->pipe->writes : &f->pipe->reads;
		while (*q)
			q = &(*q)->next;
		*q = k;
		return k;
	}
	return NULL;
}

/* Takes k off its pipe's queue. */
static void unqueue(struct pipe *p, struct parked *k)
{
	struct parked **q = k->write ? &p->writes : &p->reads;
	while (*q && *q != k)
		q = &(*q)->next;
	if (*q)
		*q = k->next;
}

/* Answers parked request k (already off its queue) and drops its
 * reference, which may run the service of its pipe again (nested: it only
 * asks the running one for another round). */
static void finish(struct parked *k, int64_t status)
{
	struct server_request rq = k->rq;
	struct open_file *f = k->f;
	k->used = false;
	parked_count--;
	server_reply_later(FM_NAME, &rq, status);
	ofd_unref(f);
}

static void pipe_free(struct pipe *p)
{
	free(p->ring);
	p->ring = NULL;
	p->used = false;
}

/* One round of answers: see the comment at the top. */
static void serve_once(struct pipe *p)
{
	while (p->reads && p->count > 0) {
		struct parked *k = p->reads;
		p->reads = k->next;
		finish(k, ring_take(p, k->rq.data, k->len));
	}
	while (p->writes) {
		struct parked *k = p->writes;
		if (p->readers == 0) {
			p->writes = k->next;
			finish(k, k->done ? (int64_t)k->done : -EPIPE);
			continue;
		}
		uint64_t left = k->len - k->done, room = FM_PIPE_SIZE - p->count;
		if (room == 0 || (k->len <= FM_PIPE_BUF && room < left))
			break;
		k->done += ring_put(p, k->rq.data + k->done, left);
		p->again = true;   /* parked reads may take it */
		if (k->done < k->len)
			break;
		p->writes = k->next;
		finish(k, (int64_t)k->len);
	}
	while (p->reads && p->count == 0 && p->writers == 0) {
		struct parked *k = p->reads;
		p->reads = k->next;
		finish(k, 0);
	}
}

/* Runs rounds until nothing changes; frees the pipe once both ends are
 * closed (no parked request is left then: each holds a reference). */
static void pipe_service(struct pipe *p)
{
	if (p->busy) {
		p->again = true;
		return;
	}
	p->busy = true;
	do {
		p->again = false;
		serve_once(p);
	} while (p->again);
	p->busy = false;
	if (p->readers == 0 && p->writers == 0)
		pipe_free(p);
}

void pipe_unused(struct pipe *p)
{
	if (p->readers == 0 && p->writers == 0)
		pipe_free(p);
}

void pipe_open_end(struct pipe *p, bool write)
{
	if (write)
		p->writers++;
	else
		p->readers++;
}

void pipe_close_end(struct pipe *p, bool write)
{
	if (write) {
		p->writers--;
		p->wakes_in++;
	} else {
		p->readers--;
		p->wakes_out++;
	}
	notice_changed(&p->polled);
	pipe_service(p);
}

/* ---- reads and writes ---- */

int64_t pipe_read(struct server_request *rq, struct open_file *f)
{
	struct pipe *p = f->pipe;
	uint64_t len = SERVER_IN(rq, struct fs_io_args)->length;
	if (len == 0)
		return 0;
	if (p->count > 0) {
		uint32_t n = ring_take(p, rq->data, len);
		pipe_service(p);   /* parked writes may go on */
		return n;
	}
	if (p->writers == 0)
		return 0;
	if (f->flags & O_NONBLOCK)
		return -EAGAIN;
	return park(rq, f, false, 0) ? SERVER_LATER : -EAGAIN;
}

int64_t pipe_write(struct server_request *rq, struct open_file *f)
{
	struct pipe *p = f->pipe;
	uint64_t len = SERVER_IN(rq, struct fs_io_args)->length;
	if (p->readers == 0)
		return -EPIPE;
	if (len == 0)
		return 0;
	bool atomic = len <= FM_PIPE_BUF, nonblock = f->flags & O_NONBLOCK;
	uint32_t room = FM_PIPE_SIZE - p->count;
	uint32_t put = 0;
	/* Behind parked writes a blocking one waits its turn. */
	if ((nonblock || !p->writes) && room > 0 && (!atomic || room >= len)) {
		put = ring_put(p, rq->data, len);
		pipe_service(p);   /* parked reads may take it */
		if (put == len || nonblock)
			return put;
	}
	if (nonblock)
		return -EAGAIN;
	return park(rq, f, true, put) ? SERVER_LATER : (put ? (int64_t)put : -EAGAIN);
}

/* ---- readiness, and processes that end ---- */

unsigned pipe_poll(struct pipe *p, bool write)
{
	p->polled = true;
	unsigned events = 0;
	if (write) {
		if (FM_PIPE_SIZE - p->count >= FM_PIPE_BUF)
			events |= POLLOUT | POLLWRNORM;
		if (p->readers == 0)
			events |= POLLERR;
	} else {
		if (p->count > 0)
			events |= POLLIN | POLLRDNORM;
		if (p->writers == 0)
			events |= POLLHUP;
	}
	return events;
}

void pipe_wakes(const struct pipe *p, uint64_t *in, uint64_t *out)
{
	*in = p->wakes_in;
	*out = p->wakes_out;
}

uint32_t pipe_available(const struct pipe *p)
{
	return p->count;
}

uint32_t pipe_number(const struct pipe *p)
{
	return p->number;
}

void pipe_drop_pid(int pid)
{
	for (unsigned i = 0; i < PARKED; i++) {
		struct parked *k = &parked[i];
		if (!k->used || k->rq.d.requester != pid)
			continue;
		struct pipe *p = k->f->pipe;
		unqueue(p, k);
		finish(k, -EPIPE);   /* its process is gone: the kernel frees the result */
	}
}

void pipe_cancel(int pid, uint32_t handle)
{
	for (unsigned i = 0; i < PARKED; i++) {
		struct parked *k = &parked[i];
		if (k->used && k->rq.d.requester == pid && k->rq.d.handle == handle) {
			unqueue(k->f->pipe, k);
			finish(k, -EINTR);
			return;
		}
	}
}
