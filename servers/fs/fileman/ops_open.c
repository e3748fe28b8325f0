/*
 * ops_open.c - the handlers that start from a path: open (and open-as, the
 * process manager's open for an execve, in another process's current
 * directory and with its ids), stat,
 * access and readlink.
 *
 * A relative path starts at the current directory or at a descriptor's
 * directory (request_base); "/dev/null", "/dev/tty" and "/dev/console" are
 * the file manager's own objects, whether or not the disk has a /dev.
 */
#include "fileman.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* A description of kind for ino, as descriptor of the requester. */
static int64_t install_new(struct server_request *rq, enum fm_kind kind, int flags, uint32_t ino,
                           bool cloexec)
{
	struct open_file *f = ofd_new(kind, flags);
	if (!f)
		return -ENFILE;
	f->ino = ino;
	int fd = files_install(rq->d.requester, f, 0, cloexec);
	ofd_unref(f);   /* the descriptor holds it now, or nobody does */
	return fd;
}

/* Creates path's last name as an empty regular file. */
static int create(struct server_request *rq, uint32_t base, const char *path, uint32_t mode, uint32_t *ino)
{
	uint32_t dir;
	char name[EXT2_NAME_MAX + 1];
	bool trailing;
	int rc = path_parent(rq, base, path, &dir, name, &trailing);
	if (rc == 0 && (name[0] == '\0' || trailing))
		rc = -EISDIR;   /* "/", or "name/": a directory is meant */
	if (rc == 0)
		rc = perm_inode(rq, dir, PERM_W | PERM_X);   /* perm.c */
	struct fm_cred c = request_cred(rq);
	if (rc == 0)
		rc = ext2_create(fm_fs_for(rq), dir, name, mode & 07777, c.uid, c.gid, ino);
	return rc;
}

/* FS_OPEN of path from directory base (cwd: its text, for special names);
 * exec: FS_OPEN_AS, an execve's open, which asks execute permission instead
 * of read (Linux runs a file it may not read) and refuses a directory. */
static int64_t open_in(struct server_request *rq, uint32_t base, const char *cwd, const char *path,
                       bool exec)
{
	const struct fs_open_args *a = SERVER_IN(rq, struct fs_open_args);
	int flags = (int)a->flags;
	int access = flags & O_ACCMODE;
	bool cloexec = flags & O_CLOEXEC, exclusive = (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL);
	if (access == O_ACCMODE)
		return -EINVAL;
	if ((flags & O_TMPFILE) == O_TMPFILE)
		return -EOPNOTSUPP;
	int rc = files_room(rq->d.requester);
	if (rc < 0)
		return rc;
	/* What the description keeps: the status flags; as Linux on 64-bit
	 * machines, O_LARGEFILE always. */
	int keep = access | (flags & FM_STATUS_FLAGS) | O_LARGEFILE;
	uint64_t rdev;
	enum fm_kind special = path_special(cwd, path, &rdev);
	if (special == FM_PROC) {
		static char target[FS_PATH_MAX];
		if (!(flags & O_NOFOLLOW) &&
		    procfs_disk_target(rq, cwd, path, rq->d.requester, target, sizeof(target)))
			return open_in(rq, base, cwd, target, exec);   /* never under /proc: one level */
		return procfs_open(rq, procfs_rest(path_normal(cwd, path)), keep, cloexec, flags);
	}
	if (special != FM_FREE) {
		if (exclusive)
			return -EEXIST;
		if (flags & O_DIRECTORY)
			return -ENOTDIR;
		struct open_file *f = ofd_new(special, keep);
		if (!f)
			return -ENFILE;
		f->rdev = rdev;
		int fd = files_install(rq->d.requester, f, 0, cloexec);
		ofd_unref(f);
		return fd;
	}
	if (removed_dot(base, path))
		return removed_dir_open(rq, flags, keep, cloexec);   /* removed.c */
	uint32_t ino = 0;
	rc = path_lookup(rq, base, path, !(flags & O_NOFOLLOW) && !exclusive, &ino);
	if (rc == 0 && exclusive)
		return -EEXIST;
	bool created = rc == -ENOENT && (flags & O_CREAT);
	if (created)
		rc = create(rq, base, path, (uint32_t)a->mode, &ino);
	struct ext2_stat st;
	if (rc == 0)
		rc = ext2_stat(fm_fs_for(rq), ino, &st);
	if (rc < 0)
		return fm_result(rc, "open");
	enum fm_kind kind;
	switch (st.mode & EXT2_S_IFMT) {
	case EXT2_S_IFDIR:
		/* As Linux: O_TRUNC asks to write, and a directory is written
		 * only through its own calls. */
		if (access != O_RDONLY || (flags & (O_CREAT | O_TRUNC)))
			return -EISDIR;
		if (exec)
			return -EACCES;
		kind = FM_DIR;
		break;
	case EXT2_S_IFREG:
		if (flags & O_DIRECTORY)
			return -ENOTDIR;
		kind = FM_FILE;
		break;
	case EXT2_S_IFLNK:
		return -ELOOP;   /* O_NOFOLLOW on a symbolic link */
	default:
		return -ENXIO;   /* device nodes and the like: nothing serves them */
	}
	/* As Linux: a file this open made is not checked (its mode may deny). */
	unsigned want = (access != O_WRONLY ? PERM_R : 0) | (access != O_RDONLY || (flags & O_TRUNC) ? PERM_W : 0);
	if (exec)
		want = PERM_X;
	rc = created ? 0 : perm_check(rq, &st, want);   /* perm.c */
	if (rc < 0)
		return rc;
	/* As Linux: no writer for a program a process runs, no exec of a file
	 * open for writing (text.c). */
	if (kind == FM_FILE && ((exec && ofd_inode_writable(ino)) ||
	                        (!exec && access != O_RDONLY && text_busy(ino))))
		return -ETXTBSY;
	if (kind == FM_FILE && (flags & O_TRUNC) && access != O_RDONLY && st.size) {
		rc = fmap_truncate(ino, 0);   /* mapped pages go before their blocks */
		if (rc == 0)
			rc = ext2_truncate(fm_fs_for(rq), ino, 0);
		if (rc < 0)
			return fm_result(rc, "open (truncate)");
	}
	int fd = (int)install_new(rq, kind, keep, ino, cloexec);
	const char *normal = fd >= 0 && kind == FM_FILE ? path_normal(cwd, path) : NULL;
	if (normal) {
		struct open_file *f = files_get(rq->d.requester, (uint64_t)fd);
		if (f && !f->path) {
			/* For /proc/<pid>/fd; none without memory. */
			size_t len = strlen(normal);
			if (len < sizeof(f->path_short))
				f->path = memcpy(f->path_short, normal, len + 1);
			else
				f->path = strdup(normal);
		}
	}
	return fd;
}

