/*
 * park.c - requests parked on an eventfd or a timerfd (a read with nothing
 * to read, an eventfd write with no room), kept as pipe.c keeps its own:
 * a copy of the request, whose control ICA and data ICA stay ours until the
 * answer, and a reference to its description. Each object has a FIFO
 * (struct park_queue); a process that ends has its parked requests
 * answered (to nobody) and one whose thread gave the call up (FS_CANCEL)
 * has it answered -EINTR.
 */
#include "fileman.h"

#include <errno.h>

#define PARKED 64u
#define PARKED_PER_PROCESS 32u   /* a POSIX process's threads, one call each */

struct parked_read {
	bool used, write;
	struct server_request rq;
	struct open_file *f;          /* a reference held while parked */
	uint64_t len;
	struct park_queue *q;
	struct parked_read *next;
};

static struct parked_read pool[PARKED];

bool park_add(struct park_queue *q, struct server_request *rq, struct open_file *f, bool write)
{
	unsigned mine = 0;
	struct parked_read *k = NULL;
	for (unsigned i = 0; i < PARKED; i++) {
		if (pool[i].used)
			mine += pool[i].rq.d.requester == rq->d.requester;
		else if (!k)
			k = &pool[i];
	}
	if (!k || mine >= PARKED_PER_PROCESS)
		return false;
	k->used = true;
	k->write = write;
	k->rq = *rq;
	request_rebase(&k->rq, rq);
	k->f = f;
	k->len = SERVER_IN(rq, struct fs_io_args)->length;
	k->q = q;
	k->next = NULL;
	ofd_ref(f);
	struct parked_read **p = &q->head;
	while (*p)
		p = &(*p)->next;
	*p = k;
	return true;
}

static struct parked_read **find(struct park_queue *q, bool write)
{
	struct parked_read **p = &q->head;
	while (*p && (*p)->write != write)
		p = &(*p)->next;
	return p;
}

struct server_request *park_first(struct park_queue *q, bool write, uint64_t *len)
{
	struct parked_read *k = *find(q, write);
	if (!k)
		return NULL;
	*len = k->len;
	return &k->rq;
}

/* Takes k (at *p) off its queue and answers it. Dropping the reference may
 * free the object (its queue empty by then: each parked request holds one). */
static void answer(struct parked_read **p, int64_t status)
{
	struct parked_read *k = *p;
	*p = k->next;
	struct server_request rq = k->rq;
	struct open_file *f = k->f;
	k->used = false;
	server_reply_later(FM_NAME, &rq, status);
	ofd_unref(f);
}

void park_finish(struct park_queue *q, bool write, int64_t status)
{
	struct parked_read **p = find(q, write);
	if (*p)
		answer(p, status);
}

static void drop_where(int pid, uint32_t handle, bool any, int64_t status)
{
	for (unsigned i = 0; i < PARKED; i++) {
		struct parked_read *k = &pool[i];
		if (!k->used || k->rq.d.requester != pid || (!any && k->rq.d.handle != handle))
			continue;
		struct parked_read **p = &k->q->head;
		while (*p && *p != k)
			p = &(*p)->next;
		if (*p)
			answer(p, status);
	}
}

void park_drop_pid(int pid)
{
	drop_where(pid, 0, true, -EPIPE);   /* its process is gone: nobody sees it */
}

void park_cancel(int pid, uint32_t handle)
{
	drop_where(pid, handle, false, -EINTR);
}
