/*
 * ext2_disk.h - the ext2 on-disk structures and the library's internal
 * interface between its files (not for the library's users).
 *
 * The structures are the little-endian disk layout used in place, which the
 * byte-order check below makes explicit; sizes are asserted at compile time.
 */
#ifndef EXT2_DISK_H
#define EXT2_DISK_H

#include "ext2.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the ext2 structures are used in place: a little-endian CPU is needed"
#endif

#define EXT2_SUPER_MAGIC   0xef53u
#define EXT2_SUPER_OFFSET  1024u     /* in block 0 */
#define EXT2_ADDR_PER_BLOCK (EXT2_BLOCK_SIZE / 4u)
#define EXT2_NDIR_BLOCKS   12u
#define EXT2_IND_BLOCK     12u
#define EXT2_DIND_BLOCK    13u
#define EXT2_TIND_BLOCK    14u
#define EXT2_N_BLOCKS      15u
#define EXT2_GOOD_OLD_INODE_SIZE 128u
#define EXT2_GOOD_OLD_FIRST_INO  11u
#define EXT2_SECTORS_PER_BLOCK   (EXT2_BLOCK_SIZE / 512u)

/* s_state */
#define EXT2_VALID_FS 1u
#define EXT2_ERROR_FS 2u

/* Features. */
#define EXT2_COMPAT_SPARSE_SUPER2    0x0200u
#define EXT2_INCOMPAT_FILETYPE       0x0002u
#define EXT2_INCOMPAT_SUPPORTED      EXT2_INCOMPAT_FILETYPE
#define EXT2_RO_COMPAT_SPARSE_SUPER  0x0001u
#define EXT2_RO_COMPAT_LARGE_FILE    0x0002u
#define EXT2_RO_COMPAT_SUPPORTED     (EXT2_RO_COMPAT_SPARSE_SUPER | EXT2_RO_COMPAT_LARGE_FILE)

/* i_flags */
#define EXT2_INDEX_FL  0x00001000u   /* hash-indexed directory */

/* Extended-attribute block header magic. */
#define EXT2_XATTR_MAGIC 0xea020000u

struct ext2_super {
	uint32_t s_inodes_count;
	uint32_t s_blocks_count;
	uint32_t s_r_blocks_count;
	uint32_t s_free_blocks_count;
	uint32_t s_free_inodes_count;
	uint32_t s_first_data_block;
	uint32_t s_log_block_size;
	uint32_t s_log_frag_size;
	uint32_t s_blocks_per_group;
	uint32_t s_frags_per_group;
	uint32_t s_inodes_per_group;
	uint32_t s_mtime;
	uint32_t s_wtime;
	uint16_t s_mnt_count;
	int16_t s_max_mnt_count;
	uint16_t s_magic;
	uint16_t s_state;
	uint16_t s_errors;
	uint16_t s_minor_rev_level;
	uint32_t s_lastcheck;
	uint32_t s_checkinterval;
	uint32_t s_creator_os;
	uint32_t s_rev_level;
	uint16_t s_def_resuid;
	uint16_t s_def_resgid;
	/* revision 1 */
	uint32_t s_first_ino;
	uint16_t s_inode_size;
	uint16_t s_block_group_nr;
	uint32_t s_feature_compat;
	uint32_t s_feature_incompat;
	uint32_t s_feature_ro_compat;
	uint8_t s_uuid[16];
	char s_volume_name[16];
	char s_last_mounted[64];
	uint32_t s_algorithm_usage_bitmap;
	uint8_t s_prealloc_blocks;
	uint8_t s_prealloc_dir_blocks;
	uint16_t s_reserved_gdt_blocks;
	uint8_t s_journal_uuid[16];    /* ext3's; unused here */
	uint32_t s_journal_inum;
	uint32_t s_journal_dev;
	uint32_t s_last_orphan;        /* head of the orphan list (orphan.c), 0: empty */
	uint8_t s_rest[1024 - 236];
};
_Static_assert(sizeof(struct ext2_super) == 1024, "ext2 superblock size");
_Static_assert(offsetof(struct ext2_super, s_magic) == 56, "s_magic offset");
_Static_assert(offsetof(struct ext2_super, s_first_ino) == 84, "s_first_ino offset");
_Static_assert(offsetof(struct ext2_super, s_last_orphan) == 232, "s_last_orphan offset");
_Static_assert(offsetof(struct ext2_super, s_reserved_gdt_blocks) == 206,
               "s_reserved_gdt_blocks offset");

