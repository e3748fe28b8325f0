/*
 * The only kernel code that touches user memory. A fault inside
 * [usercopy_begin, usercopy_end) that the page-fault handler cannot resolve
 * resumes at usercopy_fault, which makes the copy return -EFAULT (-14).
 * With SMAP, user pages are reachable only between stac and clac.
 *
 * int arch_copy_from_user(void *dst, uptr_t src, size_t n)
 * int arch_copy_to_user(uptr_t dst, const void *src, size_t n)
 */
	.text
	.globl arch_copy_from_user, arch_copy_to_user
	.globl usercopy_begin, usercopy_end, usercopy_fault
usercopy_begin:
arch_copy_from_user:
arch_copy_to_user:
	cmpb $0, x86_smap_enabled(%rip)
	je 1f
	stac
1:	movq %rdx, %rcx
	shrq $3, %rcx
	rep movsq
	movq %rdx, %rcx
	andq $7, %rcx
	rep movsb
	xorl %eax, %eax
	jmp 2f
usercopy_fault:
	movl $-14, %eax
2:	cmpb $0, x86_smap_enabled(%rip)
	je 3f
	clac
3:	ret
usercopy_end:
