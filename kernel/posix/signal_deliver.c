/*
 * Signal delivery on the way back to user mode (see posix/signal.h):
 * picks the signals the current thread may take, runs their default action
 * or has the architecture build a handler frame, and finishes a system call
 * that a signal interrupted (-EINTR, or run again). A stopped process's
 * threads park here first (jobctl.c). Also the alternate signal stack's
 * rules.
 */
#include <posix/posix.h>
#include <posix/signal.h>
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/proc.h>

/* Signals a fault raises: delivered before anything else pending. */
#define SYNCHRONOUS (sig_bit(SIGSEGV) | sig_bit(SIGBUS) | sig_bit(SIGILL) | \
                     sig_bit(SIGTRAP) | sig_bit(SIGFPE) | sig_bit(SIGSYS))

/* Takes the next signal t may receive off its pending sets: a thread's
 * synchronous signal, then the lowest of the thread's, then the lowest of
 * the process's. Returns it (0: none) with its information. */
static int dequeue(struct thread *t, struct sig_info *info)
{
	uint64_t allowed = ~t->px->sig.blocked;
	struct sig_pending *q = &t->px->sig.pending;
	uint64_t candidates = q->set & allowed & SYNCHRONOUS;
	if (!candidates)
		candidates = q->set & allowed;
	if (!candidates) {
		q = &t->proc->px->sig.pending;
		candidates = q->set & allowed;
	}
	if (!candidates)
		return 0;
	int sig = __builtin_ctzll(candidates) + 1;
	q->set &= ~sig_bit(sig);
	*info = q->info[sig - 1];
	if (sig >= SIGRTMIN)
		sigq_next(q, sig);   /* a further queued instance is pending now */
	return sig;
}

int signal_dequeue_from(struct thread *t, uint64_t set, struct sig_info *info)
{
	struct sig_pending *q = &t->px->sig.pending;
	if (!(q->set & set))
		q = &t->proc->px->sig.pending;
	uint64_t candidates = q->set & set;
	if (!candidates)
		return 0;
	int sig = __builtin_ctzll(candidates) + 1;
	q->set &= ~sig_bit(sig);
	*info = q->info[sig - 1];
	if (sig >= SIGRTMIN)
		sigq_next(q, sig);   /* a further queued instance is pending now */
	return sig;
}

static bool on_altstack(const struct thread *t, uptr_t sp)
{
	const struct sig_altstack *as = &t->px->sig.altstack;
	return as->size != 0 && sp > as->sp && sp - as->sp <= as->size;
}

struct sig_altstack signal_altstack_get(const struct thread *t, uptr_t sp)
{
	struct sig_altstack as = t->px->sig.altstack;
	if (as.size == 0)
		as.flags = SS_DISABLE;
	else if (on_altstack(t, sp))
		as.flags |= SS_ONSTACK;
	return as;
}

int signal_altstack_set(struct thread *t, const struct sig_altstack *ss, uptr_t sp)
{
	if (on_altstack(t, sp))
		return -EPERM;
	uint32_t mode = ss->flags & ~SS_AUTODISARM;
	if (mode != 0 && mode != SS_ONSTACK && mode != SS_DISABLE)
		return -EINVAL;
	if (mode == SS_DISABLE) {
		t->px->sig.altstack = (struct sig_altstack){ 0, 0, 0 };
		return 0;
	}
	if (ss->size < MINSIGSTKSZ)
		return -ENOMEM;
	t->px->sig.altstack = (struct sig_altstack){ ss->sp, ss->size, ss->flags & SS_AUTODISARM };
	return 0;
}

/* Builds the handler's frame and switches to the handler's mask. false
 * when the frame cannot be made (no restorer, bad stack or handler). */
