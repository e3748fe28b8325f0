/*
 * Linux signal frames: not yet on this port (the Linux personality does
 * not run on SH-4 yet, docs/sh4.md). Setting up a frame fails, so a
 * signal with a handler is treated as one the process cannot take.
 */
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/proc.h>

int arch_signal_setup(struct thread *t, const struct sig_frame *f)
{
	(void)t, (void)f;
	return -EFAULT;
}

int arch_signal_return(struct thread *t, struct sig_restored *out)
{
	(void)t, (void)out;
	return -EFAULT;
}

uptr_t arch_signal_user_sp(const struct thread *t)
{
	return t->arch.tf->r[15];
}

/* trapa is two bytes long; the number is still in r3. */
void arch_signal_restart_syscall(struct thread *t)
{
	t->arch.tf->spc -= 2;
}
