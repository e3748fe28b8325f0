/*
 * The process manager's system calls (include/myrmex/proc.h): proc_fork,
 * proc_start and proc_exec. Only the process registered as the process
 * manager (posix_server(SERVICE_PROCESSES)) may make them; the work is in
 * kernel/posix/proc_fork.c and exec.c (posix/pm.h).
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/ipc.h>
#include <posix/route.h>
#include <posix/pm.h>
#include <kernel/proc.h>
#include <kernel/usercopy.h>
#include <myrmex/proc.h>

/* The caller if it is the process manager, else NULL. */
static struct process *caller_pm(void)
{
	struct process *me = current_thread()->proc;
	return posix_server(SERVICE_PROCESSES) == me ? me : NULL;
}

/* A pid or tid argument: positive and an int, else 0 (names nothing). */
static int id_arg(uint64_t v)
{
	return v > 0 && v <= INT32_MAX ? (int)v : 0;
}

long sys_proc_fork(const struct syscall_args *a)
{
	struct process *pm = caller_pm();
	if (!pm)
		return -EPERM;
	return proc_fork(pm, id_arg(a->arg[0]), a->arg[1]);
}

long sys_proc_start(const struct syscall_args *a)
{
	if (!caller_pm())
		return -EPERM;
	if (a->arg[1] > 1)
		return -EINVAL;
	return proc_start(id_arg(a->arg[0]), a->arg[1] == 1);
}

long sys_proc_exec(const struct syscall_args *a)
{
	struct process *pm = caller_pm();
	if (!pm)
		return -EPERM;
	struct myrmex_exec how;
	if (copy_from_user(&how, a->arg[1], sizeof(how)) < 0)
		return -EFAULT;
	return proc_exec(pm, id_arg(a->arg[0]), &how);
}
