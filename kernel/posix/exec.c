/*
 * proc_exec (see posix/pm.h): the process manager replaces the image of a
 * process with a static ELF executable that it holds in ICAs.
 *
 * First everything that can be refused is checked, with the target
 * untouched: the ICA handles and sizes, the argument strings, the whole ELF
 * file; and the initial stack is built (posix/loader.h). Then the point of
 * no return: the target's other threads end, and the process manager waits
 * until they are gone (each may be anywhere in the kernel, about to copy to
 * or from user memory, which must not be the new image's). Having waited,
 * it checks again, since its own ICAs may have changed meanwhile. Then the
 * regions go (the ICA window stays: the thread's kernel channel is there),
 * the program is installed and the waiting thread's registers are reset to
 * the entry point: when the process manager's result wakes it, its system
 * call returns 0 into the new program. A failure after the point of no
 * return kills the process, as Linux does.
 */
#include <posix/posix.h>
#include <posix/pm.h>
#include <kernel/errno.h>
#include <posix/fmap.h>
#include <kernel/ica.h>
#include <posix/loader.h>
#include <kernel/panic.h>
#include <kernel/pmm.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <posix/signal.h>
#include <kernel/string.h>
#include <myrmex/proc.h>
#include <posix/exec_strings.h>

/* argv and envp entries, each: as many pointers as Linux's largest limit holds */
#define EXEC_MAX_STRINGS (EXEC_ARGS_MAX / 8u)
#define EXEC_FLAGS (MYRMEX_EXEC_CALLER_ARGS | MYRMEX_EXEC_SKIP_ARGV0 | MYRMEX_EXEC_SETUID | \
                    MYRMEX_EXEC_SETGID)

/* A checked request, ready to install. */
struct exec_plan {
	struct ica *image[MYRMEX_EXEC_MAX_IMAGES];
	uint32_t nimage;
	struct elf_image file;           /* over image[] */
	struct program prog;
	char name[PROC_NAME_MAX];        /* argv[0]'s last component */
	char cmdline[POSIX_CMDLINE_MAX]; /* the argv strings, cut (/proc/<pid>/cmdline) */
	uint32_t cmdline_len;
	struct posix_cred cred;          /* the ids after the exec */
};

/* pm waits here for the other threads of its target to end. */
static struct waitq exec_waiters = { LIST_INIT(exec_waiters.waiters) };

/* The file's bytes from offset off up to the end of the ICA holding them. */
static size_t view_icas(const struct elf_image *im, uint64_t off, const void **bytes)
{
	const struct exec_plan *plan = im->ctx;
	uint64_t start = 0;
	for (uint32_t i = 0; i < plan->nimage; i++) {
		uint64_t end = start + (uint64_t)plan->image[i]->npages * PAGE_SIZE;
		if (off < end) {
			*bytes = ica_kernel_ptr(plan->image[i], (uint32_t)(off - start));
			return (size_t)(MIN(end, im->size) - off);
		}
		start = end;
	}
	panic("exec: offset %#llx beyond the image", (unsigned long long)off);
}

/* An idle ICA of pm's own (not a kernel channel ICA), or NULL. */
static struct ica *caller_ica(struct process *pm, uint32_t handle)
{
	struct ica *ica = ica_lookup(handle);
	return ica && ica->state == ICA_ATTACHED && ica->owner == pm && !ica->kernel_channel
	       ? ica : NULL;
}

static int check_images(struct process *pm, const struct myrmex_exec *how, struct exec_plan *plan)
{
	if (how->nimage == 0 || how->nimage > MYRMEX_EXEC_MAX_IMAGES)
		return -EINVAL;
	uint64_t total = 0, last = 0;
	for (uint32_t i = 0; i < how->nimage; i++) {
		plan->image[i] = caller_ica(pm, how->image[i]);
		if (!plan->image[i])
			return -EINVAL;
		last = (uint64_t)plan->image[i]->npages * PAGE_SIZE;
		total += last;
	}
	/* Every ICA full but the last, which holds at least one byte. */
	if (how->image_size > total || how->image_size <= total - last)
		return -EINVAL;
	plan->nimage = how->nimage;
	plan->file.size = how->image_size;
	plan->file.view = view_icas;
	plan->file.ctx = plan;
	return 0;
}

/* The args ICA's first args_size bytes must be exactly argc + envc strings,
 * each NUL-terminated. */
static int check_strings(const char *s, uint32_t size, uint32_t count)
{
	if (size > 0 && s[size - 1] != '\0')
		return -EINVAL;
	uint32_t found = 0;
	for (uint32_t i = 0; i < size; i++)
		found += s[i] == '\0';
	return found == count ? 0 : -EINVAL;
}

