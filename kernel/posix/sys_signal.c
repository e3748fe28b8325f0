/*
 * Signal system calls (posix/signal.h): rt_sigaction, rt_sigprocmask,
 * rt_sigreturn, rt_sigpending, rt_sigsuspend, pause, sigaltstack, kill,
 * tkill and tgkill. Each checks all its arguments, and writes the old
 * value it reports, before it changes anything.
 *
 * Permission: there are no user ids yet. A POSIX process may signal only
 * POSIX processes: the servers, the service manager and the other native
 * programs are not its business (-EPERM; kill(-1) and group kills pass
 * them by), so that no program can kill a driver or the file manager.
 * Init (pid 1) takes only the signals it has handlers for: kill gives
 * -EPERM for the others (Linux drops them silently).
 */
#include <posix/posix.h>
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <posix/signal.h>
#include <kernel/usercopy.h>
#include <arch/linux_abi.h>

#define SIGSET_SIZE 8
#define SIG_BLOCK   0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

static struct process *self(void)
{
	return current_thread()->proc;
}

/* The sender's real uid, which siginfo's si_uid carries (0 for a native
 * process). */
static uint32_t self_ruid(void)
{
	struct process *p = self();
	return p->px ? p->px->cred.ruid : 0;
}

static bool valid_signal(int sig)
{
	return sig >= 1 && sig <= SIG_MAX;
}

/* Drops sig from every pending set of p (it is ignored now). */
static void discard_pending(struct process *p, int sig)
{
	p->px->sig.pending.set &= ~sig_bit(sig);
	sigq_drop(&p->px->sig.pending, sig);
	struct list_node *n;
	list_for_each(n, &p->threads) {
		struct sig_pending *q = &container_of(n, struct thread, proc_link)->px->sig.pending;
		q->set &= ~sig_bit(sig);
		sigq_drop(q, sig);
	}
}

long sys_rt_sigaction(const struct syscall_args *a)
{
	int sig = (int)a->arg[0];   /* an int in the Linux ABI: upper bits ignored */
	uptr_t act = a->arg[1], oldact = a->arg[2];
	if (a->arg[3] != SIGSET_SIZE)
		return -EINVAL;
	struct linux_sigaction in;
	if (act && copy_from_user(&in, act, sizeof(in)) < 0)
		return -EFAULT;
	if (!valid_signal(sig) || (act && (sig == SIGKILL || sig == SIGSTOP)))
		return -EINVAL;
	struct process *p = self();
	struct sig_action *cur = &p->px->sig.action[sig - 1];
	if (oldact) {
		struct linux_sigaction out = {
			.handler = cur->handler, .flags = cur->flags,
			.restorer = cur->restorer, .mask = cur->mask,
		};
		if (copy_to_user(oldact, &out, sizeof(out)) < 0)
			return -EFAULT;
	}
	if (act) {
		*cur = (struct sig_action){
			.handler = in.handler, .flags = in.flags & SA_KNOWN,
			.restorer = in.restorer, .mask = in.mask & ~SIG_UNBLOCKABLE,
		};
		/* POSIX: a signal set to be ignored is discarded when pending. */
		if (signal_ignored(p, sig))
			discard_pending(p, sig);
	}
	return 0;
}

long sys_rt_sigprocmask(const struct syscall_args *a)
{
	uint64_t how = a->arg[0];
	uptr_t set = a->arg[1], oldset = a->arg[2];
	if (a->arg[3] != SIGSET_SIZE)
		return -EINVAL;
	uint64_t mask = 0;
	if (set && copy_from_user(&mask, set, sizeof(mask)) < 0)
		return -EFAULT;
	if (set && how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK)
		return -EINVAL;
	struct thread *t = current_thread();
	if (oldset && copy_to_user(oldset, &t->px->sig.blocked, sizeof(t->px->sig.blocked)) < 0)
		return -EFAULT;
	if (set) {
		uint64_t blocked = how == SIG_BLOCK ? t->px->sig.blocked | mask
		                 : how == SIG_UNBLOCK ? t->px->sig.blocked & ~mask : mask;
		signal_set_blocked(t, blocked);   /* delivered on the way out if now unblocked */
	}
	return 0;
}

long sys_rt_sigreturn(const struct syscall_args *a)
{
	(void)a;
	struct thread *t = current_thread();
	struct sig_restored r;
	t->px->sig.restart = SIG_RESTART_NONE;
	if (arch_signal_return(t, &r) < 0) {
		struct process *p = t->proc;
		printk("myrmex: killed pid %d (%s): bad frame in rt_sigreturn (stack %#llx)\n",
		       p->pid, p->name, (unsigned long long)arch_signal_user_sp(t));
		proc_kill(p, signal_kill_status(SIGSEGV));
		return 0;   /* the thread leaves on its way out */
	}
	signal_set_blocked(t, r.mask);
	/* As Linux, the saved alternate stack comes back; a bad one is ignored. */
	signal_altstack_set(t, &r.altstack, arch_signal_user_sp(t));
	return (long)r.retval;   /* the dispatcher stores it back where it was */
}

long sys_rt_sigpending(const struct syscall_args *a)
{
	uint64_t size = a->arg[1];
	if (size > SIGSET_SIZE)
		return -EINVAL;
	struct thread *t = current_thread();
	uint64_t pending = (t->px->sig.pending.set | t->proc->px->sig.pending.set) & t->px->sig.blocked;
	return copy_to_user(a->arg[0], &pending, size);
}

