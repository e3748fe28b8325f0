/*
 * super.c - mounting: the superblock and group-descriptor checks, the
 * superblock's write-back, block I/O with range checks, and the error record.
 *
 * Everything the rest of the library assumes about the geometry is checked
 * here once: 4096-byte blocks, group counts that agree with the block and
 * inode counts, a group-descriptor table inside group 0, every group's
 * bitmaps and inode table inside its group. The free counts of the superblock
 * are recomputed from the descriptors (as Linux does).
 */
#include "ext2_disk.h"

#include <string.h>

#define EXT2_COMPAT_RESIZE_INODE 0x0010u

uint32_t ext2_now(struct ext2_fs *fs)
{
	return fs->dev.now ? fs->dev.now(fs->dev.ctx) : 0;
}

int ext2_corrupt(struct ext2_fs *fs, const char *msg)
{
	fs->error = msg;
	if (!fs->read_only && !(ext2_sb(fs)->s_state & EXT2_ERROR_FS)) {
		ext2_sb(fs)->s_state |= EXT2_ERROR_FS;
		fs->sb_dirty = true;
	}
	return -EXT2_ECORRUPT;
}

int ext2_bread(struct ext2_fs *fs, uint64_t blockno, void *buf)
{
	if (blockno >= fs->blocks_count)
		return ext2_corrupt(fs, "block number beyond the file system");
	return fs->dev.read(fs->dev.ctx, blockno, buf);
}

const void *ext2_bview(struct ext2_fs *fs, uint64_t blockno, void *buf, int *rc)
{
	if (blockno >= fs->blocks_count) {
		*rc = ext2_corrupt(fs, "block number beyond the file system");
		return NULL;
	}
	const void *view = fs->dev.peek ? fs->dev.peek(fs->dev.ctx, blockno) : NULL;
	if (view)
		return view;
	*rc = fs->dev.read(fs->dev.ctx, blockno, buf);
	return *rc < 0 ? NULL : buf;
}

int ext2_bwrite(struct ext2_fs *fs, uint64_t blockno, const void *buf)
{
	if (fs->read_only)
		return -EROFS;
	if (blockno >= fs->blocks_count)
		return ext2_corrupt(fs, "block number beyond the file system");
	return fs->dev.write(fs->dev.ctx, blockno, buf);
}

int ext2_write_super(struct ext2_fs *fs)
{
	uint8_t block[EXT2_BLOCK_SIZE];
	if (fs->read_only || !fs->sb_dirty)
		return 0;
	int rc = fs->dev.read(fs->dev.ctx, 0, block);
	if (rc < 0)
		return rc;
	ext2_sb(fs)->s_wtime = ext2_now(fs);
	memcpy(block + EXT2_SUPER_OFFSET, fs->sb, sizeof(fs->sb));
	rc = fs->dev.write(fs->dev.ctx, 0, block);
	if (rc == 0)
		fs->sb_dirty = false;
	return rc;
}

int64_t ext2_finish(struct ext2_fs *fs, int64_t result)
{
	int rc = ext2_write_super(fs);
	return (rc < 0 && result >= 0) ? rc : result;
}

/* True if x is a power of base (base^0 = 1 included). */
static bool is_power_of(uint32_t x, uint32_t base)
{
	while (x > 1 && x % base == 0)
		x /= base;
	return x == 1;
}

bool ext2_group_has_super(const struct ext2_fs *fs, uint32_t g)
{
	if (g == 0 || !fs->sparse_super)
		return true;
	return is_power_of(g, 3) || is_power_of(g, 5) || is_power_of(g, 7);
}

/* Mount-time rejection: message and code. */
static int refuse(struct ext2_fs *fs, const char *msg, int err)
{
	fs->error = msg;
	return err;
}

