/*
 * sys_procinfo.c - proc_info, the kernel call the /proc server reads the
 * process table with (include/myrmex/procfs.h). Only the process
 * registered as the /proc server may make it: it gives what Linux shows
 * every user in /proc/<pid>/stat, status and cmdline, and nothing else of a
 * process's memory. Also proc_environ and proc_maps, for
 * /proc/<pid>/environ and maps, and proc_set_name, the file manager's for
 * a write to /proc/<pid>/comm. The caller gets a copy made here, under the kernel lock, so a
 * process that ends meanwhile leaves nothing dangling.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/usercopy.h>
#include <kernel/vm.h>
#include <kernel/personality.h>
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
	struct cpu_usage self = cputime_process(p), children = cputime_children(p);
	out->utime_ticks = self.user_ns / PROC_TICK_NS;
	out->stime_ticks = self.sys_ns / PROC_TICK_NS;
	out->cutime_ticks = children.user_ns / PROC_TICK_NS;
	out->cstime_ticks = children.sys_ns / PROC_TICK_NS;
	if (p->px) {
		out->start_ticks = p->px->start_ns / PROC_TICK_NS;
		out->cmdline_len = MIN(p->px->cmdline_len, (uint32_t)sizeof(out->cmdline));
		memcpy(out->cmdline, p->px->cmdline, out->cmdline_len);
		const struct posix_cred *c = &p->px->cred;
		const uint32_t uid[4] = { c->ruid, c->euid, c->suid, c->fsuid };
		const uint32_t gid[4] = { c->rgid, c->egid, c->sgid, c->fsgid };
		memcpy(out->uid, uid, sizeof(uid));
		memcpy(out->gid, gid, sizeof(gid));
	}
	out->dumpable = !p->px || !p->px->cred.not_dumpable;
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

/* The live process pid, for the given server only. */
static long target_for(unsigned service, int64_t pid, struct process **out)
{
	if (posix_server(service) != current_thread()->proc)
		return -EPERM;
	struct process *p = pid > 0 && pid <= INT32_MAX ? proc_find((int)pid) : NULL;
	if (!p || p->state != PROC_ALIVE)
		return -ESRCH;
	*out = p;
	return 0;
}

static long target_of(int64_t pid, struct process **out)
{
	return target_for(SERVICE_PROCFS, pid, out);
}

_Static_assert(PROC_NAME_MAX > MYRMEX_PROC_COMM_MAX, "a process name holds a comm and its NUL");

long sys_proc_set_name(const struct syscall_args *a)
{
	struct process *p;
	long err = target_for(SERVICE_FILES, (int64_t)a->arg[0], &p);
	if (err)
		return err;
	uint64_t len = a->arg[2];
	if (len > MYRMEX_PROC_COMM_MAX)
		return -EINVAL;
	char name[MYRMEX_PROC_COMM_MAX];
	if (len && copy_from_user(name, a->arg[1], len) < 0)
		return -EFAULT;
	memset(p->name, 0, sizeof(p->name));
	memcpy(p->name, name, len);
	return 0;
}

long sys_proc_environ(const struct syscall_args *a)
{
	struct process *p;
	long err = target_of((int64_t)a->arg[0], &p);
	if (err)
		return err;
	uint64_t offset = a->arg[1], size = MIN(a->arg[3], (uint64_t)MYRMEX_PROC_READ_MAX);
	struct vm_space *vm = &p->vm;
	uint64_t len = vm->env_end - vm->env_start;
	if (offset >= len || size == 0)
		return 0;
	size = MIN(size, len - offset);
	if (!user_range_ok(a->arg[2], size))
		return -EFAULT;
	/* Through a kernel page: the target's memory is not the caller's. */
	static uint8_t bounce[PAGE_SIZE];
	uint64_t done = 0;
	while (done < size) {
		uint64_t want = MIN(size - done, (uint64_t)PAGE_SIZE);
		uint64_t got = vm_read(vm, vm->env_start + offset + done, bounce, want);
		if (got && copy_to_user(a->arg[2] + done, bounce, got) < 0)
			return -EFAULT;
		done += got;
		if (got < want)
			break;
	}
	return (long)done;
}

/* What /proc/<pid>/maps says of region v of p. */
static void describe_region(const struct process *p, const struct vma *v, struct myrmex_region *r)
{
	memset(r, 0, sizeof(*r));
	r->start = v->start;
	r->end = v->end;
	r->flags = ((v->prot & MAP_R) ? MYRMEX_REGION_R : 0) | ((v->prot & MAP_W) ? MYRMEX_REGION_W : 0) |
	           ((v->prot & MAP_X) ? MYRMEX_REGION_X : 0);
	if (v->anon_shared || (v->fmap && fmap_is_shared(v->fmap)))
		r->flags |= MYRMEX_REGION_SHARED;
	if (v->fmap) {
		r->flags |= MYRMEX_REGION_FILE;
		r->offset = v->fpage * PAGE_SIZE;   /* from the map's first page */
	}
	if (v->end == USER_STACK_TOP)
		r->flags |= MYRMEX_REGION_STACK;
	else if (p->vm.brk_start && v->start >= p->vm.brk_start &&
	         v->end <= ALIGN_UP(p->vm.brk, PAGE_SIZE))
		r->flags |= MYRMEX_REGION_HEAP;
	else if (v->start == USER_MMAP_TOP && v->end == USER_MMAP_TOP + PAGE_SIZE)
		r->flags |= MYRMEX_REGION_VVAR;
	else if (v->start == USER_MMAP_TOP + PAGE_SIZE && !v->fmap)
		r->flags |= MYRMEX_REGION_VDSO;
}

long sys_proc_maps(const struct syscall_args *a)
{
	struct process *p;
	long err = target_of((int64_t)a->arg[0], &p);
	if (err)
		return err;
	uint64_t max = a->arg[2], n = 0;
	if (max > VM_MAX_REGIONS)
		max = VM_MAX_REGIONS;
	if (max && !user_range_ok(a->arg[1], max * sizeof(struct myrmex_region)))
		return -EFAULT;
	struct list_node *node;
	list_for_each(node, &p->vm.regions) {
		const struct vma *v = container_of(node, struct vma, link);
		if (n < max) {
			struct myrmex_region r;
			describe_region(p, v, &r);
			if (copy_to_user(a->arg[1] + n * sizeof(r), &r, sizeof(r)) < 0)
				return -EFAULT;
		}
		n++;
	}
	return (long)n;
}
