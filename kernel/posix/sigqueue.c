/*
 * Real-time signals queued more than once (posix/signal.h, struct
 * sig_pending): Linux delivers every sigqueue of a real-time signal, each
 * with its own siginfo, in the order sent. The first instance is the
 * pending set's own (bit and info[]); the further ones wait here, on the
 * set's `extra` list, and step into the pending slot one by one as each is
 * taken. A zeroed pending set (fork, a new thread) is an empty one.
 */
#include <posix/posix.h>
#include <posix/signal.h>
#include <kernel/kmem.h>

struct sig_queued {
	struct list_node link;   /* on sig_pending.extra, oldest first */
	int sig;
	struct sig_info info;
};

static struct kmem_cache queued_cache =
	KMEM_CACHE_INIT(queued_cache, "sig_queued", struct sig_queued);

static struct list_node *extra_of(struct sig_pending *q)
{
	if (!q->extra.next)
		list_init(&q->extra);
	return &q->extra;
}

void sigq_push(struct sig_pending *q, int sig, const struct sig_info *info)
{
	if (q->extra_count >= SIG_QUEUE_MAX)
		return;   /* Linux's RLIMIT_SIGPENDING: the newest is lost */
	struct sig_queued *e = kmem_alloc(&queued_cache);
	if (!e)
		return;
	e->sig = sig;
	e->info = *info;
	list_push_back(extra_of(q), &e->link);
	q->extra_count++;
}

void sigq_next(struct sig_pending *q, int sig)
{
	if (!q->extra_count)
		return;
	struct list_node *head = extra_of(q), *n;
	list_for_each(n, head) {
		struct sig_queued *e = container_of(n, struct sig_queued, link);
		if (e->sig != sig)
			continue;
		q->info[sig - 1] = e->info;
		q->set |= sig_bit(sig);
		list_remove(&e->link);
		kmem_free(&queued_cache, e);
		q->extra_count--;
		return;
	}
}

void sigq_drop(struct sig_pending *q, int sig)
{
	if (!q->extra_count)
		return;
	struct list_node *head = extra_of(q), *n, *tmp;
	list_for_each_safe(n, tmp, head) {
		struct sig_queued *e = container_of(n, struct sig_queued, link);
		if (sig && e->sig != sig)
			continue;
		list_remove(&e->link);
		kmem_free(&queued_cache, e);
		q->extra_count--;
	}
}
