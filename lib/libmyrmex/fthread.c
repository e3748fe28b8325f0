/*
 * Fine-grained threads and their user-level scheduler (fthread.h,
 * docs/fthread.md): a run queue of threads that run to their end, and the
 * wrapped-call area their calls wait in until one batch system call runs
 * them all and the results make their continuations runnable.
 */
#include "myrmex.h"
#include "fthread.h"

#include <errno.h>
#include <string.h>

int fth_sched_init(struct fth_sched *s, unsigned n, uint64_t seed)
{
	if (n < 1 || n > MYRMEX_BATCH_MAX)
		return -EINVAL;
	memset(s, 0, sizeof *s);
	s->n = n;
	s->rand = seed;
	s->u.area.capacity = n;
	return 0;
}

void fth_init(struct fth *t, fth_fn fn, void *arg, unsigned count)
{
	t->fn = fn;
	t->arg = arg;
	t->count = count;
	t->runs = 0;
	t->next = NULL;
}

void fth_spawn(struct fth_sched *s, struct fth *t)
{
	t->next = NULL;
	if (s->tail)
		s->tail->next = t;
	else
		s->head = t;
	s->tail = t;
	s->nready++;
}

void fth_expect(struct fth *t, unsigned count)
{
	t->count += count;
}

void fth_signal(struct fth_sched *s, struct fth *cont)
{
	if (cont->count && --cont->count == 0)
		fth_spawn(s, cont);
}

void fth_call(struct fth_sched *s, struct fth *cont, long *result, long nr, const long *a)
{
	if (s->stored == s->n)
		fth_flush(s);
	unsigned i = s->stored++;
	myrmex_batch_store(&s->u.area, i, nr, a);
	s->wait[i].result = result;
	s->wait[i].cont = cont;
	s->st.calls++;
}

void fth_call3(struct fth_sched *s, struct fth *cont, long *result, long nr, long a0, long a1,
               long a2)
{
	const long a[6] = { a0, a1, a2, 0, 0, 0 };
	fth_call(s, cont, result, nr, a);
}

/* Hands the results of entries 0..done-1 to their waiters, in order. */
static void deliver(struct fth_sched *s, unsigned done)
{
	for (unsigned i = 0; i < done; i++) {
		const struct fth_wait *w = &s->wait[i];
		if (w->result)
			*w->result = (long)s->u.area.entry[i].result;
		if (w->cont)
			fth_signal(s, w->cont);
	}
}

long fth_flush(struct fth_sched *s)
{
	while (s->stored) {
		unsigned n = s->stored;
		long r = s->trap ? myrmex_batch_trap(&s->u.area, n) : myrmex_batch(&s->u.area, n);
		s->st.flushes++;
		if (r < 0 || r > (long)n) {
			s->stored = 0;
			return r < 0 ? r : -EIO;
		}
		/* A signal stopped the batch after entry r-1 (r >= 1: a batch
		 * stops only after an entry has run): the entries after it are
		 * still STORED; they move to the front and go again. deliver()
		 * runs no thread, so nothing is stored meanwhile. */
		unsigned done = (unsigned)r;
		if (done == 0) {
			s->stored = 0;
			return -EIO;
		}
		deliver(s, done);
		s->stored = n - done;
		if (done == n)
			return 0;
		s->st.short_flushes++;
		memmove(&s->u.area.entry[0], &s->u.area.entry[done],
		        (n - done) * sizeof(struct myrmex_batch_entry));
		memmove(&s->wait[0], &s->wait[done], (n - done) * sizeof(s->wait[0]));
	}
	return 0;
}

/* xorshift64: the random schedule's numbers. */
static uint64_t next_rand(struct fth_sched *s)
{
	uint64_t x = s->rand;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	s->rand = x;
	return x;
}

/* Takes the next runnable thread off the queue: the first, or with a seed
 * one at random. */
static struct fth *take(struct fth_sched *s)
{
	struct fth *prev = NULL, *t = s->head;
	if (s->rand) {
		for (uint64_t k = next_rand(s) % s->nready; k; k--) {
			prev = t;
			t = t->next;
		}
	}
	if (prev)
		prev->next = t->next;
	else
		s->head = t->next;
	if (s->tail == t)
		s->tail = prev;
	s->nready--;
	t->next = NULL;
	return t;
}

long fth_run(struct fth_sched *s)
{
	for (;;) {
		while (s->nready) {
			struct fth *t = take(s);
			t->runs++;
			s->st.runs++;
			t->fn(s, t);
			if (s->stored >= s->n) {
				long r = fth_flush(s);
				if (r)
					return r;
			}
		}
		if (!s->stored)
			return 0;
		long r = fth_flush(s);   /* nothing runnable: flush early */
		if (r)
			return r;
	}
}