struct ext2_group_desc {
	uint32_t bg_block_bitmap;
	uint32_t bg_inode_bitmap;
	uint32_t bg_inode_table;
	uint16_t bg_free_blocks_count;
	uint16_t bg_free_inodes_count;
	uint16_t bg_used_dirs_count;
	uint16_t bg_pad;
	uint32_t bg_reserved[3];
};
_Static_assert(sizeof(struct ext2_group_desc) == 32, "ext2 group descriptor size");
#define EXT2_DESC_PER_BLOCK ((uint32_t)(EXT2_BLOCK_SIZE / sizeof(struct ext2_group_desc)))

/* The first 160 bytes of an inode: the 128 of revision 0 and the extra
 * fields a larger inode may hold (valid up to 128 + i_extra_isize). */
struct ext2_inode {
	uint16_t i_mode;
	uint16_t i_uid;
	uint32_t i_size;
	uint32_t i_atime;
	uint32_t i_ctime;
	uint32_t i_mtime;
	uint32_t i_dtime;
	uint16_t i_gid;
	uint16_t i_links_count;
	uint32_t i_blocks;             /* 512-byte units */
	uint32_t i_flags;
	uint32_t i_osd1;
	uint32_t i_block[EXT2_N_BLOCKS];
	uint32_t i_generation;
	uint32_t i_file_acl;           /* extended-attribute block */
	uint32_t i_size_high;          /* i_dir_acl in revision 0 */
	uint32_t i_faddr;
	uint8_t i_frag, i_fsize;
	uint16_t i_pad1;
	uint16_t i_uid_high;
	uint16_t i_gid_high;
	uint32_t i_reserved2;
	/* large inodes */
	uint16_t i_extra_isize;
	uint16_t i_checksum_hi;
	uint32_t i_ctime_extra;
	uint32_t i_mtime_extra;
	uint32_t i_atime_extra;
	uint32_t i_crtime;
	uint32_t i_crtime_extra;
	uint32_t i_version_hi;
	uint32_t i_projid;
};
_Static_assert(sizeof(struct ext2_inode) == 160, "ext2 inode (with extra fields) size");
_Static_assert(offsetof(struct ext2_inode, i_block) == 40, "i_block offset");
_Static_assert(offsetof(struct ext2_inode, i_extra_isize) == 128, "extra offset");
#define EXT2_INODE_EXTRA_MAX (sizeof(struct ext2_inode) - EXT2_GOOD_OLD_INODE_SIZE)

/* A directory entry's fixed head; the name follows. */
struct ext2_dirent_head {
	uint32_t inode;
	uint16_t rec_len;
	uint8_t name_len;
	uint8_t file_type;
};
_Static_assert(sizeof(struct ext2_dirent_head) == 8, "ext2 directory entry head size");
/* The space an entry with a name of n bytes needs. */
#define EXT2_DIR_REC_LEN(n) ((8u + (uint32_t)(n) + 3u) & ~3u)

static inline struct ext2_super *ext2_sb(struct ext2_fs *fs)
{
	return (struct ext2_super *)(void *)fs->sb;
}

static inline const struct ext2_super *ext2_sb_const(const struct ext2_fs *fs)
{
	return (const struct ext2_super *)(const void *)fs->sb;
}

static inline bool ext2_is_dir(const struct ext2_inode *in)
{
	return (in->i_mode & EXT2_S_IFMT) == EXT2_S_IFDIR;
}

static inline bool ext2_is_reg(const struct ext2_inode *in)
{
	return (in->i_mode & EXT2_S_IFMT) == EXT2_S_IFREG;
}

static inline bool ext2_is_symlink(const struct ext2_inode *in)
{
	return (in->i_mode & EXT2_S_IFMT) == EXT2_S_IFLNK;
}

