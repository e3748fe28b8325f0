/*
 * Exception and interrupt entry and exit, the kernel-stack switch and the
 * first run of a thread.
 *
 * The CPU enters at VBR + 0x100 (exceptions, trapa included), + 0x400 (TLB
 * misses) and + 0x600 (interrupts) with SR.MD, RB and BL set: register
 * bank 1 is ours, the interrupted r0..r7 are in bank 0, r15 is unchanged.
 * Invariants:
 * - Every entry builds a struct trapframe (arch_types.h) on the kernel
 *   stack: from user mode (SSR.MD clear) on the thread's, sh4_kstack_top;
 *   from kernel mode (a TLB miss of a user copy) below the current r15.
 * - The kernel runs in bank 0 with BL clear (so that a user copy may take
 *   a TLB miss) and IMASK 15: no interrupt while in the kernel.
 * - The way out sets BL and bank 1 again before restoring bank 0, SPC and
 *   SSR, so that nothing can overwrite them before rte.
 */
#define SR_KERNEL 0x400080f0        /* MD | FD | IMASK 15 */
/* offsetof(struct myrmex_kstats, tlb_misses): checked in trap.c. */
#define TLB_MISSES_OFFSET (30 * 8)
#define SR_LEAVE  0x700080f0        /* MD | RB | BL | FD | IMASK 15 */

	.text
	.balign 4096
	.globl sh4_vbr
sh4_vbr:
	.org sh4_vbr + 0x100
	mov.l .Lexpevt1, r0
	mov.l .Lcommon1, r2
	jmp @r2
	mov #1, r1                  /* vector 0x100 */
	.balign 4
.Lexpevt1: .long 0xff000024
.Lcommon1: .long entry_common

/*
 * TLB misses: the fast path refills the UTLB from the active space's page
 * table (paging.c's format: an entry is PTEL plus soft bits) without
 * saving anything, in bank 1, and returns with rte; anything unusual takes
 * the general entry (sh4_trap_dispatch, sh4_tlb_refill, vm_fault):
 *  - no fast path now (sh4_refill_dir NULL: the kernel's space, tlb_fast=off);
 *  - the address at or above the top of U0 (the ICA window's misses under
 *    ica_tlb=N fail below, for want of an entry, and are faults);
 *  - no leaf table, or the entry not valid;
 *  - a write miss on a read-only page, a user miss on a kernel page.
 * The entry chosen: the next never-used private one (sh4_tlb_fill), else
 * the random counter's, below the reserved ICA entries (tlb.c).
 * kstats.tlb_misses counts every miss, fast or not.
 */
	.org sh4_vbr + 0x400
	mov.l .Lmisses, r5
	mov.l @r5, r6
	add #1, r6
	mov.l r6, @r5               /* kstats.tlb_misses, low word */
	tst r6, r6
	bf 0f
	mov.l @(4, r5), r6
	add #1, r6
	mov.l r6, @(4, r5)          /* and the carry */
0:	mov.l .Lrefill_dir, r0
	mov.l @r0, r0
	tst r0, r0
	bt 9f                       /* no fast path */
	mov.l .Ltea, r1
	mov.l @r1, r1               /* the address */
	mov.l .Luser_top, r2
	cmp/hs r2, r1
	bt 9f                       /* not in U0 */
	mov r1, r2
	shlr16 r2
	shlr2 r2
	shlr2 r2
	mov #-4, r3
	and r3, r2                  /* (va >> 22) * 4 */
	mov.l @(r0, r2), r0         /* the leaf */
	tst r0, r0
	bt 9f
	mov r1, r2
	shlr8 r2
	shlr2 r2
	mov.w .Lindex_mask, r3
	and r3, r2                  /* ((va >> 12) & 1023) * 4 */
	mov.l @(r0, r2), r2         /* the entry */
	mov.w .Lvalid, r3
	tst r3, r2
	bt 9f                       /* not valid */
	mov.l .Lexpevt4, r3
	mov.l @r3, r3
	mov #0x60, r4
	cmp/eq r4, r3
	bf 1f                       /* a read miss */
	mov #0x20, r4
	tst r4, r2
	bt 9f                       /* a write to a read-only page */
