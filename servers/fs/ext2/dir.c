/*
 * dir.c - directories: checking directory blocks, finding, listing, adding
 * and removing entries.
 *
 * A directory is a file of whole blocks, each a chain of entries
 * (inode, rec_len, name_len, file_type, name) whose rec_len values add up to
 * exactly one block. Every block is checked entirely before any entry in it
 * is used. Lookups are linear; a hash-indexed directory (dir_index) reads
 * correctly as a linear one, and the index flag is cleared when the library
 * changes such a directory, as ext2 without index support must.
 */
#include "ext2_disk.h"

#include <string.h>

typedef struct ext2_dirent_head dhead;

static dhead *entry_at(uint8_t *block, uint32_t off)
{
	return (dhead *)(void *)(block + off);
}

int ext2_check_dir_block(struct ext2_fs *fs, const uint8_t *block)
{
	uint32_t off = 0;
	while (off < EXT2_BLOCK_SIZE) {
		if (EXT2_BLOCK_SIZE - off < EXT2_DIR_REC_LEN(1))
			return ext2_corrupt(fs, "directory entry past the block");
		const dhead *h = (const dhead *)(const void *)(block + off);
		uint32_t rec = h->rec_len;
		if (rec < EXT2_DIR_REC_LEN(1) || rec % 4 != 0)
			return ext2_corrupt(fs, "directory entry with a bad rec_len");
		if (rec > EXT2_BLOCK_SIZE - off)
			return ext2_corrupt(fs, "directory entry past the block");
		if ((uint32_t)h->name_len + 8 > rec)
			return ext2_corrupt(fs, "directory entry name_len too big");
		if (h->inode > fs->inodes_count)
			return ext2_corrupt(fs, "directory entry inode out of range");
		if (h->inode != 0 && h->name_len == 0)
			return ext2_corrupt(fs, "directory entry without a name");
		off += rec;
	}
	return 0;
}

/* The number of blocks of directory *in. */
static int dir_blocks(struct ext2_fs *fs, const struct ext2_inode *in, uint64_t *n)
{
	uint64_t size = ext2_inode_size(in);
	if (size % EXT2_BLOCK_SIZE != 0)
		return ext2_corrupt(fs, "directory size not a whole number of blocks");
	*n = size / EXT2_BLOCK_SIZE;
	return 0;
}

/* Reads and checks block fb of directory *in (a hole is corruption). */
static int read_dir_block(struct ext2_fs *fs, uint32_t dir, struct ext2_inode *in, uint64_t fb,
                          uint8_t *block, uint32_t *diskblock)
{
	int rc = ext2_bmap(fs, dir, in, fb, false, diskblock, NULL);
	if (rc < 0)
		return rc;
	if (*diskblock == 0)
		return ext2_corrupt(fs, "hole in a directory");
	rc = ext2_bread(fs, *diskblock, block);
	if (rc < 0)
		return rc;
	return ext2_check_dir_block(fs, block);
}

/* Where an entry is: its block (loaded in the caller's buffer) and offset,
 * and the offset of the entry before it in the block (off when first). */
struct dir_pos {
	uint64_t fblock;
	uint32_t diskblock;
	uint32_t off, prev;
};

static bool name_is(const dhead *h, const char *name, size_t len)
{
	return h->inode != 0 && h->name_len == len &&
	       memcmp((const uint8_t *)h + sizeof(*h), name, len) == 0;
}

/* Finds name in the directory; block holds its block afterwards. */
static int find_entry(struct ext2_fs *fs, uint32_t dir, struct ext2_inode *in, const char *name,
                      size_t len, uint8_t *block, struct dir_pos *pos)
{
	uint64_t n = 0;
	int rc = dir_blocks(fs, in, &n);
	if (rc < 0)
		return rc;
	for (uint64_t fb = 0; fb < n; fb++) {
		rc = read_dir_block(fs, dir, in, fb, block, &pos->diskblock);
		if (rc < 0)
			return rc;
		uint32_t prev = 0;
		for (uint32_t off = 0; off < EXT2_BLOCK_SIZE; off += entry_at(block, off)->rec_len) {
			if (name_is(entry_at(block, off), name, len)) {
				pos->fblock = fb;
				pos->off = off;
				pos->prev = prev;
				return 0;
			}
			prev = off;
		}
	}
	return -ENOENT;
}

int ext2_dir_find(struct ext2_fs *fs, uint32_t dir, struct ext2_inode *dir_in,
                  const char *name, size_t namelen, uint32_t *ino, uint64_t *fblock,
                  uint32_t *offset)
{
	_Alignas(8) uint8_t block[EXT2_BLOCK_SIZE];
	struct dir_pos pos;
	int rc = find_entry(fs, dir, dir_in, name, namelen, block, &pos);
	if (rc < 0)
		return rc;
	*ino = entry_at(block, pos.off)->inode;
	if (fblock)
		*fblock = pos.fblock;
	if (offset)
		*offset = pos.off;
	return 0;
}

