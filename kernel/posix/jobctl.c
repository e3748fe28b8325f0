/*
 * Job control (see posix/signal.h, docs/posix.md "Signals"): stopping a
 * process for a stop signal, continuing it for SIGCONT, parking its threads
 * while it is stopped, and telling the parent (SIGCHLD, wait4 with
 * WUNTRACED or WCONTINUED).
 *
 * Where a thread stops: on its way back to user mode, where signals are
 * delivered (personality_return_to_user). A thread running user code gets
 * there at its next interrupt or system call; a thread blocked in the
 * kernel is not woken by the stop: it stops when its wait ends and it
 * would return. So a stopped process runs no user code, and its system
 * calls in progress finish (or wait) as they would have.
 *
 * As Linux: SIGCONT continues a stopped process whatever its action, and
 * discards the stop signals pending; a stop signal discards a pending
 * SIGCONT. While the process is stopped, signals other than SIGKILL and
 * SIGCONT wait, even fatal ones, and are delivered once it continues.
 * SIGTSTP, SIGTTIN and SIGTTOU do not stop a process of an orphaned group
 * (no member has a parent outside the group in its session, other than
 * init): nobody would continue it. And when a process's end orphans a
 * group that has a stopped member, every member gets SIGHUP then SIGCONT,
 * so that it does not stay stopped for ever.
 */
#include <posix/posix.h>
#include <posix/signal.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/syscall.h>
#include <myrmex/console.h>
#include <posix/route.h>

void job_init(struct process *p)
{
	waitq_init(&p->px->sig.continued);
}

/* Takes the signals of `set` off p's pending sets, its threads' too. */
static void discard(struct process *p, uint64_t set)
{
	p->px->sig.pending.set &= ~set;
	struct list_node *n;
	list_for_each(n, &p->threads) {
		struct thread *t = container_of(n, struct thread, proc_link);
		t->px->sig.pending.set &= ~set;
	}
}

/* The parent hears that p stopped or continued (code CLD_STOPPED or
 * CLD_CONTINUED, status the signal): its wait4 looks again, and SIGCHLD
 * comes unless its action has SA_NOCLDSTOP. */
static void notify_parent(struct process *p, int code, int sig)
{
	struct process *parent = p->parent;
	if (!parent)
		return;
	waitq_wake(&parent->child_exit, INT32_MAX);
	if (parent->px->sig.action[SIGCHLD - 1].flags & SA_NOCLDSTOP)
		return;
	struct sig_info info = { .code = code, .pid = p->pid, .value = (uint64_t)sig };
	signal_send_process(parent, SIGCHLD, &info);
}

static void job_continue(struct process *p)
{
	struct sig_process *s = &p->px->sig;
	if (!s->stopped)
		return;
	s->stopped = false;
	s->wait_report = JOB_REPORT_CONTINUED;
	waitq_wake(&s->continued, INT32_MAX);
	/* Signals that came while it was stopped now interrupt a wait. */
	struct list_node *n;
	list_for_each(n, &p->threads) {
		struct thread *t = container_of(n, struct thread, proc_link);
		if (personality_interrupts(t))
			thread_wake(t, -EINTR);
	}
	notify_parent(p, CLD_CONTINUED, SIGCONT);
}

void job_signal_sent(struct process *p, int sig)
{
	if (sig == SIGCONT) {
		discard(p, SIG_STOP_SET);
		job_continue(p);
	} else if (sig_bit(sig) & SIG_STOP_SET) {
		discard(p, sig_bit(SIGCONT));
	}
}

/* Whether process group pgid is orphaned, or will be once `gone` (may be
 * NULL) has ended: no member other than gone has a parent, other than
 * gone and init, in another group of its session (Linux's
 * will_become_orphaned_pgrp). */
static bool group_orphaned(int pgid, const struct process *gone)
{
	for (struct process *q = proc_next(NULL); q; q = proc_next(q)) {
		if (q == gone || q->pgid != pgid || q->state != PROC_ALIVE)
			continue;
		const struct process *parent = q->parent;
		if (!parent || parent == gone || parent->pid == 1)
			continue;
		if (parent->pgid != pgid && parent->sid == q->sid)
			return false;
	}
	return true;
}

/* Group pgid, orphaned by gone's end: if a member is stopped, SIGHUP and
 * SIGCONT to every member (Linux's kill_orphaned_pgrp). */
