/*
 * The out-of-memory policy (personality_out_of_memory, kernel/personality.h):
 * POSIX processes overcommit as on Linux (their private anonymous memory
 * is committed page by page as it is touched, kernel/vm.h), so a touch may
 * find the budget spent. Then, as Linux's OOM killer, the biggest offender
 * goes: the live POSIX process other than init with the most committed
 * pages gets SIGKILL (one line on the console), and the faulting thread
 * waits a millisecond at a time for its memory to come back and tries
 * again (vm_fault). While a victim is dying no other is chosen. Servers and
 * native programs are never chosen: they commit their memory up front and
 * must keep it; when only they hold memory the fault fails (SIGBUS).
 */
#include <kernel/personality.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <posix/signal.h>

#define OOM_WAIT_NS 1000000ull   /* a millisecond for the victim to go */

int personality_out_of_memory(void)
{
	struct process *me = current_thread()->proc;
	struct process *victim = NULL;
	bool dying = false;
	for (struct process *p = proc_next(NULL); p; p = proc_next(p)) {
		if (!p->posix || p->pid == 1 || p->state != PROC_ALIVE)
			continue;
		if (p->killed) {
			dying = true;   /* one on its way out already: wait for it */
			continue;
		}
		if (!victim || p->vm.committed_pages > victim->vm.committed_pages)
			victim = p;
	}
	if (!dying) {
		if (!victim)
			return -ENOMEM;
		printk("myrmex: out of memory: killed pid %d (%s), %llu pages committed\n",
		       victim->pid, victim->name, (unsigned long long)victim->vm.committed_pages);
		proc_kill(victim, signal_kill_status(SIGKILL));
	}
	if (me && me->killed)
		return -EINTR;
	thread_block(NULL, time_monotonic_ns() + OOM_WAIT_NS);
	return 0;
}
