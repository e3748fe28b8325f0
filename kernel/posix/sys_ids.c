/*
 * Limits and odds and ends that programs ask at start-up (the ids are
 * sys_cred.c's): resource limits, getrandom,
 * sysinfo, set_robust_list, madvise and the CPU affinity mask. All
 * answered in the kernel (no IPC). The time calls are in sys_time.c.
 */
#include <posix/syscall.h>
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/pmm.h>
#include <kernel/proc.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/usercopy.h>
#include <kernel/vm.h>
#include <arch/linux_abi.h>

#define RLIMIT_STACK  3
#define RLIMIT_NPROC  6
#define RLIMIT_NOFILE 7
#define RLIMIT_AS     9
#define RLIM_NLIMITS  16
#define RLIM_INFINITY (~0ull)

struct rlimit64 {
	uint64_t cur, max;
};

static struct rlimit64 limit_of(unsigned resource)
{
	switch (resource) {
	case RLIMIT_STACK:
		return (struct rlimit64){ USER_STACK_SIZE, USER_STACK_SIZE };
	case RLIMIT_NPROC: {
		uint64_t n = current_thread()->proc->nproc_limit;
		return (struct rlimit64){ n, n };
	}
	case RLIMIT_NOFILE:
		return (struct rlimit64){ 64, 64 };
	case RLIMIT_AS:
		return (struct rlimit64){ VM_MAX_COMMIT_PAGES * PAGE_SIZE, VM_MAX_COMMIT_PAGES * PAGE_SIZE };
	default:
		return (struct rlimit64){ RLIM_INFINITY, RLIM_INFINITY };
	}
}

/* prlimit64(pid, resource, new, old): the limits are the kernel's fixed
 * ones, except RLIMIT_NPROC of the caller, which fork enforces (up to
 * PROC_MAX); another new limit is accepted when it does not ask for more
 * than the fixed one (and not remembered: documented). */
long sys_prlimit64(const struct syscall_args *a)
{
	int pid = (int)a->arg[0];
	uint64_t resource = a->arg[1];
	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (pid != 0 && !proc_find(pid))
		return -ESRCH;
	struct rlimit64 now = limit_of((unsigned)resource);
	if (a->arg[2]) {
		struct rlimit64 want;
		if (copy_from_user(&want, a->arg[2], sizeof(want)) < 0)
			return -EFAULT;
		if (want.cur > want.max)
			return -EINVAL;
		if (resource == RLIMIT_NPROC && pid == 0) {
			/* The one limit kept: the number of processes fork allows. */
			struct process *p = current_thread()->proc;
			struct rlimit64 old = now;
			p->nproc_limit = (unsigned)MIN(want.cur, (uint64_t)PROC_MAX);
			if (a->arg[3] && copy_to_user(a->arg[3], &old, sizeof(old)) < 0)
				return -EFAULT;
			return 0;
		}
		if (want.max > now.max)
			return -EPERM;
	}
	if (a->arg[3] && copy_to_user(a->arg[3], &now, sizeof(now)) < 0)
		return -EFAULT;
	return 0;
}

long sys_getrlimit(const struct syscall_args *a)
{
	struct syscall_args p = { .arg = { 0, a->arg[0], 0, a->arg[1] } };
	return sys_prlimit64(&p);
}

long sys_setrlimit(const struct syscall_args *a)
{
	struct syscall_args p = { .arg = { 0, a->arg[0], a->arg[1], 0 } };
	return sys_prlimit64(&p);
}

long sys_sysinfo(const struct syscall_args *a)
{
	struct linux_sysinfo s;
	memset(&s, 0, sizeof(s));
	s.uptime = (int64_t)(time_monotonic_ns() / 1000000000ull);
	s.totalram = pmm_total_pages();
	s.freeram = pmm_free_pages();
	s.procs = (uint16_t)proc_count();
	s.mem_unit = PAGE_SIZE;
	return copy_to_user(a->arg[0], &s, sizeof(s)) < 0 ? -EFAULT : 0;
}

/* Robust futex lists: recorded nowhere; a thread that dies holding a
 * robust mutex leaves it locked (documented). */
long sys_set_robust_list(const struct syscall_args *a)
{
	return a->arg[1] == LINUX_ROBUST_LIST_HEAD_SIZE ? 0 : -EINVAL;
}

/* madvise: advice only; the range must be page aligned. */
long sys_madvise(const struct syscall_args *a)
{
	return (a->arg[0] & PAGE_MASK) ? -EINVAL : 0;
}

/* One CPU: the affinity mask (of the ABI's longs) has bit 0. */
long sys_sched_getaffinity(const struct syscall_args *a)
{
	uint64_t size = a->arg[1];
	if (size < sizeof(linux_ulong) || (size % sizeof(linux_ulong)))
		return -EINVAL;
	linux_ulong mask = 1;
	return copy_to_user(a->arg[2], &mask, sizeof(mask)) < 0 ? -EFAULT : (long)sizeof(mask);
}
