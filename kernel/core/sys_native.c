/*
 * Native Myrmex system calls (include/myrmex/syscall.h): spawn a program from
 * a boot module with the powers the caller may give (include/myrmex/rights.h),
 * narrow one's call rights, read the kernel counters, power off, set a thread
 * priority.
 */
#include <kernel/syscall.h>
#include <kernel/arch.h>
#include <kernel/boot.h>
#include <kernel/device.h>
#include <kernel/errno.h>
#include <kernel/pmm.h>
#include <kernel/proc.h>
#include <kernel/stats.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/usercopy.h>
#include <myrmex/device.h>
#include <myrmex/ica.h>
#include <myrmex/rights.h>

#include <myrmex/syscall.h>

#define SPAWN_MAX_ARGS   128      /* argv and envp entries, each */
#define SPAWN_ARG_BYTES  (16 * PAGE_SIZE)
#define MODULE_NAME_MAX  64

/* Copies a NULL-terminated user vector of strings into the buffer area;
 * fills out[] and returns the count, or -EFAULT / -E2BIG. */
static int copy_string_vector(uptr_t vec, const char **out, char **area, uint64_t *left)
{
	if (!vec)
		return 0;
	for (int n = 0;; n++) {
		uint64_t ptr;
		if (copy_from_user(&ptr, vec + (uint64_t)n * sizeof(ptr), sizeof(ptr)) < 0)
			return -EFAULT;
		if (!ptr)
			return n;
		if (n == SPAWN_MAX_ARGS)
			return -E2BIG;
		long len = copy_string_from_user(*area, ptr, *left);
		if (len < 0)
			return (int)len;
		out[n] = *area;
		*area += len + 1;
		*left -= (uint64_t)len + 1;
	}
}

long sys_myrmex_spawn(const struct syscall_args *a)
{
	struct thread *t = current_thread();
	int prio = (int)a->arg[3];
	uint64_t flags = a->arg[4];
	uint64_t device = (flags >> 8) & 0xff;   /* MYRMEX_SPAWN_DEVICE(index): index + 1 */
	if (flags & ~(uint64_t)(MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_POSIX | MYRMEX_SPAWN_RIGHTS |
	                        MYRMEX_SPAWN_MANAGER | 0xff00))
		return -EINVAL;
	struct process *me = t->proc;
	if ((flags & MYRMEX_SPAWN_SERVER) && !me->may_serve)
		return -EPERM;
	if ((device || (flags & MYRMEX_SPAWN_MANAGER)) && !me->may_manage)
		return -EPERM;
	if (device && (device > MYRMEX_MAX_DEVICES || !device_info(device - 1)))
		return -ENODEV;
	struct spawn_powers powers = {
		.may_serve = flags & MYRMEX_SPAWN_SERVER,
		.may_manage = flags & MYRMEX_SPAWN_MANAGER,
		.posix = flags & MYRMEX_SPAWN_POSIX,
	};
	/* Rights are given by someone who holds them: named ones must be a
	 * subset of the caller's; by default a child inherits the caller's,
	 * and a POSIX child gets none (the kernel's channels reach the servers
	 * for it). */
	struct myrmex_rights mine;
	proc_get_rights(me, &mine);
	if (flags & MYRMEX_SPAWN_RIGHTS) {
		if (copy_from_user(&powers.rights, a->arg[5], sizeof(powers.rights)) < 0)
			return -EFAULT;
		for (unsigned i = 0; i < MYRMEX_RIGHTS_WORDS; i++)
			if (powers.rights.call[i] & ~mine.call[i])
				return -EPERM;
	} else if (!powers.posix) {
		powers.rights = mine;
	}
	if (prio == -1)
		prio = t->prio;
	if (prio < 0 || prio > t->proc->prio_ceiling)
		return prio > MYRMEX_PRIO_MAX || prio < 0 ? -EINVAL : -EPERM;
	char name[MODULE_NAME_MAX];
	long n = copy_string_from_user(name, a->arg[0], sizeof(name));
	if (n < 0)
		return n == -E2BIG ? -ENOENT : n;

	paddr_t scratch = pmm_alloc(SPAWN_ARG_BYTES / PAGE_SIZE + 1);
	if (!scratch)
		return -ENOMEM;
	/* The first page holds the two pointer vectors, the rest the strings. */
	const char **argv = arch_phys_to_virt(scratch);
	const char **envp = argv + SPAWN_MAX_ARGS;
	char *area = (char *)argv + PAGE_SIZE;
	uint64_t left = SPAWN_ARG_BYTES;
	long r;
	int argc = copy_string_vector(a->arg[1], argv, &area, &left);
	int envc = argc < 0 ? 0 : copy_string_vector(a->arg[2], envp, &area, &left);
	if (argc < 0)
		r = argc;
	else if (envc < 0)
		r = envc;
	else
		r = proc_spawn(name, argv, argc, envp, envc, prio, &powers, me);
	if (r > 0 && device) {
		int err = device_grant((unsigned)(device - 1), proc_find((int)r));
		if (err) {
			proc_kill(proc_find((int)r), 9);
			r = err;   /* the child dies unstarted; the caller still reaps it */
		}
	}
	pmm_free(scratch, SPAWN_ARG_BYTES / PAGE_SIZE + 1);
	return r;
}

