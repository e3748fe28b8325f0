/*
 * inode.c - inodes: reading and writing them in the inode tables, creating
 * and releasing them, and the stat / set-attribute operations.
 *
 * An inode is read into struct ext2_inode (the 128 bytes of revision 0 and
 * the extra fields of large inodes). Only the bytes the inode declares
 * (128 + i_extra_isize) are interpreted and written back, so in-inode
 * extended attributes after them survive untouched.
 */
#include "ext2_disk.h"

#include <string.h>

/* The inode-table block and byte offset of inode ino. */
static int locate(struct ext2_fs *fs, uint32_t ino, uint64_t *block, uint32_t *offset)
{
	struct ext2_group_desc gd;
	if (ino == 0 || ino > fs->inodes_count)
		return -EINVAL;
	uint32_t g = (ino - 1) / fs->inodes_per_group;
	uint32_t index = (ino - 1) % fs->inodes_per_group;
	int rc = ext2_read_group(fs, g, &gd);
	if (rc < 0)
		return rc;
	*block = (uint64_t)gd.bg_inode_table + index / fs->inodes_per_block;
	*offset = (index % fs->inodes_per_block) * fs->inode_size;
	return 0;
}

/* The bytes of the on-disk inode that struct ext2_inode covers for *in. */
static uint32_t known_bytes(const struct ext2_fs *fs, const struct ext2_inode *in)
{
	if (fs->inode_size == EXT2_GOOD_OLD_INODE_SIZE)
		return EXT2_GOOD_OLD_INODE_SIZE;
	uint32_t extra = in->i_extra_isize;
	if (extra > fs->inode_size - EXT2_GOOD_OLD_INODE_SIZE)
		extra = 0;   /* invalid: fsck's business; use the base inode only */
	if (extra > EXT2_INODE_EXTRA_MAX)
		extra = EXT2_INODE_EXTRA_MAX;
	return EXT2_GOOD_OLD_INODE_SIZE + extra;
}

_Static_assert(sizeof(struct ext2_inode) == sizeof(((struct ext2_fs *)0)->cached_inode),
               "ext2_fs.cached_inode holds one struct ext2_inode");

int ext2_read_inode(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in)
{
	if (ino != 0 && ino == fs->cached_ino) {
		memcpy(in, fs->cached_inode, sizeof(*in));
		return 0;
	}
	uint8_t block[EXT2_BLOCK_SIZE];
	uint64_t b;
	uint32_t off;
	int rc = locate(fs, ino, &b, &off);
	const uint8_t *view = rc == 0 ? ext2_bview(fs, b, block, &rc) : NULL;
	if (!view)
		return rc;
	uint32_t n = fs->inode_size < sizeof(*in) ? fs->inode_size : (uint32_t)sizeof(*in);
	memset(in, 0, sizeof(*in));
	memcpy(in, view + off, n);
	/* Fields past the declared extra size are not inode fields. */
	n = known_bytes(fs, in);
	memset((uint8_t *)in + n, 0, sizeof(*in) - n);
	fs->cached_ino = ino;
	memcpy(fs->cached_inode, in, sizeof(*in));
	return 0;
}

/* Writes *in; with whole, the rest of the on-disk inode is zeroed. */
static int put_inode(struct ext2_fs *fs, uint32_t ino, const struct ext2_inode *in, bool whole)
{
	uint8_t block[EXT2_BLOCK_SIZE];
	uint64_t b;
	uint32_t off;
	int rc = locate(fs, ino, &b, &off);
	if (rc == 0)
		rc = ext2_bread(fs, b, block);
	if (rc < 0)
		return rc;
	if (whole)
		memset(block + off, 0, fs->inode_size);
	uint32_t n = known_bytes(fs, in);
	memcpy(block + off, in, n);
	/* The cached copy is what a read would now return, or forgotten. */
	fs->cached_ino = 0;
	rc = ext2_bwrite(fs, b, block);
	if (rc == 0 && (whole || n == sizeof(*in))) {
		memcpy(fs->cached_inode, in, n);
		memset(fs->cached_inode + n, 0, sizeof(*in) - n);
		fs->cached_ino = ino;
	}
	return rc;
}

