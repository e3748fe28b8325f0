/*
 * epoll.c - epoll sets (include/myrmex/fsevent.h): an interest list per
 * FM_EPOLL description, each entry a (descriptor number, description) pair
 * as on Linux, over the readiness poll uses (fm_readiness), so every kind
 * poll understands works here too, nested epolls included.
 *
 * Nothing waits here: FS_EPOLL_WAIT reports what is ready now and the
 * kernel asks again. An entry holds no reference to its description (as
 * Linux's holds none to its file): the description's last close takes the
 * entry out of every set (epoll_forget), so a descriptor closed while a dup
 * of it stays open keeps reporting under its old number, as on Linux.
 *
 * Edge-triggered entries (EPOLLET) are armed by EPOLL_CTL_ADD/MOD and by
 * each wake-up of the object since the entry last looked (fm_wakes: a write
 * into a pipe arms its read end's entries) or readiness bits rising (kinds
 * without wake-up counters: the console, sockets, nested sets); a look that
 * finds them ready reports them and disarms them, a look that finds nothing
 * disarms them too (Linux drops a woken item it finds not ready). Entries
 * are kept in report order: one reported goes to the end (Linux's ready
 * list re-queues a level-triggered item behind the others).
 */
#include "fileman.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>

#define EP_MAX_NESTS 4   /* Linux's limit on sets within sets */
#define EP_INOUT (EPOLLIN | EPOLLRDNORM | EPOLLRDBAND | EPOLLPRI | EPOLLRDHUP)
#define EP_EXCLUSIVE_OK (EPOLLIN | EPOLLOUT | EPOLLERR | EPOLLHUP | EPOLLWAKEUP | EPOLLET | \
                         EPOLLEXCLUSIVE)

struct ep_entry {
	struct open_file *f;          /* the watched description (no reference) */
	int fd;                       /* the descriptor it was added by */
	uint32_t events;              /* asked for, with EPOLLERR | EPOLLHUP */
	uint64_t data;
	bool armed;                   /* EPOLLET: a change not reported yet */
	bool disabled;                /* EPOLLONESHOT fired: nothing until MOD */
	unsigned last;                /* readiness at the last look (EPOLLET rising) */
	uint64_t wake_in, wake_out;   /* fm_wakes at the last look */
};

struct epoll {
	struct ep_entry *e;           /* in report order */
	unsigned n, cap;
	bool polled;                  /* waited on or polled since the last notice (notice.c) */
	struct epoll *next;           /* every set, for epoll_forget */
};

static struct epoll *sets;

/* ---- one entry ---- */

/* Whether entry x is to be reported now, and with what (*revents). Updates
 * its edge state (a look, as Linux's poll of a woken item); consuming is
 * the caller's. */
static bool entry_look(struct ep_entry *x, int *console, unsigned *revents)
{
	if (x->disabled)
		return false;
	unsigned now = fm_readiness(x->f, console) & x->events;
	*revents = now;
	if (!(x->events & EPOLLET))
		return now != 0;
	uint64_t in, out;
	fm_wakes(x->f, &in, &out);
	if ((in != x->wake_in && (x->events & EP_INOUT)) || (out != x->wake_out && (x->events & EPOLLOUT)) ||
	    (now & ~x->last))
		x->armed = true;
	x->wake_in = in;
	x->wake_out = out;
	x->last = now;
	if (!now)
		x->armed = false;
	return x->armed;
}

/* Arms entry x afresh (ADD, MOD). */
static void entry_arm(struct ep_entry *x)
{
	x->armed = true;
	x->disabled = false;
	x->last = 0;
	fm_wakes(x->f, &x->wake_in, &x->wake_out);
}

static struct ep_entry *entry_find(struct epoll *ep, const struct open_file *f, int fd)
{
	for (unsigned i = 0; i < ep->n; i++)
		if (ep->e[i].f == f && ep->e[i].fd == fd)
			return &ep->e[i];
	return NULL;
}

static void entry_remove(struct epoll *ep, struct ep_entry *x)
{
	unsigned i = (unsigned)(x - ep->e);
	memmove(&ep->e[i], &ep->e[i + 1], (ep->n - i - 1) * sizeof(*x));
	ep->n--;
}

/* ---- nesting ---- */

static unsigned looking;   /* depth of epoll_poll calls in progress */

