/*
 * memcpy, memmove and memset for the kernel, with the string instructions
 * (fast on CPUs with ERMS, and far fewer executed instructions than a byte
 * loop: page zeroing is on the ICA and page-fault paths). Each port supplies
 * these three; kernel/core/string.c has the rest.
 */
	.text
	.globl memcpy, memmove, memset

/* void *memcpy(void *dst, const void *src, size_t n): quadwords, then bytes. */
memcpy:
	movq %rdi, %rax
	movq %rdx, %rcx
	shrq $3, %rcx
	rep movsq
	movq %rdx, %rcx
	andq $7, %rcx
	rep movsb
	ret

/* void *memmove(void *dst, const void *src, size_t n): backwards when the
 * destination overlaps the source from above. */
memmove:
	movq %rdi, %rax
	movq %rdx, %rcx
	cmpq %rsi, %rdi
	jbe 1f
	leaq (%rsi, %rdx), %r8
	cmpq %r8, %rdi
	jae 1f
	leaq -1(%rdi, %rdx), %rdi
	leaq -1(%rsi, %rdx), %rsi
	std
	rep movsb
	cld
	ret
1:	rep movsb
	ret

/* void *memset(void *dst, int c, size_t n): the byte spread over a quadword,
 * stored by quadwords, then the remaining bytes. */
memset:
	movq %rdi, %r9
	movzbl %sil, %eax
	movabsq $0x0101010101010101, %r8
	imulq %r8, %rax
	movq %rdx, %rcx
	shrq $3, %rcx
	rep stosq
	movq %rdx, %rcx
	andq $7, %rcx
	rep stosb
	movq %r9, %rax
	ret
