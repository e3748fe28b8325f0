/*
 * ops_dir.c - names and directories: the handlers for readdir, mkdir,
 * rmdir, unlink (unlinkat with AT_REMOVEDIR too) and rename. Paths are
 * resolved by path.c from the current directory or a descriptor's
 * (FS_AT_DIRFD); the last component is never followed.
 *
 * Removing the last name of a file that is still open frees it at once (the
 * ext2 library does not defer it); the descriptors open on it are marked
 * stale so that they can never reach an inode reused by another file, and
 * the pages that maps of it hold are revoked first (fmap.c), before its
 * blocks are freed.
 */
#include "fileman.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>

static uint8_t dirent_type(uint8_t ft)
{
	static const uint8_t dt[] = {
		[EXT2_FT_UNKNOWN] = 0, [EXT2_FT_REG_FILE] = 8, [EXT2_FT_DIR] = 4,
		[EXT2_FT_CHRDEV] = 2, [EXT2_FT_BLKDEV] = 6, [EXT2_FT_FIFO] = 1,
		[EXT2_FT_SOCK] = 12, [EXT2_FT_SYMLINK] = 10,
	};
	return ft < sizeof(dt) ? dt[ft] : 0;
}

int64_t do_readdir(struct server_request *rq)
{
	const struct fs_readdir_args *a = SERVER_IN(rq, struct fs_readdir_args);
	struct open_file *f = files_get(rq->d.requester, a->fd);
	if (!f)
		return -EBADF;
	uint64_t room = a->length < rq->data_size ? a->length : rq->data_size;
	if (f->kind == FM_PROC)
		return rq->data ? procfs_readdir(rq, f, room) : -EINVAL;
	if (f->kind != FM_DIR)
		return -ENOTDIR;
	if (f->ino == 0)
		return -ENOENT;   /* removed: as Linux's getdents (removed.c) */
	if (!rq->data)
		return -EINVAL;
	uint64_t used = 0, pos = f->offset;
	for (;;) {
		struct ext2_dirent ent;
		uint64_t next = pos;
		int rc = ext2_readdir(fm_fs_for(rq), f->ino, &next, &ent);
		if (rc < 0)
			return used ? (int64_t)used : fm_result(rc, "readdir");
		if (rc == 0)
			break;
		uint64_t reclen = (offsetof(struct myrmex_dirent64, d_name) + ent.name_len + 1 + 7) & ~7ull;
		if (used + reclen > room) {
			if (used == 0)
				return -EINVAL;   /* not even one record fits */
			break;
		}
		struct myrmex_dirent64 *d = (struct myrmex_dirent64 *)(rq->data + used);
		memset(d, 0, reclen);
		d->d_ino = ent.ino;
		d->d_off = (int64_t)next;
		d->d_reclen = (uint16_t)reclen;
		d->d_type = dirent_type(ent.type);
		memcpy(d->d_name, ent.name, ent.name_len);
		used += reclen;
		pos = next;
	}
	f->offset = pos;
	return (int64_t)used;
}

/* A path of the request split into parent directory and name (resolved
 * from where request_base says); a name of "" (the root itself) is refused
 * with busy. */
static int split_path(struct server_request *rq, const char *path, uint32_t *dir,
                      char name[EXT2_NAME_MAX + 1], int busy, bool *trailing)
{
	uint32_t base;
	const char *cwd;
	int err = request_base(rq, path, &base, &cwd);
	if (err == 0)
		err = path_parent(rq, base, path, dir, name, trailing);
	if (err == 0 && name[0] == '\0')
		err = busy;
	return err;
}

static int request_parent(struct server_request *rq, uint32_t *dir, char name[EXT2_NAME_MAX + 1],
                          int busy, bool *trailing)
{
	int err = 0;
	const char *path = request_path(rq, &err);
	return path ? split_path(rq, path, dir, name, busy, trailing) : err;
}

int64_t do_mkdir(struct server_request *rq)
{
	uint32_t dir, ino;
	char name[EXT2_NAME_MAX + 1];
	bool trailing;
	int rc = request_parent(rq, &dir, name, -EEXIST, &trailing);
	if (rc == 0 && ext2_lookup(fm_fs_for(rq), dir, name, strlen(name), &ino) == 0)
		rc = -EEXIST;   /* as Linux: before the permission check */
	if (rc == 0)
		rc = perm_inode(rq, dir, PERM_W | PERM_X);   /* perm.c */
	struct fm_cred c = request_cred(rq);
	if (rc == 0)
		rc = ext2_mkdir(fm_fs_for(rq), dir, name,
		                (uint32_t)SERVER_IN(rq, struct fs_mkdir_args)->mode & 07777, c.uid, c.gid, &ino);
	return fm_result(rc, "mkdir");
}

int64_t do_rmdir(struct server_request *rq)
{
	uint32_t dir, ino = 0;
	char name[EXT2_NAME_MAX + 1];
	bool trailing;
	int rc = request_parent(rq, &dir, name, -EBUSY, &trailing);
	if (rc == 0)
		rc = ext2_lookup(fm_fs_for(rq), dir, name, strlen(name), &ino);
	if (rc == 0)
		rc = perm_inode(rq, dir, PERM_W | PERM_X);   /* perm.c */
	if (rc == 0)
		rc = perm_sticky(rq, dir, ino);
	if (rc == 0)
		rc = ext2_rmdir(fm_fs_for(rq), dir, name);
	if (rc == 0)
		files_forget_inode(ino);
	return fm_result(rc, "rmdir");
}

