/*
 * Signals, the portable part (see posix/signal.h): default actions,
 * sending to a process or to one thread, faults, SIGCHLD, and the signal
 * state across fork, clone and execve. Delivery on the way back to user
 * mode is in signal_deliver.c; the frame is the architecture's.
 *
 * A signal's fate is decided when it is sent, as Linux does: an ignored
 * one is dropped and a fatal one kills at once, unless it is blocked (then
 * it waits in a pending set and the decision is taken again at delivery).
 * A stop signal's default action stops the process the same way (jobctl.c);
 * while it is stopped, only SIGKILL kills at once.
 */
#include <posix/posix.h>
#include <posix/signal.h>
#include <posix/poll_notice.h>
#include <kernel/errno.h>
#include <posix/itimer.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/string.h>

enum sig_default { DFL_TERM, DFL_CORE, DFL_IGNORE, DFL_STOP };

static enum sig_default default_action(int sig)
{
	switch (sig) {
	case SIGQUIT: case SIGILL: case SIGTRAP: case SIGABRT: case SIGBUS:
	case SIGFPE: case SIGSEGV: case SIGXCPU: case SIGXFSZ: case SIGSYS:
		return DFL_CORE;
	case SIGCHLD: case SIGURG: case SIGWINCH: case SIGCONT:
		return DFL_IGNORE;   /* SIGCONT continues whatever its action (jobctl.c) */
	case SIGSTOP: case SIGTSTP: case SIGTTIN: case SIGTTOU:
		return DFL_STOP;
	default:
		return DFL_TERM;
	}
}

/* No core file is ever written, so the wait status never has the core
 * bit (0x80): what Linux reports with a core size limit of 0. */
int signal_kill_status(int sig)
{
	return sig;
}

bool signal_ignored(const struct process *p, int sig)
{
	uptr_t h = p->px->sig.action[sig - 1].handler;
	return h == SIG_IGN || (h == SIG_DFL && default_action(sig) == DFL_IGNORE);
}

bool signal_has_handler(const struct process *p, int sig)
{
	uptr_t h = p->px->sig.action[sig - 1].handler;
	return h != SIG_DFL && h != SIG_IGN;
}

bool signal_stops(const struct process *p, int sig)
{
	return p->px->sig.action[sig - 1].handler == SIG_DFL && default_action(sig) == DFL_STOP;
}

static bool is_fatal(const struct process *p, int sig)
{
	enum sig_default d = default_action(sig);
	return p->px->sig.action[sig - 1].handler == SIG_DFL && (d == DFL_TERM || d == DFL_CORE);
}

static bool blocks(const struct thread *t, int sig)
{
	return (t->px->sig.blocked & sig_bit(sig)) != 0;
}

/* The first instance stays: a standard signal is pending at most once; a
 * real-time one queues the others behind it (sigqueue.c). A readiness
 * notice follows: a signalfd, polled or read, may wait for it. */
static void queue(struct sig_pending *q, int sig, const struct sig_info *info)
{
	poll_notice();
	if (q->set & sig_bit(sig)) {
		if (sig >= SIGRTMIN)
			sigq_push(q, sig, info);
		return;
	}
	q->set |= sig_bit(sig);
	q->info[sig - 1] = *info;
}

/* Whether t waits for sig in rt_sigtimedwait while blocking it: then sig
 * is queued for it and wakes it, whatever its action. */
static bool awaited(const struct thread *t, int sig)
{
	return (t->px->sig.waiting & t->px->sig.blocked & sig_bit(sig)) != 0;
}

/* The thread of p that takes sig: one that waits for it (sigwait), else
 * one that does not block it, the running one first; NULL if every
 * thread blocks it. */
static struct thread *pick_thread(struct process *p, int sig)
{
	struct list_node *n;
	list_for_each(n, &p->threads) {
		struct thread *t = container_of(n, struct thread, proc_link);
		if (awaited(t, sig))
			return t;
	}
	struct thread *cur = current_thread();
	if (cur->proc == p && !blocks(cur, sig))
		return cur;
	list_for_each(n, &p->threads) {
		struct thread *t = container_of(n, struct thread, proc_link);
		if (!blocks(t, sig))
			return t;
	}
	return NULL;
}

/* Init, as on Linux, takes only the signals it has handlers for. */
static bool receives(const struct process *p, int sig)
{
	if (p->state != PROC_ALIVE || p->killed)
		return false;
	return p->pid != 1 || signal_has_handler(p, sig);
}

void signal_send_process(struct process *p, int sig, const struct sig_info *info)
{
	if (!receives(p, sig))
		return;
	if (sig == SIGKILL) {
		proc_kill(p, SIGKILL);
		return;
	}
	job_signal_sent(p, sig);
	bool stopped = p->px->sig.stopped;
	struct thread *t = pick_thread(p, sig);
	if (t && awaited(t, sig)) {
		queue(&p->px->sig.pending, sig, info);
		thread_wake(t, -EINTR);   /* a stopped process stops on the way out */
		return;
	}
	if (t && signal_ignored(p, sig))
		return;
	if (t && signal_stops(p, sig)) {
		job_stop(p, sig);
		return;
	}
	if (t && !stopped && is_fatal(p, sig)) {
		proc_kill(p, signal_kill_status(sig));
		return;
	}
	queue(&p->px->sig.pending, sig, info);
	if (t && !stopped)
		thread_wake(t, -EINTR);   /* only if it waits in the kernel */
}

