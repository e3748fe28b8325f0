/*
 * locks.c - file locks (include/myrmex/fslock.h): POSIX record locks,
 * owned by a process, on byte ranges of a regular file, and flock locks,
 * owned by an open file description, on the whole file. The two kinds
 * never conflict with each other, as on Linux.
 *
 * Record locks: one list of every lock (inode, owner, type, first and last
 * byte). A process's new lock first takes its own locks off the range
 * (cutting, or splitting one in two), then goes in, and merges with its
 * own neighbours of the same type, so a process never holds two locks on
 * one byte and F_GETLK shows Linux's ranges. A lock is in the way of a
 * request when it is another process's, overlaps, and one of the two is a
 * write lock. A request that must wait (F_SETLKW) is parked here with the
 * pid it waits for; before parking, the chain "waits for the owner of"
 * is followed: back to the requester is a deadlock (-EDEADLK), as Linux's
 * posix_locks_deadlock. Every change that frees bytes of an inode (an
 * unlock, a downgrade, a close, an exit) tries that inode's waiters again
 * in the order they came.
 *
 * flock locks: one entry per description holding one; a request in the
 * way of another description's (one of them exclusive) waits or answers
 * -EAGAIN (LOCK_NB). A change from shared to exclusive lets go first, as
 * Linux's (not atomic).
 */
#include "fileman.h"

#include <errno.h>
#include <stdlib.h>
#include <myrmex/fslock.h>

#define LOCKS_MAX   1024u   /* record locks held at once (-ENOLCK beyond) */
#define WAITERS_MAX 64u     /* requests parked on locks at once */
#define CHAIN_MAX   64u     /* waits followed looking for a deadlock */

#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

/* Who holds a record lock: a process (a POSIX lock), or an open file
 * description (an OFD lock, ofd set; pid is then its maker, reported -1). */
struct lock_owner {
	int pid;
	const struct open_file *ofd;
};

static bool same_owner(struct lock_owner a, struct lock_owner b)
{
	return a.ofd || b.ofd ? a.ofd == b.ofd : a.pid == b.pid;
}

struct range_lock {
	bool used;                   /* cleared by cut and merge; pack() drops it */
	uint32_t ino;
	struct lock_owner owner;
	unsigned type;               /* FS_LOCK_READ or FS_LOCK_WRITE */
	int64_t first, last;         /* bytes, inclusive; last FS_LOCK_TO_END: no end */
};

struct flock_lock {
	uint32_t ino;
	struct open_file *f;         /* the owner: a description (no reference held) */
	bool exclusive;
};

/* A parked F_SETLKW or flock: a copy of the request (answered later) and
 * what it asks. */
struct lock_waiter {
	bool used, is_flock;
	struct server_request rq;
	struct open_file *f;         /* a reference held while parked */
	uint32_t ino;
	unsigned type;               /* a record lock's type */
	struct lock_owner owner;     /* a record lock's would-be owner */
	bool exclusive;              /* a flock's */
	int64_t first, last;
	int blocker;                 /* the pid it waits for (POSIX record locks; 0 for OFD) */
	unsigned seq;                /* arrival order */
};

/* The held locks, packed at the front of each array (nlocks, nflocks), so
 * that a file manager with no locks spends nothing on them at a close or
 * an exit; waiters are few, and counted (nwaiters) for the same reason. */
static struct range_lock locks[LOCKS_MAX];
static unsigned nlocks;
static struct flock_lock flocks[FM_DESCRIPTIONS];
static unsigned nflocks;
static struct lock_waiter waiters[WAITERS_MAX];
static unsigned nwaiters, waiter_seq;

/* Drops the entries cut and merge freed, keeping the rest in front. */
static void pack(void)
{
	unsigned kept = 0;
	for (unsigned i = 0; i < nlocks; i++)
		if (locks[i].used)
			locks[kept++] = locks[i];
	nlocks = kept;
}

static bool overlap(const struct range_lock *l, int64_t first, int64_t last)
{
	return l->first <= last && first <= l->last;
}

/* The first lock of another owner on ino in the way of a type lock on
 * [first, last], or NULL. */
static struct range_lock *in_the_way(uint32_t ino, struct lock_owner who, unsigned type,
                                     int64_t first, int64_t last)
{
	for (unsigned i = 0; i < nlocks; i++) {
		struct range_lock *l = &locks[i];
		if (l->used && l->ino == ino && !same_owner(l->owner, who) && overlap(l, first, last) &&
		    (type == FS_LOCK_WRITE || l->type == FS_LOCK_WRITE))
			return l;
	}
	return NULL;
}

/* A new entry at the end (the caller made sure there is room). */
static struct range_lock *append(void)
{
	return &locks[nlocks++];
}