/* ---- super.c ---- */

/* Records a corruption: fs->error = msg, the on-disk state gets the error flag
 * (read-write mounts) so that fsck checks it. Returns -EXT2_ECORRUPT. */
int ext2_corrupt(struct ext2_fs *fs, const char *msg);

/* Block I/O through the device, with blockno checked against the file system
 * (an out-of-range number is corruption). */
int ext2_bread(struct ext2_fs *fs, uint64_t blockno, void *buf);
/* A read-only view of a block: the device's own (peek) when it lends one,
 * else buf filled by a read. NULL on error, with the error in *rc. */
const void *ext2_bview(struct ext2_fs *fs, uint64_t blockno, void *buf, int *rc);
int ext2_bwrite(struct ext2_fs *fs, uint64_t blockno, const void *buf);

/* Writes the superblock if it changed. Every mutating public operation ends
 * with ext2_finish(fs, result), which returns result (or the write error). */
int ext2_write_super(struct ext2_fs *fs);
int64_t ext2_finish(struct ext2_fs *fs, int64_t result);

/* The host's time, or 0. */
uint32_t ext2_now(struct ext2_fs *fs);

/* True when group g holds a superblock backup and group-descriptor copy. */
bool ext2_group_has_super(const struct ext2_fs *fs, uint32_t g);

/* ---- group.c: group descriptors and bitmaps ---- */

int ext2_read_group(struct ext2_fs *fs, uint32_t g, struct ext2_group_desc *gd);
int ext2_write_group(struct ext2_fs *fs, uint32_t g, const struct ext2_group_desc *gd);

/* Checks descriptor *gd of group g against the group's bounds. */
bool ext2_group_ok(const struct ext2_fs *fs, uint32_t g, const struct ext2_group_desc *gd);

/* True if b may hold file data or an indirect block: inside the file system
 * and not one of the fixed metadata blocks that can be found without I/O. */
bool ext2_data_block_ok(const struct ext2_fs *fs, uint64_t b);

/* Allocates one block, preferably at or after goal; marks it in the bitmap
 * and counts it in the group and superblock. The content is not touched. */
int ext2_alloc_block(struct ext2_fs *fs, uint32_t goal, uint32_t *out);

/* Returns block b to its group (corruption if it was already free). */
int ext2_free_block(struct ext2_fs *fs, uint32_t b);

/* Allocates an inode number near group near_group (spread out for
 * directories) and counts it; the inode itself is not written. */
int ext2_alloc_inode(struct ext2_fs *fs, uint32_t near_group, bool is_dir, uint32_t *out);

/* Returns inode number ino to its group (corruption if already free). */
int ext2_free_inode_bit(struct ext2_fs *fs, uint32_t ino, bool is_dir);

/* ---- inode.c ---- */

/* Reads inode ino (1..inodes_count, else -EINVAL) into *in. */
int ext2_read_inode(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in);

/* Writes the fields of *in back, keeping the rest of the on-disk inode (for
 * example in-inode extended attributes) as it is. */
int ext2_write_inode(struct ext2_fs *fs, uint32_t ino, const struct ext2_inode *in);

/* Reads an inode that must be in use (-ENOENT when its link count is 0). */
int ext2_get_inode(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in);

/* The size of a file (64 bits for regular files). */
uint64_t ext2_inode_size(const struct ext2_inode *in);
void ext2_set_inode_size(struct ext2_fs *fs, struct ext2_inode *in, uint64_t size);

/* Sets the named times (EXT2_ATTR_ATIME, EXT2_ATTR_MTIME, and ctime when
 * with_ctime) to t, clearing their sub-second parts. */
void ext2_touch(struct ext2_inode *in, unsigned which, bool with_ctime, uint32_t t);

/* Allocates and writes a fresh inode of the given mode near directory
 * parent: zeroed on disk, one link, times now. *in is filled. */
int ext2_new_inode(struct ext2_fs *fs, uint32_t parent, uint32_t mode, uint32_t uid,
                   uint32_t gid, uint32_t *ino, struct ext2_inode *in);