void signal_send_thread(struct thread *t, int sig, const struct sig_info *info)
{
	struct process *p = t->proc;
	if (!p || !receives(p, sig) || t->state == THREAD_DEAD)
		return;
	if (sig == SIGKILL) {
		proc_kill(p, SIGKILL);
		return;
	}
	job_signal_sent(p, sig);
	bool stopped = p->px->sig.stopped;
	bool blocked = blocks(t, sig);
	if (awaited(t, sig)) {
		queue(&t->px->sig.pending, sig, info);
		thread_wake(t, -EINTR);
		return;
	}
	if (!blocked && signal_ignored(p, sig))
		return;
	if (!blocked && signal_stops(p, sig)) {
		job_stop(p, sig);   /* a stop signal stops the whole process */
		return;
	}
	if (!blocked && !stopped && is_fatal(p, sig)) {
		proc_kill(p, signal_kill_status(sig));
		return;
	}
	queue(&t->px->sig.pending, sig, info);
	if (!blocked && !stopped)
		thread_wake(t, -EINTR);
}

void signal_fault(int sig, int code, uptr_t si_addr, const char *cause, uptr_t msg_addr,
                  uptr_t ip)
{
	struct thread *t = current_thread();
	/* As Linux forces a fault signal: blocked or not handled means death. */
	if (signal_has_handler(t->proc, sig) && !blocks(t, sig)) {
		struct sig_info info = { .code = code, .pid = 0, .value = si_addr };
		queue(&t->px->sig.pending, sig, &info);
		return;
	}
	proc_fault_kill(signal_kill_status(sig), cause, msg_addr, ip);
}

bool personality_child_exit(struct process *parent, const struct process *child)
{
	const struct sig_action *a = &parent->px->sig.action[SIGCHLD - 1];
	if (a->handler == SIG_IGN)
		return true;
	int status = child->wait_status;
	struct sig_info info = { .pid = child->pid, .uid = child->px ? child->px->cred.ruid : 0 };
	if ((status & 0x7f) == 0) {
		info.code = CLD_EXITED;
		info.value = (uint64_t)((status >> 8) & 0xff);
	} else {
		info.code = (status & 0x80) ? CLD_DUMPED : CLD_KILLED;
		info.value = (uint64_t)(status & 0x7f);
	}
	signal_send_process(parent, SIGCHLD, &info);
	return (a->flags & SA_NOCLDWAIT) != 0;
}

bool personality_interrupts(const struct thread *t)
{
	if (t->only_death_wakes)
		return false;   /* a fork or exec in progress: see thread_wake */
	if (t->proc->px->sig.stopped)
		return false;   /* signals wait until it continues (jobctl.c) */
	uint64_t pending = (t->px->sig.pending.set | t->proc->px->sig.pending.set) & ~t->px->sig.blocked;
	for (int sig = 1; pending; sig++, pending >>= 1)
		if ((pending & 1) && !signal_ignored(t->proc, sig))
			return true;
	return false;
}

bool signal_unblocked_pending(const struct thread *t)
{
	return ((t->px->sig.pending.set | t->proc->px->sig.pending.set) & ~t->px->sig.blocked) != 0;
}

long signal_eintr(enum sig_restart how)
{
	current_thread()->px->sig.restart = (uint8_t)how;
	return -EINTR;
}

void signal_set_blocked(struct thread *t, uint64_t mask)
{
	mask &= ~SIG_UNBLOCKABLE;
	uint64_t newly = mask & ~t->px->sig.blocked;
	t->px->sig.blocked = mask;
	/* Process-directed signals this thread now blocks go to another thread
	 * that takes them, if one waits. */
	struct process *p = t->proc;
	uint64_t shared = p->px->sig.pending.set & newly;
	for (int sig = 1; shared; sig++, shared >>= 1) {
		if (!(shared & 1) || signal_ignored(p, sig))
			continue;
		struct thread *other = pick_thread(p, sig);
		if (other)
			thread_wake(other, -EINTR);
	}
}

/* ---- Creation, execve, the end ---- */

void signal_fork_copy(struct process *child, const struct process *parent)
{
	memcpy(child->px->sig.action, parent->px->sig.action, sizeof(child->px->sig.action));
	memset(&child->px->sig.pending, 0, sizeof(child->px->sig.pending));
	child->px->sig.itimer_deadline = 0;   /* timers are not inherited */
	child->px->sig.itimer_interval = 0;
}

void signal_thread_fork(struct thread *child, const struct thread *parent)
{
	memset(&child->px->sig, 0, sizeof(child->px->sig));
	child->px->sig.blocked = parent->px->sig.blocked;
	child->px->sig.altstack = parent->px->sig.altstack;
}

void signal_thread_clone(struct thread *child, const struct thread *parent)
{
	memset(&child->px->sig, 0, sizeof(child->px->sig));
	child->px->sig.blocked = parent->px->sig.blocked;
}

void signal_exec_reset(struct process *p)
{
	for (int i = 0; i < SIG_MAX; i++) {
		struct sig_action *a = &p->px->sig.action[i];
		uptr_t handler = a->handler == SIG_IGN ? SIG_IGN : SIG_DFL;
		memset(a, 0, sizeof(*a));
		a->handler = handler;
	}
	struct list_node *n;
	list_for_each(n, &p->threads) {
		struct thread *t = container_of(n, struct thread, proc_link);
		memset(&t->px->sig.altstack, 0, sizeof(t->px->sig.altstack));
	}
}

void signal_process_exit(struct process *p)
{
	itimer_cancel(p);
}