static bool run_handler(struct thread *t, int sig, const struct sig_info *info,
                        struct sig_action *a)
{
	uptr_t sp = arch_signal_user_sp(t);
	struct sig_frame f = {
		.sig = sig,
		.info = *info,
		.action = a,
		.saved_mask = t->px->sig.restore_mask ? t->px->sig.saved_mask : t->px->sig.blocked,
		.stack_top = 0,
		.altstack = signal_altstack_get(t, sp),
	};
	bool use_altstack = (a->flags & SA_ONSTACK) && t->px->sig.altstack.size != 0 &&
	                    !on_altstack(t, sp);
	if (use_altstack)
		f.stack_top = t->px->sig.altstack.sp + t->px->sig.altstack.size;
	/* Without a restorer the handler could not return (x86-64 Linux
	 * requires one too). */
	if (!(a->flags & SA_RESTORER) || arch_signal_setup(t, &f) < 0)
		return false;
	if (use_altstack && (t->px->sig.altstack.flags & SS_AUTODISARM))
		t->px->sig.altstack = (struct sig_altstack){ 0, 0, 0 };
	t->px->sig.restore_mask = false;
	/* As Linux: the mask of the moment (sigsuspend's, if any), the
	 * handler's, the signal; the frame keeps the one to go back to. */
	uint64_t mask = t->px->sig.blocked | a->mask;
	if (!(a->flags & SA_NODEFER))
		mask |= sig_bit(sig);
	signal_set_blocked(t, mask);
	if (a->flags & SA_RESETHAND)
		a->handler = SIG_DFL;
	return true;
}

NORETURN static void die(struct process *p, int status)
{
	proc_kill(p, status);
	proc_check_killed();
	__builtin_unreachable();   /* the thread has exited */
}

/* Delivers t's pending signals, restarts or restores (the uncommon case
 * of personality_return_to_user, kept apart so that the common one saves no
 * registers). */
static __attribute__((noinline)) void deliver_pending(struct thread *t, struct process *p)
{
	job_park(t);   /* returns at once unless p is stopped */
	enum sig_restart restart = (enum sig_restart)t->px->sig.restart;
	t->px->sig.restart = SIG_RESTART_NONE;
	struct sig_info info;
	int sig;
	while ((sig = dequeue(t, &info)) != 0) {
		struct sig_action *a = &p->px->sig.action[sig - 1];
		if (!signal_has_handler(p, sig)) {
			if (signal_ignored(p, sig))
				continue;
			if (signal_stops(p, sig)) {   /* it was blocked when sent */
				job_stop(p, sig);
				job_park(t);
				continue;
			}
			die(p, signal_kill_status(sig));
		}
		/* The interrupted call: run again after the handler (SA_RESTART),
		 * or return -EINTR, which its return register holds already. */
		if (restart == SIG_RESTART_SA && (a->flags & SA_RESTART))
			arch_signal_restart_syscall(t);
		restart = SIG_RESTART_NONE;
		if (!run_handler(t, sig, &info, a)) {
			printk("myrmex: killed pid %d (%s): cannot deliver signal %d (stack %#llx)\n",
			       p->pid, p->name, sig, (unsigned long long)arch_signal_user_sp(t));
			die(p, signal_kill_status(SIGSEGV));
		}
	}
	/* No handler ran: a restartable call runs again, unseen. */
	if (restart != SIG_RESTART_NONE)
		arch_signal_restart_syscall(t);
	if (t->px->sig.restore_mask) {
		t->px->sig.restore_mask = false;
		signal_set_blocked(t, t->px->sig.saved_mask);
	}
}

void personality_return_to_user(void)
{
	struct thread *t = current_thread();
	struct process *p = t->proc;
	if (!p)
		return;
	/* The common case, on every system call: nothing to deliver, restart
	 * or restore. */
	const struct sig_thread *st = &t->px->sig;
	if (!st->restart && !st->restore_mask && !p->px->sig.stopped &&
	    !((st->pending.set | p->px->sig.pending.set) & ~st->blocked))
		return;
	deliver_pending(t, p);
}