/* Takes who's locks on ino off [first, last]; one that covers both sides
 * of it splits in two (the caller made sure a free entry exists). */
static void cut(uint32_t ino, struct lock_owner who, int64_t first, int64_t last)
{
	unsigned n = nlocks;   /* not the piece a split appends */
	for (unsigned i = 0; i < n; i++) {
		struct range_lock *l = &locks[i];
		if (!l->used || l->ino != ino || !same_owner(l->owner, who) || !overlap(l, first, last))
			continue;
		if (l->first < first && l->last > last) {
			struct range_lock *right = append();
			*right = *l;
			right->first = last + 1;
			l->last = first - 1;
		} else if (l->first < first) {
			l->last = first - 1;
		} else if (l->last > last) {
			l->first = last + 1;
		} else {
			l->used = false;
		}
	}
}

/* Merges who's locks on ino of the same type that touch or overlap. */
static void merge(uint32_t ino, struct lock_owner who)
{
	bool again = true;
	while (again) {
		again = false;
		for (unsigned i = 0; i < nlocks; i++) {
			struct range_lock *a = &locks[i];
			if (!a->used || a->ino != ino || !same_owner(a->owner, who))
				continue;
			for (unsigned j = 0; j < nlocks; j++) {
				struct range_lock *b = &locks[j];
				if (j == i || !b->used || b->ino != ino || !same_owner(b->owner, who) ||
				    b->type != a->type)
					continue;
				bool touch = (a->last == FS_LOCK_TO_END || b->first <= a->last + 1) &&
				             (b->last == FS_LOCK_TO_END || a->first <= b->last + 1);
				if (!touch)
					continue;
				a->first = a->first < b->first ? a->first : b->first;
				a->last = a->last > b->last ? a->last : b->last;
				b->used = false;
				again = true;
			}
		}
	}
}

/* Puts who's type lock (or unlock) on [first, last] of ino in place of
 * what who held there. 0 or -ENOLCK (nothing changed). */
static int place(uint32_t ino, struct lock_owner who, unsigned type, int64_t first, int64_t last)
{
	/* At most one split and one new entry. */
	if (LOCKS_MAX - nlocks < (type == FS_LOCK_UNLOCK ? 1u : 2u))
		return -ENOLCK;
	cut(ino, who, first, last);
	if (type != FS_LOCK_UNLOCK) {
		*append() = (struct range_lock){ true, ino, who, type, first, last };
		merge(ino, who);
	}
	pack();
	return 0;
}

/* ---- waiting ---- */

/* The POSIX record-lock wait of process pid, if any. */
static struct lock_waiter *waiter_of(int pid)
{
	for (unsigned i = 0; i < WAITERS_MAX && nwaiters; i++)
		if (waiters[i].used && !waiters[i].is_flock && !waiters[i].owner.ofd &&
		    waiters[i].owner.pid == pid)
			return &waiters[i];
	return NULL;
}

/* Whether pid waiting for blocker closes a cycle of record-lock waits. */
static bool deadlock(int pid, int blocker)
{
	for (unsigned step = 0; step < CHAIN_MAX; step++) {
		if (blocker == pid)
			return true;
		struct lock_waiter *w = waiter_of(blocker);
		if (!w)
			return false;
		blocker = w->blocker;
	}
	return false;
}

static int park(struct server_request *rq, struct open_file *f, struct lock_waiter *how)
{
	for (unsigned i = 0; i < WAITERS_MAX; i++) {
		struct lock_waiter *w = &waiters[i];
		if (w->used)
			continue;
		*w = *how;
		w->used = true;
		w->rq = *rq;
		request_rebase(&w->rq, rq);
		w->f = f;
		w->seq = waiter_seq++;
		ofd_ref(f);
		nwaiters++;
		return 1;
	}
	return -ENOLCK;
}

static void answer(struct lock_waiter *w, int64_t status)
{
	struct server_request rq = w->rq;
	struct open_file *f = w->f;
	w->used = false;
	nwaiters--;
	server_reply_later(FM_NAME, &rq, status);
	ofd_unref(f);
}

static bool flock_in_the_way(uint32_t ino, const struct open_file *f, bool exclusive);
static int flock_place(uint32_t ino, struct open_file *f, bool exclusive);

