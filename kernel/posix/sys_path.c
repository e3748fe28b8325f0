/*
 * Linux calls that name a path, forwarded to the file manager (docs/posix.md):
 * open/openat/creat, stat/lstat/newfstatat, mkdir(at), rmdir, unlink(at),
 * rename(at/at2), access/faccessat(2), readlink(at), chdir/fchdir, getcwd,
 * and umask, which the kernel keeps (it applies it to the
 * modes of open and mkdir before they leave). A path travels in the data
 * ICA; "*at" calls pass the directory descriptor (FS_AT_DIRFD) unless it is
 * AT_FDCWD.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <posix/forward.h>
#include <posix/path_call.h>
#include <posix/posix.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>
#include <myrmex/fs.h>
#include <arch/linux_abi.h>

#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_REMOVEDIR        0x200
#define AT_EACCESS          0x200
#define AT_NO_AUTOMOUNT     0x800
#define AT_EMPTY_PATH       0x1000
#define O_CREAT  0100
#define O_WRONLY 01
#define O_TRUNC  01000

static long copy_path(char *dst, uptr_t path, uint64_t room)
{
	long n = copy_string_from_user(dst, path, MIN(room, FS_PATH_MAX));
	if (n == -E2BIG)
		return -ENAMETOOLONG;
	return n;
}

int path_begin(struct path_call *c, uint32_t opcode, uptr_t path, uptr_t second, int64_t dirfd)
{
	int err = forward_begin(&c->f, SERVICE_FILES, opcode,
	                        second ? FORWARD_LARGE_BYTES : FORWARD_SMALL_BYTES);
	if (err)
		return err;
	char *data = forward_data(&c->f);
	long n = copy_path(data, path, c->f.data_size);
	if (n < 0)
		return (int)n;
	if (n == 0)
		return -ENOENT;
	c->used = (uint32_t)n + 1;
	if (second) {
		long m = copy_path(data + c->used, second, c->f.data_size - c->used);
		if (m < 0)
			return (int)m;
		if (m == 0)
			return -ENOENT;
		c->used += (uint32_t)m + 1;
	}
	if (dirfd != AT_FDCWD) {
		c->f.arg[3] = (uint64_t)dirfd;
		c->f.arg[4] = FS_AT_DIRFD;
	}
	return 0;
}

static unsigned umask_of_caller(void)
{
	return current_thread()->proc->px->umask;
}

static long do_open(int64_t dirfd, uptr_t path, uint64_t flags, uint64_t mode)
{
	struct path_call c;
	int err = path_begin(&c, FS_OPEN, path, 0, dirfd);
	if (err)
		return err;
	c.f.arg[0] = flags;
	c.f.arg[1] = mode & 07777 & ~(uint64_t)umask_of_caller();
	long fd = forward_call(&c.f);
	if (fd >= 0)
		posix_fd_made((uint64_t)fd, c.f.res[FS_RESULT_KIND]);   /* its first read knows */
	return fd;
}

long sys_open(const struct syscall_args *a)
{
	return do_open(AT_FDCWD, a->arg[0], a->arg[1], a->arg[2]);
}

long sys_openat(const struct syscall_args *a)
{
	return do_open((int32_t)a->arg[0], a->arg[1], a->arg[2], a->arg[3]);
}

long sys_creat(const struct syscall_args *a)
{
	return do_open(AT_FDCWD, a->arg[0], O_CREAT | O_WRONLY | O_TRUNC, a->arg[1]);
}

static long do_stat(int64_t dirfd, uptr_t path, uptr_t out, uint64_t at_flags)
{
	if (at_flags & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH))
		return -EINVAL;
	if (!user_range_ok(out, sizeof(struct linux_stat)))
		return -EFAULT;
	char first;
	bool cwd_itself = false;
	if ((at_flags & AT_EMPTY_PATH) && copy_from_user(&first, path, 1) == 0 && first == '\0') {
		struct syscall_args fa = { .arg = { (uint64_t)dirfd, out } };
		if (dirfd != AT_FDCWD)
			return sys_fstat(&fa);
		cwd_itself = true;   /* as Linux: the current directory */
	}
	struct path_call c;
	int err = cwd_itself ? forward_begin(&c.f, SERVICE_FILES, FS_STAT, FORWARD_SMALL_BYTES)
	                     : path_begin(&c, FS_STAT, path, 0, dirfd);
	if (err)
		return err;
	if (cwd_itself) {
		*(char *)forward_data(&c.f) = '\0';
		c.f.arg[4] = FS_AT_EMPTY_PATH;
	}
	if (at_flags & AT_SYMLINK_NOFOLLOW)
		c.f.arg[4] |= FS_AT_NOFOLLOW;
	long r = forward_call(&c.f);
	if (r < 0)
		return r;
	if (!c.f.data)
		return -EIO;
	struct myrmex_stat m;
	memcpy(&m, forward_data(&c.f), sizeof(m));
	return posix_stat_out(out, &m);
}

long sys_stat(const struct syscall_args *a)
{
	return do_stat(AT_FDCWD, a->arg[0], a->arg[1], 0);
}

long sys_lstat(const struct syscall_args *a)
{
	return do_stat(AT_FDCWD, a->arg[0], a->arg[1], AT_SYMLINK_NOFOLLOW);
}

long sys_newfstatat(const struct syscall_args *a)
{
	return do_stat((int32_t)a->arg[0], a->arg[1], a->arg[2], a->arg[3]);
}

/* A path call whose only result is the status. */
static long simple_path(uint32_t opcode, int64_t dirfd, uptr_t path, uptr_t second, uint64_t a0)
{
	struct path_call c;
	int err = path_begin(&c, opcode, path, second, dirfd);
	if (err)
		return err;
	c.f.arg[0] = a0;
	return forward_call(&c.f);
}