/* The last component of a path, truncated to fit a process name. */
static void name_from(char *name, const char *argv0)
{
	const char *base = argv0;
	for (const char *c = argv0; *c; c++)
		if (*c == '/')
			base = c + 1;
	strlcpy(name, base, PROC_NAME_MAX);
}

/* /proc/<pid>/cmdline: the argv strings with their NULs, cut. */
static void keep_cmdline(struct exec_plan *plan, const char **argv, uint32_t argc)
{
	uint32_t at = 0;
	for (uint32_t i = 0; i < argc && at < sizeof(plan->cmdline); i++) {
		uint32_t len = (uint32_t)MIN(strlen(argv[i]) + 1, sizeof(plan->cmdline) - at);
		memcpy(plan->cmdline + at, argv[i], len);
		at += len;
	}
	plan->cmdline_len = at;
}

/* The vector of every string, in order: the args ICA's, then (with
 * MYRMEX_EXEC_CALLER_ARGS) the waiting thread's argv, less argv[0] with
 * MYRMEX_EXEC_SKIP_ARGV0, then its envp. The strings stay where they are
 * (the ICA and the thread's runs change not until loader_prepare has
 * copied them). 0 or -EINVAL, -E2BIG, -ENOMEM; *pages: the vector's. */
static int make_vector(struct process *pm, const struct myrmex_exec *how, struct thread *t,
                       const char ***out, uint32_t *argc, uint32_t *envc, uint64_t *pages)
{
	bool caller = how->flags & MYRMEX_EXEC_CALLER_ARGS;
	const struct exec_strings *cs = caller ? t->px->exec_args : NULL;
	if ((how->flags & ~EXEC_FLAGS) || (caller && (!cs || how->envc != 0)) ||
	    ((how->flags & MYRMEX_EXEC_SKIP_ARGV0) && (!caller || cs->argc == 0)))
		return -EINVAL;
	struct ica *args = NULL;
	if (how->args || !caller || how->argc) {
		args = caller_ica(pm, how->args);
		if (!args || how->args_size > (uint64_t)args->npages * PAGE_SIZE)
			return -EINVAL;
	} else if (how->args_size) {
		return -EINVAL;
	}
	if (how->argc > EXEC_MAX_STRINGS || how->envc > EXEC_MAX_STRINGS)
		return -E2BIG;
	const char *strings = args ? ica_kernel_ptr(args, 0) : NULL;
	int err = args ? check_strings(strings, how->args_size, how->argc + how->envc) : 0;
	if (err)
		return err;
	uint32_t skip = (how->flags & MYRMEX_EXEC_SKIP_ARGV0) ? 1 : 0;
	uint32_t own = how->argc + how->envc;
	*argc = how->argc + (cs ? cs->argc - skip : 0);
	*envc = how->envc + (cs ? cs->envc : 0);
	uint32_t count = own + (cs ? cs->argc + cs->envc : 0);   /* skip included */
	*pages = ALIGN_UP((uint64_t)count * sizeof(char *), PAGE_SIZE) / PAGE_SIZE;
	*out = NULL;
	if (count == 0)
		return 0;
	paddr_t vectors = pmm_alloc(*pages);
	if (!vectors)
		return -ENOMEM;
	const char **vector = arch_phys_to_virt(vectors);
	for (uint32_t i = 0; i < own; i++) {
		vector[i] = strings;
		strings += strlen(strings) + 1;
	}
	if (cs) {
		exec_strings_vector(cs, vector + own);
		/* argv[0] goes: the caller's strings move up one place. */
		if (skip)
			memmove(vector + own, vector + own + 1,
			        (size_t)(cs->argc + cs->envc - 1) * sizeof(char *));
	}
	*out = vector;
	return 0;
}

/* The ids after an exec, as Linux's: a set-user-id (set-group-id) file
 * gives its owner (group) as effective id; then the saved and file-system
 * ids become the effective ones, whatever the file; the process is
 * dumpable again when its effective ids are its real ones. */
static void exec_cred(const struct myrmex_exec *how, const struct posix_cred *old,
                      struct posix_cred *c)
{
	*c = *old;
	if (how->flags & MYRMEX_EXEC_SETUID)
		c->euid = how->uid;
	if (how->flags & MYRMEX_EXEC_SETGID)
		c->egid = how->gid;
	c->suid = c->fsuid = c->euid;
	c->sgid = c->fsgid = c->egid;
	c->not_dumpable = c->euid != c->ruid || c->egid != c->rgid;   /* Linux's begin_new_exec */
}

/* Checks how against pm's ICAs and builds the plan: its ELF information and
 * stack image (loader_prepare). Nothing of the target is touched. 0 or
 * -EINVAL, -E2BIG, -ENOEXEC, -ENOMEM; on success exec_release must follow. */
