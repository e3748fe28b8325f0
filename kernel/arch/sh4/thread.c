/*
 * SH-4 thread contexts. A thread's kernel stack holds, at its top, the
 * trapframe of its user registers; below it, while the thread is switched
 * out, the callee-saved registers (r8..r14, pr) pushed by
 * sh4_switch_stacks. A new thread gets a fabricated switch frame whose pr
 * is sh4_thread_first_run, which leaves for user mode through
 * sh4_trap_exit. The user thread pointer is GBR, saved in the trapframe.
 */
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/stats.h>
#include <kernel/string.h>
#include <arch/sh4.h>

extern void sh4_switch_stacks(uint32_t *save_sp, uint32_t new_sp);
extern char sh4_thread_first_run[], sh4_thread_restart_user[];
extern char boot_stack_top[];

#define SWITCH_FRAME_WORDS 8   /* r8..r14, pr */
#define USER_SR SR_FD          /* user mode, bank 0, interrupts on, no FPU */

/* The kernel stack the exception entry takes from user mode. */
uint32_t sh4_kstack_top;

static struct trapframe *prepare_stack(struct thread *t, void *kstack, size_t kstack_size)
{
	uint32_t top = (uint32_t)(uintptr_t)kstack + (uint32_t)kstack_size;
	struct trapframe *tf = (struct trapframe *)(uintptr_t)(top - sizeof(struct trapframe));
	memset(tf, 0, sizeof(*tf));
	uint32_t *frame = (uint32_t *)tf - SWITCH_FRAME_WORDS;
	memset(frame, 0, SWITCH_FRAME_WORDS * sizeof(uint32_t));
	frame[SWITCH_FRAME_WORDS - 1] = (uint32_t)(uintptr_t)sh4_thread_first_run;
	t->arch.saved_sp = (uint32_t)(uintptr_t)frame;
	t->arch.kstack_top = top;
	t->arch.tf = tf;
	return tf;
}

void arch_thread_init_user(struct thread *t, void *kstack, size_t kstack_size,
                           uptr_t ip, uptr_t sp, uptr_t tls)
{
	struct trapframe *tf = prepare_stack(t, kstack, kstack_size);
	tf->spc = (uint32_t)ip;
	tf->r[15] = (uint32_t)sp;
	tf->ssr = USER_SR;
	tf->gbr = (uint32_t)tls;
}

void arch_thread_init_clone(struct thread *t, const struct thread *parent, void *kstack,
                            size_t kstack_size, uptr_t sp, bool set_tls, uptr_t tls)
{
	struct trapframe *tf = prepare_stack(t, kstack, kstack_size);
	*tf = *parent->arch.tf;
	tf->r[0] = 0;              /* clone returns 0 in the child */
	if (sp)
		tf->r[15] = (uint32_t)sp;
	if (set_tls)
		tf->gbr = (uint32_t)tls;
}

void arch_thread_reset_user(struct thread *t, uptr_t ip, uptr_t sp)
{
	struct trapframe *tf = t->arch.tf;
	memset(tf, 0, sizeof(*tf));
	tf->spc = (uint32_t)ip;
	tf->r[15] = (uint32_t)sp;
	tf->ssr = USER_SR;
}

void arch_thread_restart_user(struct thread *t)
{
	/* Only pr matters: the callee-saved registers the switch pops are dead. */
	uint32_t *frame = (uint32_t *)t->arch.tf - SWITCH_FRAME_WORDS;
	frame[SWITCH_FRAME_WORDS - 1] = (uint32_t)(uintptr_t)sh4_thread_restart_user;
	t->arch.saved_sp = (uint32_t)(uintptr_t)frame;
}

void arch_thread_set_return(struct thread *t, uint64_t value)
{
	t->arch.tf->r[0] = (uint32_t)value;
}

void arch_thread_init_boot(struct thread *t)
{
	t->arch.kstack_top = (uint32_t)(uintptr_t)boot_stack_top;
}

void arch_context_switch(struct thread *prev, struct thread *next)
{
	if (next->proc) {
		arch_as_activate(&next->proc->vm.as);
		sh4_kstack_top = next->arch.kstack_top;
	}
	STAT_INC(context_switches);
	sh4_switch_stacks(&prev->arch.saved_sp, next->arch.saved_sp);
}

int arch_thread_set_tls(struct thread *t, uptr_t tls)
{
	if (tls >= ARCH_USER_TOP)
		return -EPERM;
	t->arch.tf->gbr = (uint32_t)tls;
	return 0;
}

uptr_t arch_thread_get_tls(const struct thread *t)
{
	return t->arch.tf->gbr;
}