long sys_mkdir(const struct syscall_args *a)
{
	return simple_path(FS_MKDIR, AT_FDCWD, a->arg[0], 0, a->arg[1] & 07777 & ~(uint64_t)umask_of_caller());
}

long sys_mkdirat(const struct syscall_args *a)
{
	return simple_path(FS_MKDIR, (int32_t)a->arg[0], a->arg[1], 0,
	                   a->arg[2] & 07777 & ~(uint64_t)umask_of_caller());
}

long sys_rmdir(const struct syscall_args *a)
{
	return simple_path(FS_RMDIR, AT_FDCWD, a->arg[0], 0, 0);
}

long sys_unlink(const struct syscall_args *a)
{
	return simple_path(FS_UNLINK, AT_FDCWD, a->arg[0], 0, 0);
}

long sys_unlinkat(const struct syscall_args *a)
{
	uint64_t flags = a->arg[2];
	if (flags & ~(uint64_t)AT_REMOVEDIR)
		return -EINVAL;
	return simple_path(flags ? FS_RMDIR : FS_UNLINK, (int32_t)a->arg[0], a->arg[1], 0, 0);
}

long sys_rename(const struct syscall_args *a)
{
	return simple_path(FS_RENAME, AT_FDCWD, a->arg[0], a->arg[1], 0);
}

/* renameat: both paths are resolved against one directory; two different
 * directory descriptors are refused unless both paths are absolute. */
static long do_renameat(int64_t olddir, uptr_t oldpath, int64_t newdir, uptr_t newpath)
{
	if (olddir != newdir) {
		char o, n;
		if (copy_from_user(&o, oldpath, 1) < 0 || copy_from_user(&n, newpath, 1) < 0)
			return -EFAULT;
		if (o != '/' || n != '/')
			return -EXDEV;
		olddir = AT_FDCWD;
	}
	return simple_path(FS_RENAME, olddir, oldpath, newpath, 0);
}

long sys_renameat(const struct syscall_args *a)
{
	return do_renameat((int32_t)a->arg[0], a->arg[1], (int32_t)a->arg[2], a->arg[3]);
}

long sys_renameat2(const struct syscall_args *a)
{
	if (a->arg[4])
		return -EINVAL;   /* RENAME_NOREPLACE / EXCHANGE / WHITEOUT: not offered */
	return do_renameat((int32_t)a->arg[0], a->arg[1], (int32_t)a->arg[2], a->arg[3]);
}

static long do_access(int64_t dirfd, uptr_t path, uint64_t mode, uint64_t flags)
{
	if (mode & ~7ull || flags & ~(uint64_t)(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	struct path_call c;
	int err = path_begin(&c, FS_ACCESS, path, 0, dirfd);
	if (err)
		return err;
	c.f.arg[0] = mode;
	c.f.real_ids = !(flags & AT_EACCESS);   /* as Linux: the real ids, unless AT_EACCESS */
	return forward_call(&c.f);
}

long sys_access(const struct syscall_args *a)
{
	return do_access(AT_FDCWD, a->arg[0], a->arg[1], 0);
}

long sys_faccessat(const struct syscall_args *a)
{
	return do_access((int32_t)a->arg[0], a->arg[1], a->arg[2], 0);
}

long sys_faccessat2(const struct syscall_args *a)
{
	return do_access((int32_t)a->arg[0], a->arg[1], a->arg[2], a->arg[3]);
}

static long do_readlink(int64_t dirfd, uptr_t path, uptr_t buf, int64_t size)
{
	if (size <= 0)
		return -EINVAL;
	if (!user_range_ok(buf, (uint64_t)size))
		return -EFAULT;
	struct path_call c;
	int err = path_begin(&c, FS_READLINK, path, 0, dirfd);
	if (err)
		return err;
	long r = forward_call(&c.f);
	if (r < 0)
		return r;
	if ((uint64_t)r > c.f.data_size || !c.f.data)
		return -EIO;
	uint64_t n = MIN((uint64_t)r, (uint64_t)size);
	return copy_to_user(buf, forward_data(&c.f), n) < 0 ? -EFAULT : (long)n;
}

long sys_readlink(const struct syscall_args *a)
{
	return do_readlink(AT_FDCWD, a->arg[0], a->arg[1], (int64_t)a->arg[2]);
}

long sys_readlinkat(const struct syscall_args *a)
{
	return do_readlink((int32_t)a->arg[0], a->arg[1], a->arg[2], (int64_t)a->arg[3]);
}

long sys_chdir(const struct syscall_args *a)
{
	return simple_path(FS_CHDIR, AT_FDCWD, a->arg[0], 0, 0);
}

long sys_fchdir(const struct syscall_args *a)
{
	return posix_fs_call(FS_CHDIR, 1, a->arg[0], 0, NULL);
}

long sys_getcwd(const struct syscall_args *a)
{
	uptr_t buf = a->arg[0];
	uint64_t size = a->arg[1];
	if (size == 0)
		return -EINVAL;
	if (!user_range_ok(buf, size))
		return -EFAULT;
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_GETCWD, FORWARD_SMALL_BYTES);
	if (err)
		return err;
	f.arg[0] = MIN(size, FORWARD_SMALL_BYTES);
	long r = forward_call(&f);
	if (r < 0)
		return r;
	if (r == 0 || (uint64_t)r > f.arg[0] || !f.data)
		return -EIO;
	return copy_to_user(buf, forward_data(&f), (uint64_t)r) < 0 ? -EFAULT : r;
}

long sys_umask(const struct syscall_args *a)
{
	struct process *p = current_thread()->proc;
	unsigned old = p->px->umask;
	p->px->umask = (unsigned)a->arg[0] & 0777;
	return old;
}

