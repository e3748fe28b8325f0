/*
 * lock.c - the file manager's lock, its one condition, the gate that makes
 * each handler atomic to the others, and the turns readers of one
 * description take (the rules are in lock.h and docs/fs.md).
 *
 * The lock is a futex word (0 free, 1 held, 2 held with waiters); the
 * condition is a futex sequence number bumped by fm_wake_all, read under
 * the lock before it is let go, so a wake between the two is never lost.
 * Both use the kernel's futex calls, which block the calling thread only.
 */
#include "fileman.h"
#include "fsconf.h"
#include "lock.h"

#include <limits.h>

static volatile int lock_word;
static volatile int wake_seq;
/* Threads in fm_wait: changed and read under the lock only, so that
 * fm_wake_all makes the futex call only when someone sleeps on wake_seq
 * (one thread serving, the common case, makes none: two system calls a
 * request otherwise). */
static unsigned waiters;
static const struct server_request *volatile holder;   /* whose request holds it */

/* The gate: exclusive holder, shared holders; requests go in strictly in
 * the order they took the lock (a ticket each), so a stream of reads
 * cannot starve a write, nor a write the reads behind it. */
static bool gate_exclusive;
static unsigned gate_shared;
static uint64_t next_ticket, next_admit;   /* gate admission, first come first in */

/* Descriptions being read through by a shared handler, by request: at
 * most one entry per serving thread. */
#define CLAIMS 32u
static struct claim {
	const struct server_request *rq;
	const struct open_file *f;
} claims[CLAIMS];

/* A request's gate mode and claim are remembered by its address. */
#define MODES 32u
static struct mode {
	const struct server_request *rq;
	uint32_t flags;
} modes[MODES];

static void word_lock(volatile int *w)
{
	int c = __sync_val_compare_and_swap(w, 0, 1);
	if (c == 0)
		return;
	if (c != 2)
		c = __atomic_exchange_n(w, 2, __ATOMIC_ACQUIRE);
	while (c != 0) {
		myrmex_futex_wait(w, 2, -1);
		c = __atomic_exchange_n(w, 2, __ATOMIC_ACQUIRE);
	}
}

static void word_unlock(volatile int *w)
{
	if (__atomic_fetch_sub(w, 1, __ATOMIC_RELEASE) != 1) {
		__atomic_store_n(w, 0, __ATOMIC_RELEASE);
		myrmex_futex_wake(w, 1);
	}
}

void fm_lock(void)
{
	word_lock(&lock_word);
}

void fm_unlock(void)
{
	word_unlock(&lock_word);
}

/* The turn at get() (klt, fsconf.c): one thread at a time takes a request
 * and holds the turn until it holds the lock, so requests reach the lock
 * in the order they reached the queue (a pipe's parked reads are answered
 * in that order). */
static volatile int turn_word;
static const struct server_request *volatile turn_owner;

void fm_turn_take(void)
{
	word_lock(&turn_word);
}

void fm_turn_give(void)
{
	word_unlock(&turn_word);
}

void fm_turn_pass(const struct server_request *rq)
{
	turn_owner = rq;
}

bool fm_lock_held_by(const struct server_request *rq)
{
	return rq && holder == rq;
}

void fm_wait(void)
{
	const struct server_request *me = holder;
	void *ctx = fm_fs.dev.ctx;
	int seq = __atomic_load_n(&wake_seq, __ATOMIC_ACQUIRE);
	holder = NULL;
	waiters++;
	fm_unlock();
	if (ult_active())
		ult_park();   /* the other user-level threads run meanwhile (ult.c) */
	else
		myrmex_futex_wait(&wake_seq, seq, -1);
	fm_lock();
	waiters--;
	holder = me;
	fm_fs.dev.ctx = ctx;
}

void fm_wake_all(void)
{
	__atomic_add_fetch(&wake_seq, 1, __ATOMIC_RELEASE);
	if (waiters)
		myrmex_futex_wake(&wake_seq, INT_MAX);
	ult_wake_all();
}

struct fm_held fm_unlock_for_disk(void)
{
	struct fm_held h = { holder, fm_fs.dev.ctx };
	holder = NULL;
	fm_unlock();
	return h;
}

