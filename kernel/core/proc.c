/*
 * Processes and threads: creation from boot modules, clone, exit, kill and
 * wait (see kernel/proc.h).
 *
 * Lifetime rules: a thread is freed by the next thread to run after it exits
 * (it cannot free the stack it runs on). A process's memory goes when its
 * last thread exits; its structure stays as a zombie until the parent reaps
 * it with wait4, or goes at once when it has no parent. A process whose
 * parent exits first is orphaned: it becomes a child of init (pid 1),
 * which reaps it, as on Linux; a zombie orphan is freed at once (as if init
 * had reaped it). Without init (it is the one ending) orphans have no
 * parent and are freed when they end.
 */
#include <kernel/proc.h>
#include <kernel/boot.h>
#include <kernel/device.h>
#include <kernel/errno.h>
#include <kernel/futex.h>
#include <kernel/ipc.h>
#include <kernel/kmem.h>
#include <kernel/panic.h>
#include <kernel/personality.h>
#include <kernel/pmm.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>

static struct kmem_cache process_cache = KMEM_CACHE_INIT(process_cache, "process", struct process);
static struct kmem_cache thread_cache = KMEM_CACHE_INIT(thread_cache, "thread", struct thread);
static struct list_node process_table = LIST_INIT(process_table);
static unsigned live_processes, live_threads;
static int next_id = 1;

unsigned proc_count(void) { return live_processes; }
unsigned thread_count(void) { return live_threads; }

struct thread *thread_alloc(struct process *p)
{
	struct thread *t = kmem_alloc(&thread_cache);
	if (!t)
		return NULL;
	paddr_t stack = pmm_alloc(KSTACK_PAGES);
	if (!stack) {
		kmem_free(&thread_cache, t);
		return NULL;
	}
	t->kstack = arch_phys_to_virt(stack);
	t->proc = p;
	t->tid = next_id++;
	t->cpu_stamp = arch_read_tsc();
	list_init(&t->run_link);
	list_init(&t->sleep_link);
	list_init(&t->proc_link);
	live_threads++;
	return t;
}

void thread_destroy(struct thread *t)
{
	KASSERT(t->state == THREAD_DEAD && !list_linked(&t->run_link));
	personality_thread_free(t);
	pmm_free(arch_virt_to_phys(t->kstack), KSTACK_PAGES);
	kmem_free(&thread_cache, t);
	live_threads--;
}

void thread_attach(struct process *p, struct thread *t)
{
	list_push_back(&p->threads, &t->proc_link);
	p->thread_count++;
}

void process_free(struct process *p)
{
	list_remove(&p->table_link);
	if (list_linked(&p->sibling_link))
		list_remove(&p->sibling_link);
	personality_process_free(p);
	kmem_free(&process_cache, p);
	live_processes--;
}

/* c, alive and without a parent, becomes a child of init. */
static void process_adopt(struct process *init, struct process *c)
{
	c->parent = init;
	list_push_back(&init->children, &c->sibling_link);
}

struct process *process_alloc(void)
{
	struct process *p = kmem_alloc(&process_cache);
	if (!p)
		return NULL;
	list_init(&p->table_link);
	list_init(&p->children);
	list_init(&p->sibling_link);
	list_init(&p->threads);
	waitq_init(&p->child_exit);
	p->server_coreid = -1;
	list_init(&p->requests);
	list_init(&p->results);
	waitq_init(&p->ipc_waiters);
	live_processes++;
	return p;
}

void process_insert(struct process *p, struct process *parent)
{
	p->parent = parent;
	list_push_back(&process_table, &p->table_link);
	if (parent)
		list_push_back(&parent->children, &p->sibling_link);
}