1:	stc ssr, r3
	shll r3
	shll r3
	bt 2f                       /* from kernel mode: a user copy */
	mov #0x40, r4
	tst r4, r2
	bt 9f                       /* a user access to a kernel page */
2:	mov.w .Lsoft, r3
	and r3, r2                  /* PTEL: the soft bits cleared */
	mov.l .Lfill, r0
	mov.l @r0, r3
	mov.l .Lprivate, r4
	mov.l @r4, r4
	cmp/hs r4, r3
	bt 3f                       /* all private entries used once */
	add #1, r3
	mov.l r3, @r0
	bra 4f
	add #-1, r3                 /* entry = fill++ */
3:	mov.l .Lmmucr, r5
	mov.l @r5, r3
	shlr8 r3
	shlr2 r3
	mov #0x3f, r5
	and r5, r3                  /* the random counter */
	cmp/hs r4, r3
	bf 4f
	mov #0, r3                  /* QEMU lets it reach URB */
4:	mov.l .Lmmucr, r5
	mov.l @r5, r6
	mov.l .Lurc_clear, r7
	and r7, r6
	shll8 r3
	shll2 r3
	or r3, r6
	mov.l r6, @r5               /* MMUCR.URC = the entry */
	/* PTEH holds the miss's VPN, address bits 31-10: clear bits 11-10 so
	 * the entry names its 4 KiB page as every other load does. QEMU's
	 * associative write (flush_page's, by the page address) compares the
	 * whole VPN; an entry loaded with them set would survive the unmap or
	 * protect that flushes it (a write after fork's copy-on-write faulted
	 * again for good). */
	mov.l .Lpteh, r5
	mov.l @r5, r6
	mov.w .Lpage_vpn, r7
	and r7, r6
	mov.l r6, @r5
	mov.l .Lptel, r5
	mov.l r2, @r5
	ldtlb                       /* PTEH holds the page and ASID of the miss */
	nop
	rte
	nop
9:	mov.l .Lexpevt4, r0
	mov.l .Lcommon4, r2
	jmp @r2
	mov #4, r1                  /* vector 0x400 */
	.balign 2
.Lindex_mask: .word 0x0ffc
.Lvalid:      .word 0x0100
.Lsoft:       .word 0xf1ff      /* ~0x0e00, sign-extended */
.Lpage_vpn:   .word 0xf3ff      /* ~0x0c00, sign-extended */
	.balign 4
.Lexpevt4:    .long 0xff000024
.Lcommon4:    .long entry_common
.Lmisses:     .long kstats + TLB_MISSES_OFFSET
.Lrefill_dir: .long sh4_refill_dir
.Ltea:        .long 0xff00000c
.Luser_top:   .long 0x7ffff000
.Lfill:       .long sh4_tlb_fill
.Lprivate:    .long sh4_tlb_private
.Lmmucr:      .long 0xff000010
.Lurc_clear:  .long 0xffff03fb  /* URC and TI cleared */
.Lptel:       .long 0xff000004
.Lpteh:       .long 0xff000000

	.org sh4_vbr + 0x600
	mov.l .Lintevt, r0
	mov.l .Lcommon6, r2
	jmp @r2
	mov #6, r1                  /* vector 0x600 */
	.balign 4
.Lintevt:  .long 0xff000028
.Lcommon6: .long entry_common

/* r0: the event register to read, r1: the vector >> 8. Bank 1 is ours. */
entry_common:
	mov r15, r3                 /* the interrupted stack pointer */
	stc ssr, r2
	shll r2
	shll r2                     /* T = SSR.MD */
	bt 1f
	mov.l .Lkstack, r2
	mov.l @r2, r15              /* from user mode: the thread's kernel stack */
