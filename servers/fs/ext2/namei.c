/*
 * namei.c - operations on names: path resolution, create, mkdir, symlink,
 * link, unlink, rmdir and rename.
 *
 * Each operation checks everything it can first (names, types, existence,
 * emptiness, link limits) and only then changes the disk. A new name is
 * linked before an old one is removed, and a new inode is released again if
 * its name cannot be added, so a failure (-ENOSPC included) leaves a
 * consistent file system.
 */
#include "ext2_disk.h"

#include <string.h>

/* Checks a name for a new or removed entry; *len gets its length. Names "."
 * and ".." give dot_err. */
static int check_name(const char *name, size_t *len, int dot_err)
{
	size_t n = strnlen(name, EXT2_NAME_MAX + 1);
	if (n == 0)
		return -ENOENT;
	if (n > EXT2_NAME_MAX)
		return -ENAMETOOLONG;
	if (memchr(name, '/', n))
		return -EINVAL;
	if ((n == 1 && name[0] == '.') || (n == 2 && name[0] == '.' && name[1] == '.'))
		return dot_err;
	*len = n;
	return 0;
}

/* Reads directory dir (-ENOTDIR if it is something else). */
static int get_dir(struct ext2_fs *fs, uint32_t dir, struct ext2_inode *in)
{
	int rc = ext2_get_inode(fs, dir, in);
	if (rc == 0 && !ext2_is_dir(in))
		rc = -ENOTDIR;
	return rc;
}

int ext2_lookup_path(struct ext2_fs *fs, const char *path, uint32_t *ino)
{
	struct ext2_inode in;
	size_t total = strnlen(path, EXT2_PATH_MAX);
	if (total >= EXT2_PATH_MAX)
		return -ENAMETOOLONG;
	if (total == 0)
		return -ENOENT;
	uint32_t cur = EXT2_ROOT_INO;
	int rc = ext2_get_inode(fs, cur, &in);
	const char *p = path;
	while (rc == 0) {
		while (*p == '/')
			p++;
		if (*p == '\0')
			break;
		const char *end = p;
		while (*end && *end != '/')
			end++;
		size_t len = (size_t)(end - p);
		if (len > EXT2_NAME_MAX)
			rc = -ENAMETOOLONG;
		else if (!ext2_is_dir(&in))
			rc = -ENOTDIR;
		else
			rc = ext2_dir_find(fs, cur, &in, p, len, &cur, NULL, NULL);
		if (rc == 0)
			rc = ext2_get_inode(fs, cur, &in);
		p = end;
	}
	if (rc == 0 && path[total - 1] == '/' && !ext2_is_dir(&in))
		rc = -ENOTDIR;
	if (rc == 0)
		*ino = cur;
	return (int)ext2_finish(fs, rc);
}

/* Creates an inode of mode in dir under name and links it. *in is the new
 * inode, for the caller to fill (it has not been linked if this fails). */
static int make_node(struct ext2_fs *fs, uint32_t dir, const char *name, uint32_t mode,
                     uint32_t uid, uint32_t gid, uint32_t *ino)
{
	struct ext2_inode dir_in, in;
	size_t len;
	uint32_t found;
	bool is_dir = (mode & EXT2_S_IFMT) == EXT2_S_IFDIR;
	if (fs->read_only)
		return -EROFS;
	int rc = check_name(name, &len, -EEXIST);
	if (rc == 0)
		rc = get_dir(fs, dir, &dir_in);
	if (rc == 0) {
		rc = ext2_dir_find(fs, dir, &dir_in, name, len, &found, NULL, NULL);
		rc = rc == 0 ? -EEXIST : rc == -ENOENT ? 0 : rc;
	}
	if (rc == 0 && is_dir && dir_in.i_links_count >= EXT2_LINK_MAX)
		rc = -EMLINK;
	if (rc < 0)
		return rc;

	rc = ext2_new_inode(fs, dir, mode, uid, gid, ino, &in);
	if (rc < 0)
		return rc;
	if (is_dir) {
		in.i_links_count = 2;
		rc = ext2_dir_init(fs, *ino, &in, dir);
		int wrc = ext2_write_inode(fs, *ino, &in);
		if (rc == 0)
			rc = wrc;
		if (rc == 0)
			dir_in.i_links_count++;   /* the new ".." (written by dir_add) */
	}
	if (rc == 0)
		rc = ext2_dir_add(fs, dir, &dir_in, name, len, *ino, ext2_mode_to_ft(mode));
	if (rc < 0)
		ext2_evict_inode(fs, *ino, &in);
	return rc;
}