void fm_relock_after_disk(struct fm_held h)
{
	fm_lock();
	/* Another thread may have run ext2 calls for its own request. */
	holder = h.rq;
	fm_fs.dev.ctx = h.ctx;
}

/* The description a read-type operation moves the offset of, or NULL. */
static const struct open_file *offset_owner(const struct server_request *rq, uint32_t flags)
{
	if (!(flags & FM_SHARED))
		return NULL;
	uint32_t op = rq->d.opcode;
	if (op != FS_READ && op != FS_READDIR && op != FS_LSEEK)
		return NULL;
	return files_get(rq->d.requester, rq->in[0]);   /* fd is word 0 of each */
}

static bool claimed(const struct open_file *f)
{
	for (unsigned i = 0; i < CLAIMS; i++)
		if (claims[i].rq && claims[i].f == f)
			return true;
	return false;
}

static void claim_add(const struct server_request *rq, const struct open_file *f)
{
	for (unsigned i = 0; i < CLAIMS; i++)
		if (!claims[i].rq) {
			claims[i].rq = rq;
			claims[i].f = f;
			return;
		}
}

static bool claim_drop(const struct server_request *rq)
{
	for (unsigned i = 0; i < CLAIMS; i++)
		if (claims[i].rq == rq) {
			claims[i].rq = NULL;
			return true;
		}
	return false;
}

static void mode_set(const struct server_request *rq, uint32_t flags)
{
	for (unsigned i = 0; i < MODES; i++)
		if (!modes[i].rq) {
			modes[i].rq = rq;
			modes[i].flags = flags;
			return;
		}
}

static uint32_t mode_take(const struct server_request *rq)
{
	for (unsigned i = 0; i < MODES; i++)
		if (modes[i].rq == rq) {
			modes[i].rq = NULL;
			return modes[i].flags;
		}
	return 0;
}

/* Whether rq may go through the gate now: exclusive, when nobody is in;
 * shared, beside other shared ones, and for a read-type operation when no
 * other holds its description's turn (*f: that description; two reads
 * through one description take turns, as each moves its offset from what
 * it found at the start; looked up again each time, as the descriptor may
 * have been closed meanwhile). */
static bool admissible(const struct server_request *rq, uint32_t flags,
                       const struct open_file **f)
{
	if (!(flags & FM_SHARED))
		return !gate_exclusive && gate_shared == 0;
	*f = offset_owner(rq, flags);
	return !gate_exclusive && !(*f && claimed(*f));
}

/* Whether several threads serve (klt, ult): otherwise each request runs
 * alone by construction, and the gate's bookkeeping is skipped. */
static bool many(void)
{
	return fsconf == FSCONF_KLT || fsconf == FSCONF_ULT;
}

void fm_request_begin(struct server_request *rq, uint32_t flags)
{
	fm_lock();
	holder = rq;
	if (!many())
		return;
	if (turn_owner == rq) {   /* in the lock: the next thread may get() */
		turn_owner = NULL;
		fm_turn_give();
	}
	if (!(flags & FM_NO_GATE)) {
		/* Admitted in the order they took the lock (the turn keeps that
		 * the queue's order): a pipe's parked reads keep theirs. */
		uint64_t ticket = next_ticket++;
		const struct open_file *f = NULL;
		while (ticket != next_admit || !admissible(rq, flags, &f))
			fm_wait();
		next_admit++;
		if (flags & FM_SHARED) {
			gate_shared++;
			if (f)
				claim_add(rq, f);
		} else {
			gate_exclusive = true;
		}
		fm_wake_all();   /* the next ticket may go in beside us */
	}
	mode_set(rq, flags);
}

void fm_request_end(struct server_request *rq)
{
	if (!fm_lock_held_by(rq))
		return;
	if (!many()) {
		holder = NULL;
		fm_unlock();
		return;
	}
	uint32_t flags = mode_take(rq);
	bool wake = claim_drop(rq);
	if (flags & FM_NO_GATE) {
		;
	} else if (flags & FM_SHARED) {
		if (--gate_shared == 0)
			wake = true;
	} else {
		gate_exclusive = false;
		wake = true;
	}
	if (wake)
		fm_wake_all();
	holder = NULL;
	fm_unlock();
}
