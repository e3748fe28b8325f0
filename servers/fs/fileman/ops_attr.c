/*
 * ops_attr.c - the handlers that change an inode's attributes: FS_SETATTR
 * (chmod, chown, truncate by path) and FS_UTIMES (utimensat and the older
 * time calls, which the kernel turns into it).
 *
 * Both name their object by a path or, with FS_AT_EMPTY_PATH and an empty
 * path, by a descriptor (fchmod, fchown, futimens). chmod is the owner's
 * or root's, chown root's (an owner may change the group to its own),
 * times given the owner's, "now" also a writer's, truncation a writer's
 * (perm.c). The file manager's own
 * objects (pipes, the console, /dev/null) keep no attributes: a change to
 * them succeeds and changes nothing.
 */
#include "fileman.h"

#include <errno.h>
#include <string.h>
#include <time.h>

/* The inode the request names in *ino: 0, or 1 for one of the file
 * manager's own objects (nothing to change), or -errno. */
static int attr_target(struct server_request *rq, uint32_t *ino)
{
	const struct fs_path_args *a = SERVER_IN(rq, struct fs_path_args);
	if (a->at_flags & ~(uint64_t)(FS_AT_DIRFD | FS_AT_NOFOLLOW | FS_AT_EMPTY_PATH))
		return -EINVAL;
	if ((a->at_flags & FS_AT_EMPTY_PATH) && rq->data && rq->data_size > 0 && rq->data[0] == '\0') {
		if ((a->at_flags & FS_AT_DIRFD) && !request_at_fdcwd(a->dirfd)) {
			struct open_file *f = files_get(rq->d.requester, a->dirfd);
			if (!f)
				return -EBADF;
			if (f->kind != FM_FILE && f->kind != FM_DIR)
				return 1;
			*ino = f->ino;
			return f->ino ? 0 : -ESTALE;
		}
		const char *text;
		*ino = files_cwd(rq->d.requester, &text);
		return *ino ? 0 : -ENOENT;
	}
	int err = 0;
	uint32_t base;
	uint64_t rdev;
	const char *cwd;
	const char *path = request_path_at(rq, &base, &cwd, &err);
	if (!path)
		return err;
	if (path_special(cwd, path, &rdev) != FM_FREE)
		return 1;
	return path_lookup(rq, base, path, !(a->at_flags & FS_AT_NOFOLLOW), ino);
}

/* chown: the ids that are not FS_ID_UNCHANGED, and, on anything but a
 * directory, set-user-ID dropped and set-group-ID too where group execute
 * is set (Linux's notify_change with ATTR_KILL_SUID/SGID). */
static int change_owner(struct server_request *rq, uint32_t ino, uint64_t uid, uint64_t gid)
{
	if (uid > FS_ID_UNCHANGED || gid > FS_ID_UNCHANGED)
		return -EINVAL;
	struct ext2_stat st;
	int rc = ext2_stat(fm_fs_for(rq), ino, &st);
	if (rc < 0)
		return rc;
	unsigned mask = 0;
	if (uid != FS_ID_UNCHANGED) {
		mask |= EXT2_ATTR_UID;
		st.uid = (uint32_t)uid;
	}
	if (gid != FS_ID_UNCHANGED) {
		mask |= EXT2_ATTR_GID;
		st.gid = (uint32_t)gid;
	}
	if ((st.mode & EXT2_S_IFMT) != EXT2_S_IFDIR) {
		uint32_t mode = st.mode & ~(uint32_t)S_ISUID;
		if (mode & S_IXGRP)
			mode &= ~(uint32_t)S_ISGID;
		if (mode != st.mode) {
			mask |= EXT2_ATTR_MODE;
			st.mode = mode;
		}
	}
	return ext2_set_attr(fm_fs_for(rq), ino, mask, &st);
}

/* truncate by path: a regular file only (Linux's vfs_truncate). */
static int change_size(struct server_request *rq, uint32_t ino, uint64_t size)
{
	struct ext2_stat st;
	int rc = ext2_stat(fm_fs_for(rq), ino, &st);
	if (rc < 0)
		return rc;
	if ((st.mode & EXT2_S_IFMT) == EXT2_S_IFDIR)
		return -EISDIR;
	if ((st.mode & EXT2_S_IFMT) != EXT2_S_IFREG || (int64_t)size < 0)
		return -EINVAL;
	rc = perm_check(rq, &st, PERM_W);   /* perm.c */
	if (rc < 0)
		return rc;
	if (text_busy(ino))
		return -ETXTBSY;   /* a program a process runs (text.c) */
	if (size < st.size)
		rc = fmap_truncate(ino, size);   /* mapped pages go before their blocks */
	if (rc == 0)
		rc = ext2_truncate(fm_fs_for(rq), ino, size);
	return rc;
}