/* Checks the superblock in fs->sb and derives the geometry from it. */
static int check_super(struct ext2_fs *fs, bool read_only)
{
	const struct ext2_super *sb = ext2_sb(fs);

	if (sb->s_magic != EXT2_SUPER_MAGIC)
		return refuse(fs, "bad magic number: not ext2", -EINVAL);
	if (sb->s_log_block_size != 2)
		return refuse(fs, "block size is not 4096", -EINVAL);
	if (sb->s_rev_level > 1)
		return refuse(fs, "unknown revision level", -EINVAL);

	if (sb->s_rev_level == 0) {
		fs->inode_size = EXT2_GOOD_OLD_INODE_SIZE;
		fs->first_ino = EXT2_GOOD_OLD_FIRST_INO;
	} else {
		uint32_t isz = sb->s_inode_size;
		if (isz < EXT2_GOOD_OLD_INODE_SIZE || isz > EXT2_BLOCK_SIZE || (isz & (isz - 1)))
			return refuse(fs, "bad inode size", -EINVAL);
		fs->inode_size = isz;
		fs->first_ino = sb->s_first_ino;
		uint32_t incompat = sb->s_feature_incompat;
		if (incompat & ~EXT2_INCOMPAT_SUPPORTED)
			return refuse(fs, "unsupported incompatible features", -EINVAL);
		if (!read_only && (sb->s_feature_ro_compat & ~EXT2_RO_COMPAT_SUPPORTED))
			return refuse(fs, "unsupported read-only features: mount read-only",
			              -EROFS);
		fs->filetype = (incompat & EXT2_INCOMPAT_FILETYPE) != 0;
		fs->sparse_super = (sb->s_feature_ro_compat & EXT2_RO_COMPAT_SPARSE_SUPER) != 0;
	}
	fs->check_backups = !(sb->s_rev_level >= 1 &&
	                      (sb->s_feature_compat & EXT2_COMPAT_SPARSE_SUPER2));

	fs->blocks_count = sb->s_blocks_count;
	fs->inodes_count = sb->s_inodes_count;
	fs->first_data_block = sb->s_first_data_block;
	fs->blocks_per_group = sb->s_blocks_per_group;
	fs->inodes_per_group = sb->s_inodes_per_group;
	fs->inodes_per_block = EXT2_BLOCK_SIZE / fs->inode_size;

	if (fs->first_data_block != 0)
		return refuse(fs, "first data block is not 0", -EINVAL);
	if (fs->blocks_count < 8)
		return refuse(fs, "block count too small", -EINVAL);
	if (fs->dev.nblocks && fs->blocks_count > fs->dev.nblocks)
		return refuse(fs, "file system larger than the device", -EINVAL);
	if (fs->blocks_per_group < 8 || fs->blocks_per_group > 8 * EXT2_BLOCK_SIZE)
		return refuse(fs, "bad blocks per group", -EINVAL);
	if (fs->inodes_per_group < fs->inodes_per_block ||
	    fs->inodes_per_group > 8 * EXT2_BLOCK_SIZE)
		return refuse(fs, "bad inodes per group", -EINVAL);
	if (sb->s_r_blocks_count > fs->blocks_count)
		return refuse(fs, "reserved block count beyond the block count", -EINVAL);

	uint64_t data = (uint64_t)fs->blocks_count - fs->first_data_block;
	fs->groups = (uint32_t)((data + fs->blocks_per_group - 1) / fs->blocks_per_group);
	if ((uint64_t)fs->groups * fs->inodes_per_group != fs->inodes_count)
		return refuse(fs, "inode count disagrees with the groups", -EINVAL);
	if (fs->first_ino <= EXT2_ROOT_INO || fs->first_ino < EXT2_GOOD_OLD_FIRST_INO ||
	    fs->first_ino > fs->inodes_count)
		return refuse(fs, "bad first inode", -EINVAL);

	fs->itable_blocks = (uint32_t)(((uint64_t)fs->inodes_per_group * fs->inode_size +
	                                EXT2_BLOCK_SIZE - 1) / EXT2_BLOCK_SIZE);
	fs->gdt_blocks = (fs->groups + EXT2_DESC_PER_BLOCK - 1) / EXT2_DESC_PER_BLOCK;
	fs->reserved_gdt = (sb->s_rev_level >= 1 &&
	                    (sb->s_feature_compat & EXT2_COMPAT_RESIZE_INODE))
	                   ? sb->s_reserved_gdt_blocks : 0;
	/* Superblock, descriptors and reserved descriptors fit in group 0 with
	 * room for its bitmaps and inode table. */
	uint64_t meta = 1ull + fs->gdt_blocks + fs->reserved_gdt + 2 + fs->itable_blocks;
	if (meta > fs->blocks_per_group || meta > fs->blocks_count)
		return refuse(fs, "group descriptor table out of bounds", -EINVAL);
	return 0;
}