static int exec_prepare(struct process *pm, const struct myrmex_exec *how, struct thread *t,
                        struct exec_plan *plan)
{
	memset(plan, 0, sizeof(*plan));
	int err = check_images(pm, how, plan);
	if (err)
		return err;
	const char **vector;
	uint32_t argc, envc;
	uint64_t pages;
	err = make_vector(pm, how, t, &vector, &argc, &envc, &pages);
	if (err)
		return err;
	exec_cred(how, &t->proc->px->cred, &plan->cred);
	const struct posix_cred *c = &plan->cred;
	struct program_args pa = { vector, (int)argc, vector ? vector + argc : NULL,
	                           (int)envc, t->proc->posix, c->ruid, c->euid, c->rgid, c->egid,
	                           c->euid != c->ruid || c->egid != c->rgid };   /* Linux's secureexec */
	err = loader_prepare(&plan->prog, &plan->file, &pa);
	if (!err && argc > 0) {
		name_from(plan->name, vector[0]);
		keep_cmdline(plan, vector, argc);
	}
	if (vector)
		pmm_free(arch_virt_to_phys(vector), pages);
	return err;
}

static void exec_release(struct exec_plan *plan)
{
	loader_release(&plan->prog);
}

/* Marks every thread of p but keep to leave at its next return towards user
 * mode (none of them runs user code again) and wakes it wherever it waits.
 * Returns whether any is left. */
static bool end_other_threads(struct process *p, struct thread *keep)
{
	bool others = false;
	struct list_node *n;
	list_for_each(n, &p->threads) {
		struct thread *o = container_of(n, struct thread, proc_link);
		if (o == keep)
			continue;
		others = true;
		if (!o->exit_pending) {
			o->exit_pending = true;
			thread_wake(o, -EINTR);
		}
	}
	return others;
}

/* Blocks until thread tid is the only one of process pid. 0, -ESRCH when
 * the process or the thread went meanwhile, -EINTR when pm was killed. */
static int wait_alone(int pid, int tid)
{
	for (;;) {
		struct process *p = proc_find(pid);
		if (!p || p->state != PROC_ALIVE || p->killed)
			return -ESRCH;
		struct thread *t = proc_find_thread(p, tid);
		if (!t)
			return -ESRCH;
		if (!end_other_threads(p, t))
			return 0;
		int r = thread_block(&exec_waiters, 0);
		if (r < 0)
			return r;
	}
}

void personality_thread_gone(void)
{
	waitq_wake(&exec_waiters, INT32_MAX);
}

static void kill_pid(int pid)
{
	struct process *p = proc_find(pid);
	if (p && p->state == PROC_ALIVE)
		proc_kill(p, signal_kill_status(SIGKILL));
}

/* The point of no return is behind: t is its process's only thread. */
static int replace_image(struct thread *t, const struct exec_plan *plan)
{
	struct process *p = t->proc;
	vm_space_clear(&p->vm);
	fmap_flush(p);   /* the file mappings of the old image go */
	uptr_t entry, sp;
	int err = loader_install(&p->vm, &plan->prog, &entry, &sp);
	if (err)
		return err;
	arch_thread_reset_user(t, entry, sp);
	t->clear_child_tid = 0;   /* a word of the old image */
	t->ipc_get_out_written = 0;   /* so is the place get() wrote last (sys_ipc.c) */
	if (plan->name[0])
		memcpy(p->name, plan->name, sizeof(p->name));
	p->px->cmdline_len = plan->cmdline_len;
	memcpy(p->px->cmdline, plan->cmdline, sizeof(p->px->cmdline));
	signal_exec_reset(p);
	p->px->cred = plan->cred;
	p->px->execed = true;
	/* Close-on-exec descriptors are gone: no number is believed quick. */
	memset(p->px->quick_io, 0, sizeof(p->px->quick_io));
	return 0;
}

int proc_exec(struct process *pm, int tid, const struct myrmex_exec *how)
{
	struct thread *t = pm_blocked_thread(pm, tid);
	if (!t)
		return -ESRCH;
	if (t->proc == pm)
		return -EINVAL;   /* it would wait for its own threads */
	struct exec_plan plan;
	int err = exec_prepare(pm, how, t, &plan);
	if (err)
		return err;
	/* The point of no return. */
	int pid = t->proc->pid;
	if (end_other_threads(t->proc, t)) {
		exec_release(&plan);
		err = wait_alone(pid, tid);
		t = err ? NULL : pm_blocked_thread(pm, tid);
		if (!err && !t)
			err = -ESRCH;   /* the thread stopped waiting (a signal) */
		if (!err)
			err = exec_prepare(pm, how, t, &plan);
		if (err) {
			kill_pid(pid);
			return err;
		}
	}
	err = replace_image(t, &plan);
	exec_release(&plan);
	if (err)
		kill_pid(pid);
	return err;
}
