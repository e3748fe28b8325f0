/*
 * ext2.h - the ext2 file-system core: a pure, portable C library.
 *
 * It knows nothing of Myrmex: all it asks of its host is a block device of
 * 4096-byte blocks (struct ext2_blockdev) and, optionally, the time. The file
 * manager server runs it over its block cache and the virtio disk; the host
 * unit tests run it over an image file. Images are made by
 * `mke2fs -t ext2 -b 4096`; other block sizes are refused.
 *
 * Conventions for every function below:
 * - Returns 0 (or a count) on success and a negative Linux errno on failure.
 *   A corrupt on-disk structure gives -EUCLEAN (EXT2_ECORRUPT) and a short
 *   message in fs->error; nothing on disk is trusted before it is checked.
 * - Inode numbers are 32-bit; EXT2_ROOT_INO is the root directory.
 * - Names are NUL-terminated, 1..255 bytes, without '/'.
 * - One operation at a time per struct ext2_fs: the caller serializes.
 * - Block buffers live on the stack: an operation needs about 24 KiB of it.
 * - A failed operation leaves the file system consistent (e2fsck clean),
 *   except after a device error or when it found corruption.
 * - A mutating operation on a read-only mount returns -EROFS.
 */
#ifndef EXT2_H
#define EXT2_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EXT2_BLOCK_SIZE 4096u
#define EXT2_NAME_MAX   255u     /* bytes in one name */
#define EXT2_PATH_MAX   4096u    /* bytes in a path, with its NUL */
#define EXT2_ROOT_INO   2u
#define EXT2_LINK_MAX   32000u
#define EXT2_ECORRUPT   EUCLEAN  /* "structure needs cleaning" */

/* What the library asks of its host. read and write move one whole block and
 * return 0 or a negative errno. nblocks is the device size in blocks (0 if
 * unknown; then the file system is trusted to fit). now returns the time in
 * seconds since 1970 for time stamps; NULL means time 0. peek (optional, may
 * be NULL) lends a read-only view of a block without copying it, valid until
 * the next call into the device, or NULL (then the library reads a copy);
 * a host with a block cache uses it to spare lookups the copy of inode-table
 * and indirect blocks. */
struct ext2_blockdev {
	void *ctx;
	uint64_t nblocks;
	int (*read)(void *ctx, uint64_t blockno, void *buf);
	int (*write)(void *ctx, uint64_t blockno, const void *buf);
	uint32_t (*now)(void *ctx);
	const void *(*peek)(void *ctx, uint64_t blockno);
};

/* A mounted file system. The fields are read-only for the caller; the
 * superblock copy stays in memory and reaches the disk at the end of every
 * operation that changed it. */
struct ext2_fs {
	struct ext2_blockdev dev;
	bool read_only;
	const char *error;          /* the last problem found, or NULL */

	/* Geometry, validated at mount. */
	uint32_t blocks_count, inodes_count;
	uint32_t first_data_block;
	uint32_t blocks_per_group, inodes_per_group;
	uint32_t groups;
	uint32_t inode_size, inodes_per_block, itable_blocks;
	uint32_t first_ino;
	uint32_t gdt_blocks, reserved_gdt;
	bool filetype;              /* directory entries carry a file type */
	bool sparse_super;          /* superblock backups in groups 0, 1, 3^n, 5^n, 7^n */
	bool check_backups;         /* the backup positions are known (no sparse_super2) */

	bool sb_dirty;
	_Alignas(8) uint8_t sb[1024];   /* the on-disk superblock (struct ext2_super) */

	/* The inode read or written last, as ext2_read_inode returns it: a
	 * file's reads and writes look the same inode up again and again
	 * (inode.c). Every write of an inode goes through put_inode, which keeps
	 * it equal to the disk. cached_ino 0: none. */
	uint32_t cached_ino;
	_Alignas(8) uint8_t cached_inode[160];   /* a struct ext2_inode (ext2_disk.h) */

	/* Unlink while open (POSIX): true while regular file ino is still open
	 * or mapped. Its last link going then leaves it allocated with a link
	 * count of 0 (an orphan), readable, writable and stat-able by inode
	 * number, until ext2_release frees it. NULL: freed at once. */
	bool (*keep)(struct ext2_fs *fs, uint32_t ino);
};

/* Mode bits (the Linux values). */
#define EXT2_S_IFMT   0170000u
#define EXT2_S_IFSOCK 0140000u
#define EXT2_S_IFLNK  0120000u
#define EXT2_S_IFREG  0100000u
#define EXT2_S_IFBLK  0060000u
#define EXT2_S_IFDIR  0040000u
#define EXT2_S_IFCHR  0020000u
#define EXT2_S_IFIFO  0010000u

