/*
 * group.c - block groups: their descriptors, and the block and inode bitmaps
 * through which blocks and inodes are allocated and freed.
 *
 * Every allocation or release changes three places that must agree: the
 * group's bitmap, the group's free count and the superblock's free count. The
 * bitmap is written first, then the descriptor, then (at the end of the
 * operation) the superblock. A bitmap that disagrees with its count, or that
 * offers a metadata block, is corruption: nothing is allocated from it.
 */
#include "ext2_disk.h"

#include <string.h>

static uint64_t group_first_block(const struct ext2_fs *fs, uint32_t g)
{
	return fs->first_data_block + (uint64_t)g * fs->blocks_per_group;
}

/* Blocks in group g (the last group may be short). */
static uint32_t group_nblocks(const struct ext2_fs *fs, uint32_t g)
{
	uint64_t left = fs->blocks_count - group_first_block(fs, g);
	return left < fs->blocks_per_group ? (uint32_t)left : fs->blocks_per_group;
}

/* The end of the superblock/descriptor area at the start of group g. */
static uint64_t group_super_end(const struct ext2_fs *fs, uint32_t g)
{
	uint64_t start = group_first_block(fs, g);
	if (g == 0 || (fs->check_backups && ext2_group_has_super(fs, g)))
		return start + 1 + fs->gdt_blocks + fs->reserved_gdt;
	return start;
}

bool ext2_group_ok(const struct ext2_fs *fs, uint32_t g, const struct ext2_group_desc *gd)
{
	uint64_t lo = group_super_end(fs, g);
	uint64_t hi = group_first_block(fs, g) + group_nblocks(fs, g);   /* exclusive */
	uint64_t bb = gd->bg_block_bitmap, ib = gd->bg_inode_bitmap, it = gd->bg_inode_table;
	uint64_t it_end = it + fs->itable_blocks;
	if (bb < lo || bb >= hi || ib < lo || ib >= hi || it < lo || it_end > hi)
		return false;
	if (bb == ib || (bb >= it && bb < it_end) || (ib >= it && ib < it_end))
		return false;
	return gd->bg_free_blocks_count <= group_nblocks(fs, g) &&
	       gd->bg_free_inodes_count <= fs->inodes_per_group &&
	       gd->bg_used_dirs_count <= fs->inodes_per_group;
}

bool ext2_data_block_ok(const struct ext2_fs *fs, uint64_t b)
{
	if (b <= fs->first_data_block || b >= fs->blocks_count)
		return false;
	uint32_t g = (uint32_t)((b - fs->first_data_block) / fs->blocks_per_group);
	return b >= group_super_end(fs, g);
}

static uint64_t gdt_block(const struct ext2_fs *fs, uint32_t g)
{
	return fs->first_data_block + 1 + g / EXT2_DESC_PER_BLOCK;
}

int ext2_read_group(struct ext2_fs *fs, uint32_t g, struct ext2_group_desc *gd)
{
	uint8_t block[EXT2_BLOCK_SIZE];
	int rc = 0;
	if (g >= fs->groups)
		return ext2_corrupt(fs, "group number out of range");
	/* A view: every inode lookup comes here, and a copy of the whole
	 * descriptor block would cost more than the rest of the lookup. */
	const uint8_t *view = ext2_bview(fs, gdt_block(fs, g), block, &rc);
	if (!view)
		return rc;
	memcpy(gd, view + (g % EXT2_DESC_PER_BLOCK) * sizeof(*gd), sizeof(*gd));
	if (!ext2_group_ok(fs, g, gd))
		return ext2_corrupt(fs, "bad group descriptor");
	return 0;
}

int ext2_write_group(struct ext2_fs *fs, uint32_t g, const struct ext2_group_desc *gd)
{
	uint8_t block[EXT2_BLOCK_SIZE];
	int rc = ext2_bread(fs, gdt_block(fs, g), block);
	if (rc < 0)
		return rc;
	memcpy(block + (g % EXT2_DESC_PER_BLOCK) * sizeof(*gd), gd, sizeof(*gd));
	return ext2_bwrite(fs, gdt_block(fs, g), block);
}

static bool bit_test(const uint8_t *map, uint32_t i)
{
	return (map[i / 8] >> (i % 8)) & 1;
}

static void bit_set(uint8_t *map, uint32_t i)
{
	map[i / 8] |= (uint8_t)(1u << (i % 8));
}

static void bit_clear(uint8_t *map, uint32_t i)
{
	map[i / 8] &= (uint8_t)~(1u << (i % 8));
}

