/*
 * Linux calls that add a name, forwarded to the file manager (docs/posix.md):
 * link/linkat (FS_LINK: a hard link) and symlink/symlinkat (FS_SYMLINK).
 * Both paths travel in the data ICA, one after the other; linkat's two
 * directory descriptors each reach the file manager (arg[3] for the old
 * path, arg[2] for the new one).
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <posix/path_call.h>
#include <myrmex/fs.h>

#define AT_SYMLINK_FOLLOW 0x400
#define AT_EMPTY_PATH     0x1000

/* linkat: AT_EMPTY_PATH is accepted as a flag, but an empty old path still
 * names nothing (-ENOENT), as for a caller without CAP_DAC_READ_SEARCH. */
static long do_link(int64_t olddir, uptr_t oldpath, int64_t newdir, uptr_t newpath, uint64_t flags)
{
	if (flags & ~(uint64_t)(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	struct path_call c;
	int err = path_begin(&c, FS_LINK, oldpath, newpath, olddir);
	if (err)
		return err;
	c.f.arg[0] = flags & AT_SYMLINK_FOLLOW ? FS_LINK_FOLLOW : 0;
	c.f.arg[1] = 1;
	c.f.arg[2] = (uint64_t)newdir;
	return forward_call(&c.f);
}

long sys_link(const struct syscall_args *a)
{
	return do_link(AT_FDCWD, a->arg[0], AT_FDCWD, a->arg[1], 0);
}

long sys_linkat(const struct syscall_args *a)
{
	return do_link((int32_t)a->arg[0], a->arg[1], (int32_t)a->arg[2], a->arg[3], a->arg[4]);
}

/* The new link's path goes first (the path the file manager resolves),
 * its target second (stored as it is, never resolved here). */
static long do_symlink(uptr_t target, int64_t newdir, uptr_t linkpath)
{
	struct path_call c;
	int err = path_begin(&c, FS_SYMLINK, linkpath, target, newdir);
	if (err)
		return err;
	return forward_call(&c.f);
}

long sys_symlink(const struct syscall_args *a)
{
	return do_symlink(a->arg[0], AT_FDCWD, a->arg[1]);
}

long sys_symlinkat(const struct syscall_args *a)
{
	return do_symlink(a->arg[0], (int32_t)a->arg[1], a->arg[2]);
}
