/*
 * file.c - file data: read, write, truncate, the file-block map for the
 * On-Memory File step (with growing a file over data already in place and
 * trimming blocks allocated past its end), and reading symbolic links.
 *
 * Invariant kept for holes and growth: the bytes of the last block past the
 * end of the file are zero whenever the file grows over them (the tail is
 * cleared on shrink and again before growth), so a later extension never
 * shows old data.
 */
#include "ext2_disk.h"

#include <string.h>

/* The largest file: with 4 KiB blocks the triple-indirect map reaches
 * further, but i_blocks (32 bits of 512-byte units, metadata included) must
 * stay representable, as Linux's ext2 computes it. */
#define EXT2_MAX_FILE_SIZE 0x1ff00000000ull
/* The most one call moves (as Linux caps read and write). */
#define EXT2_MAX_IO        0x7ffff000ull

/* A revision-0 file system has no room for sizes of 2 GiB or more. */
static uint64_t max_size(const struct ext2_fs *fs)
{
	return ext2_sb_const(fs)->s_rev_level == 0 ? 0x7fffffffull : EXT2_MAX_FILE_SIZE;
}

/* Zeroes the bytes of the block holding offset size, from size on. */
static int zero_tail(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in, uint64_t size)
{
	uint8_t block[EXT2_BLOCK_SIZE];
	uint32_t b;
	uint32_t in_block = (uint32_t)(size % EXT2_BLOCK_SIZE);
	if (in_block == 0)
		return 0;
	int rc = ext2_bmap(fs, ino, in, size / EXT2_BLOCK_SIZE, false, &b, NULL);
	if (rc < 0 || b == 0)
		return rc;
	rc = ext2_bread(fs, b, block);
	if (rc < 0)
		return rc;
	memset(block + in_block, 0, EXT2_BLOCK_SIZE - in_block);
	return ext2_bwrite(fs, b, block);
}

static int64_t read_data(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in, uint64_t off,
                         uint8_t *dst, uint64_t len)
{
	uint8_t block[EXT2_BLOCK_SIZE];
	uint64_t done = 0;
	while (done < len) {
		uint64_t pos = off + done;
		uint32_t boff = (uint32_t)(pos % EXT2_BLOCK_SIZE);
		uint64_t chunk = EXT2_BLOCK_SIZE - boff;
		if (chunk > len - done)
			chunk = len - done;
		uint32_t b;
		int rc = ext2_bmap(fs, ino, in, pos / EXT2_BLOCK_SIZE, false, &b, NULL);
		if (rc == 0 && b == 0)
			memset(dst + done, 0, chunk);
		else if (rc == 0 && chunk == EXT2_BLOCK_SIZE)
			rc = ext2_bread(fs, b, dst + done);
		else if (rc == 0 && (rc = ext2_bread(fs, b, block)) == 0)
			memcpy(dst + done, block + boff, chunk);
		if (rc < 0)
			return done ? (int64_t)done : rc;
		done += chunk;
	}
	return (int64_t)done;
}

int64_t ext2_read(struct ext2_fs *fs, uint32_t ino, uint64_t off, void *buf, size_t len)
{
	struct ext2_inode in;
	int rc = ext2_get_inode(fs, ino, &in);
	if (rc == 0 && !ext2_is_reg(&in) && !ext2_is_dir(&in) && !ext2_is_symlink(&in))
		rc = -EINVAL;
	if (rc < 0)
		return ext2_finish(fs, rc);
	uint64_t size = ext2_inode_size(&in);
	if (off >= size || len == 0)
		return 0;
	uint64_t n = size - off;
	if (n > len)
		n = len;
	if (n > EXT2_MAX_IO)
		n = EXT2_MAX_IO;
	if (ext2_is_fast_symlink(&in)) {
		if (size >= sizeof(in.i_block))
			return ext2_finish(fs, ext2_corrupt(fs, "fast symlink too long"));
		memcpy(buf, (const uint8_t *)in.i_block + off, n);
		return (int64_t)n;
	}
	return ext2_finish(fs, read_data(fs, ino, &in, off, buf, n));
}

