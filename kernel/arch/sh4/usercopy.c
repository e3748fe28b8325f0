/*
 * Copies between the kernel and user space through sh4_copy (usercopy.S),
 * whose faults the trap handler turns into -EFAULT. The kernel reaches U0
 * through the TLB under the current ASID, as the user does.
 */
#include <kernel/arch.h>

int sh4_copy(void *dst, const void *src, uint32_t n);

int arch_copy_from_user(void *dst, uptr_t src, size_t n)
{
	return sh4_copy(dst, (const void *)(uintptr_t)src, (uint32_t)n);
}

int arch_copy_to_user(uptr_t dst, const void *src, size_t n)
{
	return sh4_copy((void *)(uintptr_t)dst, src, (uint32_t)n);
}
