/*
 * SH-4 signal frames: SH Linux's rt_sigframe, built on the user stack for a
 * handler and checked and restored by rt_sigreturn (kernel/arch.h). At the
 * handler's entry r15 points at the frame:
 *
 *   siginfo (128 bytes), ucontext (its sigcontext holds r0-r15, pc, pr,
 *   sr, gbr, mach, macl and the FPU's registers), 16 bytes Linux keeps for
 *   a return trampoline (unused: the personality requires SA_RESTORER)
 *
 * with r4 = the signal, r5 = &siginfo, r6 = &ucontext, pr = the restorer
 * and pc = the handler. The handler returns (rts) to the restorer with r15
 * back at the frame, which rt_sigreturn reads. Programs run without an FPU
 * (-m4-nofpu, SR.FD set): the FPU fields are written as zeros and ignored.
 */
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>
#include <posix/signal.h>

/* SR bits a program may change itself (T, S, Q, M): the rest is the
 * kernel's (MD, BL, RB, FD, IMASK). */
#define SR_USER 0x303u

struct sigcontext_sh {
	uint32_t oldmask;
	uint32_t regs[16];
	uint32_t pc, pr, sr, gbr, mach, macl;
	uint32_t fpregs[16], xfpregs[16];
	uint32_t fpscr, fpul, ownedfp;
};
_Static_assert(sizeof(struct sigcontext_sh) == 232, "SH Linux struct sigcontext");

struct ucontext_sh {
	uint32_t flags;
	uint32_t link;
	uint32_t stack_sp;
	int32_t stack_flags;
	uint32_t stack_size;
	struct sigcontext_sh mcontext;
	uint64_t sigmask;    /* two 32-bit words, low first (little endian) */
} __attribute__((packed, aligned(4)));
_Static_assert(sizeof(struct ucontext_sh) == 260, "SH Linux struct ucontext");

struct siginfo_sh {
	int32_t signo, errno_, code;
	union {
		struct { int32_t pid; uint32_t uid; int32_t status, utime, stime; } child;
		struct { int32_t pid; uint32_t uid; uint32_t value; } kill;   /* and _rt */
		uint32_t addr;
		uint8_t bytes[116];
	} u;
};
_Static_assert(sizeof(struct siginfo_sh) == 128, "SH Linux siginfo_t");

struct rt_frame {
	struct siginfo_sh info;
	struct ucontext_sh uc;
	uint16_t retcode[8];
} __attribute__((packed, aligned(4)));
_Static_assert(__builtin_offsetof(struct rt_frame, uc) == 128, "rt_sigframe.uc");
_Static_assert(sizeof(struct rt_frame) == 404, "rt_sigframe");

static void fill_siginfo(struct siginfo_sh *si, int sig, const struct sig_info *info)
{
	si->signo = sig;
	si->code = info->code;
	switch (sig) {
	case SIGSEGV: case SIGBUS: case SIGILL: case SIGFPE: case SIGTRAP:
		if (info->code > 0) {      /* raised by a fault, not sent */
			si->u.addr = (uint32_t)info->value;
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
		si->u.kill.value = (uint32_t)info->value;   /* sigqueue's si_value */
}

int arch_signal_info_out(uptr_t dst, int sig, const struct sig_info *info)
{
	struct siginfo_sh si;
	memset(&si, 0, sizeof(si));
	fill_siginfo(&si, sig, info);
	return copy_to_user(dst, &si, sizeof(si)) < 0 ? -EFAULT : 0;
}

int arch_signal_setup(struct thread *t, const struct sig_frame *f)
{
	struct trapframe *tf = t->arch.tf;
	uint64_t handler = f->action->handler, restorer = f->action->restorer;
	uint64_t top = f->stack_top ? f->stack_top : tf->r[15];
	/* Room for the frame, no wrap below address 0, user addresses only. */
	if (handler >= ARCH_USER_TOP || restorer >= ARCH_USER_TOP ||
	    top < sizeof(struct rt_frame) + 64 || top > ARCH_USER_TOP)
		return -EFAULT;
	uint64_t frame_at = ALIGN_DOWN(top - sizeof(struct rt_frame), 8);

	struct rt_frame frame;
	memset(&frame, 0, sizeof(frame));
	fill_siginfo(&frame.info, f->sig, &f->info);
	frame.uc.stack_sp = (uint32_t)f->altstack.sp;
	frame.uc.stack_flags = (int32_t)f->altstack.flags;
	frame.uc.stack_size = (uint32_t)f->altstack.size;
	struct sigcontext_sh *sc = &frame.uc.mcontext;
	sc->oldmask = (uint32_t)f->saved_mask;
	for (int i = 0; i < 16; i++)
		sc->regs[i] = tf->r[i];
	sc->pc = tf->spc;
	sc->pr = tf->pr;
	sc->sr = tf->ssr & SR_USER;
	sc->gbr = tf->gbr;
	sc->mach = tf->mach;
	sc->macl = tf->macl;
	frame.uc.sigmask = f->saved_mask;
	if (copy_to_user(frame_at, &frame, sizeof(frame)) < 0)
		return -EFAULT;

	tf->r[15] = (uint32_t)frame_at;
	tf->r[4] = (uint32_t)f->sig;
	tf->r[5] = (uint32_t)frame_at + __builtin_offsetof(struct rt_frame, info);
	tf->r[6] = (uint32_t)frame_at + __builtin_offsetof(struct rt_frame, uc);
	tf->pr = (uint32_t)restorer;
	tf->spc = (uint32_t)handler;
	return 0;
}

int arch_signal_return(struct thread *t, struct sig_restored *out)
{
	struct trapframe *tf = t->arch.tf;
	struct ucontext_sh uc;
	if (copy_from_user(&uc, tf->r[15] + __builtin_offsetof(struct rt_frame, uc),
	                   sizeof(uc)) < 0)
		return -EFAULT;
	const struct sigcontext_sh *sc = &uc.mcontext;
	/* A user pc only: the way out would otherwise enter kernel space in
	 * user mode (an address error, but no reason to let it happen). */
	if (sc->pc >= ARCH_USER_TOP)
		return -EFAULT;
	for (int i = 0; i < 16; i++)
		tf->r[i] = sc->regs[i];
	tf->spc = sc->pc;
	tf->pr = sc->pr;
	tf->ssr = (tf->ssr & ~SR_USER) | (sc->sr & SR_USER);
	tf->gbr = sc->gbr;
	tf->mach = sc->mach;
	tf->macl = sc->macl;

	out->mask = uc.sigmask;
	out->altstack.sp = uc.stack_sp;
	out->altstack.flags = (uint32_t)uc.stack_flags;
	out->altstack.size = uc.stack_size;
	out->retval = sc->regs[0];
	return 0;
}

uptr_t arch_signal_user_sp(const struct thread *t)
{
	return t->arch.tf->r[15];
}

/* trapa is two bytes long; the number is still in r3, and r0, the fifth
 * argument, holds the interrupted call's result: the entry's comes back. */
void arch_signal_restart_syscall(struct thread *t)
{
	t->arch.tf->spc -= 2;
	t->arch.tf->r[0] = t->arch.syscall_r0;
}