int ext2_lookup(struct ext2_fs *fs, uint32_t dir, const char *name, size_t namelen,
                uint32_t *ino)
{
	struct ext2_inode in;
	int rc = ext2_get_inode(fs, dir, &in);
	if (rc == 0 && !ext2_is_dir(&in))
		rc = -ENOTDIR;
	if (rc == 0 && namelen > EXT2_NAME_MAX)
		rc = -ENAMETOOLONG;
	if (rc == 0)
		rc = namelen ? ext2_dir_find(fs, dir, &in, name, namelen, ino, NULL, NULL)
		             : -ENOENT;
	return (int)ext2_finish(fs, rc);
}

int ext2_readdir(struct ext2_fs *fs, uint32_t dir, uint64_t *pos, struct ext2_dirent *ent)
{
	_Alignas(8) uint8_t block[EXT2_BLOCK_SIZE];
	struct ext2_inode in;
	uint64_t n = 0;
	uint32_t diskblock;
	int rc = ext2_get_inode(fs, dir, &in);
	if (rc == 0 && !ext2_is_dir(&in))
		rc = -ENOTDIR;
	if (rc == 0)
		rc = dir_blocks(fs, &in, &n);
	if (rc < 0)
		return (int)ext2_finish(fs, rc);
	for (uint64_t fb = *pos / EXT2_BLOCK_SIZE; fb < n; fb++) {
		rc = read_dir_block(fs, dir, &in, fb, block, &diskblock);
		if (rc < 0)
			return (int)ext2_finish(fs, rc);
		/* Scan from the block's start: *pos may fall inside an entry that
		 * grew over a removed one. */
		uint64_t base = fb * EXT2_BLOCK_SIZE;
		for (uint32_t off = 0; off < EXT2_BLOCK_SIZE; off += entry_at(block, off)->rec_len) {
			const dhead *h = entry_at(block, off);
			if (base + off < *pos || h->inode == 0)
				continue;
			ent->ino = h->inode;
			ent->name_len = h->name_len;
			ent->type = fs->filetype && h->file_type <= EXT2_FT_SYMLINK ? h->file_type
			                                                           : EXT2_FT_UNKNOWN;
			memcpy(ent->name, (const uint8_t *)h + sizeof(*h), h->name_len);
			ent->name[h->name_len] = '\0';
			*pos = base + off + h->rec_len;
			return 1;
		}
	}
	*pos = n * EXT2_BLOCK_SIZE;
	return 0;
}

/* Writes an entry at off of block. */
static void put_entry(struct ext2_fs *fs, uint8_t *block, uint32_t off, uint32_t rec,
                      uint32_t ino, const char *name, size_t len, uint8_t ft)
{
	dhead *h = entry_at(block, off);
	h->inode = ino;
	h->rec_len = (uint16_t)rec;
	h->name_len = (uint8_t)len;
	h->file_type = fs->filetype ? ft : 0;
	memcpy((uint8_t *)h + sizeof(*h), name, len);
	/* Padding after the name is zero, as fsck and Linux write it. */
	uint32_t end = EXT2_DIR_REC_LEN(len);
	memset((uint8_t *)h + sizeof(*h) + len, 0, end - sizeof(*h) - len);
}

/* A directory changed: times, no index any more, inode written. */
static int dir_changed(struct ext2_fs *fs, uint32_t dir, struct ext2_inode *in)
{
	ext2_touch(in, EXT2_ATTR_MTIME, true, ext2_now(fs));
	in->i_flags &= ~EXT2_INDEX_FL;
	return ext2_write_inode(fs, dir, in);
}