int ext2_create(struct ext2_fs *fs, uint32_t dir, const char *name, uint32_t mode,
                uint32_t uid, uint32_t gid, uint32_t *ino)
{
	int rc = make_node(fs, dir, name, EXT2_S_IFREG | (mode & 07777), uid, gid, ino);
	return (int)ext2_finish(fs, rc);
}

int ext2_mkdir(struct ext2_fs *fs, uint32_t dir, const char *name, uint32_t mode,
               uint32_t uid, uint32_t gid, uint32_t *ino)
{
	int rc = make_node(fs, dir, name, EXT2_S_IFDIR | (mode & 07777), uid, gid, ino);
	return (int)ext2_finish(fs, rc);
}

/* Stores the target of a new symbolic link in i_block (short) or in a
 * block of its own, and sets the size. */
static int store_target(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in,
                        const char *target, size_t len)
{
	uint8_t block[EXT2_BLOCK_SIZE];
	uint32_t b;
	int rc = 0;
	if (len < sizeof(in->i_block)) {
		memcpy(in->i_block, target, len);   /* a fast symlink */
	} else {
		rc = ext2_bmap(fs, ino, in, 0, true, &b, NULL);
		if (rc == 0) {
			memset(block, 0, sizeof(block));
			memcpy(block, target, len);
			rc = ext2_bwrite(fs, b, block);
		}
	}
	ext2_set_inode_size(fs, in, rc == 0 ? len : 0);
	int wrc = ext2_write_inode(fs, ino, in);
	return rc < 0 ? rc : wrc;
}

int ext2_symlink(struct ext2_fs *fs, uint32_t dir, const char *name, const char *target,
                 uint32_t uid, uint32_t gid, uint32_t *ino)
{
	struct ext2_inode in;
	size_t len = strnlen(target, EXT2_PATH_MAX);
	if (len == 0)
		return -ENOENT;
	if (len >= EXT2_PATH_MAX)
		return -ENAMETOOLONG;
	int rc = make_node(fs, dir, name, EXT2_S_IFLNK | 0777, uid, gid, ino);
	if (rc == 0)
		rc = ext2_read_inode(fs, *ino, &in);
	if (rc < 0)
		return (int)ext2_finish(fs, rc);
	rc = store_target(fs, *ino, &in, target, len);
	if (rc < 0) {
		/* Take the half-made link away again. */
		struct ext2_inode dir_in;
		if (get_dir(fs, dir, &dir_in) == 0 &&
		    ext2_dir_remove(fs, dir, &dir_in, name, strlen(name)) == 0)
			ext2_evict_inode(fs, *ino, &in);
	}
	return (int)ext2_finish(fs, rc);
}

int ext2_link(struct ext2_fs *fs, uint32_t dir, const char *name, uint32_t ino)
{
	struct ext2_inode dir_in, in;
	size_t len;
	if (fs->read_only)
		return -EROFS;
	int rc = check_name(name, &len, -EEXIST);
	if (rc == 0)
		rc = ext2_get_inode(fs, ino, &in);
	if (rc == 0 && ext2_is_dir(&in))
		rc = -EPERM;
	if (rc == 0 && in.i_links_count == 0)
		rc = -ENOENT;   /* an orphan is not linked again (Linux's linkat) */
	if (rc == 0 && in.i_links_count >= EXT2_LINK_MAX)
		rc = -EMLINK;
	if (rc == 0)
		rc = get_dir(fs, dir, &dir_in);
	if (rc == 0)
		rc = ext2_dir_add(fs, dir, &dir_in, name, len, ino, ext2_mode_to_ft(in.i_mode));
	if (rc == 0) {
		in.i_links_count++;
		ext2_touch(&in, 0, true, ext2_now(fs));
		rc = ext2_write_inode(fs, ino, &in);
	}
	return (int)ext2_finish(fs, rc);
}