/* Sleeps until a signal the thread does not block is pending; its handler
 * runs on the way out, and the call returns -EINTR after it (or runs again
 * if the signal was dropped). */
static long wait_for_signal(struct thread *t)
{
	while (!signal_unblocked_pending(t) && !t->proc->killed)
		thread_block(NULL, 0);
	return signal_eintr(SIG_RESTART_NOHAND);
}

long sys_rt_sigsuspend(const struct syscall_args *a)
{
	if (a->arg[1] != SIGSET_SIZE)
		return -EINVAL;
	uint64_t mask;
	if (copy_from_user(&mask, a->arg[0], sizeof(mask)) < 0)
		return -EFAULT;
	struct thread *t = current_thread();
	t->px->sig.saved_mask = t->px->sig.blocked;   /* back after the handler, or at once */
	t->px->sig.restore_mask = true;
	signal_set_blocked(t, mask);
	return wait_for_signal(t);
}

long sys_pause(const struct syscall_args *a)
{
	(void)a;
	return wait_for_signal(current_thread());
}

long sys_sigaltstack(const struct syscall_args *a)
{
	uptr_t ss = a->arg[0], old_ss = a->arg[1];
	struct thread *t = current_thread();
	uptr_t sp = arch_signal_user_sp(t);
	struct sig_altstack before = t->px->sig.altstack;
	struct sig_altstack old = signal_altstack_get(t, sp);
	if (ss) {
		struct linux_stack in;
		if (copy_from_user(&in, ss, sizeof(in)) < 0)
			return -EFAULT;
		struct sig_altstack wanted = { in.sp, in.size, (uint32_t)in.flags };
		int err = signal_altstack_set(t, &wanted, sp);
		if (err)
			return err;
	}
	if (old_ss) {
		struct linux_stack out = { .sp = old.sp, .flags = (int32_t)old.flags, .size = old.size };
		if (copy_to_user(old_ss, &out, sizeof(out)) < 0) {
			t->px->sig.altstack = before;   /* nothing changes on failure */
			return -EFAULT;
		}
	}
	return 0;
}

/* ---- Sending ---- */

/* Whether the caller may send sig to p: a POSIX process only to POSIX
 * processes; init takes only what it handles. */
static bool may_signal(const struct process *p, int sig)
{
	if (self()->posix && !p->posix)
		return false;
	return sig == 0 || p->pid != 1 || signal_has_handler(p, sig);
}

/* kill(0 / -1 / -pgid): every live process of the group, or all but init
 * and the caller. 0 when there was one, -ESRCH otherwise. */
static long kill_many(int pid, int sig, const struct sig_info *info)
{
	struct process *me = self();
	int64_t group = pid == 0 ? me->pgid : -(int64_t)pid;
	bool found = false;
	for (struct process *p = proc_next(NULL); p; p = proc_next(p)) {
		if (p->state != PROC_ALIVE)
			continue;
		if (pid == -1 ? (p->pid == 1 || p == me) : p->pgid != group)
			continue;
		if (me->posix && !p->posix)
			continue;   /* not found: not the caller's business */
		found = true;
		if (sig && may_signal(p, sig))
			signal_send_process(p, sig, info);
	}
	return found ? 0 : -ESRCH;
}

long sys_kill(const struct syscall_args *a)
{
	int pid = (int)a->arg[0];
	int sig = (int)a->arg[1];
	if (sig < 0 || sig > SIG_MAX)
		return -EINVAL;
	struct sig_info info = { .code = SI_USER, .pid = self()->pid, .uid = self_ruid() };
	if (pid <= 0)
		return kill_many(pid, sig, &info);
	struct process *p = proc_find(pid);
	if (!p || p->state != PROC_ALIVE)
		return -ESRCH;
	if (!may_signal(p, sig))
		return -EPERM;
	if (sig)
		signal_send_process(p, sig, &info);
	return 0;
}

/* tkill and tgkill: tgid 0 means any process. */
static long send_to_thread(int tgid, int tid, int sig)
{
	if (sig < 0 || sig > SIG_MAX)
		return -EINVAL;
	struct thread *t = NULL;
	struct process *p;
	for (p = proc_next(NULL); p && !t; p = proc_next(p))
		if (p->state == PROC_ALIVE && (tgid == 0 || p->pid == tgid))
			t = proc_find_thread(p, tid);
	if (!t)
		return -ESRCH;
	if (!may_signal(t->proc, sig))
		return -EPERM;
	struct sig_info info = { .code = SI_TKILL, .pid = self()->pid, .uid = self_ruid() };
	if (sig)
		signal_send_thread(t, sig, &info);
	return 0;
}

long sys_tkill(const struct syscall_args *a)
{
	int tid = (int)a->arg[0];
	if (tid <= 0)
		return -EINVAL;
	return send_to_thread(0, tid, (int)a->arg[1]);
}

long sys_tgkill(const struct syscall_args *a)
{
	int tgid = (int)a->arg[0], tid = (int)a->arg[1];
	if (tgid <= 0 || tid <= 0)
		return -EINVAL;
	return send_to_thread(tgid, tid, (int)a->arg[2]);
}