long sys_myrmex_module_read(const struct syscall_args *a)
{
	char name[MODULE_NAME_MAX];
	long n = copy_string_from_user(name, a->arg[0], sizeof(name));
	if (n < 0)
		return n == -E2BIG ? -ENOENT : n;
	const struct boot_module *m = boot_find_module(name);
	if (!m)
		return -ENOENT;
	uint64_t length = m->end - m->start, offset = a->arg[1];
	if (offset >= length)
		return 0;
	uint64_t size = MIN(a->arg[3], length - offset);
	int err = copy_to_user(a->arg[2], arch_phys_to_virt(m->start + offset), size);
	return err ? err : (long)size;
}

long sys_myrmex_rights(const struct syscall_args *a)
{
	struct process *me = current_thread()->proc;
	struct myrmex_rights mine;
	proc_get_rights(me, &mine);
	if (a->arg[0]) {
		struct myrmex_rights keep;
		if (copy_from_user(&keep, a->arg[0], sizeof(keep)) < 0)
			return -EFAULT;
		for (unsigned i = 0; i < MYRMEX_RIGHTS_WORDS; i++)
			mine.call[i] &= keep.call[i];
		proc_set_rights(me, &mine);
	}
	if (a->arg[1] && copy_to_user(a->arg[1], &mine, sizeof(mine)) < 0)
		return -EFAULT;
	return 0;
}

long sys_myrmex_kstats(const struct syscall_args *a)
{
	struct myrmex_kstats s;
	stats_snapshot(&s);
	uint64_t n = MIN(a->arg[1], sizeof(s));
	int err = copy_to_user(a->arg[0], &s, n);
	return err ? err : (long)n;
}

long sys_myrmex_poweroff(const struct syscall_args *a)
{
	if (current_thread()->proc->pid != 1)
		return -EPERM;
	arch_poweroff((int)a->arg[0]);
}

long sys_myrmex_setprio(const struct syscall_args *a)
{
	struct thread *self = current_thread();
	int tid = (int)a->arg[0], prio = (int)a->arg[1];
	if (prio < 0 || prio > MYRMEX_PRIO_MAX)
		return -EINVAL;
	struct thread *t = tid == 0 ? self : proc_find_thread(self->proc, tid);
	if (!t)
		return -ESRCH;
	if (prio > self->proc->prio_ceiling)
		return -EPERM;
	sched_set_prio(t, prio);
	return 0;
}

/* clock_info: how the clocks are made from the TSC (include/myrmex/clock.h). */
long sys_myrmex_clock_info(const struct syscall_args *a)
{
	struct myrmex_clock_info info;
	time_clock_info(&info);
	return copy_to_user(a->arg[0], &info, sizeof(info)) < 0 ? -EFAULT : 0;
}