/* Drops one link of inode ino (*in); frees it with the last one, unless
 * it is a regular file fs->keep says is open (then an orphan). A
 * directory loses both of its links (its name and its "."). */
static int drop_link(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in)
{
	if (ext2_is_reg(in) && in->i_links_count <= 1 && fs->keep && fs->keep(fs, ino)) {
		/* Still open: an orphan, freed by ext2_release at its last close
		 * or, after a crash, by the next mount (orphan.c). */
		in->i_links_count = 0;
		ext2_orphan_add(fs, ino, in);
		ext2_touch(in, 0, true, ext2_now(fs));
		return ext2_write_inode(fs, ino, in);
	}
	if (ext2_is_dir(in) || in->i_links_count <= 1) {
		in->i_links_count = 0;
		return ext2_evict_inode(fs, ino, in);
	}
	in->i_links_count--;
	ext2_touch(in, 0, true, ext2_now(fs));
	return ext2_write_inode(fs, ino, in);
}

enum kind { ANY, NOT_DIR, DIR };

/* Looks up name in dir for removal or renaming: the entry's inode, checked
 * for kind; the root is never removed (-EBUSY). *ino is 0 before the call. */
static int get_victim(struct ext2_fs *fs, uint32_t dir, struct ext2_inode *dir_in,
                      const char *name, size_t len, uint32_t *ino, struct ext2_inode *in,
                      enum kind want)
{
	int rc = get_dir(fs, dir, dir_in);
	if (rc == 0)
		rc = ext2_dir_find(fs, dir, dir_in, name, len, ino, NULL, NULL);
	if (rc == 0)
		rc = ext2_get_inode(fs, *ino, in);
	if (rc == -ENOENT && *ino)
		rc = ext2_corrupt(fs, "directory entry names a free inode");
	if (rc == 0 && want == DIR && !ext2_is_dir(in))
		rc = -ENOTDIR;
	if (rc == 0 && want == NOT_DIR && ext2_is_dir(in))
		rc = -EISDIR;
	if (rc == 0 && *ino == EXT2_ROOT_INO)
		rc = -EBUSY;
	return rc;
}

int ext2_unlink(struct ext2_fs *fs, uint32_t dir, const char *name)
{
	struct ext2_inode dir_in, in;
	uint32_t ino = 0;
	size_t len;
	if (fs->read_only)
		return -EROFS;
	int rc = check_name(name, &len, -EISDIR);
	if (rc == 0)
		rc = get_victim(fs, dir, &dir_in, name, len, &ino, &in, NOT_DIR);
	if (rc == 0)
		rc = ext2_dir_remove(fs, dir, &dir_in, name, len);
	if (rc == 0)
		rc = drop_link(fs, ino, &in);
	return (int)ext2_finish(fs, rc);
}

int ext2_rmdir(struct ext2_fs *fs, uint32_t dir, const char *name)
{
	struct ext2_inode dir_in, in;
	uint32_t ino = 0;
	size_t len;
	if (fs->read_only)
		return -EROFS;
	int rc = check_name(name, &len, -EINVAL);
	if (rc == 0)
		rc = get_victim(fs, dir, &dir_in, name, len, &ino, &in, DIR);
	if (rc == 0) {
		rc = ext2_dir_is_empty(fs, &in);
		rc = rc == 1 ? 0 : rc == 0 ? -ENOTEMPTY : rc;
	}
	if (rc == 0) {
		if (dir_in.i_links_count > 2)
			dir_in.i_links_count--;   /* the child's ".." (written by remove) */
		rc = ext2_dir_remove(fs, dir, &dir_in, name, len);
	}
	if (rc == 0)
		rc = drop_link(fs, ino, &in);
	return (int)ext2_finish(fs, rc);
}

/* -EINVAL if directory dir is src or lies below it. Walks ".." up to the
 * root; a walk longer than the inode count is a loop (corruption). */
