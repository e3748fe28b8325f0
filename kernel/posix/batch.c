/*
 * The personality's side of wrapped system calls (kernel/core/batch.c,
 * docs/syscalls.md "Wrapped calls"): which Linux calls a batch refuses, and
 * dropping the restart an interrupted entry asked for.
 */
#include <kernel/personality.h>
#include <kernel/sched.h>
#include <kernel/proc.h>
#include <posix/posix.h>
#include <posix/signal.h>
#include <posix/syscall.h>

/* Calls that need the registers of their own entry: they rewrite the
 * trapframe (rt_sigreturn, execve), copy it into a new thread or process
 * (clone, fork, vfork) or never return (exit, exit_group). By handler, so
 * that every port's numbers are covered. */
static const syscall_fn refused[] = {
	sys_rt_sigreturn, sys_clone, sys_fork, sys_vfork, sys_execve, sys_exit, sys_exit_group,
};

bool personality_batch_allows(syscall_fn fn)
{
	for (unsigned i = 0; i < ARRAY_SIZE(refused); i++)
		if (fn == refused[i])
			return false;
	return true;
}

void personality_batch_entry_end(void)
{
	struct thread *t = current_thread();
	if (t->px)
		t->px->sig.restart = SIG_RESTART_NONE;
}