/* Frees the blocks, the extended-attribute block and the number of an inode
 * whose last link has gone; sets dtime. */
int ext2_evict_inode(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in);

/* ---- orphan.c: the on-disk list of files unlinked while open ---- */

/* True if *in, a regular file with no link left, is an orphan (its dtime the
 * next orphan's number or 0) rather than a freed inode (dtime a time). */
bool ext2_orphan_dtime(const struct ext2_fs *fs, const struct ext2_inode *in);

/* Puts inode ino (*in, written by the caller) at the head of the list. */
void ext2_orphan_add(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in);

/* Takes inode ino (*in, written by the caller) off the list; 0 also when it
 * is not on it (a list lost to corruption is e2fsck's to repair). */
int ext2_orphan_remove(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in);

/* At a read-write mount: frees every inode on the list (left by a crash). */
int ext2_orphans_recover(struct ext2_fs *fs);

/* The directory-entry type for a mode. */
uint8_t ext2_mode_to_ft(uint32_t mode);

/* True if the symlink keeps its target in i_block. */
bool ext2_is_fast_symlink(const struct ext2_inode *in);

/* ---- bmap.c: the block map ---- */

/* Maps file block fblock of *in (which must be a block-mapped inode) to
 * *out (0: a hole). With alloc, fills a hole with a new block and reports it
 * in *fresh (its content is undefined; the caller writes it); indirect blocks
 * are allocated zeroed. *in is updated in memory (i_block, i_blocks); the
 * caller writes it. -EFBIG past the triple-indirect range. */
int ext2_bmap(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in, uint64_t fblock,
              bool alloc, uint32_t *out, bool *fresh);

/* ext2_bmap's lookup (no allocation) of the count file blocks from fblock
 * into out[] (0: a hole), for a run: the inode's direct blocks are read
 * once, and each indirect block once for all the entries of the run it
 * holds. Every number is checked as ext2_bmap checks it. */
int ext2_bmap_run(struct ext2_fs *fs, const struct ext2_inode *in, uint64_t fblock,
                  uint32_t count, uint32_t *out);

/* Frees every block mapped at or after file block from (indirect blocks that
 * become empty included) and updates i_block and i_blocks in *in (in memory). */
int ext2_free_blocks_from(struct ext2_fs *fs, struct ext2_inode *in, uint64_t from);

/* ---- dir.c ---- */

/* Checks every entry of a directory block. */
int ext2_check_dir_block(struct ext2_fs *fs, const uint8_t *block);

/* Finds name in directory *dir_in: *ino, and the file block and byte offset
 * of the entry. -ENOENT if absent. */
int ext2_dir_find(struct ext2_fs *fs, uint32_t dir, struct ext2_inode *dir_in,
                  const char *name, size_t namelen, uint32_t *ino, uint64_t *fblock,
                  uint32_t *offset);

/* Adds name -> ino (type ft) to directory dir, growing it by a block if no
 * block has room; -EEXIST if the name is present. Writes dir's inode. */
int ext2_dir_add(struct ext2_fs *fs, uint32_t dir, struct ext2_inode *dir_in,
                 const char *name, size_t namelen, uint32_t ino, uint8_t ft);

/* Removes name from directory dir (the space joins the previous entry).
 * Writes dir's inode. */
int ext2_dir_remove(struct ext2_fs *fs, uint32_t dir, struct ext2_inode *dir_in,
                    const char *name, size_t namelen);

/* Points the existing entry name at ino (type ft). */
int ext2_dir_retarget(struct ext2_fs *fs, uint32_t dir, struct ext2_inode *dir_in,
                      const char *name, size_t namelen, uint32_t ino, uint8_t ft);

/* 1 if the directory holds only "." and "..", 0 if not, or -errno. */
int ext2_dir_is_empty(struct ext2_fs *fs, struct ext2_inode *dir_in);

/* Writes the first block of a new directory: "." and "..". */
int ext2_dir_init(struct ext2_fs *fs, uint32_t ino, struct ext2_inode *in, uint32_t parent);

#endif
