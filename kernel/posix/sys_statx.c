/*
 * statx for POSIX processes: the file manager's struct myrmex_stat (FS_STAT
 * by path, FS_FSTAT for AT_EMPTY_PATH on a descriptor) in Linux's struct
 * statx. What ext2 and the file manager know is STATX_BASIC_STATS (type
 * and mode, links, owner, times, inode, size, blocks) and a mount id; no
 * birth time, no attributes. The checks come in Linux's order: the path,
 * then the mask and flags, then the lookup, then the copy out.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <posix/forward.h>
#include <posix/path_call.h>
#include <posix/posix.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>
#include <myrmex/fs.h>

#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_NO_AUTOMOUNT     0x800
#define AT_EMPTY_PATH       0x1000
#define AT_STATX_SYNC_TYPE  0x6000   /* FORCE_SYNC | DONT_SYNC: one at most */
#define STATX_BASIC_STATS   0x7ffu
#define STATX_MNT_ID        0x1000u
#define STATX_RESERVED      0x80000000u
#define STATX_DISK_MNT_ID   1u        /* the one mounted file system */

struct statx_timestamp {
	int64_t tv_sec;
	uint32_t tv_nsec;
	int32_t reserved;
};

/* Linux's struct statx: 256 bytes, the same on every architecture. */
struct linux_statx {
	uint32_t stx_mask, stx_blksize;
	uint64_t stx_attributes;
	uint32_t stx_nlink, stx_uid, stx_gid;
	uint16_t stx_mode, pad1;
	uint64_t stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
	uint32_t stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
	uint64_t stx_mnt_id;
	uint32_t stx_dio_mem_align, stx_dio_offset_align;
	uint64_t spare[12];
};
_Static_assert(sizeof(struct linux_statx) == 256, "struct statx");

/* Linux's dev_t as stat gives it (new_encode_dev) split in two. */
static uint32_t dev_major(uint64_t d)
{
	return (uint32_t)(((d >> 8) & 0xfff) | ((d >> 32) & ~0xfffull));
}

static uint32_t dev_minor(uint64_t d)
{
	return (uint32_t)((d & 0xff) | ((d >> 12) & ~0xffull));
}

static struct statx_timestamp stamp(uint64_t sec, uint64_t nsec)
{
	return (struct statx_timestamp){ (int64_t)sec, (uint32_t)nsec, 0 };
}

static long statx_out(uptr_t out, const struct myrmex_stat *m)
{
	struct linux_statx s;
	memset(&s, 0, sizeof(s));
	s.stx_mask = STATX_BASIC_STATS | STATX_MNT_ID;
	s.stx_blksize = (uint32_t)m->st_blksize;
	s.stx_nlink = (uint32_t)m->st_nlink;
	s.stx_uid = m->st_uid;
	s.stx_gid = m->st_gid;
	s.stx_mode = (uint16_t)m->st_mode;
	s.stx_ino = m->st_ino;
	s.stx_size = (uint64_t)m->st_size;
	s.stx_blocks = (uint64_t)m->st_blocks;
	s.stx_atime = stamp(m->st_atime_sec, m->st_atime_nsec);
	s.stx_mtime = stamp(m->st_mtime_sec, m->st_mtime_nsec);
	s.stx_ctime = stamp(m->st_ctime_sec, m->st_ctime_nsec);
	s.stx_rdev_major = dev_major(m->st_rdev);
	s.stx_rdev_minor = dev_minor(m->st_rdev);
	s.stx_dev_major = dev_major(m->st_dev);
	s.stx_dev_minor = dev_minor(m->st_dev);
	s.stx_mnt_id = STATX_DISK_MNT_ID + (m->st_dev != FS_ST_DEV_DISK);   /* the disk, or the file manager's own */
	return copy_to_user(out, &s, sizeof(s)) < 0 ? -EFAULT : 0;
}

/* Makes the call begun in f and copies its struct myrmex_stat to *m. */
static long fetch(struct fwd *f, struct myrmex_stat *m)
{
	long r = forward_call(f);
	if (r < 0)
		return r;
	if (!f->data || f->data_size < sizeof(*m))
		return -EIO;
	memcpy(m, forward_data(f), sizeof(*m));
	return 0;
}

/* AT_EMPTY_PATH with "": the descriptor itself, or the current directory. */
static long stat_empty(int64_t dirfd, struct myrmex_stat *m)
{
	struct fwd f;
	bool cwd = dirfd == AT_FDCWD;
	int err = forward_begin(&f, SERVICE_FILES, cwd ? FS_STAT : FS_FSTAT, FORWARD_SMALL_BYTES);
	if (err)
		return err;
	if (cwd)
		memcpy(forward_data(&f), ".", 2);
	else
		f.arg[0] = (uint64_t)dirfd;
	return fetch(&f, m);
}

long sys_statx(const struct syscall_args *a)
{
	int64_t dirfd = (int32_t)a->arg[0];
	uptr_t path = a->arg[1], out = a->arg[4];
	uint64_t flags = (uint32_t)a->arg[2], mask = (uint32_t)a->arg[3];
	char first;
	if (copy_from_user(&first, path, 1) < 0)
		return -EFAULT;
	bool empty = first == '\0';
	if (empty && !(flags & AT_EMPTY_PATH))
		return -ENOENT;
	if (mask & STATX_RESERVED)
		return -EINVAL;
	if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE)
		return -EINVAL;
	if (flags & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE))
		return -EINVAL;
	struct myrmex_stat m;
	long r;
	if (empty) {
		r = stat_empty(dirfd, &m);
	} else {
		struct path_call c;
		r = path_begin(&c, FS_STAT, path, 0, dirfd);
		if (r == 0) {
			if (flags & AT_SYMLINK_NOFOLLOW)
				c.f.arg[4] |= FS_AT_NOFOLLOW;
			r = fetch(&c.f, &m);
		}
	}
	return r < 0 ? r : statx_out(out, &m);
}
