/*
 * Copying between the kernel and user space. Every user pointer and length
 * is checked here before the access: the range must lie wholly below
 * ARCH_USER_TOP without wrapping. The access itself may still fault (an
 * unmapped page); the fault handler then makes the copy return -EFAULT.
 */
#ifndef KERNEL_USERCOPY_H
#define KERNEL_USERCOPY_H

#include <kernel/types.h>
#include <kernel/arch.h>

static inline bool user_range_ok(uptr_t p, uint64_t n)
{
	return p < ARCH_USER_TOP && n <= ARCH_USER_TOP - p;
}

/* 0 or -EFAULT. */
int copy_from_user(void *dst, uptr_t src, uint64_t n);
int copy_to_user(uptr_t dst, const void *src, uint64_t n);
/* Copies a NUL-terminated string of at most max-1 characters into dst.
 * Returns its length, -EFAULT, or -E2BIG when no NUL is found in max bytes. */
long copy_string_from_user(char *dst, uptr_t src, uint64_t max);

#endif