int ext2_write_inode(struct ext2_fs *fs, uint32_t ino, const struct ext2_inode *in)
{
	return put_inode(fs, ino, in, false);
}

int ext2_get_inode(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in)
{
	int rc = ext2_read_inode(fs, ino, in);
	if (rc < 0)
		return rc;
	if (in->i_mode == 0)
		return -ENOENT;
	if (in->i_links_count == 0 &&
	    !(ext2_is_reg(in) && ext2_orphan_dtime(fs, in) && fs->keep && fs->keep(fs, ino)))
		return -ENOENT;   /* free, unless an orphan still open */
	return 0;
}

uint64_t ext2_inode_size(const struct ext2_inode *in)
{
	if (ext2_is_reg(in))
		return (uint64_t)in->i_size_high << 32 | in->i_size;
	return in->i_size;
}

void ext2_set_inode_size(struct ext2_fs *fs, struct ext2_inode *in, uint64_t size)
{
	in->i_size = (uint32_t)size;
	if (!ext2_is_reg(in))
		return;
	in->i_size_high = (uint32_t)(size >> 32);
	struct ext2_super *sb = ext2_sb(fs);
	/* A file of 2 GiB or more needs the large_file feature (revision 1). */
	if (size >= 0x80000000ull && sb->s_rev_level >= 1 &&
	    !(sb->s_feature_ro_compat & EXT2_RO_COMPAT_LARGE_FILE)) {
		sb->s_feature_ro_compat |= EXT2_RO_COMPAT_LARGE_FILE;
		fs->sb_dirty = true;
	}
}

/* The *_extra word of a time: nanoseconds above two epoch bits, which
 * hold what a time past 2^31-1 adds to the signed 32-bit seconds. */
static uint32_t time_extra(uint32_t sec, uint32_t nsec)
{
	return (nsec << 2) | (sec >= 0x80000000u ? 1u : 0u);
}

/* A time's seconds and nanoseconds back from its two words (extra 0 when
 * the inode has no such word): a time before 1970 reads as 0. */
static void time_decode(uint32_t sec, uint32_t extra, uint32_t *out_sec, uint32_t *out_nsec)
{
	int64_t t = (int64_t)(int32_t)sec + ((int64_t)(extra & 3u) << 32);
	*out_sec = t < 0 ? 0 : t > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)t;
	*out_nsec = extra >> 2 < 1000000000u ? extra >> 2 : 0;
}

void ext2_touch(struct ext2_inode *in, unsigned which, bool with_ctime, uint32_t t)
{
	/* The *_extra fields exist only as far as i_extra_isize reaches. */
	uint32_t extra = in->i_extra_isize;
	if (which & EXT2_ATTR_ATIME) {
		in->i_atime = t;
		if (extra >= 16)
			in->i_atime_extra = time_extra(t, 0);
	}
	if (which & EXT2_ATTR_MTIME) {
		in->i_mtime = t;
		if (extra >= 12)
			in->i_mtime_extra = time_extra(t, 0);
	}
	if (with_ctime) {
		in->i_ctime = t;
		if (extra >= 8)
			in->i_ctime_extra = time_extra(t, 0);
	}
}

uint8_t ext2_mode_to_ft(uint32_t mode)
{
	switch (mode & EXT2_S_IFMT) {
	case EXT2_S_IFREG: return EXT2_FT_REG_FILE;
	case EXT2_S_IFDIR: return EXT2_FT_DIR;
	case EXT2_S_IFCHR: return EXT2_FT_CHRDEV;
	case EXT2_S_IFBLK: return EXT2_FT_BLKDEV;
	case EXT2_S_IFIFO: return EXT2_FT_FIFO;
	case EXT2_S_IFSOCK: return EXT2_FT_SOCK;
	case EXT2_S_IFLNK: return EXT2_FT_SYMLINK;
	default: return EXT2_FT_UNKNOWN;
	}
}

