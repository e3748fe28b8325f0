/*
 * sys_procinfo.c - proc_info, the kernel call the /proc server reads the
 * process table with (include/myrmex/procfs.h). Only the process
 * registered as the /proc server may make it: it gives what Linux shows
 * every user in /proc/<pid>/stat, status and cmdline, and nothing else of a
 * process's memory. The caller gets a copy made here, under the kernel
 * lock, so a process that ends meanwhile leaves nothing dangling.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/usercopy.h>
#include <posix/posix.h>
#include <posix/route.h>
#include <myrmex/procfs.h>

#define PROC_TICK_NS 10000000ull   /* /proc counts in 100 Hz ticks, as Linux's USER_HZ */

static uint32_t state_of(struct process *p)
{
	if (p->state == PROC_ZOMBIE)
		return 'Z';
	struct list_node *n;
	list_for_each(n, &p->threads) {
		struct thread *t = container_of(n, struct thread, proc_link);
		if (t->state == THREAD_RUNNING || t->state == THREAD_RUNNABLE)
			return 'R';
	}
	return 'S';
}

static void describe(struct process *p, struct myrmex_procinfo *out)
{
	memset(out, 0, sizeof(*out));
	out->pid = p->pid;
	out->ppid = p->parent ? p->parent->pid : 0;
	out->pgid = p->pgid;
	out->sid = p->sid;
	out->state = state_of(p);
	out->threads = p->thread_count;
	out->posix = p->posix;
	out->vm_pages = p->vm.committed_pages;
	size_t n = strlen(p->name);
	memcpy(out->name, p->name, MIN(n, sizeof(out->name) - 1));
	if (p->px) {
		/* user_ticks are scheduler ticks (SCHED_HZ a second). */
		out->utime_ticks = p->px->user_ticks * 100 / SCHED_HZ;
		out->start_ticks = p->px->start_ns / PROC_TICK_NS;
		out->cmdline_len = MIN(p->px->cmdline_len, (uint32_t)sizeof(out->cmdline));
		memcpy(out->cmdline, p->px->cmdline, out->cmdline_len);
		const struct posix_cred *c = &p->px->cred;
		const uint32_t uid[4] = { c->ruid, c->euid, c->suid, c->fsuid };
		const uint32_t gid[4] = { c->rgid, c->egid, c->sgid, c->fsgid };
		memcpy(out->uid, uid, sizeof(uid));
		memcpy(out->gid, gid, sizeof(gid));
	}
}

long sys_proc_info(const struct syscall_args *a)
{
	if (posix_server(SERVICE_PROCFS) != current_thread()->proc)
		return -EPERM;
	int64_t want = (int64_t)a->arg[0];
	if (want < 0 || want > INT32_MAX)
		return -ESRCH;
	struct process *best = NULL;
	for (struct process *p = proc_next(NULL); p; p = proc_next(p))
		if (p->pid >= want && p->pid > 0 && (!best || p->pid < best->pid))
			best = p;
	if (!best)
		return -ESRCH;
	struct myrmex_procinfo info;
	describe(best, &info);
	if (copy_to_user(a->arg[1], &info, sizeof(info)) < 0)
		return -EFAULT;
	return best->pid;
}
