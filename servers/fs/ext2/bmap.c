/*
 * bmap.c - the block map of an inode: twelve direct blocks, then single,
 * double and triple indirect blocks of 1024 block numbers each.
 *
 * Every block number read from an inode or an indirect block is checked
 * before it is followed: inside the data area, and not one of the indirect
 * blocks above it on the same path (a loop). Allocation of a missing branch
 * takes all its blocks first and links them only when all were found, so
 * -ENOSPC changes nothing. Truncation walks the same trees bottom-up and
 * frees indirect blocks that no longer map anything.
 */
#include "ext2_disk.h"

#include <string.h>

#define PER EXT2_ADDR_PER_BLOCK
#define MAX_DEPTH 3u

/* The path to file block fblock: the i_block slot, the depth (number of
 * indirect blocks on the way) and the index in each. -EFBIG if too far. */
static int block_path(uint64_t fblock, unsigned *slot, unsigned *depth, uint32_t idx[MAX_DEPTH])
{
	if (fblock < EXT2_NDIR_BLOCKS) {
		*slot = (unsigned)fblock;
		*depth = 0;
		return 0;
	}
	uint64_t r = fblock - EXT2_NDIR_BLOCKS;
	uint64_t span = PER;
	for (unsigned d = 1; d <= MAX_DEPTH; d++) {
		if (r < span) {
			*slot = EXT2_IND_BLOCK + d - 1;
			*depth = d;
			for (unsigned l = d; l-- > 0;) {
				idx[l] = (uint32_t)(r % PER);
				r /= PER;
			}
			return 0;
		}
		r -= span;
		span *= PER;
	}
	return -EFBIG;
}

/* A block number found on a path: range and loop check. */
static int check_link(struct ext2_fs *fs, uint32_t b, const uint32_t *above, unsigned nabove)
{
	if (!ext2_data_block_ok(fs, b))
		return ext2_corrupt(fs, "block number out of range in a block map");
	for (unsigned i = 0; i < nabove; i++)
		if (above[i] == b)
			return ext2_corrupt(fs, "indirect block loop");
	return 0;
}

/* Allocates n blocks near goal into out[]; all or none. */
static int alloc_n(struct ext2_fs *fs, uint32_t goal, unsigned n, uint32_t *out)
{
	for (unsigned i = 0; i < n; i++) {
		int rc = ext2_alloc_block(fs, i ? out[i - 1] + 1 : goal, &out[i]);
		if (rc < 0) {
			while (i-- > 0)
				ext2_free_block(fs, out[i]);
			return rc;
		}
	}
	return 0;
}

/* Where to look for a new block of inode ino: after the previous block on the
 * path, else at the start of the inode's group. */
static uint32_t goal_for(const struct ext2_fs *fs, uint32_t ino, uint32_t near)
{
	if (near)
		return near + 1;
	uint32_t g = ino ? (ino - 1) / fs->inodes_per_group : 0;
	return fs->first_data_block + g * fs->blocks_per_group;
}

int ext2_bmap(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in, uint64_t fblock,
              bool alloc, uint32_t *out, bool *fresh)
{
	uint32_t buf[PER];
	uint32_t idx[MAX_DEPTH], path[MAX_DEPTH + 1];
	unsigned slot, depth;
	*out = 0;
	if (fresh)
		*fresh = false;
	int rc = block_path(fblock, &slot, &depth, idx);
	if (rc < 0)
		return alloc ? rc : 0;   /* past the map: a hole when reading */

	/* Walk down as far as the map goes; path[l] is the block at level l
	 * (level 0 is the i_block slot's block). */
	uint32_t b = in->i_block[slot];
	unsigned level = 0;
	uint32_t near = slot > 0 && slot <= EXT2_NDIR_BLOCKS ? in->i_block[slot - 1] : 0;
	while (b) {
		rc = check_link(fs, b, path, level);
		if (rc < 0)
			return rc;
		path[level] = b;
		if (level == depth) {
			*out = b;
			return 0;
		}
		/* A lookup only reads the map: a view of the block is enough.
		 * An allocation needs the copy in buf, which it changes below. */
		const uint32_t *map = alloc ? NULL : ext2_bview(fs, b, buf, &rc);
		if (alloc && (rc = ext2_bread(fs, b, buf)) == 0)
			map = buf;
		if (!map)
			return rc;
		near = (idx[level] > 0 && map[idx[level] - 1]) ? map[idx[level] - 1] : b;
		b = map[idx[level]];
		level++;
	}
	if (!alloc)
		return 0;
	if (fs->read_only)
		return -EROFS;

	/* Blocks for levels level..depth: indirect blocks, then the data block. */
	uint32_t fresh_blocks[MAX_DEPTH + 1];
	unsigned n = depth - level + 1;
	rc = alloc_n(fs, goal_for(fs, ino, near), n, fresh_blocks);
	if (rc < 0)
		return rc;
	/* New indirect blocks, deepest first, each holding one link. */
	for (unsigned i = n - 1; i-- > 0;) {
		uint32_t tmp[PER];
		memset(tmp, 0, sizeof(tmp));
		tmp[idx[level + i]] = fresh_blocks[i + 1];
		rc = ext2_bwrite(fs, fresh_blocks[i], tmp);
		if (rc < 0)
			goto undo;
	}
	/* Link the branch into the existing map. */
	if (level == 0) {
		in->i_block[slot] = fresh_blocks[0];
	} else {
		buf[idx[level - 1]] = fresh_blocks[0];
		rc = ext2_bwrite(fs, path[level - 1], buf);
		if (rc < 0)
			goto undo;
	}
	in->i_blocks += n * EXT2_SECTORS_PER_BLOCK;
	*out = fresh_blocks[n - 1];
	if (fresh)
		*fresh = true;
	return 0;
undo:
	for (unsigned i = 0; i < n; i++)
		ext2_free_block(fs, fresh_blocks[i]);
	return rc;
}

