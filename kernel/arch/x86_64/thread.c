/*
 * x86-64 thread contexts. A thread's kernel stack holds, at its top, the
 * trapframe of its user registers; below it, while the thread is switched
 * out, the callee-saved registers pushed by x86_switch_stacks. A new thread
 * gets a fabricated switch frame whose return address is thread_first_run,
 * which enters user mode through trap_return.
 */
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/stats.h>
#include <kernel/string.h>
#include <arch/x86.h>

extern void x86_switch_stacks(uint64_t *save_rsp, uint64_t new_rsp);
extern char thread_first_run[];
extern char thread_restart_user[];
extern uint8_t x86_fpu_initial[512];

#define SWITCH_FRAME_WORDS 7   /* rbp, rbx, r12..r15, return address */

static struct trapframe *prepare_stack(struct thread *t, void *kstack, size_t kstack_size)
{
	uint64_t top = (uint64_t)kstack + kstack_size;
	struct trapframe *tf = (struct trapframe *)(top - sizeof(struct trapframe));
	memset(tf, 0, sizeof(*tf));
	uint64_t *frame = (uint64_t *)tf - SWITCH_FRAME_WORDS;
	memset(frame, 0, SWITCH_FRAME_WORDS * sizeof(uint64_t));
	frame[SWITCH_FRAME_WORDS - 1] = (uint64_t)thread_first_run;
	t->arch.saved_rsp = (uint64_t)frame;
	t->arch.kstack_top = top;
	t->arch.tf = tf;
	return tf;
}

void arch_thread_init_user(struct thread *t, void *kstack, size_t kstack_size,
                           uptr_t ip, uptr_t sp, uptr_t tls)
{
	struct trapframe *tf = prepare_stack(t, kstack, kstack_size);
	tf->rip = ip;
	tf->rsp = sp;
	tf->cs = USER_CS;
	tf->ss = USER_DS;
	tf->rflags = RFLAGS_IF;
	t->arch.fs_base = tls;
	memcpy(t->arch.fpu, x86_fpu_initial, sizeof(t->arch.fpu));
}

void arch_thread_init_clone(struct thread *t, const struct thread *parent, void *kstack,
                            size_t kstack_size, uptr_t sp, bool set_tls, uptr_t tls)
{
	struct trapframe *tf = prepare_stack(t, kstack, kstack_size);
	*tf = *parent->arch.tf;
	tf->rax = 0;               /* clone returns 0 in the child */
	tf->vector = 0;            /* leave through iretq */
	if (sp)
		tf->rsp = sp;
	t->arch.fs_base = set_tls ? tls : parent->arch.fs_base;
	if (parent == current_thread())   /* clone: the live FPU state is in the registers */
		__asm__ volatile("fxsave %0" : "=m"(t->arch.fpu));
	else   /* fork: the parent waits, its state was saved when it was switched out */
		memcpy(t->arch.fpu, parent->arch.fpu, sizeof(t->arch.fpu));
}

void arch_thread_reset_user(struct thread *t, uptr_t ip, uptr_t sp)
{
	struct trapframe *tf = t->arch.tf;
	/* Vector 0: the frame is left through iretq, which restores rcx and r11
	 * (0) too, where sysret would load them with rip and rflags. */
	memset(tf, 0, sizeof(*tf));
	tf->rip = ip;
	tf->rsp = sp;
	tf->cs = USER_CS;
	tf->ss = USER_DS;
	tf->rflags = RFLAGS_IF;
	t->arch.fs_base = 0;
	memcpy(t->arch.fpu, x86_fpu_initial, sizeof(t->arch.fpu));
}

void arch_thread_restart_user(struct thread *t)
{
	/* Only the return address matters: the callee-saved registers the switch
	 * pops are dead, and the trapframe above stays as the system call left it. */
	uint64_t *frame = (uint64_t *)t->arch.tf - SWITCH_FRAME_WORDS;
	frame[SWITCH_FRAME_WORDS - 1] = (uint64_t)thread_restart_user;
	t->arch.saved_rsp = (uint64_t)frame;
}

void arch_thread_set_return(struct thread *t, uint64_t value)
{
	t->arch.tf->rax = value;
}

void arch_thread_init_boot(struct thread *t)
{
	extern char boot_stack_top[];
	t->arch.kstack_top = (uint64_t)boot_stack_top;
}

void arch_context_switch(struct thread *prev, struct thread *next)
{
	if (prev->proc)
		__asm__ volatile("fxsave %0" : "=m"(prev->arch.fpu));
	if (next->proc) {
		__asm__ volatile("fxrstor %0" :: "m"(next->arch.fpu));
		wrmsr(MSR_FS_BASE, next->arch.fs_base);
		arch_as_activate(&next->proc->vm.as);
		tss_set_rsp0(next->arch.kstack_top);
		x86_cpu0.kstack_top = next->arch.kstack_top;
	}
	STAT_INC(context_switches);
	x86_switch_stacks(&prev->arch.saved_rsp, next->arch.saved_rsp);
}

int arch_thread_set_tls(struct thread *t, uptr_t tls)
{
	if (tls >= ARCH_USER_TOP)
		return -EPERM;
	t->arch.fs_base = tls;
	if (t == current_thread())
		wrmsr(MSR_FS_BASE, tls);
	return 0;
}

uptr_t arch_thread_get_tls(const struct thread *t)
{
	return t->arch.fs_base;
}