/* Reads and checks every group descriptor; recomputes the free counts. */
static int check_groups(struct ext2_fs *fs)
{
	_Alignas(8) uint8_t block[EXT2_BLOCK_SIZE];
	uint64_t free_blocks = 0, free_inodes = 0;
	for (uint32_t g = 0; g < fs->groups; g++) {
		uint32_t i = g % EXT2_DESC_PER_BLOCK;
		if (i == 0) {
			int rc = fs->dev.read(fs->dev.ctx,
			                      fs->first_data_block + 1 + g / EXT2_DESC_PER_BLOCK,
			                      block);
			if (rc < 0)
				return rc;
		}
		const struct ext2_group_desc *gd =
			(const struct ext2_group_desc *)(const void *)block + i;
		if (!ext2_group_ok(fs, g, gd))
			return refuse(fs, "bad group descriptor", -EINVAL);
		free_blocks += gd->bg_free_blocks_count;
		free_inodes += gd->bg_free_inodes_count;
	}
	struct ext2_super *sb = ext2_sb(fs);
	if (sb->s_free_blocks_count != free_blocks || sb->s_free_inodes_count != free_inodes) {
		sb->s_free_blocks_count = (uint32_t)free_blocks;
		sb->s_free_inodes_count = (uint32_t)free_inodes;
		fs->sb_dirty = true;
	}
	return 0;
}

int ext2_mount(struct ext2_fs *fs, const struct ext2_blockdev *dev, bool read_only)
{
	uint8_t block[EXT2_BLOCK_SIZE];
	memset(fs, 0, sizeof(*fs));
	if (!dev || !dev->read || (!read_only && !dev->write))
		return refuse(fs, "incomplete block device", -EINVAL);
	fs->dev = *dev;
	fs->read_only = true;          /* nothing is written until all is checked */
	int rc = fs->dev.read(fs->dev.ctx, 0, block);
	if (rc < 0)
		return refuse(fs, "cannot read the superblock", rc);
	memcpy(fs->sb, block + EXT2_SUPER_OFFSET, sizeof(fs->sb));
	rc = check_super(fs, read_only);
	if (rc == 0)
		rc = check_groups(fs);
	if (rc < 0)
		return rc;
	fs->read_only = read_only;
	if (read_only) {
		fs->sb_dirty = false;
		return 0;
	}
	/* Mounted read-write: "not clean" on disk until ext2_unmount. */
	struct ext2_super *sb = ext2_sb(fs);
	sb->s_state &= (uint16_t)~EXT2_VALID_FS;
	sb->s_mnt_count++;
	sb->s_mtime = ext2_now(fs);
	fs->sb_dirty = true;
	rc = ext2_write_super(fs);
	/* Files a crash left unlinked but open are freed now; a damaged list
	 * marks the file system for e2fsck (ext2_corrupt) but does not stop
	 * the mount. */
	if (rc == 0 && ext2_orphans_recover(fs) == -EIO)
		rc = -EIO;
	return rc;
}

int ext2_unmount(struct ext2_fs *fs)
{
	if (fs->read_only)
		return 0;
	ext2_sb(fs)->s_state |= EXT2_VALID_FS;
	fs->sb_dirty = true;
	return ext2_write_super(fs);
}

void ext2_get_statfs(const struct ext2_fs *fs, struct ext2_statfs *out)
{
	const struct ext2_super *sb = ext2_sb_const(fs);
	out->blocks = fs->blocks_count;
	out->free_blocks = sb->s_free_blocks_count;
	out->reserved_blocks = sb->s_r_blocks_count;
	out->inodes = fs->inodes_count;
	out->free_inodes = sb->s_free_inodes_count;
	out->block_size = EXT2_BLOCK_SIZE;
	out->name_max = EXT2_NAME_MAX;
}
