/*
 * statfs and fstatfs: which of the three file systems a file is on, told by
 * its st_dev (the file manager's stat), and that file system's figures as
 * Linux gives them, so df lists what Linux's lists:
 *
 *   the disk (FS_ST_DEV_DISK)  ext2's counts, asked of the file manager
 *   /dev (st_dev 2)            devtmpfs, Linux's tmpfs: half the memory
 *                              in pages, all free, as many inodes
 *   /proc (st_dev 3)           proc: no blocks, no inodes (df skips it)
 *   a pipe, a socket, an       (fstatfs only: the file manager's objects
 *   eventfd/epoll/timerfd/     without a name) Linux's pipefs, sockfs and
 *   signalfd                   anon_inodefs: no blocks, no inodes
 *
 * Every answer has ST_VALID in f_flags, as Linux's since 2.6.36.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/pmm.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>
#include <posix/forward.h>
#include <posix/path_call.h>
#include <posix/posix.h>
#include <myrmex/fs.h>
#include <arch/linux_abi.h>

#define EXT2_SUPER_MAGIC  0xEF53
#define TMPFS_MAGIC       0x01021994
#define PROC_SUPER_MAGIC  0x9fa0
#define PIPEFS_MAGIC      0x50495045
#define SOCKFS_MAGIC      0x534F434B
#define ANON_INODE_FS_MAGIC 0x09041934
#define ST_VALID          0x0020
#define S_IFMT            0170000
#define S_IFIFO           0010000
#define S_IFSOCK          0140000
#define S_IFCHR           0020000
#define S_IFDIR           0040000
#define DEV_NAMES         12u  /* inodes /dev holds, as tmpfs counts them */

/* The disk's figures, asked of the file manager. */
static long disk_statfs(struct linux_statfs *s)
{
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_STATFS, sizeof(struct myrmex_statfs));
	if (err)
		return err;
	long r = forward_call(&f);
	if (r < 0)
		return r;
	if (!f.data)
		return -EIO;
	struct myrmex_statfs m;
	memcpy(&m, forward_data(&f), sizeof(m));
	s->f_type = EXT2_SUPER_MAGIC;
	s->f_bsize = s->f_frsize = (int64_t)m.block_size;
	s->f_blocks = m.blocks;
	s->f_bfree = m.free_blocks;
	s->f_bavail = m.available_blocks;
	s->f_files = m.inodes;
	s->f_ffree = m.free_inodes;
	s->f_namelen = (int64_t)m.name_max;
	return 0;
}

/* The file system of a nameless object of the file manager (a pipe, a
 * socket, an event descriptor) by its mode, or 0 for a file in /dev. */
static int64_t nameless_magic(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFIFO:
		return PIPEFS_MAGIC;
	case S_IFSOCK:
		return SOCKFS_MAGIC;
	case 0:
		return ANON_INODE_FS_MAGIC;   /* eventfd, epoll, timerfd, signalfd: mode 0600 */
	default:
		return 0;
	}
}

/* struct statfs of the file system of a file with st_dev dev and st_mode
 * mode, to out. */
static long statfs_out(uint64_t dev, uint32_t mode, uptr_t out)
{
	struct linux_statfs s;
	memset(&s, 0, sizeof(s));
	long r = 0;
	int64_t nameless = dev == FS_ST_DEV_DEVICES ? nameless_magic(mode) : 0;
	if (dev == FS_ST_DEV_PROC || nameless) {
		s.f_type = nameless ? nameless : PROC_SUPER_MAGIC;
		s.f_bsize = s.f_frsize = PAGE_SIZE;
		s.f_namelen = 255;
	} else if (dev == FS_ST_DEV_DEVICES) {
		uint64_t pages = pmm_total_pages() / 2;   /* tmpfs's default size */
		s.f_type = TMPFS_MAGIC;
		s.f_bsize = s.f_frsize = PAGE_SIZE;
		s.f_blocks = s.f_bfree = s.f_bavail = pages;
		s.f_files = pages;
		s.f_ffree = pages > DEV_NAMES ? pages - DEV_NAMES : 0;
		s.f_namelen = 255;
	} else {
		r = disk_statfs(&s);
	}
	if (r < 0)
		return r;
	s.f_flags = ST_VALID;
	return copy_to_user(out, &s, sizeof(s)) < 0 ? -EFAULT : 0;
}

/* The st_dev and st_mode of the file the call f (FS_STAT or FS_FSTAT)
 * describes. */
static long dev_of(struct fwd *f, uint64_t *dev, uint32_t *mode)
{
	long r = forward_call(f);
	if (r < 0)
		return r;
	if (!f->data)
		return -EIO;
	struct myrmex_stat m;
	memcpy(&m, forward_data(f), sizeof(m));
	*dev = m.st_dev;
	*mode = m.st_mode;
	return 0;
}

/* As Linux: the path's errors, then the buffer's (statfs_out). */
long sys_statfs(const struct syscall_args *a)
{
	struct path_call c;
	int err = path_begin(&c, FS_STAT, a->arg[0], 0, AT_FDCWD);
	if (err)
		return err;
	uint64_t dev;
	uint32_t mode;
	long r = dev_of(&c.f, &dev, &mode);
	/* A path names a file, never a nameless object: /dev's or the disk's. */
	return r < 0 ? r : statfs_out(dev, (mode & S_IFMT) ? mode : S_IFCHR, a->arg[1]);
}

long sys_fstatfs(const struct syscall_args *a)
{
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_FSTAT, sizeof(struct myrmex_stat));
	if (err)
		return err;
	f.arg[0] = a->arg[0];
	f.arg[1] = 0;
	uint64_t dev;
	uint32_t mode;
	long r = dev_of(&f, &dev, &mode);
	return r < 0 ? r : statfs_out(dev, mode, a->arg[1]);
}
