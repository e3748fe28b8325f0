/*
 * ops_link.c - the handlers that add a name: FS_LINK (a hard link: one more
 * directory entry and link count for an existing inode) and FS_SYMLINK (a
 * new symbolic link inode, stored by the ext2 library as Linux's ext2 does:
 * a target of up to 59 bytes in i_block, a longer one in a block).
 *
 * The checks come in Linux's order (fs/namei.c, do_linkat and
 * do_symlinkat): the old path is resolved, then the new name's directory,
 * then -EEXIST for a name that is there, then -EXDEV, then what the ext2
 * library refuses (-EPERM for a directory, -EMLINK).
 */
#include "fileman.h"

#include <errno.h>
#include <string.h>

/* The two NUL-terminated strings at the data ICA's start, each checked like
 * a single path (< FS_PATH_MAX bytes, not empty). 0 or -errno. */
static int two_strings(struct server_request *rq, const char **first, const char **second)
{
	if (!rq->data || rq->data_size == 0)
		return -EINVAL;
	const char *a = (const char *)rq->data;
	const char *end = memchr(a, '\0', rq->data_size);
	if (!end)
		return -EINVAL;
	if (end - a >= (long)FS_PATH_MAX)
		return -ENAMETOOLONG;
	const char *b = end + 1;
	uint64_t left = rq->data_size - (uint64_t)(b - a);
	if (left == 0 || !memchr(b, '\0', left))
		return -EINVAL;
	if (strnlen(b, FS_PATH_MAX) >= FS_PATH_MAX)
		return -ENAMETOOLONG;
	if (a[0] == '\0' || b[0] == '\0')
		return -ENOENT;
	*first = a;
	*second = b;
	return 0;
}

/* Where a relative path starts when it is resolved from descriptor dirfd
 * (AT_FDCWD: the current directory), as request_base does for arg[3]. */
static int base_of(struct server_request *rq, uint64_t dirfd, const char *path, uint32_t *dir,
                   const char **cwd)
{
	*cwd = NULL;
	if (path[0] != '/' && !request_at_fdcwd(dirfd)) {
		struct open_file *f = files_get(rq->d.requester, dirfd);
		if (!f)
			return -EBADF;
		if (f->kind != FM_DIR)
			return -ENOTDIR;
		*dir = f->ino;
		return 0;
	}
	*dir = files_cwd(rq->d.requester, cwd);
	return 0;
}

/* The directory and name a new entry for path goes in: -EEXIST when the
 * name is there already (the root, ".", "..", a special name, any entry,
 * a dangling link too), -ENOENT for "name/" that is not there (a
 * directory was meant, and neither call makes one). */
static int new_name(struct server_request *rq, uint32_t base, const char *cwd, const char *path,
                    uint32_t *dir, char name[EXT2_NAME_MAX + 1])
{
	uint64_t rdev;
	bool trailing;
	int rc = path_parent(rq, base, path, dir, name, &trailing);
	if (rc < 0)
		return rc;
	if (name[0] == '\0' || path_special(cwd, path, &rdev) != FM_FREE)
		return -EEXIST;
	uint32_t there;
	rc = ext2_lookup(fm_fs_for(rq), *dir, name, strlen(name), &there);
	if (rc == 0)
		return -EEXIST;
	if (rc != -ENOENT)
		return rc;
	return trailing ? -ENOENT : 0;
}

int64_t do_link(struct server_request *rq)
{
	const struct fs_link_args *a = SERVER_IN(rq, struct fs_link_args);
	if (a->flags & ~(uint64_t)FS_LINK_FOLLOW || a->new_at > 1)
		return -EINVAL;
	const char *from, *to;
	int rc = two_strings(rq, &from, &to);
	if (rc < 0)
		return rc;
	uint32_t old_base, new_base, ino = 0, dir;
	const char *old_cwd, *new_cwd;
	rc = request_base(rq, from, &old_base, &old_cwd);
	if (rc < 0)
		return rc;
	if (a->new_at)
		rc = base_of(rq, a->new_dirfd, to, &new_base, &new_cwd);
	else
		rc = request_base(rq, to, &new_base, &new_cwd);
	if (rc < 0)
		return rc;
	uint64_t rdev;
	bool special = path_special(old_cwd, from, &rdev) != FM_FREE;
	if (!special)
		rc = path_lookup(rq, old_base, from, a->flags & FS_LINK_FOLLOW, &ino);
	char name[EXT2_NAME_MAX + 1];
	if (rc == 0)
		rc = new_name(rq, new_base, new_cwd, to, &dir, name);
	if (rc == 0 && special)
		rc = -EXDEV;   /* the file manager's own objects are on no disk */
	if (rc == 0)
		rc = perm_inode(rq, dir, PERM_W | PERM_X);   /* perm.c */
	if (rc == 0)
		rc = ext2_link(fm_fs_for(rq), dir, name, ino);
	return fm_result(rc, "link");
}

int64_t do_symlink(struct server_request *rq)
{
	const char *path, *target;
	int rc = two_strings(rq, &path, &target);
	if (rc < 0)
		return rc;
	uint32_t base, dir, ino;
	const char *cwd;
	rc = request_base(rq, path, &base, &cwd);
	char name[EXT2_NAME_MAX + 1];
	if (rc == 0)
		rc = new_name(rq, base, cwd, path, &dir, name);
	if (rc == 0)
		rc = perm_inode(rq, dir, PERM_W | PERM_X);   /* perm.c */
	struct fm_cred c = request_cred(rq);
	if (rc == 0)
		rc = ext2_symlink(fm_fs_for(rq), dir, name, target, c.uid, c.gid, &ino);
	return fm_result(rc, "symlink");
}
