/*
 * statx: what it says of a regular file, a directory, a symbolic link
 * (followed and not), /dev/null and a pipe, each compared with stat's
 * answer (type and mode, links, owner, inode, size, blocks, block size,
 * times to the nanosecond, device numbers); the mask (STATX_BASIC_STATS);
 * AT_EMPTY_PATH on a descriptor and on the current directory; the sync
 * flags; bad flags, masks, paths and buffers.
 */
#include "posix_test.h"

#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

/* Linux's statx (<linux/stat.h>), which this musl does not declare. */
struct statx_timestamp {
	int64_t tv_sec;
	uint32_t tv_nsec;
	int32_t reserved;
};
struct statx {
	uint32_t stx_mask, stx_blksize;
	uint64_t stx_attributes;
	uint32_t stx_nlink, stx_uid, stx_gid;
	uint16_t stx_mode, pad1;
	uint64_t stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
	uint32_t stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
	uint64_t spare[14];
};
#define STATX_BASIC_STATS   0x7ffu
#define AT_STATX_FORCE_SYNC 0x2000
#define AT_STATX_DONT_SYNC  0x4000
#define AT_STATX_SYNC_TYPE  0x6000

static int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *buf)
{
	return (int)syscall(332 /* statx */, dirfd, path, flags, mask, buf);
}

static struct statx sx;

static const char *same_as_stat(const struct stat *st)
{
	static char why[128];
	why[0] = '\0';
#define SAME(a, b, name) if ((unsigned long long)(a) != (unsigned long long)(b)) strcat(why, " " name)
	SAME(sx.stx_mode, st->st_mode, "mode");
	SAME(sx.stx_nlink, st->st_nlink, "nlink");
	SAME(sx.stx_uid, st->st_uid, "uid");
	SAME(sx.stx_gid, st->st_gid, "gid");
	SAME(sx.stx_ino, st->st_ino, "ino");
	SAME(sx.stx_size, st->st_size, "size");
	SAME(sx.stx_blocks, st->st_blocks, "blocks");
	SAME(sx.stx_blksize, st->st_blksize, "blksize");
	SAME(sx.stx_atime.tv_sec, st->st_atim.tv_sec, "atime");
	SAME(sx.stx_atime.tv_nsec, st->st_atim.tv_nsec, "atime_nsec");
	SAME(sx.stx_mtime.tv_sec, st->st_mtim.tv_sec, "mtime");
	SAME(sx.stx_mtime.tv_nsec, st->st_mtim.tv_nsec, "mtime_nsec");
	SAME(sx.stx_ctime.tv_sec, st->st_ctim.tv_sec, "ctime");
	SAME(sx.stx_ctime.tv_nsec, st->st_ctim.tv_nsec, "ctime_nsec");
	SAME(sx.stx_dev_major, major(st->st_dev), "dev_major");
	SAME(sx.stx_dev_minor, minor(st->st_dev), "dev_minor");
	SAME(sx.stx_rdev_major, major(st->st_rdev), "rdev_major");
	SAME(sx.stx_rdev_minor, minor(st->st_rdev), "rdev_minor");
#undef SAME
	return why[0] ? why : " all";
}

static void show(const char *what, int dirfd, const char *path, int flags, const struct stat *st)
{
	memset(&sx, 0xa5, sizeof sx);
	errno = 0;
	if (statx(dirfd, path, flags, STATX_BASIC_STATS, &sx) < 0) {
		say("%s: error %s\n", what, err_name(errno));
		return;
	}
	say("%s: basic stats in the mask %s; the same as stat:%s\n", what,
	    yes((sx.stx_mask & STATX_BASIC_STATS) == STATX_BASIC_STATS), same_as_stat(st));
}