/* Checks that ino is a regular file and reads it. */
static int get_regular(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in)
{
	int rc = ext2_get_inode(fs, ino, in);
	if (rc < 0)
		return rc;
	if (ext2_is_dir(in))
		return -EISDIR;
	return ext2_is_reg(in) ? 0 : -EINVAL;
}

int64_t ext2_write(struct ext2_fs *fs, uint32_t ino, uint64_t off, const void *buf, size_t len)
{
	uint8_t block[EXT2_BLOCK_SIZE];
	struct ext2_inode in;
	const uint8_t *src = buf;
	if (fs->read_only)
		return -EROFS;
	int rc = get_regular(fs, ino, &in);
	if (rc < 0)
		return ext2_finish(fs, rc);
	if (len == 0)
		return 0;
	uint64_t max = max_size(fs);
	if (off >= max)
		return -EFBIG;
	uint64_t n = len;
	if (n > max - off)
		n = max - off;
	if (n > EXT2_MAX_IO)
		n = EXT2_MAX_IO;
	uint64_t old = ext2_inode_size(&in);
	if (off > old)
		rc = zero_tail(fs, ino, &in, old);
	uint64_t done = 0;
	while (rc == 0 && done < n) {
		uint64_t pos = off + done;
		uint32_t boff = (uint32_t)(pos % EXT2_BLOCK_SIZE);
		uint64_t chunk = EXT2_BLOCK_SIZE - boff;
		if (chunk > n - done)
			chunk = n - done;
		uint32_t b;
		bool fresh;
		rc = ext2_bmap(fs, ino, &in, pos / EXT2_BLOCK_SIZE, true, &b, &fresh);
		if (rc < 0)
			break;
		if (chunk == EXT2_BLOCK_SIZE) {
			rc = ext2_bwrite(fs, b, src + done);
		} else {
			if (fresh)
				memset(block, 0, sizeof(block));
			else
				rc = ext2_bread(fs, b, block);
			if (rc == 0) {
				memcpy(block + boff, src + done, chunk);
				rc = ext2_bwrite(fs, b, block);
			}
		}
		if (rc == 0)
			done += chunk;
	}
	if (off + done > old)
		ext2_set_inode_size(fs, &in, off + done);
	if (done)
		ext2_touch(&in, EXT2_ATTR_MTIME, true, ext2_now(fs));
	int wrc = ext2_write_inode(fs, ino, &in);
	if (wrc < 0 && rc == 0)
		rc = wrc;
	return ext2_finish(fs, done ? (int64_t)done : rc);
}

int ext2_truncate(struct ext2_fs *fs, uint32_t ino, uint64_t size)
{
	struct ext2_inode in;
	if (fs->read_only)
		return -EROFS;
	int rc = get_regular(fs, ino, &in);
	if (rc == 0 && size > max_size(fs))
		rc = -EFBIG;
	if (rc < 0)
		return (int)ext2_finish(fs, rc);
	uint64_t old = ext2_inode_size(&in);
	if (size < old) {
		rc = ext2_free_blocks_from(fs, &in,
		                           (size + EXT2_BLOCK_SIZE - 1) / EXT2_BLOCK_SIZE);
		if (rc == 0)
			rc = zero_tail(fs, ino, &in, size);
	} else if (size > old) {
		rc = zero_tail(fs, ino, &in, old);
	}
	if (size != old) {
		ext2_set_inode_size(fs, &in, size);
		ext2_touch(&in, EXT2_ATTR_MTIME, true, ext2_now(fs));
	}
	int wrc = ext2_write_inode(fs, ino, &in);
	return (int)ext2_finish(fs, rc < 0 ? rc : wrc);
}

int ext2_file_block(struct ext2_fs *fs, uint32_t ino, uint64_t fileblock, bool alloc,
                    uint64_t *diskblock)
{
	uint8_t zero[EXT2_BLOCK_SIZE];
	struct ext2_inode in;
	uint32_t b = 0;
	bool fresh = false;
	*diskblock = 0;
	if (alloc && fs->read_only)
		return -EROFS;
	int rc = alloc ? get_regular(fs, ino, &in) : ext2_get_inode(fs, ino, &in);
	if (rc == 0 && !alloc && !ext2_is_reg(&in) && !ext2_is_dir(&in))
		rc = -EINVAL;
	if (rc == 0)
		rc = ext2_bmap(fs, ino, &in, fileblock, alloc, &b, &fresh);
	if (rc == 0 && fresh) {
		memset(zero, 0, sizeof(zero));
		rc = ext2_bwrite(fs, b, zero);
		int wrc = ext2_write_inode(fs, ino, &in);
		if (rc == 0)
			rc = wrc;
	}
	if (rc == 0)
		*diskblock = b;
	return (int)ext2_finish(fs, rc);
}

int ext2_file_blocks(struct ext2_fs *fs, uint32_t ino, uint64_t fileblock, uint32_t count,
                     uint32_t *out)
{
	struct ext2_inode in;
	int rc = ext2_get_inode(fs, ino, &in);
	if (rc == 0 && !ext2_is_reg(&in) && !ext2_is_dir(&in))
		rc = -EINVAL;
	if (rc == 0)
		rc = ext2_bmap_run(fs, &in, fileblock, count, out);
	return (int)ext2_finish(fs, rc);
}

int ext2_extend(struct ext2_fs *fs, uint32_t ino, uint64_t size)
{
	struct ext2_inode in;
	if (fs->read_only)
		return -EROFS;
	int rc = get_regular(fs, ino, &in);
	if (rc == 0 && size > max_size(fs))
		rc = -EFBIG;
	if (rc < 0 || size <= ext2_inode_size(&in))
		return (int)ext2_finish(fs, rc);
	ext2_set_inode_size(fs, &in, size);
	ext2_touch(&in, EXT2_ATTR_MTIME, true, ext2_now(fs));
	return (int)ext2_finish(fs, ext2_write_inode(fs, ino, &in));
}

int ext2_trim(struct ext2_fs *fs, uint32_t ino, uint64_t from)
{
	struct ext2_inode in;
	if (fs->read_only)
		return -EROFS;
	int rc = get_regular(fs, ino, &in);
	if (rc < 0)
		return (int)ext2_finish(fs, rc);
	uint64_t covered = (ext2_inode_size(&in) + EXT2_BLOCK_SIZE - 1) / EXT2_BLOCK_SIZE;
	uint32_t before = in.i_blocks;
	rc = ext2_free_blocks_from(fs, &in, from > covered ? from : covered);
	if (in.i_blocks != before) {
		int wrc = ext2_write_inode(fs, ino, &in);
		if (rc == 0)
			rc = wrc;
	}
	return (int)ext2_finish(fs, rc);
}

int ext2_readlink(struct ext2_fs *fs, uint32_t ino, char *buf, size_t size)
{
	uint8_t block[EXT2_BLOCK_SIZE];
	struct ext2_inode in;
	const uint8_t *src = block;
	uint32_t b;
	int rc = ext2_get_inode(fs, ino, &in);
	if (rc == 0 && !ext2_is_symlink(&in))
		rc = -EINVAL;
	if (rc < 0)
		return (int)ext2_finish(fs, rc);
	uint32_t len = in.i_size;
	if (len == 0 || len >= EXT2_PATH_MAX)
		return (int)ext2_finish(fs, ext2_corrupt(fs, "bad symbolic link size"));
	if (ext2_is_fast_symlink(&in)) {
		if (len >= sizeof(in.i_block))
			return (int)ext2_finish(fs, ext2_corrupt(fs, "fast symlink too long"));
		src = (const uint8_t *)in.i_block;
	} else {
		rc = ext2_bmap(fs, ino, &in, 0, false, &b, NULL);
		if (rc == 0 && b == 0)
			rc = ext2_corrupt(fs, "symbolic link without its block");
		if (rc == 0)
			rc = ext2_bread(fs, b, block);
		if (rc < 0)
			return (int)ext2_finish(fs, rc);
	}
	memcpy(buf, src, len < size ? len : size);
	return (int)len;
}
