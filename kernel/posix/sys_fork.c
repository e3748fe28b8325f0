/*
 * fork, vfork, clone without CLONE_THREAD, and execve: forwarded to the
 * process manager (servers/proc/pm, include/myrmex/proc.h, docs/posix.md),
 * which makes the child with the kernel's proc_fork and the file manager's
 * FS_FORK, or loads the program with FS reads and proc_exec.
 *
 * vfork and CLONE_VM|CLONE_VFORK are carried out as fork: POSIX allows it,
 * and the programs that use them (posix_spawn, shells) only exec or exit in
 * the child. Sharing memory without CLONE_THREAD is refused (-EINVAL).
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <posix/forward.h>
#include <posix/posix.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>
#include <kernel/arch.h>
#include <kernel/pmm.h>
#include <kernel/vm.h>
#include <posix/exec_strings.h>
#include <myrmex/proc.h>
#include <arch/linux_abi.h>

#define CLONE_VM             0x00000100
#define CLONE_VFORK          0x00004000
#define CLONE_PARENT_SETTID  0x00100000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_CHILD_SETTID   0x01000000
#define CSIGNAL              0x000000ff
#define SIGCHLD              17
#define FORK_MAY (CLONE_VM | CLONE_VFORK | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID | \
                  CLONE_CHILD_SETTID | CSIGNAL)

static long do_fork(uptr_t child_sp, uint64_t flags, uptr_t parent_tid, uptr_t child_tid)
{
	if (!posix_process())
		return -ENOSYS;
	if (flags & ~(uint64_t)FORK_MAY)
		return -EINVAL;
	if ((flags & CLONE_VM) && !(flags & CLONE_VFORK))
		return -EINVAL;
	uint64_t exit_signal = flags & CSIGNAL;
	if (exit_signal != 0 && exit_signal != SIGCHLD)
		return -EINVAL;   /* only SIGCHLD (or none) is sent when a child ends */
	uint32_t probe;
	if ((flags & CLONE_PARENT_SETTID) &&
	    (copy_from_user(&probe, parent_tid, 4) < 0 || copy_to_user(parent_tid, &probe, 4) < 0))
		return -EFAULT;
	struct thread *t = current_thread();
	struct fwd f;
	int err = forward_begin(&f, SERVICE_PROCESSES, PM_FORK, 0);
	if (err)
		return err;
	f.arg[0] = (uint64_t)t->tid;
	f.arg[1] = child_sp;
	t->px->fork_child_tid = child_tid;
	t->px->fork_set_tid = flags & CLONE_CHILD_SETTID;
	t->px->fork_clear_tid = flags & CLONE_CHILD_CLEARTID;
	t->only_death_wakes = true;
	long r = forward_call(&f);
	t->only_death_wakes = false;
	t->px->fork_child_tid = 0;
	t->px->fork_set_tid = t->px->fork_clear_tid = false;
	if (r > 0 && (flags & CLONE_PARENT_SETTID)) {
		uint32_t pid = (uint32_t)r;
		copy_to_user(parent_tid, &pid, sizeof(pid));
	}
	return r;
}

long sys_fork(const struct syscall_args *a)
{
	(void)a;
	return do_fork(0, SIGCHLD, 0, 0);
}

long sys_vfork(const struct syscall_args *a)
{
	(void)a;
	return do_fork(0, SIGCHLD, 0, 0);
}

/* clone(flags, stack, parent_tid, child_tid, tls) without CLONE_THREAD. */
long sys_clone_process(const struct syscall_args *a)
{
	return do_fork(a->arg[1], a->arg[0], a->arg[2], a->arg[3]);
}

/* The path goes to the process manager in a one-page data ICA; the
 * argument and environment strings stay in the kernel with the thread
 * (posix/exec_strings.h), within Linux's limit for the stack limit. */
#define EXEC_PATH_MAX 4096u   /* PATH_MAX, with the NUL */

long sys_execve(const struct syscall_args *a)
{
	if (!posix_process())
		return -ENOSYS;
	struct thread *t = current_thread();
	struct fwd f;
	int err = forward_begin(&f, SERVICE_PROCESSES, PM_EXEC, EXEC_PATH_MAX);
	if (err)
		return err;
	long n = copy_string_from_user(forward_data(&f), a->arg[0], EXEC_PATH_MAX);
	if (n < 0)
		return n == -E2BIG ? -ENAMETOOLONG : n;
	if (n == 0)
		return -ENOENT;
	paddr_t page = pmm_alloc(1);   /* zeroed */
	if (!page)
		return -ENOMEM;
	struct exec_strings *s = arch_phys_to_virt(page);
	long r = exec_strings_copy(s, a->arg[1], a->arg[2], (uint64_t)n + 1,
	                           exec_args_limit(USER_STACK_SIZE));
	if (r == 0) {
		f.arg[0] = (uint64_t)t->tid;
		f.arg[1] = s->argc;
		f.arg[2] = s->envc;
		f.arg[3] = (uint64_t)n + 1;
		t->px->exec_args = s;
		t->only_death_wakes = true;
		r = forward_call(&f);
		t->only_death_wakes = false;
		t->px->exec_args = NULL;
	}
	exec_strings_free(s);
	pmm_free(page, 1);
	return r;
}
