/*
 * ofd.c - open-file descriptions: what an open (or pipe, or a special name)
 * made, shared by every descriptor that dup or fork derived from the first
 * and by the requests parked on it. A description holds the object (an
 * ext2 inode, a pipe end, the console, /dev/null), the offset (or a
 * directory's read position), the access mode and status flags, and a count
 * of the references to it; the last reference going lets the object go.
 *
 * Orphans: a regular file whose last link goes (unlink, rename over it)
 * while a description or a map still has it stays allocated with a link
 * count of 0 (ext2's keep hook, ofd_inode_open); after each request those
 * nothing holds any more are freed, and at FS_SHUTDOWN all of them.
 */
#include "fileman.h"
#include "fmap.h"

#include <stdlib.h>

#include <errno.h>
#include <string.h>

/* Descriptions in all: as many as 16 distinct ones per process of a full
 * set of tables; more gives -ENFILE, as a full system file table does. */
#define DESCRIPTIONS FM_DESCRIPTIONS

static struct open_file pool[DESCRIPTIONS];
/* Descriptions of regular files open for writing: while there are none,
 * an exec's ETXTBSY check (ofd_inode_writable) scans nothing. */
static unsigned file_writers;

struct open_file *ofd_new(enum fm_kind kind, int flags)
{
	for (unsigned i = 0; i < DESCRIPTIONS; i++) {
		if (pool[i].kind == FM_FREE) {
			memset(&pool[i], 0, sizeof(pool[i]));
			pool[i].kind = kind;
			pool[i].flags = flags;
			pool[i].refs = 1;
			if (kind == FM_FILE && ofd_can_write(&pool[i]))
				file_writers++;
			return &pool[i];
		}
	}
	return NULL;
}

void ofd_ref(struct open_file *f)
{
	f->refs++;
}

void ofd_unref(struct open_file *f)
{
	if (--f->refs > 0)
		return;
	events_release(f);   /* epoll sets forget f; an event descriptor's object goes */
	if (f->kind == FM_FILE) {
		locks_description_gone(f);   /* its flock goes with its last reference */
		if (ofd_can_write(f))
			file_writers--;
	}
	enum fm_kind kind = f->kind;
	struct pipe *p = f->pipe;
	struct sock *sock = f->sock;
	uint64_t inet = f->inet;
	bool write = ofd_can_write(f);
	f->kind = FM_FREE;
	f->pipe = NULL;
	f->sock = NULL;
	f->inet = 0;
	if (f->snap)
		procfs_snap_free(f->snap);
	f->snap = NULL;
	if (f->path != f->path_short)
		free(f->path);
	f->path = NULL;
	if (kind == FM_PIPE)
		pipe_close_end(p, write);   /* may wake the other end's parked requests */
	if (kind == FM_SOCKET)
		socket_close(sock);
	if (kind == FM_INET)
		inet_close(inet);
}

void ofd_forget_inode(uint32_t ino)
{
	for (unsigned i = 0; i < DESCRIPTIONS; i++)
		if ((pool[i].kind == FM_FILE || pool[i].kind == FM_DIR) && pool[i].ino == ino)
			pool[i].ino = 0;   /* stale: every use gives -ESTALE */
}

bool ofd_inode_open(struct ext2_fs *fs, uint32_t ino)
{
	(void)fs;
	for (unsigned i = 0; i < DESCRIPTIONS; i++)
		if (pool[i].kind == FM_FILE && pool[i].ino == ino)
			return true;
	return fmap_holds(ino);
}

bool ofd_inode_writable(uint32_t ino)
{
	for (unsigned i = 0; i < DESCRIPTIONS && file_writers; i++)
		if (pool[i].kind == FM_FILE && pool[i].ino == ino && ofd_can_write(&pool[i]))
			return true;
	return false;
}

/* Orphans: files unlinked while open (links 0, still allocated). Each is
 * held by a description or a map, so there are never more than those. */
#define ORPHANS_MAX (DESCRIPTIONS + FMAP_MAX)
static uint32_t orphans[ORPHANS_MAX];
static unsigned orphan_count;

void orphan_add(uint32_t ino)
{
	for (unsigned i = 0; i < orphan_count; i++)
		if (orphans[i] == ino)
			return;
	if (orphan_count < ORPHANS_MAX)
		orphans[orphan_count++] = ino;
	else
		fm_log("orphan inode %u not recorded: e2fsck will free it", ino);
}

void orphans_reap(bool all)
{
	if (orphan_count == 0 || fm_fs_state != 0)
		return;
	unsigned kept = 0;
	for (unsigned i = 0; i < orphan_count; i++) {
		uint32_t ino = orphans[i];
		if (!all && ofd_inode_open(&fm_fs, ino)) {
			orphans[kept++] = ino;
			continue;
		}
		fmap_inode_gone(ino);   /* no map at the last close; all of them at shutdown */
		int rc = ext2_release(fm_fs_for(NULL), ino);
		if (rc < 0)
			fm_log("freeing unlinked inode %u: error %d", ino, -rc);
		text_forget(ino);   /* its number may name a new file now */
		if (all)
			files_forget_inode(ino);
	}
	orphan_count = kept;
}

void result_kind(struct server_request *rq, int64_t fd)
{
	struct open_file *f = fd >= 0 ? files_get(rq->d.requester, (uint64_t)fd) : NULL;
	if (f)
		server_out(rq, FS_RESULT_KIND, ofd_kind(f));
}

uint32_t ofd_kind(const struct open_file *f)
{
	switch (f->kind) {
	case FM_FILE:
		return FS_KIND_REGULAR;
	case FM_DIR:
		return FS_KIND_DIRECTORY;
	case FM_PROC:
		return FS_KIND_REGULAR;   /* a snapshot: read in pieces like a file */
	case FM_PIPE:
		return FS_KIND_PIPE;
	case FM_CONSOLE:
		return FS_KIND_CONSOLE;
	case FM_SOCKET:
	case FM_INET:
		return FS_KIND_SOCKET;
	case FM_EPOLL:
	case FM_EVENTFD:
	case FM_TIMERFD:
	case FM_SIGNALFD:
		return FS_KIND_EVENT;
	case FM_NULL:
	case FM_ZERO:
	case FM_FULL:
	case FM_RANDOM:
	case FM_URANDOM:
		return FS_KIND_NULL;   /* a device: one request a call, no splitting */
	default:
		return 0;
	}
}

bool ofd_can_read(const struct open_file *f)
{
	return (f->flags & O_ACCMODE) != O_WRONLY;
}

bool ofd_can_write(const struct open_file *f)
{
	return (f->flags & O_ACCMODE) != O_RDONLY;
}