bool ext2_is_fast_symlink(const struct ext2_inode *in)
{
	uint32_t ea = in->i_file_acl ? EXT2_SECTORS_PER_BLOCK : 0;
	return ext2_is_symlink(in) && in->i_blocks == ea;
}

int ext2_new_inode(struct ext2_fs *fs, uint32_t parent, uint32_t mode, uint32_t uid,
                   uint32_t gid, uint32_t *ino, struct ext2_inode *in)
{
	uint32_t near = parent ? (parent - 1) / fs->inodes_per_group : 0;
	bool is_dir = (mode & EXT2_S_IFMT) == EXT2_S_IFDIR;
	int rc = ext2_alloc_inode(fs, near, is_dir, ino);
	if (rc < 0)
		return rc;
	uint32_t t = ext2_now(fs);
	memset(in, 0, sizeof(*in));
	in->i_mode = (uint16_t)mode;
	in->i_uid = (uint16_t)uid;
	in->i_uid_high = (uint16_t)(uid >> 16);
	in->i_gid = (uint16_t)gid;
	in->i_gid_high = (uint16_t)(gid >> 16);
	in->i_links_count = 1;
	in->i_generation = t ^ (*ino * 2654435761u);
	if (fs->inode_size > EXT2_GOOD_OLD_INODE_SIZE) {
		uint32_t room = fs->inode_size - EXT2_GOOD_OLD_INODE_SIZE;
		in->i_extra_isize = (uint16_t)(room < EXT2_INODE_EXTRA_MAX ? room
		                                                          : EXT2_INODE_EXTRA_MAX);
		if (in->i_extra_isize >= 24)
			in->i_crtime = t;
	}
	ext2_touch(in, EXT2_ATTR_ATIME | EXT2_ATTR_MTIME, true, t);
	rc = put_inode(fs, *ino, in, true);
	if (rc < 0)
		ext2_free_inode_bit(fs, *ino, is_dir);
	return rc;
}

/* Drops the inode's reference to its extended-attribute block. */
static int release_xattr(struct ext2_fs *fs, struct ext2_inode *in)
{
	uint32_t block[EXT2_BLOCK_SIZE / 4];
	uint32_t b = in->i_file_acl;
	if (b == 0)
		return 0;
	if (!ext2_data_block_ok(fs, b))
		return ext2_corrupt(fs, "extended-attribute block out of range");
	int rc = ext2_bread(fs, b, block);
	if (rc < 0)
		return rc;
	if (block[0] != EXT2_XATTR_MAGIC || block[1] == 0)
		return ext2_corrupt(fs, "bad extended-attribute block");
	if (block[1] > 1) {
		block[1]--;
		rc = ext2_bwrite(fs, b, block);
	} else {
		rc = ext2_free_block(fs, b);
	}
	if (rc < 0)
		return rc;
	in->i_file_acl = 0;
	in->i_blocks = in->i_blocks >= EXT2_SECTORS_PER_BLOCK
	               ? in->i_blocks - EXT2_SECTORS_PER_BLOCK : 0;
	return 0;
}

int ext2_evict_inode(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in)
{
	int rc = 0;
	bool mapped = ext2_is_reg(in) || ext2_is_dir(in) ||
	              (ext2_is_symlink(in) && !ext2_is_fast_symlink(in));
	if (mapped)
		rc = ext2_free_blocks_from(fs, in, 0);
	if (rc == 0)
		rc = release_xattr(fs, in);
	in->i_links_count = 0;
	in->i_dtime = ext2_now(fs);
	if (rc == 0)
		ext2_set_inode_size(fs, in, 0);
	int wrc = ext2_write_inode(fs, ino, in);
	if (rc < 0)
		return rc;   /* blocks may remain: the inode stays allocated */
	if (wrc < 0)
		return wrc;
	return ext2_free_inode_bit(fs, ino, ext2_is_dir(in));
}

