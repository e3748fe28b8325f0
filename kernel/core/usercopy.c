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
