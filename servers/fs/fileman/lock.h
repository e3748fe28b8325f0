/*
 * lock.h - the file manager's one lock, for the configurations where
 * several threads serve requests (docs/fs.md, "Threads and the lock").
 *
 * The rule: a thread runs file-manager code only while it holds the lock
 * (fm_lock), and it lets the lock go only while it waits for the disk
 * (fm_unlock_for_disk / fm_relock_after_disk, in diskio.c) or for one of
 * the things other threads hold across such a wait (fm_wait: a cache chunk
 * in flight, the file manager's own control ICA, a description being read,
 * the gate below). So every table (inodes through ext2, directories,
 * descriptors, pipes, mappings, OMF pins, the cache's lists) changes only
 * under the lock, and only the few places that call those functions see
 * the world change under them; each re-checks what it needs.
 *
 * The gate makes a handler's whole run, disk waits included, look atomic to
 * the others: an operation that may change the file system (a write, a
 * create, a rename, a truncate, an unlink, a close, an exit...) holds it
 * exclusively; a read-only one (read, pread, fstat, readdir, lseek) shares
 * it with the others of its kind, so their disk waits overlap; the time
 * calls need no gate at all and are answered while any handler waits for
 * the disk. Requests go through the gate in the order they took the lock
 * (first come, first in). Two reads through one description (its offset)
 * take turns.
 *
 * Lock order: the gate, then a description, then a cache chunk; the lock
 * itself is the innermost and is never held by a thread that sleeps in the
 * kernel for anything but a futex wait on it or fm_wait's condition. No
 * thread holds two chunks or two descriptions at once, so rename across
 * directories (exclusive gate) cannot deadlock.
 *
 * With one serving thread (the `one` and `split` configurations) the lock is
 * never contended and costs two atomic operations per request.
 */
#ifndef FILEMAN_LOCK_H
#define FILEMAN_LOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <server.h>

/* How a handler takes the gate (struct server_op flags; table.c). */
#define FM_SHARED  (SERVER_OP_USER << 1)   /* read-only: beside other shared ones */
#define FM_NO_GATE (SERVER_OP_USER << 2)   /* touches no file-system state */

void fm_lock(void);
void fm_unlock(void);
/* Whether the calling thread's request rq holds the lock (rq is on that
 * thread's stack, so no other thread can name it). */
bool fm_lock_held_by(const struct server_request *rq);

/* klt's turn at get() (fsconf.c): taken before get(), given back at once
 * when what came is no request, else passed to the request (fm_turn_pass)
 * and given back by fm_request_begin once the request holds the lock. */
void fm_turn_take(void);
void fm_turn_give(void);
void fm_turn_pass(const struct server_request *rq);

/* Called with the lock held: lets it go until fm_wake_all is called by
 * some other thread, then takes it again. The caller re-checks its
 * condition in a loop. */
void fm_wait(void);
void fm_wake_all(void);

/* The lock around one request: taken before the check (request.c) with
 * the gate its operation asks, let go after the work that follows the
 * handler. fm_request_end is a no-op when rq does not hold the lock. */
void fm_request_begin(struct server_request *rq, uint32_t op_flags);
void fm_request_end(struct server_request *rq);

/* Around a disk call: the lock goes while the driver works; what ext2's
 * block device names as its request (fm_fs.dev.ctx) is this thread's again
 * once the lock is back. */
struct fm_held {
	const struct server_request *rq;   /* the request holding the lock */
	void *ctx;                         /* fm_fs.dev.ctx */
};
struct fm_held fm_unlock_for_disk(void);
void fm_relock_after_disk(struct fm_held h);

#endif
