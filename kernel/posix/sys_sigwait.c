/*
 * Waiting for a signal and sending one with a value: rt_sigtimedwait
 * (sigwait, sigwaitinfo, sigtimedwait), rt_sigqueueinfo and
 * rt_tgsigqueueinfo (sigqueue, pthread_sigqueue). Answered in the kernel,
 * as Linux's kernel/signal.c does them:
 *
 * - rt_sigtimedwait takes the lowest pending signal of its set (the
 *   thread's first, then the process's), whether the thread blocks it or
 *   not, and returns its number with its siginfo. While it waits, a signal
 *   of the set that the thread blocks is queued for it whatever its action
 *   (struct sig_thread.waiting, signal.c); one it does not block meets its
 *   fate as usual (a handler, or death). A handled signal outside the set
 *   ends the wait with -EINTR after its handler (never restarted); the
 *   timeout with -EAGAIN, at once for a zero timeout. SIGKILL and SIGSTOP
 *   are never taken.
 * - rt_sigqueueinfo sends the caller's siginfo (code, pid, uid, si_value)
 *   as kill does; only a negative code other than SI_TKILL may be sent to
 *   another process (-EPERM), so nobody can pass for the kernel or kill().
 *   A signal is pending at most once, as every signal here (real-time
 *   signals are not queued twice: docs/posix.md).
 */
#include <posix/posix.h>
#include <posix/syscall.h>
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/time.h>
#include <kernel/usercopy.h>
#include <posix/signal.h>
#include <arch/linux_abi.h>

#define SIGSET_SIZE 8
#define NS_PER_S 1000000000ull

/* Linux's siginfo_t as rt_sigqueueinfo reads it: the header and the first
 * words of the union (_rt: pid, uid, sigval); 128 bytes in all. */
struct queued_info {
	int32_t signo, errno_, code, pad;
	int32_t pid;
	uint32_t uid;
	uint64_t value;
	uint8_t rest[128 - 32];
};
_Static_assert(sizeof(struct queued_info) == 128, "Linux siginfo_t");

/* Waits (until deadline, 0: for ever; deadline 1: not at all) for a
 * signal of set; returns it with *info, or -EAGAIN, -EINTR. */
static long wait_signal(struct thread *t, uint64_t set, uint64_t deadline, struct sig_info *info)
{
	for (;;) {
		int sig = signal_dequeue_from(t, set, info);
		if (sig)
			return sig;
		if (deadline == 1)
			return -EAGAIN;
		t->px->sig.waiting = set;
		int r = thread_block(NULL, deadline);
		t->px->sig.waiting = 0;
		sig = signal_dequeue_from(t, set, info);
		if (sig)
			return sig;
		if (r == -ETIMEDOUT)
			return -EAGAIN;
		/* Woken by a signal outside the set (its handler runs on the way
		 * out), or by the process's death: the thread leaves then. */
		if (r == -EINTR && (t->proc->killed || t->exit_pending || personality_interrupts(t)))
			return signal_eintr(SIG_RESTART_NONE);
	}
}

long sys_rt_sigtimedwait(const struct syscall_args *a)
{
	uptr_t uset = a->arg[0], uinfo = a->arg[1], utimeout = a->arg[2];
	if (a->arg[3] != SIGSET_SIZE)
		return -EINVAL;
	uint64_t set;
	if (copy_from_user(&set, uset, sizeof(set)) < 0)
		return -EFAULT;
	set &= ~SIG_UNBLOCKABLE;
	uint64_t deadline = 0;
	if (utimeout) {
		struct linux_timespec ts;
		if (copy_from_user(&ts, utimeout, sizeof(ts)) < 0)
			return -EFAULT;
		if (ts.sec < 0 || ts.nsec < 0 || (uint64_t)ts.nsec >= NS_PER_S)
			return -EINVAL;
		uint64_t now = time_monotonic_ns();
		uint64_t max_sec = (UINT64_MAX / 2 - now) / NS_PER_S;
		if (ts.sec == 0 && ts.nsec == 0)
			deadline = 1;   /* a poll */
		else if ((uint64_t)ts.sec >= max_sec)
			deadline = 0;   /* beyond any machine's life: for ever */
		else
			deadline = now + (uint64_t)ts.sec * NS_PER_S + (uint64_t)ts.nsec;
	}
	struct thread *t = current_thread();
	struct sig_info info;
	long sig = wait_signal(t, set, deadline, &info);
	if (sig < 0)
		return sig;
	/* As Linux: the signal is taken even if its siginfo cannot be written. */
	if (uinfo && arch_signal_info_out(uinfo, (int)sig, &info) < 0)
		return -EFAULT;
	return sig;
}

/* Reads the caller's siginfo (its si_signo is ignored: the call's sig
 * counts). */
static long read_queued(uptr_t uinfo, struct sig_info *out, int32_t *raw_code)
{
	struct queued_info qi;
	if (copy_from_user(&qi, uinfo, sizeof(qi)) < 0)
		return -EFAULT;
	/* A code outside 16 bits (none of Linux's) is kept as SI_QUEUE's. */
	*raw_code = qi.code;
	int16_t code = qi.code < INT16_MIN || qi.code > INT16_MAX ? SI_QUEUE : (int16_t)qi.code;
	*out = (struct sig_info){ .code = code, .pid = qi.pid, .uid = qi.uid, .value = qi.value };
	return 0;
}

/* Only to itself (its own thread id, as Linux) may a caller send a code
 * of the kernel's or of kill's and tkill's. */
static bool may_claim(int32_t code, int target)
{
	return (code < 0 && code != SI_TKILL) || target == current_thread()->tid;
}

/* The caller may signal p (a POSIX process only POSIX ones; init only
 * with what it handles), as kill checks it. */
static bool may_queue(const struct process *p, int sig)
{
	struct process *me = current_thread()->proc;
	if (me->posix && !p->posix)
		return false;
	return sig == 0 || p->pid != 1 || signal_has_handler(p, sig);
}

long sys_rt_sigqueueinfo(const struct syscall_args *a)
{
	int pid = (int)a->arg[0], sig = (int)a->arg[1];
	struct sig_info info;
	int32_t code;
	long err = read_queued(a->arg[2], &info, &code);
	if (err)
		return err;
	if (!may_claim(code, pid))
		return -EPERM;
	struct process *p = pid > 0 ? proc_find(pid) : NULL;
	if (!p || p->state != PROC_ALIVE)
		return -ESRCH;
	if (sig < 0 || sig > SIG_MAX)
		return -EINVAL;
	if (!may_queue(p, sig))
		return -EPERM;
	if (sig)
		signal_send_process(p, sig, &info);
	return 0;
}

long sys_rt_tgsigqueueinfo(const struct syscall_args *a)
{
	int tgid = (int)a->arg[0], tid = (int)a->arg[1], sig = (int)a->arg[2];
	struct sig_info info;
	int32_t code;
	long err = read_queued(a->arg[3], &info, &code);
	if (err)
		return err;
	if (tgid <= 0 || tid <= 0)
		return -EINVAL;
	if (!may_claim(code, tid))
		return -EPERM;
	struct process *p = proc_find(tgid);
	struct thread *t = p && p->state == PROC_ALIVE ? proc_find_thread(p, tid) : NULL;
	if (!t)
		return -ESRCH;
	if (sig < 0 || sig > SIG_MAX)
		return -EINVAL;
	if (!may_queue(p, sig))
		return -EPERM;
	if (sig)
		signal_send_thread(t, sig, &info);
	return 0;
}