int64_t do_open(struct server_request *rq)
{
	int err = 0;
	uint32_t base;
	const char *cwd;
	const char *path = request_path_at(rq, &base, &cwd, &err);
	int64_t fd = path ? open_in(rq, base, cwd, path, false) : err;
	result_kind(rq, fd);
	return fd;
}

int64_t do_open_as(struct server_request *rq)
{
	if (!request_from_pm(rq))
		return -EPERM;
	const struct fs_open_args *a = SERVER_IN(rq, struct fs_open_args);
	if (a->at_flags != 0 || a->pid == 0 || a->pid > INT32_MAX)
		return -EINVAL;
	int err = 0;
	const char *path = request_path(rq, &err);
	if (!path)
		return err;
	const char *cwd;
	uint32_t base = files_cwd((int)a->pid, &cwd);
	static char target[FS_PATH_MAX];
	if (procfs_disk_target(rq, cwd, path, (int)a->pid, target, sizeof(target)))
		path = target;   /* /proc/self/exe: the process's program */
	int64_t fd = open_in(rq, base, cwd, path, true);
	if (fd >= 0) {
		procfs_exe_opened((int)a->pid, cwd, path);   /* the process manager opens to exec */
		struct open_file *f = files_get(rq->d.requester, (uint64_t)fd);
		if (f && f->kind == FM_FILE)
			text_opened((int)a->pid, f->ino);
	}
	return fd;
}

/* The special object path names, if any: its kind, device number and a
 * struct stat mode. */
static enum fm_kind special_of(const char *cwd, const char *path, uint32_t *mode,
                               uint64_t *rdev)
{
	enum fm_kind kind = path_special(cwd, path, rdev);
	*mode = EXT2_S_IFCHR;
	return kind;
}

