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
static const struct server_request *volatile holder;   /* whose request holds it */

/* The gate: exclusive holder, shared holders, exclusive waiters (who go
 * before new shared ones, so a stream of reads cannot starve a write). */
static bool gate_exclusive;
static unsigned gate_shared, gate_waiting;

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

void fm_lock(void)
{
	int c = __sync_val_compare_and_swap(&lock_word, 0, 1);
	if (c == 0)
		return;
	if (c != 2)
		c = __atomic_exchange_n(&lock_word, 2, __ATOMIC_ACQUIRE);
	while (c != 0) {
		myrmex_futex_wait(&lock_word, 2, -1);
		c = __atomic_exchange_n(&lock_word, 2, __ATOMIC_ACQUIRE);
	}
}

void fm_unlock(void)
{
	if (__atomic_fetch_sub(&lock_word, 1, __ATOMIC_RELEASE) != 1) {
		__atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE);
		myrmex_futex_wake(&lock_word, 1);
	}
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
	fm_unlock();
	if (ult_active())
		ult_park();   /* the other user-level threads run meanwhile (ult.c) */
	else
		myrmex_futex_wait(&wake_seq, seq, -1);
	fm_lock();
	holder = me;
	fm_fs.dev.ctx = ctx;
}

void fm_wake_all(void)
{
	__atomic_add_fetch(&wake_seq, 1, __ATOMIC_RELEASE);
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

void fm_request_begin(struct server_request *rq, uint32_t flags)
{
	fm_lock();
	holder = rq;
	if (flags & FM_NO_GATE) {
		;
	} else if (flags & FM_SHARED) {
		while (gate_exclusive || gate_waiting)
			fm_wait();
		gate_shared++;
		/* Two reads through one description take turns: each moves its
		 * offset from what it found at the start. Looked up again after
		 * each wait: the descriptor may have been closed meanwhile. */
		const struct open_file *f;
		while ((f = offset_owner(rq, flags)) && claimed(f))
			fm_wait();
		if (f)
			claim_add(rq, f);
	} else {
		gate_waiting++;
		while (gate_exclusive || gate_shared)
			fm_wait();
		gate_waiting--;
		gate_exclusive = true;
	}
	mode_set(rq, flags);
}

void fm_request_end(struct server_request *rq)
{
	if (!fm_lock_held_by(rq))
		return;
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
