/*
 * Kernel entry and exit: interrupt/exception stubs, the system-call entry,
 * the common return path, and the kernel-stack switch.
 *
 * Invariants:
 * - Every entry builds a struct trapframe (arch_types.h) on the thread's
 *   kernel stack and runs the kernel with interrupts disabled.
 * - GS_BASE holds the per-CPU block while in the kernel and the user's value
 *   in user mode; every entry from user mode and every exit to it does swapgs.
 */
#define KERNEL_DS 0x10
#define USER_DS   0x1b
#define USER_CS   0x23
#define VEC_SYSCALL 0x100
#define VEC_TRAPCALL 0x81

#define TF_VECTOR (15 * 8)
#define TF_RIP    (17 * 8)
#define TF_CS     (18 * 8)
#define TF_RFLAGS (19 * 8)
#define TF_RSP    (20 * 8)

.macro PUSH_REGS
	pushq %rax
	pushq %rbx
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi
	pushq %rbp
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
.endm

.macro POP_REGS
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rbp
	popq %rdi
	popq %rsi
	popq %rdx
	popq %rcx
	popq %rbx
	popq %rax
.endm

/* Exception and interrupt stubs: each pushes an error code (0 when the CPU
 * pushes none) and its vector, so that every trapframe has the same shape. */
.macro STUB vector, has_error
	.balign 16
	.if \has_error == 0
	pushq $0
	.endif
	pushq $\vector
	jmp trap_common
.endm

	.text
	.globl trap_stubs
	.balign 16
trap_stubs:
	.set vec, 0
	.rept 256
	.if vec == 8 || vec == 10 || vec == 11 || vec == 12 || vec == 13 || vec == 14 || vec == 17 || vec == 21 || vec == 29 || vec == 30
	STUB vec, 1
	.else
	STUB vec, 0
	.endif
	.set vec, vec + 1
	.endr

trap_common:
	testb $3, 24(%rsp)          /* the saved CS: came from user mode? */
	jz 1f
	swapgs
1:	PUSH_REGS
	cld
	movq %rsp, %rdi
	call trap_dispatch

/* Restores a trapframe at %rsp and leaves the kernel with iretq. New threads
 * start here too. */
	.globl trap_return
trap_return:
	POP_REGS
	addq $16, %rsp              /* vector and error code */
	testb $3, 8(%rsp)
	jz 2f
	swapgs
2:	iretq

/*
 * syscall: RCX = user RIP, R11 = user RFLAGS, interrupts masked by FMASK, RSP
 * still the user's. Switch to the thread's kernel stack (per-CPU block at GS)
 * and build a trapframe as an interrupt would.
 */
	.globl syscall_entry
	.balign 16
syscall_entry:
	swapgs
	movq %rsp, %gs:8
	movq %gs:0, %rsp
	pushq $USER_DS
	pushq %gs:8
	pushq %r11
	pushq $USER_CS
	pushq %rcx
	pushq %rax                  /* the number, as the error code: a restart needs it */
	pushq $VEC_SYSCALL
	PUSH_REGS
	movq %rsp, %rdi
	call syscall_dispatch

	/* The way out of a system call; %rsp points at its trapframe. */
syscall_return:
	/* sysret only to a canonical lower-half RIP in 64-bit user code, and
	 * only when the registers sysret loses (rcx, r11) need not come back;
	 * anything else (a frame the kernel rewrote, such as rt_sigreturn's,
	 * which clears the vector) takes iretq. */
	cmpq $VEC_SYSCALL, TF_VECTOR(%rsp)
	jne trap_return
	movq TF_RIP(%rsp), %rcx
	movq %rcx, %r11
	sarq $47, %r11
	jnz trap_return
	cmpq $USER_CS, TF_CS(%rsp)
	jne trap_return
	POP_REGS
	movq 16(%rsp), %rcx         /* RIP */
	movq 32(%rsp), %r11         /* RFLAGS */
	movq 40(%rsp), %rsp         /* user RSP */
	swapgs
	sysretq

/*
 * The trap-gate entry (int $0x81, MYRMEX_TRAP_VECTOR): the same calls as
 * syscall, for comparison with it (paper 001). The CPU has switched to the
 * thread's kernel stack (TSS.rsp0) and pushed the user's ss, rsp, rflags, cs
 * and rip; the number goes where syscall_entry puts it (a restart reads it
 * there: int $0x81 is two bytes long, as syscall is). Its own vector makes
 * the way out iretq, which keeps rcx and r11. The gate clears IF but not AC
 * or DF, which syscall's FMASK clears: the flags are cleared here (the
 * user's are in the frame), so that a user AC cannot open SMAP.
 */
	.globl trapcall_entry
	.balign 16
trapcall_entry:
	pushq %rax                  /* the number, as the error code */
	pushq $VEC_TRAPCALL
	swapgs
	PUSH_REGS
	pushq $2                    /* only the always-one bit: AC, DF, IF clear */
	popfq
	movq %rsp, %rdi
	call syscall_dispatch
	jmp trap_return

/*
 * x86_switch_stacks(uint64_t *save_rsp, uint64_t new_rsp): saves the
 * callee-saved registers on the current stack, stores the stack pointer, and
 * resumes the other stack where it stopped (or at thread_first_run).
 */
	.globl x86_switch_stacks
x86_switch_stacks:
	pushq %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movq %rsp, (%rdi)
	movq %rsi, %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	ret

/* A thread that gave up its kernel stack in a system call (sched_hand_off)
 * resumes here: %rsp points at the trapframe of that call. */
	.globl thread_restart_user
thread_restart_user:
	call sched_thread_restarted
	jmp syscall_return

/* The first code a new thread runs: %rsp points at its trapframe. */
	.globl thread_first_run
thread_first_run:
	call sched_thread_start
	jmp trap_return