int64_t do_stat(struct server_request *rq)
{
	const struct fs_stat_args *a = SERVER_IN(rq, struct fs_stat_args);
	if (a->at_flags & ~(uint64_t)(FS_AT_DIRFD | FS_AT_NOFOLLOW | FS_AT_EMPTY_PATH))
		return -EINVAL;
	if ((a->at_flags & FS_AT_EMPTY_PATH) && rq->data && rq->data_size > 0 && rq->data[0] == '\0') {
		/* The descriptor itself, or the current directory. */
		if ((a->at_flags & FS_AT_DIRFD) && !request_at_fdcwd(a->dirfd)) {
			struct open_file *f = files_get(rq->d.requester, a->dirfd);
			return f ? stat_description(rq, f) : -EBADF;
		}
		const char *text;
		uint32_t cwd = files_cwd(rq->d.requester, &text);
		return cwd ? stat_inode(rq, cwd) : removed_dir_stat(rq);
	}
	int err = 0;
	uint32_t base, mode;
	uint64_t rdev;
	const char *cwd;
	const char *path = request_path_at(rq, &base, &cwd, &err);
	if (!path)
		return err;
	if (removed_dot(base, path))
		return removed_dir_stat(rq);   /* removed.c */
	enum fm_kind special = special_of(cwd, path, &mode, &rdev);
	if (special == FM_PROC)
		return procfs_stat(rq, procfs_rest(path_normal(cwd, path)), !(a->at_flags & FS_AT_NOFOLLOW));
	if (special != FM_FREE)
		return devfile_stat(rq, special, rdev);
	/* /dev itself is where Linux mounts devtmpfs: it stats as the device
	 * files' file system (and statfs, which asks stat, says devtmpfs). */
	const char *normal = strstr(path, "dev") ? path_normal(cwd, path) : NULL;
	bool dev_dir = normal && strcmp(normal, "/dev") == 0;
	uint32_t ino;
	int rc = path_lookup(rq, base, path, !(a->at_flags & FS_AT_NOFOLLOW), &ino);
	if (rc < 0)
		return fm_result(rc, "stat");
	int64_t r = stat_inode(rq, ino);
	if (r == 0 && dev_dir)
		((struct myrmex_stat *)(void *)rq->data)->st_dev = FS_ST_DEV_DEVICES;
	return r;
}

int64_t do_access(struct server_request *rq)
{
	const struct fs_access_args *a = SERVER_IN(rq, struct fs_access_args);
	uint64_t want = a->mode;
	if (want & ~(uint64_t)(R_OK | W_OK | X_OK))
		return -EINVAL;
	int err = 0;
	uint32_t base, mode;
	uint64_t rdev;
	const char *cwd;
	const char *path = request_path_at(rq, &base, &cwd, &err);
	if (!path)
		return err;
	enum fm_kind special = special_of(cwd, path, &mode, &rdev);
	if (special == FM_PROC)
		return procfs_access(rq, procfs_rest(path_normal(cwd, path)), want);
	if (special != FM_FREE)
		return want & X_OK ? -EACCES : 0;
	uint32_t ino;
	struct ext2_stat st;
	int rc = path_lookup(rq, base, path, !(a->at_flags & FS_AT_NOFOLLOW), &ino);
	if (rc == 0)
		rc = ext2_stat(fm_fs_for(rq), ino, &st);
	if (rc < 0)
		return fm_result(rc, "access");
	/* The caller's bits (perm.c; root: all, but execute needs an execute
	 * bit on anything but a directory); a read-only disk first, as Linux. */
	uint32_t type = st.mode & EXT2_S_IFMT;
	if ((want & W_OK) && fm_fs.read_only && (type == EXT2_S_IFREG || type == EXT2_S_IFDIR))
		return -EROFS;
	return perm_check(rq, &st, (unsigned)want);
}

int64_t do_readlink(struct server_request *rq)
{
	static char target[FS_PATH_MAX];
	int err = 0;
	uint32_t base, mode;
	uint64_t rdev;
	const char *cwd;
	const char *path = request_path_at(rq, &base, &cwd, &err);
	if (!path)
		return err;
	enum fm_kind special = special_of(cwd, path, &mode, &rdev);
	if (special == FM_PROC)
		return procfs_readlink(rq, procfs_rest(path_normal(cwd, path)));
	if (special != FM_FREE)
		return -EINVAL;
	uint32_t ino;
	int rc = path_lookup(rq, base, path, false, &ino);
	int len = rc == 0 ? ext2_readlink(fm_fs_for(rq), ino, target, sizeof(target)) : rc;
	if (len < 0)
		return fm_result(len, "readlink");
	/* The caller's buffer (0: the data ICA's size); a longer target is
	 * cut, as Linux does. */
	uint64_t size = SERVER_IN(rq, struct fs_readlink_args)->size;
	uint64_t room = size && size < rq->data_size ? size : rq->data_size;
	uint64_t n = (uint64_t)len < room ? (uint64_t)len : room;
	memcpy(rq->data, target, n);
	return (int64_t)n;
}
