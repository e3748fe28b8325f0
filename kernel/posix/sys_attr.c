/*
 * Linux calls that change a file's attributes, forwarded to the file
 * manager (docs/posix.md): chmod/fchmod/fchmodat and chown/fchown/lchown/
 * fchownat (FS_SETATTR), truncate by path (FS_SETATTR with the size), and
 * utimensat, futimesat, utimes and utime (FS_UTIMES). A call on a
 * descriptor (fchmod, fchown, futimens, AT_EMPTY_PATH) sends an empty path
 * with FS_AT_EMPTY_PATH and the descriptor in arg[3]. Times are checked
 * here where Linux checks them before the lookup (a bad pointer, utimes'
 * microseconds); the nanoseconds of utimensat after it, in the file manager.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/usercopy.h>
#include <posix/path_call.h>
#include <myrmex/fs.h>
#include <arch/linux_abi.h>

#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_EMPTY_PATH       0x1000

/* The call names descriptor fd itself (AT_FDCWD: the current directory). */
static int fd_begin(struct path_call *c, uint32_t opcode, int64_t fd)
{
	int err = forward_begin(&c->f, SERVICE_FILES, opcode, 1);
	if (err)
		return err;
	*(char *)forward_data(&c->f) = '\0';
	c->used = 1;
	c->f.arg[3] = (uint64_t)fd;
	c->f.arg[4] = FS_AT_DIRFD | FS_AT_EMPTY_PATH;
	return 0;
}

/* The call names path from dirfd, or with AT_EMPTY_PATH and an empty path
 * dirfd itself; AT_SYMLINK_NOFOLLOW: a link as the last name itself. */
static int attr_begin(struct path_call *c, uint32_t opcode, int64_t dirfd, uptr_t path,
                      uint64_t at_flags)
{
	char first;
	if ((at_flags & AT_EMPTY_PATH) && copy_from_user(&first, path, 1) == 0 && first == '\0')
		return fd_begin(c, opcode, dirfd);
	int err = path_begin(c, opcode, path, 0, dirfd);
	if (err)
		return err;
	if (at_flags & AT_SYMLINK_NOFOLLOW)
		c->f.arg[4] |= FS_AT_NOFOLLOW;
	return 0;
}

/* A descriptor argument: Linux's unsigned int; a negative one is none. */
static bool bad_fd(uint64_t fd)
{
	return (int32_t)fd < 0;
}

static long setattr(struct path_call *c, uint64_t what, uint64_t value, uint64_t uid, uint64_t gid)
{
	c->f.arg[0] = what;
	c->f.arg[1] = value;
	c->f.arg[2] = uid;
	c->f.arg[5] = gid;
	return forward_call(&c->f);
}

static long do_chmod(int64_t dirfd, uptr_t path, uint64_t mode)
{
	struct path_call c;
	int err = attr_begin(&c, FS_SETATTR, dirfd, path, 0);
	return err ? err : setattr(&c, FS_SETATTR_MODE, mode & 07777, 0, 0);
}

long sys_chmod(const struct syscall_args *a)
{
	return do_chmod(AT_FDCWD, a->arg[0], a->arg[1]);
}

/* fchmodat has no flags argument (Linux's fchmodat2 has). */
long sys_fchmodat(const struct syscall_args *a)
{
	return do_chmod((int32_t)a->arg[0], a->arg[1], a->arg[2]);
}

long sys_fchmod(const struct syscall_args *a)
{
	if (bad_fd(a->arg[0]))
		return -EBADF;
	struct path_call c;
	int err = fd_begin(&c, FS_SETATTR, (uint32_t)a->arg[0]);
	return err ? err : setattr(&c, FS_SETATTR_MODE, a->arg[1] & 07777, 0, 0);
}

