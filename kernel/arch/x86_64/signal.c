/*
 * x86-64 signal frames: Linux's rt_sigframe, built on the user stack for a
 * handler and checked and restored by rt_sigreturn (kernel/arch.h). From
 * the stack pointer at handler entry upwards:
 *
 *   struct rt_frame   return address (the restorer), ucontext, siginfo
 *   (padding)
 *   FXSAVE area       512 bytes, 64-byte aligned, uc_mcontext.fpstate
 *   (128-byte red zone of the interrupted code, skipped)
 *
 * The kernel never runs with FPU state of its own (-mgeneral-regs-only), so
 * on the way out the running thread's user FPU state is in the registers:
 * saved there with fxsave, restored with fxrstor.
 */
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <posix/signal.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>
#include <arch/x86.h>

#define RED_ZONE  128
#define FPU_SIZE  512
#define UC_SIGCONTEXT_SS     2
#define UC_STRICT_RESTORE_SS 4

/* Flags user code may change (Linux's FIX_EFLAGS without TF and RF):
 * CF, PF, AF, ZF, SF, DF, OF, AC. */
#define USER_RFLAGS 0x40cd5ull
#define RFLAGS_FIXED 0x2ull            /* bit 1 always reads as one */
#define RFLAGS_TF   (1ull << 8)
#define RFLAGS_DF   (1ull << 10)
#define RFLAGS_RF   (1ull << 16)

struct sigcontext64 {
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t rdi, rsi, rbp, rbx, rdx, rax, rcx, rsp, rip, eflags;
	uint16_t cs, gs, fs, ss;
	uint64_t err, trapno, oldmask, cr2;
	uint64_t fpstate;                  /* user address of the FXSAVE area, or 0 */
	uint64_t reserved[8];
};
_Static_assert(sizeof(struct sigcontext64) == 256, "Linux struct sigcontext");

struct stack64 {
	uint64_t sp;
	int32_t flags;
	int32_t pad;
	uint64_t size;
};

struct ucontext64 {
	uint64_t flags;
	uint64_t link;
	struct stack64 stack;
	struct sigcontext64 mcontext;
	uint64_t sigmask;
};
_Static_assert(sizeof(struct ucontext64) == 304, "Linux struct ucontext");

struct siginfo64 {
	int32_t signo, errno_, code, pad;
	union {
		struct { int32_t pid; uint32_t uid; int32_t status; int32_t pad; int64_t utime, stime; } child;
		struct { int32_t pid; uint32_t uid; uint64_t value; } kill;   /* and _rt */
		uint64_t addr;
		uint8_t bytes[112];
	} u;
};
_Static_assert(sizeof(struct siginfo64) == 128, "Linux siginfo_t");

struct rt_frame {
	uint64_t return_address;
	struct ucontext64 uc;
	struct siginfo64 info;
};
_Static_assert(__builtin_offsetof(struct rt_frame, uc) == 8, "rt_sigframe.uc");
_Static_assert(__builtin_offsetof(struct rt_frame, info) == 312, "rt_sigframe.info");
_Static_assert(__builtin_offsetof(struct ucontext64, mcontext) == 40, "uc_mcontext");

static void fill_siginfo(struct siginfo64 *si, int sig, const struct sig_info *info)
{
	si->signo = sig;
	si->code = info->code;
	switch (sig) {
	case SIGSEGV: case SIGBUS: case SIGILL: case SIGFPE: case SIGTRAP:
		if (info->code > 0) {      /* raised by a fault, not sent */
			si->u.addr = info->value;
			return;
		}
		break;
	case SIGCHLD:
		if (info->code > 0) {      /* sent by the kernel for a child */
			si->u.child.pid = info->pid;
			si->u.child.uid = info->uid;
			si->u.child.status = (int32_t)info->value;
			return;
		}
		break;
	}
	si->u.kill.pid = info->pid;
	si->u.kill.uid = info->uid;
	if (info->code < 0 && info->code != SI_TKILL)
		si->u.kill.value = info->value;   /* sigqueue's si_value */
}

int arch_signal_info_out(uptr_t dst, int sig, const struct sig_info *info)
{
	struct siginfo64 si;
	memset(&si, 0, sizeof(si));
	fill_siginfo(&si, sig, info);
	return copy_to_user(dst, &si, sizeof(si)) < 0 ? -EFAULT : 0;
}

static void save_registers(struct sigcontext64 *sc, const struct trapframe *tf,
                           const struct sig_frame *f)
{
	sc->r8 = tf->r8;   sc->r9 = tf->r9;   sc->r10 = tf->r10; sc->r11 = tf->r11;
	sc->r12 = tf->r12; sc->r13 = tf->r13; sc->r14 = tf->r14; sc->r15 = tf->r15;
	sc->rdi = tf->rdi; sc->rsi = tf->rsi; sc->rbp = tf->rbp; sc->rbx = tf->rbx;
	sc->rdx = tf->rdx; sc->rax = tf->rax; sc->rcx = tf->rcx; sc->rsp = tf->rsp;
	sc->rip = tf->rip;
	sc->eflags = tf->rflags;
	sc->cs = USER_CS;
	sc->ss = USER_DS;
	if (tf->vector < 32) {           /* an exception, not a system call */
		sc->trapno = tf->vector;
		sc->err = tf->error;
		if (tf->vector == 14)
			sc->cr2 = f->info.value;
	}
	sc->oldmask = f->saved_mask;
}