/* Before a name of ino goes (unlink, or rename over it): if it is the last
 * name of a regular file that nothing holds open or mapped, the file is
 * about to be freed, so its maps let go of its blocks now (an open one
 * stays, an orphan, until its last close: orphans_reap). 0 or the kernel's
 * refusal to revoke. */
static int before_last_name(struct server_request *rq, uint32_t ino)
{
	struct ext2_stat st;
	if (!ino || ext2_stat(fm_fs_for(rq), ino, &st) < 0)
		return 0;
	if ((st.mode & EXT2_S_IFMT) != EXT2_S_IFREG || st.links > 1)
		return 0;
	if (ofd_inode_open(&fm_fs, ino))
		return 0;
	return fmap_inode_gone(ino);
}

/* After a name of ino went: if that was its last, its descriptors go stale
 * (a directory), or it is an orphan its descriptors still use (a file). */
static void forget_if_gone(struct server_request *rq, uint32_t ino)
{
	struct ext2_stat st;
	if (!ino)
		return;
	int rc = ext2_stat(fm_fs_for(rq), ino, &st);
	if (rc == -ENOENT) {
		files_forget_inode(ino);
		text_forget(ino);   /* a program that runs on: its number may name a new file */
	}
	else if (rc == 0 && st.links == 0)
		orphan_add(ino);
}

int64_t do_unlink(struct server_request *rq)
{
	/* unlinkat's flags; AT_REMOVEDIR makes it rmdir. */
	uint64_t flags = SERVER_IN(rq, struct fs_unlink_args)->flags;
	if (flags & ~(uint64_t)AT_REMOVEDIR)
		return -EINVAL;
	if (flags & AT_REMOVEDIR)
		return do_rmdir(rq);
	uint32_t dir, ino = 0;
	char name[EXT2_NAME_MAX + 1];
	bool trailing;
	struct ext2_stat st;
	int rc = request_parent(rq, &dir, name, -EISDIR, &trailing);
	if (rc == 0)
		rc = ext2_lookup(fm_fs_for(rq), dir, name, strlen(name), &ino);
	if (rc == 0 && trailing) {
		/* "name/": a directory is meant, and unlink removes none. */
		rc = ext2_stat(fm_fs_for(rq), ino, &st);
		if (rc == 0)
			rc = (st.mode & EXT2_S_IFMT) == EXT2_S_IFDIR ? -EISDIR : -ENOTDIR;
	}
	if (rc == 0)
		rc = perm_inode(rq, dir, PERM_W | PERM_X);   /* perm.c */
	if (rc == 0)
		rc = perm_sticky(rq, dir, ino);
	if (rc == 0)
		rc = before_last_name(rq, ino);
	if (rc == 0)
		rc = ext2_unlink(fm_fs_for(rq), dir, name);
	if (rc == 0)
		forget_if_gone(rq, ino);
	return fm_result(rc, "unlink");
}

static bool is_dots(const char *name)
{
	return strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
}

int64_t do_rename(struct server_request *rq)
{
	if (!rq->data)
		return -EINVAL;
	/* Two paths, one after the other; each checked like a single one. */
	uint64_t limit = rq->data_size;
	const char *from = (const char *)rq->data;
	const char *end = memchr(from, '\0', limit);
	if (!end)
		return -EINVAL;
	if (end - from >= (long)FS_PATH_MAX)
		return -ENAMETOOLONG;
	const char *to = end + 1;
	uint64_t left = limit - (uint64_t)(to - from);
	if (left == 0 || !memchr(to, '\0', left))
		return -EINVAL;
	if (strnlen(to, FS_PATH_MAX) >= FS_PATH_MAX)
		return -ENAMETOOLONG;
	if (from[0] == '\0' || to[0] == '\0')
		return -ENOENT;
	/* With FS_AT_DIRFD both relative paths start at descriptor dirfd. */
	uint32_t old_dir, new_dir, replaced = 0;
	char old_name[EXT2_NAME_MAX + 1], new_name[EXT2_NAME_MAX + 1];
	bool trailing;
	int rc = split_path(rq, from, &old_dir, old_name, -EBUSY, &trailing);
	if (rc == 0)
		rc = split_path(rq, to, &new_dir, new_name, -EBUSY, &trailing);
	if (rc == 0 && (is_dots(old_name) || is_dots(new_name)))
		rc = -EBUSY;   /* as Linux: "." and ".." do not move */
	if (rc == 0 && ext2_lookup(fm_fs_for(rq), new_dir, new_name, strlen(new_name), &replaced) < 0)
		replaced = 0;
	uint32_t source = 0;
	if (rc == 0)
		rc = ext2_lookup(fm_fs_for(rq), old_dir, old_name, strlen(old_name), &source);
	/* perm.c: both directories written, neither name another's in a sticky one. */
	if (rc == 0)
		rc = perm_inode(rq, old_dir, PERM_W | PERM_X);
	if (rc == 0)
		rc = perm_sticky(rq, old_dir, source);
	if (rc == 0)
		rc = perm_inode(rq, new_dir, PERM_W | PERM_X);
	if (rc == 0 && replaced)
		rc = perm_sticky(rq, new_dir, replaced);
	uint32_t moved = 0;
	if (rc == 0 && replaced &&
	    (ext2_lookup(fm_fs_for(rq), old_dir, old_name, strlen(old_name), &moved) < 0 ||
	     moved != replaced))
		rc = before_last_name(rq, replaced);   /* a rename onto its own inode frees nothing */
	if (rc == 0)
		rc = ext2_rename(fm_fs_for(rq), old_dir, old_name, new_dir, new_name);
	if (rc == 0)
		forget_if_gone(rq, replaced);
	return fm_result(rc, "rename");
}