static void hang_up_if_orphaned(int pgid, const struct process *gone)
{
	bool stopped = false;
	for (struct process *q = proc_next(NULL); q; q = proc_next(q))
		if (q != gone && q->pgid == pgid && q->state == PROC_ALIVE && q->px->sig.stopped)
			stopped = true;
	if (!stopped || !group_orphaned(pgid, gone))
		return;
	struct sig_info info = { .code = SI_KERNEL, .pid = 0 };
	for (struct process *q = proc_next(NULL); q; q = proc_next(q)) {
		if (q == gone || q->pgid != pgid || q->state != PROC_ALIVE)
			continue;
		signal_send_process(q, SIGHUP, &info);
		signal_send_process(q, SIGCONT, &info);
	}
}

void job_process_exit(struct process *p)
{
	/* Its own group loses p's link to the session... */
	const struct process *parent = p->parent;
	if (parent && parent->pgid != p->pgid && parent->sid == p->sid)
		hang_up_if_orphaned(p->pgid, p);
	/* ... and its children's groups their parent. */
	struct list_node *n;
	list_for_each(n, &p->children) {
		struct process *c = container_of(n, struct process, sibling_link);
		if (c->state == PROC_ALIVE && c->pgid != p->pgid && c->sid == p->sid)
			hang_up_if_orphaned(c->pgid, p);
	}
}

void job_stop(struct process *p, int sig)
{
	struct sig_process *s = &p->px->sig;
	if (s->stopped || p->killed)
		return;
	if (sig != SIGSTOP && group_orphaned(p->pgid, NULL))
		return;   /* the signal is dropped */
	s->stopped = true;
	s->stop_sig = (uint8_t)sig;
	s->wait_report = JOB_REPORT_STOPPED;
	notify_parent(p, CLD_STOPPED, sig);
}

void job_park(struct thread *t)
{
	struct process *p = t->proc;
	/* thread_block returns at once for death or an exec's exit_pending;
	 * pending signals do not cut it short (personality_interrupts). */
	while (p->px->sig.stopped && !p->killed && !t->exit_pending)
		thread_block(&p->px->sig.continued, 0);
	proc_check_killed();
}

bool personality_wait_event(struct process *c, unsigned events, bool keep, int *status)
{
	struct sig_process *s = &c->px->sig;
	if (c->state != PROC_ALIVE || c->killed)
		return false;
	if (s->stopped && s->wait_report == JOB_REPORT_STOPPED && (events & JOB_WUNTRACED)) {
		if (!keep)
			s->wait_report = 0;
		*status = 0x7f | (s->stop_sig << 8);   /* WIFSTOPPED, WSTOPSIG */
		return true;
	}
	if (!s->stopped && s->wait_report == JOB_REPORT_CONTINUED && (events & JOB_WCONTINUED)) {
		if (!keep)
			s->wait_report = 0;
		*status = 0xffff;                      /* WIFCONTINUED */
		return true;
	}
	return false;
}

/* tty_signal (include/myrmex/console.h): the terminal's job-control check
 * of Linux's __tty_check_change, made by the console server for the
 * process pid that reads or writes from a background group. */
long sys_tty_signal(const struct syscall_args *a)
{
	if (posix_server(SERVICE_CONSOLE) != current_thread()->proc)
		return -EPERM;
	int pid = (int)a->arg[0], sig = (int)a->arg[1];
	if (sig != SIGTTIN && sig != SIGTTOU)
		return -EINVAL;
	struct process *p = pid > 0 ? proc_find(pid) : NULL;
	if (!p || p->state != PROC_ALIVE || !p->posix)
		return -ESRCH;
	/* Ignored, or blocked by every thread (the one in the call among them). */
	bool blocked = true;
	struct list_node *n;
	list_for_each(n, &p->threads)
		if (!(container_of(n, struct thread, proc_link)->px->sig.blocked & sig_bit(sig)))
			blocked = false;
	if (p->px->sig.action[sig - 1].handler == SIG_IGN || blocked)
		return MYRMEX_TTY_IGNORED;
	if (group_orphaned(p->pgid, NULL))
		return MYRMEX_TTY_ORPHANED;
	struct sig_info info = { .code = SI_KERNEL, .pid = 0 };
	for (struct process *q = proc_next(NULL); q; q = proc_next(q))
		if (q->pgid == p->pgid && q->state == PROC_ALIVE && q->posix)
			signal_send_process(q, sig, &info);
	return MYRMEX_TTY_SENT;
}