/* Tries ino's waiters again, oldest first, until a pass grants nothing. */
static void wake(uint32_t ino)
{
	bool granted = nwaiters > 0;
	while (granted) {
		granted = false;
		struct lock_waiter *oldest = NULL;
		for (unsigned i = 0; i < WAITERS_MAX; i++) {
			struct lock_waiter *w = &waiters[i];
			if (!w->used || w->ino != ino)
				continue;
			if (w->is_flock ? flock_in_the_way(ino, w->f, w->exclusive)
			                : in_the_way(ino, w->owner, w->type, w->first, w->last) != NULL)
				continue;
			if (!oldest || (int)(w->seq - oldest->seq) < 0)
				oldest = w;
		}
		if (oldest) {
			int rc = oldest->is_flock
			       ? flock_place(ino, oldest->f, oldest->exclusive)
			       : place(ino, oldest->owner, oldest->type, oldest->first, oldest->last);
			answer(oldest, rc);
			granted = true;
		}
	}
	/* Those still waiting may wait for someone else now. */
	for (unsigned i = 0; i < WAITERS_MAX && nwaiters; i++) {
		struct lock_waiter *w = &waiters[i];
		if (w->used && !w->is_flock && w->ino == ino) {
			struct range_lock *l = in_the_way(ino, w->owner, w->type, w->first, w->last);
			if (l)
				w->blocker = l->owner.ofd ? 0 : l->owner.pid;
		}
	}
}

/* ---- record locks ---- */

/* [first, last] of a request, as Linux's flock_to_posix_lock. */
static int range_of(struct server_request *rq, const struct open_file *f,
                    const struct fs_lock_args *a, int64_t *first, int64_t *last)
{
	int64_t base;
	switch (a->whence) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = (int64_t)f->offset;
		break;
	case SEEK_END: {
		struct ext2_stat st;
		int rc = ext2_stat(fm_fs_for(rq), f->ino, &st);
		if (rc < 0)
			return rc;
		base = (int64_t)st.size;
		break;
	}
	default:
		return -EINVAL;
	}
	if (a->start > 0 && base > INT64_MAX - a->start)
		return -EOVERFLOW;
	int64_t start = base + a->start;
	if (start < 0)
		return -EINVAL;
	if (a->len > 0) {
		if (a->len - 1 > INT64_MAX - start)
			return -EOVERFLOW;
		*first = start;
		*last = start + a->len - 1;
	} else if (a->len == 0) {
		*first = start;
		*last = FS_LOCK_TO_END;
	} else {
		if (start + a->len < 0)
			return -EINVAL;
		*first = start + a->len;
		*last = start - 1;
	}
	return 0;
}

int64_t do_lock(struct server_request *rq)
{
	const struct fs_lock_args *a = SERVER_IN(rq, struct fs_lock_args);
	struct open_file *f = files_get(rq->d.requester, a->fd);
	if (!f)
		return -EBADF;
	bool ofd = a->cmd & FS_LOCK_OFD;
	uint64_t cmd = a->cmd & ~(uint64_t)FS_LOCK_OFD;
	if (cmd > FS_LOCK_WAIT || a->type > FS_LOCK_UNLOCK)
		return -EINVAL;
	if (cmd == FS_LOCK_GET && a->type == FS_LOCK_UNLOCK)
		return -EINVAL;   /* as Linux's fcntl_getlk */
	if (a->whence > SEEK_END)
		return -EINVAL;
	/* Linux's order: the range's errors, then the descriptor's mode. */
	bool file = f->kind == FM_FILE && f->ino;
	int64_t first = 0, last = 0;
	int rc = file ? range_of(rq, f, a, &first, &last) : 0;
	if (rc < 0)
		return rc;
	if (cmd != FS_LOCK_GET && ((a->type == FS_LOCK_READ && !ofd_can_read(f)) ||
	                              (a->type == FS_LOCK_WRITE && !ofd_can_write(f))))
		return -EBADF;
	struct fs_lock_result *out = cmd == FS_LOCK_GET ? SERVER_OUT(rq, struct fs_lock_result)
	                                                   : NULL;
	if (!file) {
		/* Nothing kept: only regular files are locked here. */
		if (out)
			*out = (struct fs_lock_result){ .type = FS_LOCK_UNLOCK };
		return 0;
	}
	int pid = rq->d.requester;
	struct lock_owner who = { pid, ofd ? f : NULL };
	struct range_lock *l = a->type == FS_LOCK_UNLOCK ? NULL
	                     : in_the_way(f->ino, who, (unsigned)a->type, first, last);
	if (out) {
		if (!l)
			*out = (struct fs_lock_result){ .type = FS_LOCK_UNLOCK, .start = a->start,
			                                .len = a->len, .pid = 0 };
		else
			*out = (struct fs_lock_result){
				.type = l->type, .start = l->first,
				.len = l->last == FS_LOCK_TO_END ? 0 : l->last - l->first + 1,
				.pid = l->owner.ofd ? -1 : l->owner.pid };   /* an OFD lock: -1, as Linux */
		return 0;
	}
	if (l && cmd == FS_LOCK_SET)
		return -EAGAIN;
	if (l) {
		/* Only waits between processes are followed (Linux leaves OFD
		 * locks out of its deadlock detection too). */
		int blocker = l->owner.ofd ? 0 : l->owner.pid;
		if (!ofd && blocker && deadlock(pid, blocker))
			return -EDEADLK;
		struct lock_waiter how = { .ino = f->ino, .type = (unsigned)a->type, .owner = who,
		                           .first = first, .last = last, .blocker = ofd ? 0 : blocker };
		rc = park(rq, f, &how);
		return rc < 0 ? rc : SERVER_LATER;
	}
	rc = place(f->ino, who, (unsigned)a->type, first, last);
	if (rc == 0)
		wake(f->ino);   /* an unlock or a downgrade may free someone */
	return rc;
}