/* uid_t and gid_t are 32 bits: -1 (0xffffffff) leaves that id. */
static long do_chown(int64_t dirfd, uptr_t path, uint64_t uid, uint64_t gid, uint64_t flags)
{
	if (flags & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	struct path_call c;
	int err = attr_begin(&c, FS_SETATTR, dirfd, path, flags);
	return err ? err : setattr(&c, FS_SETATTR_OWNER, 0, (uint32_t)uid, (uint32_t)gid);
}

long sys_chown(const struct syscall_args *a)
{
	return do_chown(AT_FDCWD, a->arg[0], a->arg[1], a->arg[2], 0);
}

long sys_lchown(const struct syscall_args *a)
{
	return do_chown(AT_FDCWD, a->arg[0], a->arg[1], a->arg[2], AT_SYMLINK_NOFOLLOW);
}

long sys_fchownat(const struct syscall_args *a)
{
	return do_chown((int32_t)a->arg[0], a->arg[1], a->arg[2], a->arg[3], a->arg[4]);
}

long sys_fchown(const struct syscall_args *a)
{
	if (bad_fd(a->arg[0]))
		return -EBADF;
	struct path_call c;
	int err = fd_begin(&c, FS_SETATTR, (uint32_t)a->arg[0]);
	return err ? err : setattr(&c, FS_SETATTR_OWNER, 0, (uint32_t)a->arg[1], (uint32_t)a->arg[2]);
}

/* truncate: the length is checked before the path, as Linux does. */
long sys_truncate(const struct syscall_args *a)
{
	if ((int64_t)a->arg[1] < 0)
		return -EINVAL;
	struct path_call c;
	int err = attr_begin(&c, FS_SETATTR, AT_FDCWD, a->arg[0], 0);
	return err ? err : setattr(&c, FS_SETATTR_SIZE, a->arg[1], 0, 0);
}

/* FS_UTIMES of path (0: descriptor dirfd itself) with times t (both
 * FS_UTIME_NOW when the caller gave none). */
static long do_utimes(int64_t dirfd, uptr_t path, const struct linux_timespec t[2], uint64_t flags)
{
	struct path_call c;
	int err;
	if (!path) {
		/* No path: the descriptor (Linux's do_utimes_fd); with AT_FDCWD
		 * there is none, and the missing path is a bad pointer. */
		if (dirfd == AT_FDCWD)
			return -EFAULT;
		if (flags)
			return -EINVAL;
		if (bad_fd((uint64_t)dirfd))
			return -EBADF;
		err = fd_begin(&c, FS_UTIMES, dirfd);
	} else {
		if (flags & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
			return -EINVAL;
		err = attr_begin(&c, FS_UTIMES, dirfd, path, flags);
	}
	if (err)
		return err;
	c.f.arg[0] = (uint64_t)t[0].sec;
	c.f.arg[1] = (uint64_t)t[0].nsec;
	c.f.arg[2] = (uint64_t)t[1].sec;
	c.f.arg[5] = (uint64_t)t[1].nsec;
	return forward_call(&c.f);
}

static const struct linux_timespec now_both[2] = {
	{ .nsec = FS_UTIME_NOW }, { .nsec = FS_UTIME_NOW },
};

long sys_utimensat(const struct syscall_args *a)
{
	struct linux_timespec t[2];
	uptr_t times = a->arg[2];
	if (!times)
		return do_utimes((int32_t)a->arg[0], a->arg[1], now_both, a->arg[3]);
	if (copy_from_user(t, times, sizeof(t)) < 0)
		return -EFAULT;
	if (t[0].nsec == FS_UTIME_OMIT && t[1].nsec == FS_UTIME_OMIT)
		return 0;   /* as Linux: nothing to do, the path is not even looked at */
	return do_utimes((int32_t)a->arg[0], a->arg[1], t, a->arg[3]);
}

/* futimesat and utimes: struct timeval, microseconds checked first. */
static long timeval_utimes(int64_t dirfd, uptr_t path, uptr_t times)
{
	if (!times)
		return do_utimes(dirfd, path, now_both, 0);
	struct linux_timeval v[2];
	if (copy_from_user(v, times, sizeof(v)) < 0)
		return -EFAULT;
	struct linux_timespec t[2];
	for (int i = 0; i < 2; i++) {
		if (v[i].usec < 0 || v[i].usec >= 1000000)
			return -EINVAL;
		t[i].sec = v[i].sec;
		t[i].nsec = v[i].usec * 1000;
	}
	return do_utimes(dirfd, path, t, 0);
}

long sys_futimesat(const struct syscall_args *a)
{
	return timeval_utimes((int32_t)a->arg[0], a->arg[1], a->arg[2]);
}

long sys_utimes(const struct syscall_args *a)
{
	return timeval_utimes(AT_FDCWD, a->arg[0], a->arg[1]);
}

/* utime: struct utimbuf, two longs of seconds. */
long sys_utime(const struct syscall_args *a)
{
	if (!a->arg[1])
		return do_utimes(AT_FDCWD, a->arg[0], now_both, 0);
	linux_ulong b[2];
	if (copy_from_user(b, a->arg[1], sizeof(b)) < 0)
		return -EFAULT;
	struct linux_timespec t[2] = { { .sec = (int64_t)(long)b[0] }, { .sec = (int64_t)(long)b[1] } };
	return do_utimes(AT_FDCWD, a->arg[0], t, 0);
}