/* Directory-entry file types. */
enum {
	EXT2_FT_UNKNOWN, EXT2_FT_REG_FILE, EXT2_FT_DIR, EXT2_FT_CHRDEV,
	EXT2_FT_BLKDEV, EXT2_FT_FIFO, EXT2_FT_SOCK, EXT2_FT_SYMLINK,
};

struct ext2_stat {
	uint32_t ino;
	uint32_t mode;              /* type and permission bits */
	uint32_t links;
	uint32_t uid, gid;
	uint64_t size;
	uint64_t blocks;            /* 512-byte units, metadata included */
	uint32_t atime, mtime, ctime;
	uint32_t flags;             /* i_flags */
	/* Nanoseconds, kept where the inode has room (i_extra_isize reaches the
	 * *_extra words), else 0. ext2_set_attr stores atime_nsec and
	 * mtime_nsec with EXT2_ATTR_ATIME and EXT2_ATTR_MTIME (< 10^9). */
	uint32_t atime_nsec, mtime_nsec, ctime_nsec;
};

/* ext2_set_attr: which fields of struct ext2_stat to apply. */
#define EXT2_ATTR_MODE  1u      /* permission bits only; the type never changes */
#define EXT2_ATTR_UID   2u
#define EXT2_ATTR_GID   4u
#define EXT2_ATTR_ATIME 8u
#define EXT2_ATTR_MTIME 16u

struct ext2_dirent {
	uint32_t ino;
	uint8_t type;               /* EXT2_FT_*; UNKNOWN without the filetype feature */
	uint8_t name_len;
	char name[EXT2_NAME_MAX + 1];   /* NUL-terminated */
};

struct ext2_statfs {
	uint64_t blocks, free_blocks, reserved_blocks;
	uint64_t inodes, free_inodes;
	uint32_t block_size, name_max;
};

/* ---- mount (super.c) ---- */

/* Reads and checks the superblock and every group descriptor. Refuses a
 * corrupt superblock or descriptor (-EINVAL, message in fs->error), a block
 * size other than 4096 (-EINVAL), unknown incompatible features (-EINVAL) and,
 * unless read_only, unknown read-only-compatible features (-EROFS). A
 * read-write mount marks the file system "not clean" on disk until
 * ext2_unmount, and frees the files on the orphan list that a crash left
 * unlinked but open (orphan.c). dev is copied. */
int ext2_mount(struct ext2_fs *fs, const struct ext2_blockdev *dev, bool read_only);

/* Writes the superblock back marked clean (read-write mounts). The caller
 * flushes its cache afterwards. fs may then be mounted again. */
int ext2_unmount(struct ext2_fs *fs);

/* Free and total counts, from the in-memory superblock. */
void ext2_get_statfs(const struct ext2_fs *fs, struct ext2_statfs *out);

/* ---- inodes (inode.c) ---- */

/* Fills *st for inode ino (-EINVAL for 0 or beyond the inode count, -ENOENT
 * for an inode that is not in use). */
int ext2_stat(struct ext2_fs *fs, uint32_t ino, struct ext2_stat *st);

/* Applies the fields of *st chosen by mask (EXT2_ATTR_*) and sets ctime to
 * now. Times are seconds since 1970 (0..2^32-1; past 2^31-1 the *_extra
 * words' epoch bits carry the high bit, as Linux writes them, where the
 * inode has them). */
int ext2_set_attr(struct ext2_fs *fs, uint32_t ino, unsigned mask, const struct ext2_stat *st);

/* ---- file data (file.c) ---- */

/* Reads up to len bytes at off into buf; returns the count (0 at or past the
 * end). Holes read as zeros. Regular files, directories and symbolic links. */
int64_t ext2_read(struct ext2_fs *fs, uint32_t ino, uint64_t off, void *buf, size_t len);

/* Writes len bytes at off, allocating blocks and growing the size as needed;
 * a gap past the old end becomes a hole. Regular files only (-EISDIR,
 * -EINVAL). Returns the count written: short if the disk filled after some
 * bytes were written, -ENOSPC if none were; -EFBIG beyond the largest file.
 * Sets mtime and ctime. */
int64_t ext2_write(struct ext2_fs *fs, uint32_t ino, uint64_t off, const void *buf, size_t len);

/* Sets the size of a regular file. Shrinking frees the blocks past the new
 * end, indirect blocks included; growing leaves a hole. Sets mtime, ctime. */
int ext2_truncate(struct ext2_fs *fs, uint32_t ino, uint64_t size);

/* Maps block fileblock of a regular file or directory to its disk block in
 * *diskblock; 0 is a hole when alloc is false. With alloc, a hole gets a new
 * zero-filled block (and indirect blocks as needed); the size does not
 * change, so the caller extends it (ext2_truncate) to cover the block. */
