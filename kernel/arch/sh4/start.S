/*
 * The first instructions. QEMU's r2d enters here through P2 (uncached)
 * with SR = MD | RB | BL | IMASK 15 and nothing else set up: install the
 * vector base, leave register bank 1 and the exception block, take the
 * boot stack, clear .bss and continue in P1 in sh4_main (boot.c).
 */
	.section .text.boot, "ax"
	.globl _start
_start:
	mov.l .Lvbr, r0
	ldc r0, vbr
	mov.l .Lsr_kernel, r0
	ldc r0, sr                  /* bank 0, exceptions unblocked, interrupts masked */
	mov.l .Lstack, r15
	mov.l .Lbss_start, r1
	mov.l .Lbss_end, r2
	mov #0, r0
1:	cmp/hs r2, r1
	bt 2f
	mov.l r0, @r1
	bra 1b
	add #4, r1
2:	mov.l .Lmain, r0
	jmp @r0
	nop

	.balign 4
.Lvbr:       .long sh4_vbr
.Lsr_kernel: .long 0x400080f0       /* MD | FD | IMASK 15 */
.Lstack:     .long boot_stack_top
.Lbss_start: .long __bss_start
.Lbss_end:   .long __bss_end
.Lmain:      .long sh4_main

	.section .bss
	.balign 4096
	.globl boot_stack_top
boot_stack:
	.space 16384
boot_stack_top:
