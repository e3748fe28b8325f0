/*
 * Linux calls about the calling process itself, kept in the kernel (no
 * IPC): prctl (the name: PR_SET_NAME, PR_GET_NAME) and times (CPU time).
 *
 * The name is the process's own (struct process.name, which exec sets from
 * the program's name and the "killed" line prints), cut to Linux's 16-byte
 * comm (15 bytes and a NUL): one per process, where Linux keeps one per
 * thread.
 *
 * CPU time is counted by the scheduler's tick (SCHED_HZ): a tick that finds
 * a thread of a POSIX process running charges that process one tick. The
 * kernel runs with interrupts off, so a tick only ever finds user code
 * running (or the idle halt): system time is not measured and reads 0. The
 * children's time is charged to the parent when it reaps them (as Linux,
 * only children that were waited for; a child freed without a wait, its
 * parent ignoring SIGCHLD, is charged too).
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

#define PR_SET_NAME   15
#define PR_GET_NAME   16
#define TASK_COMM_LEN 16
#define USER_HZ       100   /* clock_t ticks per second (AT_CLKTCK) */

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

static int64_t ticks_to_clock(uint64_t ticks)
{
	return (int64_t)(ticks / (SCHED_HZ / USER_HZ));
}

long sys_times(const struct syscall_args *a)
{
	struct process *p = current_thread()->proc;
	if (a->arg[0]) {
		struct linux_tms t = {
			.utime = ticks_to_clock(p->px->user_ticks),
			.cutime = ticks_to_clock(p->px->child_ticks),
		};
		if (copy_to_user(a->arg[0], &t, sizeof(t)) < 0)
			return -EFAULT;
	}
	/* The clock ticks since boot; as Linux, never one of the -4095..-1
	 * that would read as an error (it would take years to get there). */
	return (long)(time_monotonic_ns() / (1000000000ull / USER_HZ));
}

void task_charge_tick(struct process *p)
{
	if (p && p->px)
		p->px->user_ticks++;
}

void task_child_freed(struct process *c)
{
	struct process *parent = c->parent;
	if (c->state == PROC_ZOMBIE && parent && parent->px && c->px)
		parent->px->child_ticks += c->px->user_ticks + c->px->child_ticks;
}
