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
#define EXEC_MAX_STRINGS 4096   /* argv and envp entries, each */

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

/* execve's arguments and environment travel in one ICA of the largest
 * size, 256 KiB for the path and every string (Linux takes 2 MiB: more
 * ICAs would be needed); each string at most Linux's MAX_ARG_STRLEN
 * (128 KiB with its NUL). Beyond either: -E2BIG. */
#define EXEC_DATA_PAGES  MYRMEX_ICA_MAX_PAGES
#define EXEC_STRING_MAX  (32u * 4096u)

/* Appends a NULL-terminated user vector of strings to the data ICA. */
static long copy_strings(uptr_t vec, char *data, uint32_t *used, uint32_t room)
{
	if (!vec)
		return 0;
	for (long n = 0;; n++) {
		linux_ulong ptr;   /* a user pointer of the ABI */
		if (copy_from_user(&ptr, vec + (uint64_t)n * sizeof(ptr), sizeof(ptr)) < 0)
			return -EFAULT;
		if (!ptr)
			return n;
		if (n == EXEC_MAX_STRINGS || *used >= room)
			return -E2BIG;
		long len = copy_string_from_user(data + *used, ptr, MIN(room - *used, EXEC_STRING_MAX));
		if (len < 0)
			return len;
		*used += (uint32_t)len + 1;
	}
}

/* The path, argv and envp into the call's data ICA: 0 or -errno. */
static long marshal_exec(struct fwd *f, const struct syscall_args *a)
{
	char *data = forward_data(f);
	long n = copy_string_from_user(data, a->arg[0], MIN(f->data_size, 4096u));
	if (n < 0)
		return n == -E2BIG ? -ENAMETOOLONG : n;
	if (n == 0)
		return -ENOENT;
	uint32_t used = (uint32_t)n + 1;
	long argc = copy_strings(a->arg[1], data, &used, f->data_size);
	if (argc < 0)
		return argc;
	long envc = copy_strings(a->arg[2], data, &used, f->data_size);
	if (envc < 0)
		return envc;
	f->arg[0] = (uint64_t)current_thread()->tid;
	f->arg[1] = (uint64_t)argc;
	f->arg[2] = (uint64_t)envc;
	f->arg[3] = used;
	return 0;
}

long sys_execve(const struct syscall_args *a)
{
	if (!posix_process())
		return -ENOSYS;
	struct fwd f;
	int err = forward_begin_own(&f, SERVICE_PROCESSES, PM_EXEC, EXEC_DATA_PAGES);
	if (err)
		return err;
	long r = marshal_exec(&f, a);
	if (r == 0) {
		struct thread *t = current_thread();
		t->only_death_wakes = true;
		r = forward_call(&f);
		t->only_death_wakes = false;
	}
	forward_end(&f);
	return r;
}