int proc_spawn(const char *module, const char *const *argv, int argc,
               const char *const *envp, int envc, int prio,
               const struct spawn_powers *powers, struct process *parent)
{
	const struct boot_module *m = boot_find_module(module);
	if (!m)
		return -ENOENT;
	if (live_processes >= PROC_MAX)
		return -EAGAIN;
	struct process *p = process_alloc();
	if (!p)
		return -ENOMEM;
	struct thread *t = thread_alloc(p);
	if (!t) {
		process_free(p);
		return -ENOMEM;
	}
	int err = personality_process_init(p, parent);
	if (!err)
		err = personality_thread_init(t, NULL);
	if (!err)
		err = vm_space_init(&p->vm);
	if (err) {
		t->state = THREAD_DEAD;
		thread_destroy(t);
		process_free(p);
		return err;
	}
	uptr_t entry, sp;
	err = personality_load_module(&p->vm, m, argv, argc, envp, envc, powers->posix, &entry,
	                              &sp);
	if (err) {
		vm_space_destroy(&p->vm);
		t->state = THREAD_DEAD;
		thread_destroy(t);
		process_free(p);
		return err;
	}

	p->pid = t->tid;
	strlcpy(p->name, m->name, sizeof(p->name));
	p->state = PROC_ALIVE;
	p->prio_ceiling = prio;
	p->may_serve = powers->may_serve;
	p->may_manage = powers->may_manage;
	p->posix = powers->posix;
	proc_set_rights(p, &powers->rights);
	p->pgid = parent ? parent->pgid : p->pid;
	p->sid = parent ? parent->sid : p->pid;
	p->nproc_limit = PROC_MAX;
	process_insert(p, parent);

	t->prio = prio;
	arch_thread_init_user(t, t->kstack, KSTACK_PAGES * PAGE_SIZE, entry, sp, 0);
	thread_attach(p, t);
	sched_make_runnable(t);
	return p->pid;
}

int thread_clone(struct thread *parent, uptr_t sp, bool set_tls, uptr_t tls,
                 uptr_t clear_child_tid)
{
	struct process *p = parent->proc;
	if (p->thread_count >= PROC_MAX_THREADS)
		return -EAGAIN;
	struct thread *t = thread_alloc(p);
	if (!t)
		return -ENOMEM;
	int err = personality_thread_init(t, parent);
	if (err) {
		t->state = THREAD_DEAD;
		thread_destroy(t);
		return err;
	}
	t->prio = parent->prio;
	t->clear_child_tid = clear_child_tid;
	arch_thread_init_clone(t, parent, t->kstack, KSTACK_PAGES * PAGE_SIZE, sp, set_tls, tls);
	thread_attach(p, t);
	sched_make_runnable(t);
	return t->tid;
}

/* The last thread is gone: free the memory, become a zombie, tell the parent. */
static void process_end(struct process *p)
{
	p->killed = true;   /* nothing is delivered to p from here on */
	device_process_exit(p);   /* first: the device must stop writing into p's ICAs */
	vm_release_commitment(&p->vm);   /* its requests below need the budget it held */
	personality_process_exit(p);   /* may still send requests in p's name */
	ipc_process_exit(p);
	arch_as_activate_kernel();
	vm_space_destroy(&p->vm);
	p->state = PROC_ZOMBIE;
	struct process *init = p->pid == 1 ? NULL : proc_find(1);
	if (init && init->state != PROC_ALIVE)
		init = NULL;
	struct list_node *n, *tmp;
	list_for_each_safe(n, tmp, &p->children) {
		struct process *c = container_of(n, struct process, sibling_link);
		list_remove(&c->sibling_link);
		c->parent = NULL;
		if (c->state == PROC_ZOMBIE)
			process_free(c);
		else if (init)
			process_adopt(init, c);
	}
	if (p->pid == 1) {
		printk("myrmex: init exited with status %#x; powering off\n", p->wait_status);
		arch_poweroff(p->wait_status == 0 ? 0 : 1);
	}
	/* A parent that ignores SIGCHLD (or set SA_NOCLDWAIT) keeps no zombie. */
	bool reap_now = !p->parent || personality_child_exit(p->parent, p);
	if (p->parent)
		waitq_wake(&p->parent->child_exit, INT32_MAX);
	if (reap_now)
		process_free(p);
}

