/*
 * signalfd and signalfd4 for POSIX processes, and the reads of a signalfd.
 * The descriptor and its mask are the file manager's (FS_SIGNALFD,
 * include/myrmex/fsevent.h); its read answers FS_KIND_SIGNAL with the
 * mask, and sys_file.c's read comes here: the signals of the mask pending
 * for the thread, then for its process, are taken off (as delivery would
 * take them, kernel/posix/signal_deliver.c) and written as Linux's struct
 * signalfd_siginfo. A read with nothing pending waits for a readiness
 * notice (posix/poll_notice.h: the signals it reads are blocked, so they
 * wake nobody, but every signal made pending posts a notice), then looks
 * again, until one comes or an unblocked signal interrupts.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <posix/forward.h>
#include <posix/posix.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <posix/signal.h>
#include <posix/signalfd.h>
#include <posix/poll_notice.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/usercopy.h>
#include <myrmex/fs.h>
#include <myrmex/fsevent.h>

#define O_NONBLOCK 04000
#define O_CLOEXEC  02000000
#define SIGSET_BYTES 8u

/* Linux's struct signalfd_siginfo: 128 bytes, fixed layout on every
 * architecture. */
struct signalfd_siginfo {
	uint32_t ssi_signo;
	int32_t ssi_errno, ssi_code;
	uint32_t ssi_pid, ssi_uid;
	int32_t ssi_fd;
	uint32_t ssi_tid, ssi_band, ssi_overrun, ssi_trapno;
	int32_t ssi_status, ssi_int;
	uint64_t ssi_ptr, ssi_utime, ssi_stime, ssi_addr;
	uint16_t ssi_addr_lsb, pad2;
	int32_t ssi_syscall;
	uint64_t ssi_call_addr;
	uint32_t ssi_arch;
	uint8_t pad[28];
};
_Static_assert(sizeof(struct signalfd_siginfo) == 128, "struct signalfd_siginfo");

long sys_signalfd4(const struct syscall_args *a)
{
	uint64_t flags = a->arg[3];
	if (flags & ~(uint64_t)(O_NONBLOCK | O_CLOEXEC))
		return -EINVAL;
	if (a->arg[2] != SIGSET_BYTES)
		return -EINVAL;
	uint64_t mask;
	if (copy_from_user(&mask, a->arg[1], sizeof(mask)) < 0)
		return -EFAULT;
	mask &= ~SIG_UNBLOCKABLE;   /* as Linux: SIGKILL and SIGSTOP are never read */
	int32_t fd = (int32_t)a->arg[0];
	if (fd < -1)
		return -EBADF;
	return posix_fs_call(FS_SIGNALFD, fd == -1 ? FS_SIGNALFD_NEW : (uint64_t)fd, mask, flags, NULL);
}

long sys_signalfd(const struct syscall_args *a)
{
	struct syscall_args b = *a;
	b.arg[3] = 0;
	return sys_signalfd4(&b);
}

uint64_t signalfd_pending(void)
{
	struct thread *t = current_thread();
	return t->px->sig.pending.set | t->proc->px->sig.pending.set;
}

/* Takes the lowest signal of mask pending for t, then for its process:
 * the signal (0: none) and its information (a queued real-time signal's
 * next instance becomes pending: signal_dequeue_from). */
static int take(struct thread *t, uint64_t mask, struct sig_info *info)
{
	return signal_dequeue_from(t, mask, info);
}

/* As Linux fills it for each kind of signal. */
static void fill(struct signalfd_siginfo *s, int sig, const struct sig_info *info)
{
	memset(s, 0, sizeof(*s));
	s->ssi_signo = (uint32_t)sig;
	s->ssi_code = info->code;
	switch (sig) {
	case SIGSEGV: case SIGBUS: case SIGILL: case SIGFPE: case SIGTRAP:
		if (info->code > 0) {   /* a fault, not sent */
			s->ssi_addr = info->value;
			return;
		}
		break;
	case SIGCHLD:
		if (info->code > 0) {   /* sent by the kernel for a child */
			s->ssi_pid = (uint32_t)info->pid;
			s->ssi_uid = info->uid;
			s->ssi_status = (int32_t)info->value;
			return;
		}
		break;
	default:
		break;
	}
	s->ssi_pid = (uint32_t)info->pid;
	s->ssi_uid = info->uid;
	if (info->code < 0 && info->code != SI_TKILL) {   /* sigqueue's si_value */
		s->ssi_int = (int32_t)info->value;
		s->ssi_ptr = info->value;
	}
}

long signalfd_read(uptr_t buf, uint64_t count, uint64_t mask, bool nonblock)
{
	uint64_t n = count / sizeof(struct signalfd_siginfo);
	if (n == 0)
		return -EINVAL;
	if (!user_range_ok(buf, n * sizeof(struct signalfd_siginfo)))
		return -EFAULT;
	struct thread *t = current_thread();
	uint64_t done = 0;
	for (;;) {
		struct sig_info info;
		int sig;
		uint64_t seen = poll_notice_count();   /* a signal made pending moves it */
		while (done < n && (sig = take(t, mask, &info)) != 0) {
			struct signalfd_siginfo s;
			fill(&s, sig, &info);
			if (copy_to_user(buf + done * sizeof(s), &s, sizeof(s)) < 0)
				return done ? (long)(done * sizeof(s)) : -EFAULT;
			done++;
		}
		if (done)
			return (long)(done * sizeof(struct signalfd_siginfo));
		if (nonblock)
			return -EAGAIN;
		if (poll_notice_wait(seen, 0) == -EINTR)
			return signal_eintr(SIG_RESTART_SA);
	}
}