int main(void)
{
	mkdir("statx.scratch", 0755);
	int fd = open("statx.scratch/f", O_CREAT | O_RDWR, 0640);
	write(fd, "hello, statx\n", 13);
	symlink("f", "statx.scratch/link");
	struct stat st;

	stat("statx.scratch/f", &st);
	show("a regular file", AT_FDCWD, "statx.scratch/f", 0, &st);
	say("  mode %o, size %llu, links %u\n", sx.stx_mode, (unsigned long long)sx.stx_size, sx.stx_nlink);
	show("the same, AT_STATX_FORCE_SYNC", AT_FDCWD, "statx.scratch/f", AT_STATX_FORCE_SYNC, &st);
	show("the same, AT_STATX_DONT_SYNC", AT_FDCWD, "statx.scratch/f", AT_STATX_DONT_SYNC, &st);
	show("AT_EMPTY_PATH on its descriptor", fd, "", AT_EMPTY_PATH, &st);
	show("through the link", AT_FDCWD, "statx.scratch/link", 0, &st);
	lstat("statx.scratch/link", &st);
	show("the link, AT_SYMLINK_NOFOLLOW", AT_FDCWD, "statx.scratch/link", AT_SYMLINK_NOFOLLOW, &st);
	say("  a link %s, size %llu\n", yes(S_ISLNK(sx.stx_mode)), (unsigned long long)sx.stx_size);
	int dir = open("statx.scratch", O_RDONLY | O_DIRECTORY);
	stat("statx.scratch/f", &st);
	show("relative to a directory descriptor", dir, "f", 0, &st);
	stat("statx.scratch", &st);
	show("a directory", AT_FDCWD, "statx.scratch", 0, &st);
	say("  a directory %s\n", yes(S_ISDIR(sx.stx_mode)));
	chdir("statx.scratch");
	stat(".", &st);
	show("AT_EMPTY_PATH on AT_FDCWD (the current directory)", AT_FDCWD, "", AT_EMPTY_PATH, &st);
	chdir("..");
	stat("/dev/null", &st);
	show("/dev/null", AT_FDCWD, "/dev/null", 0, &st);
	say("  a character device %s, rdev %u:%u\n", yes(S_ISCHR(sx.stx_mode)), sx.stx_rdev_major, sx.stx_rdev_minor);
	int p[2];
	pipe(p);
	fstat(p[0], &st);
	memset(&sx, 0, sizeof sx);
	statx(p[0], "", AT_EMPTY_PATH, STATX_BASIC_STATS, &sx);
	say("a pipe by AT_EMPTY_PATH: a FIFO %s, mode as fstat's %s, inode as fstat's %s\n", yes(S_ISFIFO(sx.stx_mode)),
	    yes(sx.stx_mode == st.st_mode), yes(sx.stx_ino == st.st_ino));

	errno = 0;
	outcome("\"\" without AT_EMPTY_PATH", statx(AT_FDCWD, "", 0, STATX_BASIC_STATS, &sx));
	outcome("a missing file", statx(AT_FDCWD, "statx.scratch/none", 0, STATX_BASIC_STATS, &sx));
	outcome("a missing file, a bad buffer", statx(AT_FDCWD, "statx.scratch/none", 0, STATX_BASIC_STATS,
	                                             (struct statx *)8));
	outcome("a bad buffer", statx(AT_FDCWD, "statx.scratch/f", 0, STATX_BASIC_STATS, (struct statx *)8));
	outcome("a bad path pointer", statx(AT_FDCWD, (const char *)8, 0, STATX_BASIC_STATS, &sx));
	outcome("unknown flags", statx(AT_FDCWD, "statx.scratch/f", 0x40000, STATX_BASIC_STATS, &sx));
	outcome("both sync flags", statx(AT_FDCWD, "statx.scratch/f", AT_STATX_SYNC_TYPE, STATX_BASIC_STATS, &sx));
	outcome("STATX__RESERVED in the mask", statx(AT_FDCWD, "statx.scratch/f", 0, 0x80000000u, &sx));
	outcome("mask 0", statx(AT_FDCWD, "statx.scratch/f", 0, 0, &sx));
	outcome("a bad directory descriptor", statx(999, "f", 0, STATX_BASIC_STATS, &sx));
	outcome("a file as the directory", statx(fd, "f", 0, STATX_BASIC_STATS, &sx));
	outcome("AT_EMPTY_PATH on a bad descriptor", statx(999, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &sx));
	outcome("a path through a file", statx(AT_FDCWD, "statx.scratch/f/x", 0, STATX_BASIC_STATS, &sx));
	close(p[0]);
	close(p[1]);
	close(dir);
	close(fd);
	rm_tree("statx.scratch");
	return 0;
}