static int check_not_below(struct ext2_fs *fs, uint32_t dir, uint32_t src)
{
	struct ext2_inode in;
	for (uint32_t steps = 0; steps <= fs->inodes_count; steps++) {
		if (dir == src)
			return -EINVAL;
		if (dir == EXT2_ROOT_INO)
			return 0;
		int rc = get_dir(fs, dir, &in);
		if (rc == 0)
			rc = ext2_dir_find(fs, dir, &in, "..", 2, &dir, NULL, NULL);
		if (rc < 0)
			return rc == -ENOENT || rc == -ENOTDIR
			       ? ext2_corrupt(fs, "directory without a parent") : rc;
	}
	return ext2_corrupt(fs, "directory loop");
}

int ext2_rename(struct ext2_fs *fs, uint32_t olddir, const char *oldname, uint32_t newdir,
                const char *newname)
{
	struct ext2_inode old_in, new_in, src_in, dst_in;
	uint32_t src = 0, dst = 0;
	size_t olen, nlen;
	if (fs->read_only)
		return -EROFS;
	int rc = check_name(oldname, &olen, -EINVAL);
	if (rc == 0)
		rc = check_name(newname, &nlen, -EINVAL);
	if (rc == 0)
		rc = get_dir(fs, newdir, &new_in);
	if (rc == 0)
		rc = get_victim(fs, olddir, &old_in, oldname, olen, &src, &src_in, ANY);
	if (rc < 0)
		return (int)ext2_finish(fs, rc);
	bool src_dir = ext2_is_dir(&src_in);
	/* One directory: both names work on one inode copy. */
	struct ext2_inode *odir = olddir == newdir ? &new_in : &old_in;
	bool moving_dir = src_dir && olddir != newdir;

	rc = ext2_dir_find(fs, newdir, &new_in, newname, nlen, &dst, NULL, NULL);
	if (rc == -ENOENT) {
		dst = 0;
		rc = 0;
	} else if (rc == 0) {
		if (dst == src)
			return 0;
		rc = ext2_get_inode(fs, dst, &dst_in);
		if (rc == -ENOENT)
			rc = ext2_corrupt(fs, "directory entry names a free inode");
		if (rc == 0 && src_dir && !ext2_is_dir(&dst_in))
			rc = -ENOTDIR;
		if (rc == 0 && !src_dir && ext2_is_dir(&dst_in))
			rc = -EISDIR;
		if (rc == 0 && src_dir) {
			rc = ext2_dir_is_empty(fs, &dst_in);
			rc = rc == 1 ? 0 : rc == 0 ? -ENOTEMPTY : rc;
		}
	}
	if (rc == 0 && moving_dir)
		rc = check_not_below(fs, newdir, src);
	if (rc == 0 && moving_dir && !dst && new_in.i_links_count >= EXT2_LINK_MAX)
		rc = -EMLINK;
	if (rc < 0)
		return (int)ext2_finish(fs, rc);

	/* Link counts of the directories: the moved directory's ".." now
	 * counts for newdir; a replaced directory's ".." no longer does. */
	int new_delta = (moving_dir ? 1 : 0) - (dst && src_dir ? 1 : 0);
	new_in.i_links_count = (uint16_t)(new_in.i_links_count + new_delta);
	uint8_t ft = ext2_mode_to_ft(src_in.i_mode);
	if (dst)
		rc = ext2_dir_retarget(fs, newdir, &new_in, newname, nlen, src, ft);
	else
		rc = ext2_dir_add(fs, newdir, &new_in, newname, nlen, src, ft);
	if (rc < 0)
		return (int)ext2_finish(fs, rc);
	if (moving_dir)
		odir->i_links_count--;
	rc = ext2_dir_remove(fs, olddir, odir, oldname, olen);
	if (rc == 0 && moving_dir)
		rc = ext2_dir_retarget(fs, src, &src_in, "..", 2, newdir, EXT2_FT_DIR);
	if (rc == 0) {
		ext2_touch(&src_in, 0, true, ext2_now(fs));
		rc = ext2_write_inode(fs, src, &src_in);
	}
	if (rc == 0 && dst)
		rc = drop_link(fs, dst, &dst_in);
	return (int)ext2_finish(fs, rc);
}