/* The first clear bit in [start, end), or end. Full bytes are skipped. */
static uint32_t find_clear(const uint8_t *map, uint32_t start, uint32_t end)
{
	uint32_t i = start;
	while (i < end) {
		if (i % 8 == 0 && end - i >= 8 && map[i / 8] == 0xff) {
			i += 8;
			continue;
		}
		if (!bit_test(map, i))
			return i;
		i++;
	}
	return end;
}

/* True if block b (in group g with descriptor gd) is fixed metadata. */
static bool is_group_meta(const struct ext2_fs *fs, uint32_t g,
                          const struct ext2_group_desc *gd, uint64_t b)
{
	return b < group_super_end(fs, g) || b == gd->bg_block_bitmap ||
	       b == gd->bg_inode_bitmap ||
	       (b >= gd->bg_inode_table && b < (uint64_t)gd->bg_inode_table + fs->itable_blocks);
}

/* Tries to take one block of group g from bits [start, end). Returns 1 with
 * *out set, 0 if none is free there, or -errno. */
static int take_block(struct ext2_fs *fs, uint32_t g, uint32_t start, uint32_t end,
                      uint32_t *out)
{
	struct ext2_group_desc gd;
	uint8_t map[EXT2_BLOCK_SIZE];
	int rc = ext2_read_group(fs, g, &gd);
	if (rc < 0)
		return rc;
	if (gd.bg_free_blocks_count == 0 || start >= end)
		return 0;
	rc = ext2_bread(fs, gd.bg_block_bitmap, map);
	if (rc < 0)
		return rc;
	uint32_t bit = find_clear(map, start, end);
	if (bit == end) {
		if (start == 0 && end == group_nblocks(fs, g))
			return ext2_corrupt(fs, "block bitmap full but free count not zero");
		return 0;
	}
	uint64_t b = group_first_block(fs, g) + bit;
	if (is_group_meta(fs, g, &gd, b))
		return ext2_corrupt(fs, "block bitmap offers a metadata block");
	bit_set(map, bit);
	rc = ext2_bwrite(fs, gd.bg_block_bitmap, map);
	if (rc < 0)
		return rc;
	gd.bg_free_blocks_count--;
	rc = ext2_write_group(fs, g, &gd);
	if (rc < 0)
		return rc;
	struct ext2_super *sb = ext2_sb(fs);
	if (sb->s_free_blocks_count)
		sb->s_free_blocks_count--;
	fs->sb_dirty = true;
	*out = (uint32_t)b;
	return 1;
}

int ext2_alloc_block(struct ext2_fs *fs, uint32_t goal, uint32_t *out)
{
	if (fs->read_only)
		return -EROFS;
	if (goal <= fs->first_data_block || goal >= fs->blocks_count)
		goal = fs->first_data_block;
	uint32_t g0 = (goal - fs->first_data_block) / fs->blocks_per_group;
	uint32_t off = (uint32_t)(goal - group_first_block(fs, g0));
	/* The goal's group from the goal on, every other group, then the
	 * goal's group before the goal. */
	for (uint32_t i = 0; i <= fs->groups; i++) {
		uint32_t g = (g0 + i) % fs->groups;
		uint32_t start = i == 0 ? off : 0;
		uint32_t end = i == fs->groups ? off : group_nblocks(fs, g);
		int rc = take_block(fs, g, start, end, out);
		if (rc != 0)
			return rc < 0 ? rc : 0;
	}
	return -ENOSPC;
}

int ext2_free_block(struct ext2_fs *fs, uint32_t b)
{
	struct ext2_group_desc gd;
	uint8_t map[EXT2_BLOCK_SIZE];
	if (!ext2_data_block_ok(fs, b))
		return ext2_corrupt(fs, "freeing a block outside the data area");
	uint32_t g = (b - fs->first_data_block) / fs->blocks_per_group;
	uint32_t bit = (uint32_t)(b - group_first_block(fs, g));
	int rc = ext2_read_group(fs, g, &gd);
	if (rc < 0)
		return rc;
	if (is_group_meta(fs, g, &gd, b))
		return ext2_corrupt(fs, "freeing a metadata block");
	rc = ext2_bread(fs, gd.bg_block_bitmap, map);
	if (rc < 0)
		return rc;
	if (!bit_test(map, bit))
		return ext2_corrupt(fs, "freeing a free block");
	if (gd.bg_free_blocks_count >= group_nblocks(fs, g))
		return ext2_corrupt(fs, "group free block count too high");
	bit_clear(map, bit);
	rc = ext2_bwrite(fs, gd.bg_block_bitmap, map);
	if (rc < 0)
		return rc;
	gd.bg_free_blocks_count++;
	rc = ext2_write_group(fs, g, &gd);
	if (rc < 0)
		return rc;
	struct ext2_super *sb = ext2_sb(fs);
	if (sb->s_free_blocks_count < fs->blocks_count)
		sb->s_free_blocks_count++;
	fs->sb_dirty = true;
	return 0;
}

