/*
 * Checked copies between kernel and user space (see kernel/usercopy.h).
 */
#include <kernel/usercopy.h>
#include <kernel/errno.h>
#include <kernel/stats.h>

int copy_from_user(void *dst, uptr_t src, uint64_t n)
{
	if (!user_range_ok(src, n))
		return -EFAULT;
	STAT_ADD(bytes_copied, n);
	return arch_copy_from_user(dst, src, n);
}

int copy_to_user(uptr_t dst, const void *src, uint64_t n)
{
	if (!user_range_ok(dst, n))
		return -EFAULT;
	STAT_ADD(bytes_copied, n);
	return arch_copy_to_user(dst, src, n);
}

long copy_string_from_user(char *dst, uptr_t src, uint64_t max)
{
	uint64_t done = 0;
	while (done < max) {
		/* Never read past the end of the page the string is on so far. */
		uint64_t chunk = MIN(max - done, PAGE_SIZE - ((src + done) & PAGE_MASK));
		if (copy_from_user(dst + done, src + done, chunk) < 0)
			return -EFAULT;
		for (uint64_t i = 0; i < chunk; i++)
			if (dst[done + i] == '\0')
				return (long)(done + i);
		done += chunk;
	}
	return -E2BIG;
}

int user_iovecs_check(uptr_t iov, uint64_t count)
{
	if ((int64_t)count < 0 || count > USER_IOV_MAX)
		return -EINVAL;
	uint64_t total = 0;
	for (uint64_t i = 0; i < count; i++) {
		struct user_iovec v;
		if (copy_from_user(&v, iov + i * sizeof(v), sizeof(v)) < 0)
			return -EFAULT;
		if ((int64_t)v.len < 0 || v.len > INT64_MAX - total)
			return -EINVAL;
		if (!user_range_ok(v.base, v.len))
			return -EFAULT;
		total += v.len;
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
		struct user_iovec v;
		if (copy_from_user(&v, iov + i * sizeof(v), sizeof(v)) < 0)
			return done ? done : -EFAULT;
		if (v.len == 0)
			continue;
		long r = move(v.base, v.len, ctx);
		if (r < 0)
			return done ? done : r;
		done += r;
		if ((uint64_t)r < v.len)
			break;
	}
	return done;
}