void locks_closed(int pid, uint32_t ino)
{
	bool had = false;
	for (unsigned i = 0; i < nlocks; i++) {
		if (!locks[i].owner.ofd && locks[i].owner.pid == pid && locks[i].ino == ino) {
			locks[i].used = false;
			had = true;
		}
	}
	if (had) {
		pack();
		wake(ino);
	}
}

/* ---- flock ---- */

static bool flock_in_the_way(uint32_t ino, const struct open_file *f, bool exclusive)
{
	for (unsigned i = 0; i < nflocks; i++) {
		const struct flock_lock *k = &flocks[i];
		if (k->ino == ino && k->f != f && (exclusive || k->exclusive))
			return true;
	}
	return false;
}

static struct flock_lock *flock_of(const struct open_file *f)
{
	for (unsigned i = 0; i < nflocks; i++)
		if (flocks[i].f == f)
			return &flocks[i];
	return NULL;
}

/* Lets k go (the last entry takes its place). */
static void flock_remove(struct flock_lock *k)
{
	*k = flocks[--nflocks];
}

static int flock_place(uint32_t ino, struct open_file *f, bool exclusive)
{
	struct flock_lock *k = flock_of(f);
	if (!k) {
		if (nflocks == FM_DESCRIPTIONS)
			return -ENOLCK;
		k = &flocks[nflocks++];
	}
	*k = (struct flock_lock){ ino, f, exclusive };
	return 0;
}

int64_t do_flock(struct server_request *rq)
{
	const struct fs_flock_args *a = SERVER_IN(rq, struct fs_flock_args);
	struct open_file *f = files_get(rq->d.requester, a->fd);
	if (!f)
		return -EBADF;
	uint64_t op = a->op & ~(uint64_t)FS_FLOCK_NB;
	if (op != FS_FLOCK_SH && op != FS_FLOCK_EX && op != FS_FLOCK_UN)
		return -EINVAL;
	if (f->kind != FM_FILE || !f->ino)
		return 0;   /* nothing kept: only regular files are locked here */
	struct flock_lock *held = flock_of(f);
	bool exclusive = op == FS_FLOCK_EX;
	if (op == FS_FLOCK_UN || (held && held->exclusive != exclusive)) {
		/* Let go first (a conversion is not atomic, as Linux's). */
		if (held) {
			flock_remove(held);
			wake(f->ino);
		}
		if (op == FS_FLOCK_UN)
			return 0;
	}
	if (!flock_in_the_way(f->ino, f, exclusive))
		return flock_place(f->ino, f, exclusive);
	if (a->op & FS_FLOCK_NB)
		return -EAGAIN;
	struct lock_waiter how = { .is_flock = true, .ino = f->ino, .exclusive = exclusive };
	int rc = park(rq, f, &how);
	return rc < 0 ? rc : SERVER_LATER;
}

void locks_description_gone(struct open_file *f)
{
	struct flock_lock *k = flock_of(f);
	if (k) {
		uint32_t ino = k->ino;
		flock_remove(k);
		wake(ino);
	}
	/* Its OFD locks go with it. */
	bool had = false;
	for (unsigned i = 0; i < nlocks; i++)
		if (locks[i].owner.ofd == f) {
			locks[i].used = false;
			had = true;
		}
	if (had) {
		pack();
		wake(f->ino);
	}
}

/* ---- processes ---- */

void locks_drop_pid(int pid)
{
	for (unsigned i = 0; i < WAITERS_MAX && nwaiters; i++)
		if (waiters[i].used && waiters[i].rq.d.requester == pid)
			answer(&waiters[i], -EPIPE);   /* its process is gone: nobody sees it */
	for (unsigned i = 0; i < nlocks; i++)
		if (!locks[i].owner.ofd && locks[i].owner.pid == pid) {
			locks_closed(pid, locks[i].ino);   /* packs: look at i again */
			i = (unsigned)-1;
		}
}

void locks_cancel(int pid, uint32_t handle)
{
	for (unsigned i = 0; i < WAITERS_MAX && nwaiters; i++)
		if (waiters[i].used && waiters[i].rq.d.requester == pid &&
		    waiters[i].rq.d.handle == handle)
			answer(&waiters[i], -EINTR);
}