/* Where a new directory goes: a group with at least the average number of
 * free inodes, the one with the most free blocks (spreads directory trees). */
static int dir_group(struct ext2_fs *fs, uint32_t near_group, uint32_t *out)
{
	struct ext2_group_desc gd;
	uint64_t avg = ext2_sb(fs)->s_free_inodes_count / fs->groups;
	uint32_t best = near_group, best_free = 0;
	bool found = false;
	for (uint32_t i = 0; i < fs->groups; i++) {
		uint32_t g = (near_group + i) % fs->groups;
		int rc = ext2_read_group(fs, g, &gd);
		if (rc < 0)
			return rc;
		if (gd.bg_free_inodes_count == 0 || gd.bg_free_inodes_count < avg)
			continue;
		if (!found || gd.bg_free_blocks_count > best_free) {
			best = g;
			best_free = gd.bg_free_blocks_count;
			found = true;
		}
	}
	*out = best;
	return 0;
}

int ext2_alloc_inode(struct ext2_fs *fs, uint32_t near_group, bool is_dir, uint32_t *out)
{
	struct ext2_group_desc gd;
	uint8_t map[EXT2_BLOCK_SIZE];
	if (fs->read_only)
		return -EROFS;
	uint32_t start = near_group < fs->groups ? near_group : 0;
	if (is_dir) {
		int rc = dir_group(fs, start, &start);
		if (rc < 0)
			return rc;
	}
	for (uint32_t i = 0; i < fs->groups; i++) {
		uint32_t g = (start + i) % fs->groups;
		int rc = ext2_read_group(fs, g, &gd);
		if (rc < 0)
			return rc;
		if (gd.bg_free_inodes_count == 0)
			continue;
		rc = ext2_bread(fs, gd.bg_inode_bitmap, map);
		if (rc < 0)
			return rc;
		/* The reserved inodes (below first_ino) are never handed out. */
		uint64_t first = (uint64_t)g * fs->inodes_per_group + 1;
		uint32_t lo = first < fs->first_ino ? (uint32_t)(fs->first_ino - first) : 0;
		if (lo >= fs->inodes_per_group)
			continue;
		uint32_t bit = find_clear(map, lo, fs->inodes_per_group);
		if (bit == fs->inodes_per_group) {
			if (lo == 0)
				return ext2_corrupt(fs, "inode bitmap full but free count not zero");
			continue;
		}
		bit_set(map, bit);
		rc = ext2_bwrite(fs, gd.bg_inode_bitmap, map);
		if (rc < 0)
			return rc;
		gd.bg_free_inodes_count--;
		if (is_dir)
			gd.bg_used_dirs_count++;
		rc = ext2_write_group(fs, g, &gd);
		if (rc < 0)
			return rc;
		struct ext2_super *sb = ext2_sb(fs);
		if (sb->s_free_inodes_count)
			sb->s_free_inodes_count--;
		fs->sb_dirty = true;
		*out = (uint32_t)(first + bit);
		return 0;
	}
	return -ENOSPC;
}

int ext2_free_inode_bit(struct ext2_fs *fs, uint32_t ino, bool is_dir)
{
	struct ext2_group_desc gd;
	uint8_t map[EXT2_BLOCK_SIZE];
	if (ino < fs->first_ino || ino > fs->inodes_count)
		return ext2_corrupt(fs, "freeing a reserved or out-of-range inode");
	uint32_t g = (ino - 1) / fs->inodes_per_group;
	uint32_t bit = (ino - 1) % fs->inodes_per_group;
	int rc = ext2_read_group(fs, g, &gd);
	if (rc < 0)
		return rc;
	rc = ext2_bread(fs, gd.bg_inode_bitmap, map);
	if (rc < 0)
		return rc;
	if (!bit_test(map, bit))
		return ext2_corrupt(fs, "freeing a free inode");
	if (gd.bg_free_inodes_count >= fs->inodes_per_group)
		return ext2_corrupt(fs, "group free inode count too high");
	bit_clear(map, bit);
	rc = ext2_bwrite(fs, gd.bg_inode_bitmap, map);
	if (rc < 0)
		return rc;
	gd.bg_free_inodes_count++;
	if (is_dir && gd.bg_used_dirs_count)
		gd.bg_used_dirs_count--;
	rc = ext2_write_group(fs, g, &gd);
	if (rc < 0)
		return rc;
	struct ext2_super *sb = ext2_sb(fs);
	if (sb->s_free_inodes_count < fs->inodes_count)
		sb->s_free_inodes_count++;
	fs->sb_dirty = true;
	return 0;
}
