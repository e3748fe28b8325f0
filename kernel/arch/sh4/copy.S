/*
 * sh4_copy(void *dst, const void *src, uint32_t n): the one routine that
 * touches user memory for the kernel (usercopy.c wraps it). A TLB miss or
 * protection fault between sh4_usercopy_begin and sh4_usercopy_end that
 * the fault handler cannot resolve resumes at sh4_usercopy_fault, which
 * returns -EFAULT to the caller: the routine is a leaf, so pr still holds
 * the return address. Words when all three are multiples of 4, else bytes.
 */
	.text
	.globl sh4_copy, sh4_usercopy_begin, sh4_usercopy_end, sh4_usercopy_fault
	.balign 4
sh4_usercopy_begin:
sh4_copy:
	tst r6, r6
	bt 3f
	mov r4, r0
	or r5, r0
	or r6, r0
	tst #3, r0
	bf 2f
	shlr2 r6
1:	mov.l @r5+, r0
	dt r6
	mov.l r0, @r4
	bf/s 1b
	add #4, r4
	bra 3f
	nop
2:	mov.b @r5+, r0
	dt r6
	mov.b r0, @r4
	bf/s 2b
	add #1, r4
3:	rts
	mov #0, r0
sh4_usercopy_end:
sh4_usercopy_fault:
	rts
	mov #-14, r0                /* -EFAULT */