int ext2_dir_add(struct ext2_fs *fs, uint32_t dir, struct ext2_inode *dir_in,
                 const char *name, size_t namelen, uint32_t ino, uint8_t ft)
{
	_Alignas(8) uint8_t block[EXT2_BLOCK_SIZE];
	uint32_t need = EXT2_DIR_REC_LEN(namelen), diskblock;
	uint64_t n = 0;
	bool have_slot = false;
	struct dir_pos slot = { 0 };
	int rc = dir_blocks(fs, dir_in, &n);
	if (rc < 0)
		return rc;
	/* One pass: the name must be absent; remember the first gap. */
	for (uint64_t fb = 0; fb < n; fb++) {
		rc = read_dir_block(fs, dir, dir_in, fb, block, &diskblock);
		if (rc < 0)
			return rc;
		for (uint32_t off = 0; off < EXT2_BLOCK_SIZE; off += entry_at(block, off)->rec_len) {
			const dhead *h = entry_at(block, off);
			if (name_is(h, name, namelen))
				return -EEXIST;
			uint32_t used = h->inode ? EXT2_DIR_REC_LEN(h->name_len) : 0;
			if (!have_slot && h->rec_len - used >= need) {
				have_slot = true;
				slot = (struct dir_pos){ fb, diskblock, off, off };
			}
		}
	}
	if (have_slot) {
		rc = read_dir_block(fs, dir, dir_in, slot.fblock, block, &diskblock);
		if (rc < 0)
			return rc;
		dhead *h = entry_at(block, slot.off);
		uint32_t rec = h->rec_len;
		if (h->inode) {
			uint32_t used = EXT2_DIR_REC_LEN(h->name_len);
			h->rec_len = (uint16_t)used;
			put_entry(fs, block, slot.off + used, rec - used, ino, name, namelen, ft);
		} else {
			put_entry(fs, block, slot.off, rec, ino, name, namelen, ft);
		}
		rc = ext2_bwrite(fs, diskblock, block);
	} else {
		/* Grow by one block holding just the new entry. */
		if (ext2_inode_size(dir_in) + EXT2_BLOCK_SIZE > 0xffffffffull)
			return -ENOSPC;
		rc = ext2_bmap(fs, dir, dir_in, n, true, &diskblock, NULL);
		if (rc < 0)
			return rc;
		memset(block, 0, sizeof(block));
		put_entry(fs, block, 0, EXT2_BLOCK_SIZE, ino, name, namelen, ft);
		rc = ext2_bwrite(fs, diskblock, block);
		ext2_set_inode_size(fs, dir_in, (n + 1) * EXT2_BLOCK_SIZE);
	}
	int wrc = dir_changed(fs, dir, dir_in);
	return rc < 0 ? rc : wrc;
}

int ext2_dir_remove(struct ext2_fs *fs, uint32_t dir, struct ext2_inode *dir_in,
                    const char *name, size_t namelen)
{
	_Alignas(8) uint8_t block[EXT2_BLOCK_SIZE];
	struct dir_pos pos;
	int rc = find_entry(fs, dir, dir_in, name, namelen, block, &pos);
	if (rc < 0)
		return rc;
	dhead *h = entry_at(block, pos.off);
	if (pos.off == 0)
		h->inode = 0;   /* the first entry of a block stays, empty */
	else
		entry_at(block, pos.prev)->rec_len += h->rec_len;
	rc = ext2_bwrite(fs, pos.diskblock, block);
	if (rc < 0)
		return rc;
	return dir_changed(fs, dir, dir_in);
}

int ext2_dir_retarget(struct ext2_fs *fs, uint32_t dir, struct ext2_inode *dir_in,
                      const char *name, size_t namelen, uint32_t ino, uint8_t ft)
{
	_Alignas(8) uint8_t block[EXT2_BLOCK_SIZE];
	struct dir_pos pos;
	int rc = find_entry(fs, dir, dir_in, name, namelen, block, &pos);
	if (rc < 0)
		return rc;
	dhead *h = entry_at(block, pos.off);
	h->inode = ino;
	h->file_type = fs->filetype ? ft : 0;
	rc = ext2_bwrite(fs, pos.diskblock, block);
	if (rc < 0)
		return rc;
	return dir_changed(fs, dir, dir_in);
}

int ext2_dir_is_empty(struct ext2_fs *fs, struct ext2_inode *dir_in)
{
	_Alignas(8) uint8_t block[EXT2_BLOCK_SIZE];
	uint32_t diskblock;
	uint64_t n = 0;
	int rc = dir_blocks(fs, dir_in, &n);
	if (rc < 0)
		return rc;
	for (uint64_t fb = 0; fb < n; fb++) {
		rc = read_dir_block(fs, 0, dir_in, fb, block, &diskblock);
		if (rc < 0)
			return rc;
		for (uint32_t off = 0; off < EXT2_BLOCK_SIZE; off += entry_at(block, off)->rec_len) {
			const dhead *h = entry_at(block, off);
			if (h->inode && !name_is(h, ".", 1) && !name_is(h, "..", 2))
				return 0;
		}
	}
	return 1;
}

int ext2_dir_init(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in, uint32_t parent)
{
	_Alignas(8) uint8_t block[EXT2_BLOCK_SIZE];
	uint32_t diskblock;
	int rc = ext2_bmap(fs, ino, in, 0, true, &diskblock, NULL);
	if (rc < 0)
		return rc;
	memset(block, 0, sizeof(block));
	put_entry(fs, block, 0, EXT2_DIR_REC_LEN(1), ino, ".", 1, EXT2_FT_DIR);
	put_entry(fs, block, EXT2_DIR_REC_LEN(1), EXT2_BLOCK_SIZE - EXT2_DIR_REC_LEN(1), parent,
	          "..", 2, EXT2_FT_DIR);
	ext2_set_inode_size(fs, in, EXT2_BLOCK_SIZE);
	return ext2_bwrite(fs, diskblock, block);
}