int arch_signal_setup(struct thread *t, const struct sig_frame *f)
{
	struct trapframe *tf = t->arch.tf;
	uint64_t handler = f->action->handler;
	uint64_t top = f->stack_top ? f->stack_top : tf->rsp - RED_ZONE;
	/* Room for the whole frame, and no wrap below address 0. */
	if (handler >= ARCH_USER_TOP || top < RED_ZONE + FPU_SIZE + sizeof(struct rt_frame) + 128 ||
	    top > ARCH_USER_TOP)
		return -EFAULT;
	uint64_t fpstate = ALIGN_DOWN(top - FPU_SIZE, 64);
	uint64_t frame_at = ALIGN_DOWN(fpstate - sizeof(struct rt_frame), 16) - 8;

	struct rt_frame frame;
	uint8_t fpu[FPU_SIZE] __attribute__((aligned(16)));
	memset(&frame, 0, sizeof(frame));
	__asm__ volatile("fxsave %0" : "=m"(fpu));
	memset(fpu + 464, 0, FPU_SIZE - 464);   /* the software-available bytes */

	frame.return_address = f->action->restorer;
	frame.uc.flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
	frame.uc.stack.sp = f->altstack.sp;
	frame.uc.stack.flags = (int32_t)f->altstack.flags;
	frame.uc.stack.size = f->altstack.size;
	save_registers(&frame.uc.mcontext, tf, f);
	frame.uc.mcontext.fpstate = fpstate;
	frame.uc.sigmask = f->saved_mask;
	fill_siginfo(&frame.info, f->sig, &f->info);
	if (copy_to_user(fpstate, fpu, FPU_SIZE) < 0 ||
	    copy_to_user(frame_at, &frame, sizeof(frame)) < 0)
		return -EFAULT;

	tf->rip = handler;
	tf->rsp = frame_at;
	tf->rdi = (uint64_t)f->sig;
	tf->rsi = frame_at + __builtin_offsetof(struct rt_frame, info);
	tf->rdx = frame_at + __builtin_offsetof(struct rt_frame, uc);
	tf->rax = 0;
	tf->rflags &= ~(RFLAGS_TF | RFLAGS_DF | RFLAGS_RF);
	tf->cs = USER_CS;
	tf->ss = USER_DS;
	/* The handler starts with a clean FPU (default control words). */
	__asm__ volatile("fxrstor %0" :: "m"(x86_fpu_initial));
	return 0;
}

int arch_signal_return(struct thread *t, struct sig_restored *out)
{
	struct trapframe *tf = t->arch.tf;
	/* The restorer's ret popped the return address: the ucontext is at rsp. */
	struct ucontext64 uc;
	uint8_t fpu[FPU_SIZE] __attribute__((aligned(16)));
	if (copy_from_user(&uc, tf->rsp, sizeof(uc)) < 0)
		return -EFAULT;
	const struct sigcontext64 *sc = &uc.mcontext;
	/* Only user addresses: an iretq to a non-canonical rip would fault
	 * in the kernel. */
	if (sc->rip >= ARCH_USER_TOP || sc->rsp > ARCH_USER_TOP)
		return -EFAULT;
	if (sc->fpstate) {
		if (copy_from_user(fpu, sc->fpstate, FPU_SIZE) < 0)
			return -EFAULT;
		uint32_t mxcsr;
		memcpy(&mxcsr, fpu + 24, sizeof(mxcsr));
		if (mxcsr & ~x86_mxcsr_mask)   /* fxrstor would fault in the kernel */
			return -EFAULT;
	} else {
		memcpy(fpu, x86_fpu_initial, FPU_SIZE);
	}

	tf->r8 = sc->r8;   tf->r9 = sc->r9;   tf->r10 = sc->r10; tf->r11 = sc->r11;
	tf->r12 = sc->r12; tf->r13 = sc->r13; tf->r14 = sc->r14; tf->r15 = sc->r15;
	tf->rdi = sc->rdi; tf->rsi = sc->rsi; tf->rbp = sc->rbp; tf->rbx = sc->rbx;
	tf->rdx = sc->rdx; tf->rax = sc->rax; tf->rcx = sc->rcx; tf->rsp = sc->rsp;
	tf->rip = sc->rip;
	tf->rflags = (sc->eflags & USER_RFLAGS) | RFLAGS_IF | RFLAGS_FIXED;
	tf->cs = USER_CS;
	tf->ss = USER_DS;
	tf->vector = 0;   /* leave through iretq: sysret would lose rcx and r11 */
	tf->error = 0;
	__asm__ volatile("fxrstor %0" :: "m"(fpu));

	out->mask = uc.sigmask;
	out->altstack.sp = uc.stack.sp;
	out->altstack.flags = (uint32_t)uc.stack.flags;
	out->altstack.size = uc.stack.size;
	out->retval = sc->rax;
	return 0;
}

uptr_t arch_signal_user_sp(const struct thread *t)
{
	return t->arch.tf->rsp;
}

void arch_signal_restart_syscall(struct thread *t)
{
	struct trapframe *tf = t->arch.tf;
	tf->rax = tf->error;   /* syscall_entry keeps the number there */
	tf->rip -= 2;          /* the syscall instruction: 0f 05 */
}