int ext2_bmap_run(struct ext2_fs *fs, const struct ext2_inode *in, uint64_t fblock,
                  uint32_t count, uint32_t *out)
{
	uint32_t buf[PER];
	uint32_t i = 0;
	while (i < count) {
		uint32_t idx[MAX_DEPTH], path[MAX_DEPTH + 1];
		unsigned slot, depth;
		if (block_path(fblock + i, &slot, &depth, idx) < 0) {
			memset(out + i, 0, (count - i) * sizeof(*out));   /* past the map: holes */
			return 0;
		}
		int rc = 0;
		if (depth == 0) {
			/* Direct blocks, straight from the inode. */
			for (; slot < EXT2_NDIR_BLOCKS && i < count; slot++, i++) {
				uint32_t b = in->i_block[slot];
				if (b && (rc = check_link(fs, b, path, 0)) < 0)
					return rc;
				out[i] = b;
			}
			continue;
		}
		/* Down to the last indirect block on the path: it holds the
		 * entries of this run up to its end. */
		uint32_t b = in->i_block[slot];
		const uint32_t *map = NULL;
		for (unsigned level = 0; b; level++) {
			if ((rc = check_link(fs, b, path, level)) < 0)
				return rc;
			path[level] = b;
			if (!(map = ext2_bview(fs, b, buf, &rc)))
				return rc;
			if (level == depth - 1)
				break;
			b = map[idx[level]];
		}
		uint32_t n = PER - idx[depth - 1];
		if (n > count - i)
			n = count - i;
		if (!b) {
			/* A missing branch: at least the rest of this last level. */
			memset(out + i, 0, n * sizeof(*out));
			i += n;
			continue;
		}
		/* No cache call from here on: the view stays valid. */
		for (uint32_t k = 0; k < n; k++, i++) {
			uint32_t d = map[idx[depth - 1] + k];
			if (d && (rc = check_link(fs, d, path, depth)) < 0)
				return rc;
			out[i] = d;
		}
	}
	return 0;
}

struct trunc {
	struct ext2_fs *fs;
	uint32_t freed;            /* blocks given back */
	uint32_t above[MAX_DEPTH]; /* indirect blocks on the current path */
};

static int free_one(struct trunc *t, uint32_t b)
{
	int rc = ext2_free_block(t->fs, b);
	if (rc == 0)
		t->freed++;
	return rc;
}

/* Frees the data block in *slot (checked against the path above it). */
static int trunc_data(struct trunc *t, uint32_t *slot, unsigned level)
{
	int rc = check_link(t->fs, *slot, t->above, level);
	if (rc == 0)
		rc = free_one(t, *slot);
	if (rc == 0)
		*slot = 0;
	return rc;
}

/* Frees what the subtree in *slot maps at or after position from (in
 * blocks, relative to the subtree). depth is the number of indirect levels
 * of the subtree (0: *slot is a data block); level is how many indirect
 * blocks are above it. *slot becomes 0 if nothing is left in it. */
static int trunc_tree(struct trunc *t, uint32_t *slot, unsigned depth, unsigned level,
                      uint64_t from)
{
	uint32_t buf[PER];
	uint32_t b = *slot;
	if (b == 0 || (depth == 0 && from > 0))
		return 0;
	if (depth == 0)
		return trunc_data(t, slot, level);
	int rc = check_link(t->fs, b, t->above, level);
	if (rc < 0)
		return rc;
	rc = ext2_bread(t->fs, b, buf);
	if (rc < 0)
		return rc;
	t->above[level] = b;
	uint64_t span = 1;
	for (unsigned d = 1; d < depth; d++)
		span *= PER;
	bool changed = false;
	for (uint64_t i = from / span; i < PER && rc == 0; i++) {
		if (buf[i] == 0)
			continue;
		uint32_t before = buf[i];
		uint64_t sub = i == from / span ? from % span : 0;
		if (depth == 1)
			rc = trunc_data(t, &buf[i], level + 1);   /* no buffer needed */
		else
			rc = trunc_tree(t, &buf[i], depth - 1, level + 1, sub);
		changed |= buf[i] != before;
	}
	bool empty = true;
	for (uint32_t i = 0; i < PER && empty; i++)
		empty = buf[i] == 0;
	if (rc == 0 && empty) {
		rc = free_one(t, b);
		if (rc == 0)
			*slot = 0;
		return rc;
	}
	if (changed) {
		int wrc = ext2_bwrite(t->fs, b, buf);
		if (rc == 0)
			rc = wrc;
	}
	return rc;
}

int ext2_free_blocks_from(struct ext2_fs *fs, struct ext2_inode *in, uint64_t from)
{
	struct trunc t = { .fs = fs };
	int rc = 0;
	for (unsigned i = 0; i < EXT2_NDIR_BLOCKS && rc == 0; i++)
		if (i >= from && in->i_block[i])
			rc = trunc_data(&t, &in->i_block[i], 0);
	uint64_t start = EXT2_NDIR_BLOCKS, span = PER;
	for (unsigned d = 1; d <= MAX_DEPTH && rc == 0; d++) {
		if (from < start + span)
			rc = trunc_tree(&t, &in->i_block[EXT2_IND_BLOCK + d - 1], d, 0,
			                from > start ? from - start : 0);
		start += span;
		span *= PER;
	}
	uint64_t sectors = (uint64_t)t.freed * EXT2_SECTORS_PER_BLOCK;
	in->i_blocks = in->i_blocks >= sectors ? (uint32_t)(in->i_blocks - sectors) : 0;
	return rc;
}