int ext2_release(struct ext2_fs *fs, uint32_t ino)
{
	struct ext2_inode in;
	if (fs->read_only)
		return 0;
	int rc = ext2_read_inode(fs, ino, &in);
	if (rc < 0)
		return (int)ext2_finish(fs, rc);
	if (in.i_mode == 0 || in.i_links_count != 0 || !ext2_orphan_dtime(fs, &in) ||
	    !ext2_is_reg(&in))
		return 0;   /* linked again never happens; freed already, or not a file */
	rc = ext2_orphan_remove(fs, ino, &in);
	if (rc == 0)
		rc = ext2_evict_inode(fs, ino, &in);
	return (int)ext2_finish(fs, rc);
}

int ext2_stat(struct ext2_fs *fs, uint32_t ino, struct ext2_stat *st)
{
	struct ext2_inode in;
	int rc = ext2_get_inode(fs, ino, &in);
	if (rc < 0)
		return (int)ext2_finish(fs, rc);
	memset(st, 0, sizeof(*st));
	st->ino = ino;
	st->mode = in.i_mode;
	st->links = in.i_links_count;
	st->uid = (uint32_t)in.i_uid_high << 16 | in.i_uid;
	st->gid = (uint32_t)in.i_gid_high << 16 | in.i_gid;
	st->size = ext2_inode_size(&in);
	st->blocks = in.i_blocks;
	uint32_t extra = in.i_extra_isize;   /* 0 in 128-byte inodes (read as zeros) */
	time_decode(in.i_atime, extra >= 16 ? in.i_atime_extra : 0, &st->atime, &st->atime_nsec);
	time_decode(in.i_mtime, extra >= 12 ? in.i_mtime_extra : 0, &st->mtime, &st->mtime_nsec);
	time_decode(in.i_ctime, extra >= 8 ? in.i_ctime_extra : 0, &st->ctime, &st->ctime_nsec);
	st->flags = in.i_flags;
	return 0;
}

int ext2_set_attr(struct ext2_fs *fs, uint32_t ino, unsigned mask, const struct ext2_stat *st)
{
	struct ext2_inode in;
	if (fs->read_only)
		return -EROFS;
	int rc = ext2_get_inode(fs, ino, &in);
	if (rc < 0)
		return (int)ext2_finish(fs, rc);
	if (mask & EXT2_ATTR_MODE)
		in.i_mode = (uint16_t)((in.i_mode & EXT2_S_IFMT) | (st->mode & 07777));
	if (mask & EXT2_ATTR_UID) {
		in.i_uid = (uint16_t)st->uid;
		in.i_uid_high = (uint16_t)(st->uid >> 16);
	}
	if (mask & EXT2_ATTR_GID) {
		in.i_gid = (uint16_t)st->gid;
		in.i_gid_high = (uint16_t)(st->gid >> 16);
	}
	if (((mask & EXT2_ATTR_ATIME) && st->atime_nsec >= 1000000000u) ||
	    ((mask & EXT2_ATTR_MTIME) && st->mtime_nsec >= 1000000000u))
		return (int)ext2_finish(fs, -EINVAL);
	if (mask & EXT2_ATTR_ATIME) {
		ext2_touch(&in, EXT2_ATTR_ATIME, false, st->atime);
		if (in.i_extra_isize >= 16)
			in.i_atime_extra = time_extra(st->atime, st->atime_nsec);
	}
	if (mask & EXT2_ATTR_MTIME) {
		ext2_touch(&in, EXT2_ATTR_MTIME, false, st->mtime);
		if (in.i_extra_isize >= 12)
			in.i_mtime_extra = time_extra(st->mtime, st->mtime_nsec);
	}
	ext2_touch(&in, 0, true, ext2_now(fs));
	rc = ext2_write_inode(fs, ino, &in);
	return (int)ext2_finish(fs, rc);
}
