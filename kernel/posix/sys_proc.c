/*
 * Process and thread system calls: exit, ids, yield, clone (threads only),
 * wait4 and the thread-pointer calls. The signal calls are in sys_signal.c.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <posix/signal.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>
#include <posix/posix.h>
#include <arch/linux_abi.h>

#define CLONE_VM             0x00000100
#define CLONE_FS             0x00000200
#define CLONE_FILES          0x00000400
#define CLONE_SIGHAND        0x00000800
#define CLONE_THREAD         0x00010000
#define CLONE_SYSVSEM        0x00040000
#define CLONE_SETTLS         0x00080000
#define CLONE_PARENT_SETTID  0x00100000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_DETACHED       0x00400000
#define CLONE_CHILD_SETTID   0x01000000

#define CLONE_THREAD_NEEDS (CLONE_VM | CLONE_SIGHAND | CLONE_THREAD)
#define CLONE_THREAD_MAY   (CLONE_THREAD_NEEDS | CLONE_FS | CLONE_FILES | CLONE_SYSVSEM | \
                            CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID | \
                            CLONE_DETACHED | CLONE_CHILD_SETTID)

/* wait4 options: WUNTRACED and WCONTINUED ask for stopped and continued
 * children (jobctl.c); threads are not children, so WNOTHREAD and WALL
 * change nothing. */
#define WNOHANG    0x00000001u
#define WUNTRACED  0x00000002u
#define WCONTINUED 0x00000008u
#define WNOTHREAD  0x20000000u
#define WALL       0x40000000u
#define WCLONE     0x80000000u
#define WAIT4_OPTIONS (WNOHANG | WUNTRACED | WCONTINUED | WNOTHREAD | WALL | WCLONE)

static struct process *self(void)
{
	return current_thread()->proc;
}

long sys_exit(const struct syscall_args *a)
{
	struct process *p = self();
	if (p->thread_count == 1 && !p->killed)
		p->wait_status = (int)((a->arg[0] & 0xff) << 8);
	thread_exit();
}

long sys_exit_group(const struct syscall_args *a)
{
	proc_kill(self(), (int)((a->arg[0] & 0xff) << 8));
	thread_exit();
}

long sys_getpid(const struct syscall_args *a)
{
	(void)a;
	return self()->pid;
}

long sys_getppid(const struct syscall_args *a)
{
	(void)a;
	struct process *parent = self()->parent;
	return parent ? parent->pid : 0;
}

long sys_gettid(const struct syscall_args *a)
{
	(void)a;
	return current_thread()->tid;
}

long sys_sched_yield(const struct syscall_args *a)
{
	(void)a;
	sched_yield();
	return 0;
}

/* A 4-byte user word that must be writable: checked before anything changes. */
static int probe_word(uptr_t addr)
{
	uint32_t v;
	if (copy_from_user(&v, addr, sizeof(v)) < 0 || copy_to_user(addr, &v, sizeof(v)) < 0)
		return -EFAULT;
	return 0;
}

long sys_clone(const struct syscall_args *a)
{
	uint64_t flags = a->arg[0];
	uptr_t stack = a->arg[1], parent_tid = a->arg[2], child_tid = a->arg[3], tls = a->arg[4];
	if (!(flags & (CLONE_THREAD | CLONE_SIGHAND)))
		return sys_clone_process(a);   /* a fork: kernel/posix/sys_fork.c */
	if ((flags & CLONE_THREAD_NEEDS) != CLONE_THREAD_NEEDS)
		return -EINVAL;
	if (flags & ~(uint64_t)CLONE_THREAD_MAY)
		return -EINVAL;
	if ((flags & CLONE_SETTLS) && tls >= ARCH_USER_TOP)
		return -EPERM;
	if ((flags & CLONE_PARENT_SETTID) && probe_word(parent_tid) < 0)
		return -EFAULT;
	if ((flags & CLONE_CHILD_SETTID) && probe_word(child_tid) < 0)
		return -EFAULT;
	int tid = thread_clone(current_thread(), stack, flags & CLONE_SETTLS, tls,
	                       (flags & CLONE_CHILD_CLEARTID) ? child_tid : 0);
	if (tid < 0)
		return tid;
	uint32_t value = (uint32_t)tid;
	if (flags & CLONE_PARENT_SETTID)
		copy_to_user(parent_tid, &value, sizeof(value));
	if (flags & CLONE_CHILD_SETTID)
		copy_to_user(child_tid, &value, sizeof(value));
	return tid;
}

long sys_wait4(const struct syscall_args *a)
{
	int pid = (int)a->arg[0];
	uptr_t status_ptr = a->arg[1], rusage = a->arg[3];
	uint32_t options = (uint32_t)a->arg[2];
	if (options & ~(uint32_t)WAIT4_OPTIONS)
		return -EINVAL;
	if (pid == INT32_MIN)
		return -ESRCH;   /* no group -pid */
	if (status_ptr && probe_word(status_ptr) < 0)
		return -EFAULT;
	/* The rusage is checked before the wait and written with the reaped
	 * child's CPU time after it. */
	if (rusage && posix_rusage_out(rusage, NULL) < 0)
		return -EFAULT;
	/* Every child ends with SIGCHLD, so none is a "clone" child. */
	if ((options & WCLONE) && !(options & WALL))
		return -ECHILD;
	struct cpu_usage usage = { 0, 0 };
	struct proc_wait_req req = {
		.which = pid > 0 ? PROC_WAIT_PID : pid == -1 ? PROC_WAIT_ANY : PROC_WAIT_PGID,
		.id = pid > 0 ? pid : -pid,
		.nohang = options & WNOHANG,
		.exited = true,
		.events = options & (WUNTRACED | WCONTINUED),
		.usage = &usage,
	};
	int status = 0;
	int r = proc_wait(&req, &status);
	if (r == -EINTR)
		return signal_eintr(SIG_RESTART_SA);   /* restarted after an SA_RESTART handler */
	if (r > 0 && status_ptr)
		copy_to_user(status_ptr, &status, sizeof(status));
	if (r > 0 && rusage)
		posix_rusage_out(rusage, &usage);
	return r;
}

long sys_set_tid_address(const struct syscall_args *a)
{
	struct thread *t = current_thread();
	t->clear_child_tid = a->arg[0];
	return t->tid;
}
