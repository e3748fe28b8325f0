/*
 * Boot entry. QEMU's -kernel loads the flat image at 1 MiB through the
 * Multiboot (version 1) header below, using its address fields, and enters
 * _start32 in 32-bit protected mode with paging off, EAX = the Multiboot
 * magic and EBX = the physical address of the Multiboot information.
 *
 * This code builds temporary page tables that map the first GiB three times:
 * at 0 (identity, so that enabling paging does not pull the floor out), at
 * KERNEL_VMA (where the kernel is linked) and at the direct map's base (so
 * that the page allocator can start before the real tables exist); it enters
 * long mode, jumps to the
 * higher half and calls kmain(magic, info). kmain then builds the real page
 * tables and drops the identity map.
 */
#define KERNEL_VMA 0xffffffff80000000
#define PHYS(sym) ((sym) - KERNEL_VMA)

#define MB_MAGIC 0x1badb002
#define MB_FLAGS 0x00010003    /* page-align modules, memory map, address fields valid */

	.section .multiboot, "a"
	.balign 4
multiboot_header:
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)
	.long PHYS(multiboot_header)   /* header_addr */
	.long PHYS(__kernel_start)     /* load_addr */
	.long PHYS(__load_end)         /* load_end_addr */
	.long PHYS(__bss_end)          /* bss_end_addr */
	.long PHYS(_start32)           /* entry_addr */

	.section .text.boot, "ax"
	.code32
	.globl _start32
_start32:
	cli
	movl $PHYS(boot_stack_top), %esp
	movl %eax, PHYS(boot_magic)
	movl %ebx, PHYS(boot_info_pa)

	/* Long mode needs CPUID leaf 0x80000001 EDX bit 29. */
	movl $0x80000000, %eax
	cpuid
	cmpl $0x80000001, %eax
	jb no_long_mode
	movl $0x80000001, %eax
	cpuid
	testl $(1 << 29), %edx
	jz no_long_mode

	/* PML4[0] and PML4[511] -> PDPTs; both PDPTs -> one PD of 2 MiB pages. */
	movl $PHYS(boot_pdpt_low), %eax
	orl $0x3, %eax
	movl %eax, PHYS(boot_pml4)
	movl %eax, PHYS(boot_pml4) + 256 * 8   /* the direct map's first GiB, for pmm_init */
	movl $PHYS(boot_pdpt_high), %eax
	orl $0x3, %eax
	movl %eax, PHYS(boot_pml4) + 511 * 8
	movl $PHYS(boot_pd), %eax
	orl $0x3, %eax
	movl %eax, PHYS(boot_pdpt_low)
	movl %eax, PHYS(boot_pdpt_high) + 510 * 8
	xorl %ecx, %ecx
1:	movl %ecx, %eax
	shll $21, %eax
	orl $0x83, %eax                /* present, writable, 2 MiB */
	movl %eax, PHYS(boot_pd)(, %ecx, 8)
	incl %ecx
	cmpl $512, %ecx
	jne 1b

	movl %cr4, %eax
	orl $(1 << 5), %eax            /* PAE */
	movl %eax, %cr4
	movl $PHYS(boot_pml4), %eax
	movl %eax, %cr3
	movl $0xc0000080, %ecx         /* EFER: long mode enable, no-execute enable */
	rdmsr
	orl $((1 << 8) | (1 << 11)), %eax
	wrmsr
	movl %cr0, %eax
	orl $((1 << 31) | (1 << 16) | 1), %eax   /* paging, write protect, protection */
	movl %eax, %cr0

	lgdt PHYS(boot_gdt_ptr)
	ljmp $0x08, $PHYS(long_mode_entry)

no_long_mode:
	/* Say so on COM1 and stop. */
	movl $PHYS(no_long_mode_msg), %esi
2:	movb (%esi), %al
	testb %al, %al
	jz 3f
	movw $0x3f8, %dx
	outb %al, %dx
	incl %esi
	jmp 2b
3:	hlt
	jmp 3b

	.code64
long_mode_entry:
	movabsq $higher_half, %rax
	jmp *%rax

	.text
higher_half:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	xorw %ax, %ax
	movw %ax, %fs
	movw %ax, %gs
	movabsq $boot_stack_top, %rsp
	xorl %ebp, %ebp
	movl PHYS(boot_magic) + KERNEL_VMA, %edi
	movl PHYS(boot_info_pa) + KERNEL_VMA, %esi
	call kmain
4:	hlt
	jmp 4b

	.section .rodata
no_long_mode_msg:
	.asciz "Myrmex needs an x86-64 (long mode) CPU\r\n"
	.balign 8
boot_gdt:
	.quad 0
	.quad 0x00209a0000000000      /* 0x08: 64-bit kernel code */
	.quad 0x0000920000000000      /* 0x10: kernel data */
boot_gdt_end:
boot_gdt_ptr:
	.word boot_gdt_end - boot_gdt - 1
	.long PHYS(boot_gdt)

	.section .bss
	.balign 4096
	.globl boot_pml4
boot_pml4:      .skip 4096
boot_pdpt_low:  .skip 4096
boot_pdpt_high: .skip 4096
boot_pd:        .skip 4096
	.globl boot_stack_top
boot_stack:     .skip 16384
boot_stack_top:
boot_magic:     .long 0
boot_info_pa:   .long 0
