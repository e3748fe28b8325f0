/*
 * Linux calls about the calling process itself, kept in the kernel (no
 * IPC): prctl (the name: PR_SET_NAME, PR_GET_NAME; PR_SET_DUMPABLE and
 * PR_GET_DUMPABLE, posix/cred.h), times and getrusage
 * (CPU time).
 *
 * The name is the process's own (struct process.name, which exec sets from
 * the program's name and the "killed" line prints), cut to Linux's 16-byte
 * comm (15 bytes and a NUL): one per process, where Linux keeps one per
 * thread.
 *
 * CPU time (times, getrusage, and the rusage of wait4 and waitid) is the
 * kernel's accounting (kernel/cputime.h): user and system time per
 * thread, from the TSC at every kernel entry and exit. The children's
 * time is what the children reaped by wait had, as Linux.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/usercopy.h>
#include <posix/posix.h>
#include <arch/linux_abi.h>

#define PR_GET_DUMPABLE 3
#define PR_SET_DUMPABLE 4
#define PR_SET_NAME   15
#define PR_GET_NAME   16
#define TASK_COMM_LEN 16
#define USER_HZ       100   /* clock_t ticks per second (AT_CLKTCK) */
#define RUSAGE_SELF     0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_THREAD   1

_Static_assert(PROC_NAME_MAX >= TASK_COMM_LEN, "a process name holds a comm");

long sys_prctl(const struct syscall_args *a)
{
	struct process *p = current_thread()->proc;
	uptr_t buf = a->arg[1];
	switch (a->arg[0]) {
	case PR_SET_NAME: {
		/* Up to 15 bytes, as Linux's strncpy_from_user: a name may end
		 * just before an unmapped page without a fault. */
		char comm[TASK_COMM_LEN];
		memset(comm, 0, sizeof(comm));
		for (unsigned i = 0; i < TASK_COMM_LEN - 1; i++) {
			if (copy_from_user(&comm[i], buf + i, 1) < 0)
				return -EFAULT;
			if (comm[i] == '\0')
				break;
		}
		memset(p->name, 0, sizeof(p->name));
		memcpy(p->name, comm, TASK_COMM_LEN);
		return 0;
	}
	case PR_GET_DUMPABLE:
		return p->px ? !p->px->cred.not_dumpable : 1;
	case PR_SET_DUMPABLE:
		if (a->arg[1] > 1)
			return -EINVAL;   /* Linux takes 0 (SUID_DUMP_DISABLE) and 1 (SUID_DUMP_USER) */
		if (p->px)
			p->px->cred.not_dumpable = a->arg[1] == 0;
		return 0;
	case PR_GET_NAME: {
		char comm[TASK_COMM_LEN];
		memset(comm, 0, sizeof(comm));
		memcpy(comm, p->name, TASK_COMM_LEN - 1);
		return copy_to_user(buf, comm, sizeof(comm)) < 0 ? -EFAULT : 0;
	}
	default:
		return -EINVAL;   /* as Linux for an option it does not know */
	}
}

static int64_t ns_to_clock(uint64_t ns)
{
	return (int64_t)(ns / (1000000000ull / USER_HZ));
}

long sys_times(const struct syscall_args *a)
{
	struct process *p = current_thread()->proc;
	if (a->arg[0]) {
		struct cpu_usage self = cputime_process(p), children = cputime_children(p);
		struct linux_tms t = {
			.utime = ns_to_clock(self.user_ns),
			.stime = ns_to_clock(self.sys_ns),
			.cutime = ns_to_clock(children.user_ns),
			.cstime = ns_to_clock(children.sys_ns),
		};
		if (copy_to_user(a->arg[0], &t, sizeof(t)) < 0)
			return -EFAULT;
	}
	/* The clock ticks since boot; as Linux, never one of the -4095..-1
	 * that would read as an error (it would take years to get there). */
	return (long)(time_monotonic_ns() / (1000000000ull / USER_HZ));
}

/* struct rusage: the user and system times, then fourteen longs this
 * kernel does not count (0). */
struct linux_rusage {
	struct linux_timeval utime, stime;
	linux_ulong rest[14];
};

long posix_rusage_out(uptr_t out, const struct cpu_usage *u)
{
	struct linux_rusage r;
	memset(&r, 0, sizeof(r));
	if (u) {
		r.utime = (struct linux_timeval){ (int64_t)(u->user_ns / 1000000000ull),
		                                  (int64_t)(u->user_ns % 1000000000ull / 1000) };
		r.stime = (struct linux_timeval){ (int64_t)(u->sys_ns / 1000000000ull),
		                                  (int64_t)(u->sys_ns % 1000000000ull / 1000) };
	}
	return copy_to_user(out, &r, sizeof(r)) < 0 ? -EFAULT : 0;
}

long sys_getrusage(const struct syscall_args *a)
{
	struct thread *t = current_thread();
	struct cpu_usage u;
	switch ((int32_t)a->arg[0]) {
	case RUSAGE_SELF:
		u = cputime_process(t->proc);
		break;
	case RUSAGE_CHILDREN:
		u = cputime_children(t->proc);
		break;
	case RUSAGE_THREAD:
		u = cputime_thread(t);
		break;
	default:
		return -EINVAL;
	}
	return posix_rusage_out(a->arg[1], &u);
}
