/*
 * waitid(idtype, id, infop, options, rusage), as Linux's kernel/exit.c:
 * which children (P_ALL, P_PID, P_PGID with 0 for the caller's group),
 * what news (WEXITED, WSTOPPED, WCONTINUED; at least one), WNOHANG, and
 * WNOWAIT (the child stays waitable: a zombie is not reaped, a stop or
 * continue is reported again). The news comes back in a siginfo: si_signo
 * SIGCHLD, si_code CLD_EXITED/KILLED/DUMPED/STOPPED/CONTINUED, si_pid,
 * si_uid, si_status (the exit code or the signal); with WNOHANG and nothing
 * ready every one of those fields is 0. As Linux, infop is written after
 * the child is reaped: a bad infop loses the news (-EFAULT). P_PIDFD
 * (pidfds are not built) gives -EINVAL.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>
#include <posix/posix.h>
#include <posix/signal.h>
#include <arch/linux_abi.h>

#define P_ALL  0
#define P_PID  1
#define P_PGID 2

#define WNOHANG    0x00000001u
#define WSTOPPED   0x00000002u
#define WEXITED    0x00000004u
#define WCONTINUED 0x00000008u
#define WNOWAIT    0x01000000u
#define WNOTHREAD  0x20000000u
#define WALL       0x40000000u
#define WCLONE     0x80000000u
#define WAITID_OPTIONS (WNOHANG | WSTOPPED | WEXITED | WCONTINUED | WNOWAIT | WNOTHREAD | \
                        WALL | WCLONE)

_Static_assert(WSTOPPED == JOB_WUNTRACED && WCONTINUED == JOB_WCONTINUED,
               "the job-control events are wait4's options");

/* The siginfo fields waitid writes (siginfo_t's header and _sigchld). */
struct waitid_info {
	int32_t signo, errno_, code, pad;
	int32_t pid;
	uint32_t uid;
	int32_t status;
};

/* A Linux wait status as waitid's si_code and si_status. */
static void decode_status(int status, struct waitid_info *out)
{
	if ((status & 0xffff) == 0xffff) {
		out->code = CLD_CONTINUED;
		out->status = SIGCONT;
	} else if ((status & 0xff) == 0x7f) {
		out->code = CLD_STOPPED;
		out->status = (status >> 8) & 0xff;
	} else if ((status & 0x7f) == 0) {
		out->code = CLD_EXITED;
		out->status = (status >> 8) & 0xff;
	} else {
		out->code = (status & 0x80) ? CLD_DUMPED : CLD_KILLED;
		out->status = status & 0x7f;
	}
}

long sys_waitid(const struct syscall_args *a)
{
	uint64_t which = a->arg[0];
	int id = (int)a->arg[1];
	uptr_t infop = a->arg[2], rusage = a->arg[4];
	uint32_t options = (uint32_t)a->arg[3];
	if (options & ~(uint32_t)WAITID_OPTIONS)
		return -EINVAL;
	if (!(options & (WEXITED | WSTOPPED | WCONTINUED)))
		return -EINVAL;
	struct cpu_usage usage = { 0, 0 };
	struct proc_wait_req req = {
		.id = id,
		.nohang = options & WNOHANG,
		.exited = options & WEXITED,
		.keep = options & WNOWAIT,
		.events = options & (WSTOPPED | WCONTINUED),
		.usage = &usage,
	};
	switch (which) {
	case P_ALL:
		req.which = PROC_WAIT_ANY;
		break;
	case P_PID:
		if (id <= 0)
			return -EINVAL;
		req.which = PROC_WAIT_PID;
		break;
	case P_PGID:
		if (id < 0)
			return -EINVAL;
		req.which = PROC_WAIT_PGID;
		break;
	default:
		return -EINVAL;
	}
	/* Every child ends with SIGCHLD, so none is a "clone" child. */
	if ((options & WCLONE) && !(options & WALL))
		return -ECHILD;
	int status = 0;
	int r = proc_wait(&req, &status);
	if (r == -EINTR)
		return signal_eintr(SIG_RESTART_SA);
	if (r < 0)
		return r;
	struct waitid_info info;
	memset(&info, 0, sizeof(info));
	if (r > 0) {
		info.signo = SIGCHLD;
		info.pid = r;
		decode_status(status, &info);
		if (rusage && posix_rusage_out(rusage, &usage) < 0)
			return -EFAULT;
	}
	if (infop && copy_to_user(infop, &info, sizeof(info)) < 0)
		return -EFAULT;
	return 0;
}