unsigned epoll_poll(struct epoll *ep, int *console)
{
	ep->polled = true;
	if (looking > EP_MAX_NESTS)
		return 0;
	looking++;
	unsigned r = 0;
	for (unsigned i = 0; i < ep->n && !r; i++) {
		unsigned revents;
		if (entry_look(&ep->e[i], console, &revents))
			r = POLLIN | POLLRDNORM;
	}
	looking--;
	return r;
}

/* Whether set `to` is `from` or holds it, at any depth (visited: a bound
 * on the walk, cycles being refused before they form). */
static bool reaches(const struct epoll *from, const struct epoll *to, unsigned depth)
{
	if (from == to)
		return true;
	if (depth > EP_MAX_NESTS)
		return false;
	for (unsigned i = 0; i < from->n; i++)
		if (from->e[i].f->kind == FM_EPOLL && reaches(from->e[i].f->ep, to, depth + 1))
			return true;
	return false;
}

/* Sets below ep (0: none of its entries is a set). */
static unsigned depth_down(const struct epoll *ep, unsigned bound)
{
	unsigned d = 0;
	if (bound == 0)
		return 0;
	for (unsigned i = 0; i < ep->n; i++)
		if (ep->e[i].f->kind == FM_EPOLL) {
			unsigned below = 1 + depth_down(ep->e[i].f->ep, bound - 1);
			d = below > d ? below : d;
		}
	return d;
}

/* Sets above ep (0: no set holds it). */
static unsigned depth_up(const struct epoll *ep, unsigned bound)
{
	unsigned d = 0;
	if (bound == 0)
		return 0;
	for (struct epoll *s = sets; s; s = s->next)
		for (unsigned i = 0; i < s->n; i++)
			if (s->e[i].f->kind == FM_EPOLL && s->e[i].f->ep == ep) {
				unsigned above = 1 + depth_up(s, bound - 1);
				d = above > d ? above : d;
			}
	return d;
}

/* ---- the calls ---- */

int64_t do_epoll_create(struct server_request *rq)
{
	uint64_t flags = SERVER_IN(rq, struct fs_epoll_create_args)->flags;
	if (flags & ~(uint64_t)O_CLOEXEC)
		return -EINVAL;
	int rc = files_room(rq->d.requester);
	if (rc < 0)
		return rc;
	struct epoll *ep = calloc(1, sizeof(*ep));
	if (!ep)
		return -ENOMEM;
	struct open_file *f = ofd_new(FM_EPOLL, O_RDWR);
	if (!f) {
		free(ep);
		return -ENFILE;
	}
	f->ep = ep;
	ep->next = sets;
	sets = ep;
	int fd = files_install(rq->d.requester, f, 0, flags & O_CLOEXEC);
	ofd_unref(f);   /* the descriptor's reference is the one left (or none) */
	return fd;
}

/* Kinds with nothing to wait for: Linux's files without a poll method. */
static bool pollable(const struct open_file *f)
{
	switch (f->kind) {
	case FM_FILE:
	case FM_DIR:
	case FM_PROC:
	case FM_NULL:
	case FM_ZERO:
	case FM_FULL:
		return false;
	default:
		return true;
	}
}