void thread_exit(void)
{
	struct thread *t = current_thread();
	struct process *p = t->proc;
	if (t->clear_child_tid && !p->killed) {
		uint32_t zero = 0;
		if (copy_to_user(t->clear_child_tid, &zero, sizeof(zero)) == 0)
			futex_wake(p, t->clear_child_tid, 1, false);
	}
	personality_thread_exit(t);
	cputime_thread_exit(t);
	list_remove(&t->proc_link);
	if (--p->thread_count == 0) {
		t->proc = NULL;   /* the process may be freed below */
		process_end(p);
	}
	personality_thread_gone();
	sched_exit_current();
}

void proc_get_rights(const struct process *p, struct myrmex_rights *out)
{
	memset(out, 0, sizeof(*out));
	for (unsigned c = 0; c <= MYRMEX_MAX_COREID; c++)
		if (p->may_call[c])
			myrmex_rights_add(out, c);
}

void proc_set_rights(struct process *p, const struct myrmex_rights *rights)
{
	for (unsigned c = 0; c <= MYRMEX_MAX_COREID; c++)
		p->may_call[c] = (uint8_t)myrmex_rights_has(rights, c);
}

void proc_kill(struct process *p, int status)
{
	if (p->state != PROC_ALIVE || p->killed)
		return;
	p->killed = true;
	p->wait_status = status;
	struct list_node *n;
	list_for_each(n, &p->threads) {
		struct thread *t = container_of(n, struct thread, proc_link);
		thread_wake(t, -EINTR);
	}
}

void proc_fault_kill(int status, const char *cause, uptr_t addr, uptr_t ip)
{
	struct process *p = current_thread()->proc;
	printk("myrmex: killed pid %d (%s): %s at %#llx ip %#llx\n", p->pid, p->name, cause,
	       (unsigned long long)addr, (unsigned long long)ip);
	proc_kill(p, status);
}

struct process *proc_find(int pid)
{
	struct list_node *n;
	list_for_each(n, &process_table) {
		struct process *p = container_of(n, struct process, table_link);
		if (p->pid == pid)
			return p;
	}
	return NULL;
}

struct process *proc_next(struct process *p)
{
	struct list_node *n = p ? p->table_link.next : process_table.next;
	return n == &process_table ? NULL : container_of(n, struct process, table_link);
}

struct thread *thread_find(int tid)
{
	for (struct process *p = proc_next(NULL); p; p = proc_next(p)) {
		struct thread *t = proc_find_thread(p, tid);
		if (t)
			return t;
	}
	return NULL;
}

struct thread *proc_find_thread(struct process *p, int tid)
{
	struct list_node *n;
	list_for_each(n, &p->threads) {
		struct thread *t = container_of(n, struct thread, proc_link);
		if (t->tid == tid)
			return t;
	}
	return NULL;
}

/* Whether child c is one that req of self waits for. */
static bool wait_matches(const struct process *c, const struct process *self,
                         const struct proc_wait_req *req)
{
	switch (req->which) {
	case PROC_WAIT_PID:
		return c->pid == req->id;
	case PROC_WAIT_PGID:
		return c->pgid == (req->id == 0 ? self->pgid : req->id);
	default:
		return true;
	}
}

int proc_wait(const struct proc_wait_req *req, int *status)
{
	struct process *self = current_thread()->proc;
	for (;;) {
		bool found = false;
		struct list_node *n;
		list_for_each(n, &self->children) {
			struct process *c = container_of(n, struct process, sibling_link);
			/* As Linux, an ended child does not count for a wait that
			 * does not ask for ended ones (-ECHILD if it is the only one). */
			if (!wait_matches(c, self, req) || (c->state == PROC_ZOMBIE && !req->exited))
				continue;
			found = true;
			if (c->state == PROC_ZOMBIE) {
				int reaped = c->pid;
				*status = c->wait_status;
				if (!req->keep) {
					cputime_reap(self, c, req->usage);
					process_free(c);
				} else if (req->usage) {
					*req->usage = cputime_process(c);
				}
				return reaped;
			}
			if (req->events && personality_wait_event(c, req->events, req->keep, status)) {
				if (req->usage)
					*req->usage = cputime_process(c);
				return c->pid;
			}
		}
		if (!found)
			return -ECHILD;
		if (req->nohang)
			return 0;
		int r = thread_block(&self->child_exit, 0);
		if (r < 0)
			return r;
	}
}