1:	shll8 r1
	mov.l r1, @-r15             /* vector */
	mov.l @r0, r2
	mov.l r2, @-r15             /* event */
	stc.l ssr, @-r15
	stc.l spc, @-r15
	sts.l macl, @-r15
	sts.l mach, @-r15
	stc.l gbr, @-r15
	sts.l pr, @-r15
	mov.l r3, @-r15             /* r15 */
	mov.l r14, @-r15
	mov.l r13, @-r15
	mov.l r12, @-r15
	mov.l r11, @-r15
	mov.l r10, @-r15
	mov.l r9, @-r15
	mov.l r8, @-r15
	stc.l r7_bank, @-r15
	stc.l r6_bank, @-r15
	stc.l r5_bank, @-r15
	stc.l r4_bank, @-r15
	stc.l r3_bank, @-r15
	stc.l r2_bank, @-r15
	stc.l r1_bank, @-r15
	stc.l r0_bank, @-r15
	mov.l .Lsr_kernel, r2
	ldc r2, sr                  /* bank 0 from here on */
	mov.l .Ldispatch, r0
	jsr @r0
	mov r15, r4                 /* sh4_trap_dispatch(tf) */
	/* fall through */

/* Restores the trapframe at r15 and leaves with rte. New threads and
 * system calls leave here too. */
	.globl sh4_trap_exit
sh4_trap_exit:
	mov.l .Lsr_leave, r0
	ldc r0, sr                  /* bank 1, exceptions blocked */
	mov.l @r15+, r0
	ldc r0, r0_bank
	mov.l @r15+, r0
	ldc r0, r1_bank
	mov.l @r15+, r0
	ldc r0, r2_bank
	mov.l @r15+, r0
	ldc r0, r3_bank
	mov.l @r15+, r0
	ldc r0, r4_bank
	mov.l @r15+, r0
	ldc r0, r5_bank
	mov.l @r15+, r0
	ldc r0, r6_bank
	mov.l @r15+, r0
	ldc r0, r7_bank
	mov.l @r15+, r8
	mov.l @r15+, r9
	mov.l @r15+, r10
	mov.l @r15+, r11
	mov.l @r15+, r12
	mov.l @r15+, r13
	mov.l @r15+, r14
	mov.l @r15+, r1             /* r15, restored last */
	lds.l @r15+, pr
	ldc.l @r15+, gbr
	lds.l @r15+, mach
	lds.l @r15+, macl
	ldc.l @r15+, spc
	ldc.l @r15+, ssr
	mov r1, r15
	rte
	nop

	.balign 4
.Lkstack:    .long sh4_kstack_top
.Lsr_kernel: .long SR_KERNEL
.Lsr_leave:  .long SR_LEAVE
.Ldispatch:  .long sh4_trap_dispatch


/*
 * sh4_switch_stacks(uint32_t *save_sp, uint32_t new_sp): saves the
 * callee-saved registers (r8..r14, pr) on the current stack, stores the
 * stack pointer, and resumes the other stack where it stopped (or at
 * sh4_thread_first_run / sh4_thread_restart_user).
 */
	.globl sh4_switch_stacks
sh4_switch_stacks:
	sts.l pr, @-r15
	mov.l r14, @-r15
	mov.l r13, @-r15
	mov.l r12, @-r15
	mov.l r11, @-r15
	mov.l r10, @-r15
	mov.l r9, @-r15
	mov.l r8, @-r15
	mov.l r15, @r4
	mov r5, r15
	mov.l @r15+, r8
	mov.l @r15+, r9
	mov.l @r15+, r10
	mov.l @r15+, r11
	mov.l @r15+, r12
	mov.l @r15+, r13
	mov.l @r15+, r14
	lds.l @r15+, pr
	rts
	nop

/* The first code a new thread runs: r15 points at its trapframe. */
	.globl sh4_thread_first_run
sh4_thread_first_run:
	mov.l .Lstart, r0
	jsr @r0
	nop
	bra sh4_trap_exit
	nop

/* A thread that gave up its kernel stack in a system call resumes here:
 * r15 points at the trapframe of that call. */
	.globl sh4_thread_restart_user
sh4_thread_restart_user:
	mov.l .Lrestarted, r0
	jsr @r0
	nop
	bra sh4_trap_exit
	nop

	.balign 4
.Lstart:     .long sched_thread_start
.Lrestarted: .long sched_thread_restarted