static int64_t ctl_add(struct epoll *ep, struct open_file *t, int fd, uint32_t events, uint64_t data)
{
	if (entry_find(ep, t, fd))
		return -EEXIST;
	if (t->kind == FM_EPOLL) {
		if (reaches(t->ep, ep, 0))
			return -ELOOP;
		if (depth_up(ep, EP_MAX_NESTS + 1) + 1 + depth_down(t->ep, EP_MAX_NESTS + 1) > EP_MAX_NESTS)
			return -ELOOP;
	}
	if (ep->n >= FS_EPOLL_MAX_WATCH)
		return -ENOSPC;
	if (ep->n == ep->cap) {
		unsigned cap = ep->cap ? ep->cap * 2 : 8;
		struct ep_entry *e = realloc(ep->e, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		ep->e = e;
		ep->cap = cap;
	}
	struct ep_entry *x = &ep->e[ep->n++];
	memset(x, 0, sizeof(*x));
	x->f = t;
	x->fd = fd;
	x->events = events | EPOLLERR | EPOLLHUP;
	x->data = data;
	entry_arm(x);
	return 0;
}

int64_t do_epoll_ctl(struct server_request *rq)
{
	const struct fs_epoll_ctl_args *a = SERVER_IN(rq, struct fs_epoll_ctl_args);
	int pid = rq->d.requester;
	struct open_file *f = files_get(pid, a->epfd);
	if (!f)
		return -EBADF;
	struct open_file *t = files_get(pid, a->fd);
	if (!t)
		return -EBADF;
	if (!pollable(t))
		return -EPERM;
	if (f == t || f->kind != FM_EPOLL)
		return -EINVAL;
	/* A set changed under a waiter (another thread's ctl) is looked at
	 * again, as Linux wakes a waiter for an entry added ready. */
	notice_changed(&f->ep->polled);
	uint32_t events = (uint32_t)a->events;
	bool has_event = a->op == EPOLL_CTL_ADD || a->op == EPOLL_CTL_MOD;
	if (has_event && (events & EPOLLEXCLUSIVE)) {
		if (a->op == EPOLL_CTL_MOD)
			return -EINVAL;
		if (t->kind == FM_EPOLL || (events & ~(uint32_t)EP_EXCLUSIVE_OK))
			return -EINVAL;
	}
	struct epoll *ep = f->ep;
	int fd = (int)a->fd;
	struct ep_entry *x = entry_find(ep, t, fd);
	switch (a->op) {
	case EPOLL_CTL_ADD:
		return ctl_add(ep, t, fd, events, a->data);
	case EPOLL_CTL_DEL:
		if (!x)
			return -ENOENT;
		entry_remove(ep, x);
		return 0;
	case EPOLL_CTL_MOD:
		if (!x)
			return -ENOENT;
		if (x->events & EPOLLEXCLUSIVE)
			return -EINVAL;   /* as Linux: an exclusive entry cannot be modified */
		x->events = events | EPOLLERR | EPOLLHUP;
		x->data = a->data;
		entry_arm(x);
		return 0;
	default:
		return -EINVAL;
	}
}

int64_t do_epoll_wait(struct server_request *rq)
{
	const struct fs_epoll_wait_args *a = SERVER_IN(rq, struct fs_epoll_wait_args);
	struct open_file *f = files_get(rq->d.requester, a->epfd);
	if (!f)
		return -EBADF;
	if (f->kind != FM_EPOLL)
		return -EINVAL;
	uint64_t max = a->maxevents;
	if (max == 0 || !rq->data || max > rq->data_size / FS_EPOLL_EVENT_BYTES)
		return -EINVAL;
	struct epoll *ep = f->ep;
	ep->polled = true;
	if (ep->n == 0) {
		notice_answer_begin();   /* nothing to wait for but an epoll_ctl */
		notice_answer_end(rq);
		return 0;
	}
	fm_caller_pending = a->pending;   /* signalfd.c */
	/* Reported entries go to the end, in the order reported. */
	struct ep_entry *order = malloc(ep->n * sizeof(*order));
	if (!order)
		return -ENOMEM;
	unsigned kept = 0, moved = 0, n = ep->n;
	int console = -1;
	notice_answer_begin();
	looking++;
	for (unsigned i = 0; i < n; i++) {
		struct ep_entry *x = &ep->e[i];
		unsigned revents;
		if (moved < max && entry_look(x, &console, &revents)) {
			uint32_t ev = revents;
			uint8_t *rec = rq->data + moved * FS_EPOLL_EVENT_BYTES;
			memcpy(rec, &ev, 4);
			memcpy(rec + 4, &x->data, 8);
			if (x->events & EPOLLONESHOT)
				x->disabled = true;
			x->armed = false;
			ep->e[moved++] = *x;   /* i >= moved: a slot already copied out or this one */
			continue;
		}
		order[kept++] = *x;
	}
	looking--;
	/* e[0..moved) are the reported ones; the rest first, then them. */
	memmove(&ep->e[kept], &ep->e[0], moved * sizeof(*order));
	memcpy(&ep->e[0], order, kept * sizeof(*order));
	free(order);
	notice_answer_end(rq);
	return moved;
}

void epoll_free(struct epoll *ep)
{
	for (struct epoll **p = &sets; *p; p = &(*p)->next)
		if (*p == ep) {
			*p = ep->next;
			break;
		}
	free(ep->e);
	free(ep);
}

void epoll_forget(const struct open_file *f)
{
	for (struct epoll *s = sets; s; s = s->next)
		for (unsigned i = 0; i < s->n;)
			if (s->e[i].f == f)
				entry_remove(s, &s->e[i]);
			else
				i++;
}
