/*
 * readv/writev vectors (see posix/iovec.h), in the layout of the port's
 * Linux ABI.
 */
#include <posix/iovec.h>
#include <kernel/errno.h>
#include <kernel/usercopy.h>
#include <arch/linux_abi.h>

/* Entry i of the array at iov: 0 or -EFAULT. */
static int read_entry(uptr_t iov, uint64_t i, uptr_t *base, uint64_t *len)
{
	struct linux_iovec v;
	if (copy_from_user(&v, iov + i * sizeof(v), sizeof(v)) < 0)
		return -EFAULT;
	*base = v.base;
	*len = v.len;
	return 0;
}

int user_iovecs_check(uptr_t iov, uint64_t count)
{
	if ((int64_t)count < 0 || count > USER_IOV_MAX)
		return -EINVAL;
	uint64_t total = 0;
	for (uint64_t i = 0; i < count; i++) {
		uptr_t base;
		uint64_t len;
		if (read_entry(iov, i, &base, &len) < 0)
			return -EFAULT;
		if ((int64_t)len < 0 || len > INT64_MAX - total)
			return -EINVAL;
		if (!user_range_ok(base, len))
			return -EFAULT;
		total += len;
	}
	return 0;
}

long user_iovecs_move(uptr_t iov, uint64_t count,
                      long (*move)(uptr_t base, uint64_t len, void *ctx), void *ctx)
{
	int err = user_iovecs_check(iov, count);
	if (err)
		return err;
	long done = 0;
	for (uint64_t i = 0; i < count; i++) {
		uptr_t base;
		uint64_t len;
		if (read_entry(iov, i, &base, &len) < 0)
			return done ? done : -EFAULT;
		if (len == 0)
			continue;
		long r = move(base, len, ctx);
		if (r < 0)
			return done ? done : r;
		done += r;
		if ((uint64_t)r < len)
			break;
	}
	return done;
}