int64_t do_setattr(struct server_request *rq)
{
	const struct fs_setattr_args *a = SERVER_IN(rq, struct fs_setattr_args);
	if (a->what != FS_SETATTR_MODE && a->what != FS_SETATTR_OWNER && a->what != FS_SETATTR_SIZE)
		return -EINVAL;
	uint32_t ino = 0;
	int rc = attr_target(rq, &ino);
	if (rc == 1)   /* one of our own objects: nothing is kept, but size */
		return a->what == FS_SETATTR_SIZE ? -EINVAL : 0;
	if (rc == 0 && a->what == FS_SETATTR_MODE)
		rc = perm_owner(rq, ino);   /* perm.c */
	else if (rc == 0 && a->what == FS_SETATTR_OWNER)
		rc = perm_chown(rq, ino, (uint32_t)a->uid, (uint32_t)a->gid);
	if (rc == 0 && a->what == FS_SETATTR_MODE) {
		struct ext2_stat st = { .mode = (uint32_t)(a->value & 07777) };
		rc = ext2_set_attr(fm_fs_for(rq), ino, EXT2_ATTR_MODE, &st);
	} else if (rc == 0 && a->what == FS_SETATTR_OWNER) {
		rc = change_owner(rq, ino, a->uid, a->gid);
	} else if (rc == 0) {
		rc = change_size(rq, ino, a->value);
	}
	return fm_result(rc, "setattr");
}

/* One time of FS_UTIMES: *mask gains which when it is to be set (now, or
 * the time given). -EINVAL nanoseconds out of range. */
static int one_time(uint64_t sec, uint64_t nsec, const struct timespec *now, unsigned which,
                    unsigned *mask, uint32_t *out_sec, uint32_t *out_nsec)
{
	if (nsec == FS_UTIME_OMIT)
		return 0;
	if (nsec == FS_UTIME_NOW) {
		sec = (uint64_t)now->tv_sec;
		nsec = (uint64_t)now->tv_nsec;
	} else if (nsec >= 1000000000u) {
		return -EINVAL;
	}
	/* ext2 keeps 0 .. 2^32-1 seconds: Linux clamps to its range too. */
	int64_t s = (int64_t)sec;
	*out_sec = s < 0 ? 0 : s > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)s;
	*out_nsec = (uint32_t)nsec;
	*mask |= which;
	return 0;
}

int64_t do_utimes(struct server_request *rq)
{
	const struct fs_utimes_args *a = SERVER_IN(rq, struct fs_utimes_args);
	uint32_t ino = 0;
	int rc = attr_target(rq, &ino);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	struct ext2_stat st;
	memset(&st, 0, sizeof(st));
	unsigned mask = 0;
	if (rc >= 0)
		rc = one_time(a->atime_sec, a->atime_nsec, &now, EXT2_ATTR_ATIME, &mask, &st.atime,
		              &st.atime_nsec) < 0 ||
		     one_time(a->mtime_sec, a->mtime_nsec, &now, EXT2_ATTR_MTIME, &mask, &st.mtime,
		              &st.mtime_nsec) < 0 ? -EINVAL : rc;
	if (rc == 1 || (rc == 0 && mask == 0))
		return 0;   /* our own objects keep no times; both omitted: nothing */
	/* perm.c: times given are the owner's to set (-EPERM); "now" also
	 * anyone's who may write it (-EACCES). */
	bool given = (a->atime_nsec != FS_UTIME_NOW && a->atime_nsec != FS_UTIME_OMIT) ||
	             (a->mtime_nsec != FS_UTIME_NOW && a->mtime_nsec != FS_UTIME_OMIT);
	if (rc == 0 && perm_owner(rq, ino) < 0)
		rc = given ? -EPERM : perm_inode(rq, ino, PERM_W);
	if (rc == 0)
		rc = ext2_set_attr(fm_fs_for(rq), ino, mask, &st);
	return fm_result(rc, "utimes");
}