int ext2_file_block(struct ext2_fs *fs, uint32_t ino, uint64_t fileblock, bool alloc,
                    uint64_t *diskblock);

/* ext2_file_block without alloc for the count blocks from fileblock: their
 * disk blocks in out[] (0: a hole), the inode read once and each indirect
 * block once per run (file mappings look up many pages at a time). */
int ext2_file_blocks(struct ext2_fs *fs, uint32_t ino, uint64_t fileblock, uint32_t count,
                     uint32_t *out);

/* Grows the size of regular file ino to size without touching its data
 * (nothing when the file is already that long): the caller has put the
 * bytes between the old and the new end in place itself (the On-Memory
 * File's syncblock, whose stores went straight into the cached blocks), so
 * unlike ext2_truncate the tail of the old last block is not cleared. Sets
 * mtime and ctime. -EFBIG beyond the largest file. */
int ext2_extend(struct ext2_fs *fs, uint32_t ino, uint64_t size);

/* Frees the blocks of regular file ino from file block `from` on, but never
 * one that the size covers: the blocks an On-Memory File mapping allocated
 * past the end and no syncblock covered (e2fsck accepts no block past the
 * end). Indirect blocks left empty go too. */
int ext2_trim(struct ext2_fs *fs, uint32_t ino, uint64_t from);

/* Copies the target of symbolic link ino (not NUL-terminated) into buf;
 * returns its full length, which may exceed size (then buf holds a prefix). */
int ext2_readlink(struct ext2_fs *fs, uint32_t ino, char *buf, size_t size);

/* ---- directories (dir.c) ---- */

/* Finds name (namelen bytes, "." and ".." included) in directory dir. */
int ext2_lookup(struct ext2_fs *fs, uint32_t dir, const char *name, size_t namelen,
                uint32_t *ino);

/* The next entry of directory dir at or after byte position *pos: returns 1
 * with *ent filled and *pos moved past it, 0 at the end. Positions stay valid
 * while entries are added and removed. Empty slots are skipped. */
int ext2_readdir(struct ext2_fs *fs, uint32_t dir, uint64_t *pos, struct ext2_dirent *ent);

/* Resolves an absolute or root-relative path ("/a/b", "a//b/", "/"); "." and
 * ".." are ordinary entries (".." of the root is the root). Symbolic links are
 * not followed: one in the middle of a path gives -ENOTDIR. A trailing '/'
 * needs a directory. -ENOENT, -ENOTDIR, -ENAMETOOLONG (a name over 255 bytes,
 * a path of 4096 bytes or more). */
int ext2_lookup_path(struct ext2_fs *fs, const char *path, uint32_t *ino);

/* ---- names (namei.c) ---- */

/* Creates an empty regular file with permission bits mode & 07777 in dir. */
int ext2_create(struct ext2_fs *fs, uint32_t dir, const char *name, uint32_t mode,
                uint32_t uid, uint32_t gid, uint32_t *ino);

/* Creates a directory holding "." and ".."; dir gains a link. */
int ext2_mkdir(struct ext2_fs *fs, uint32_t dir, const char *name, uint32_t mode,
               uint32_t uid, uint32_t gid, uint32_t *ino);

/* Creates a symbolic link to target (1..4095 bytes). */
int ext2_symlink(struct ext2_fs *fs, uint32_t dir, const char *name, const char *target,
                 uint32_t uid, uint32_t gid, uint32_t *ino);

/* Adds a name for an existing non-directory inode (a hard link). */
int ext2_link(struct ext2_fs *fs, uint32_t dir, const char *name, uint32_t ino);

/* Removes a non-directory name (-EISDIR); the inode and its blocks are freed
 * when its last link goes (the caller defers the unlink of an open file if it
 * wants POSIX semantics). */
int ext2_unlink(struct ext2_fs *fs, uint32_t dir, const char *name);
/* Frees inode ino if it is an orphan (no link left, kept by keep while
 * open): its blocks and the inode. 0 when it is not one (nothing done). */
int ext2_release(struct ext2_fs *fs, uint32_t ino);

/* Removes an empty directory (-ENOTEMPTY, -ENOTDIR; "." and ".." -EINVAL). */
int ext2_rmdir(struct ext2_fs *fs, uint32_t dir, const char *name);

/* Moves olddir/oldname to newdir/newname, replacing a target of the same
 * kind (a file, or an empty directory) and fixing ".." of a moved directory.
 * -EINVAL for moving a directory below itself, -EISDIR/-ENOTDIR for a target
 * of the other kind, -ENOTEMPTY. Renaming a name onto another name of the
 * same inode does nothing. */
int ext2_rename(struct ext2_fs *fs, uint32_t olddir, const char *oldname, uint32_t newdir,
                const char *newname);

#endif
