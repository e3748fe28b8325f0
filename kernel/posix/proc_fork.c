/*
 * proc_fork and proc_start, the process manager's calls that make a process
 * (see posix/pm.h). The child is a copy-on-write copy (vm_space_clone) of
 * the forking thread's process with one thread, a copy of the forking one,
 * which waits in state THREAD_UNSTARTED, on no run queue, until the process
 * manager has copied the descriptor table and starts it, or discards it.
 *
 * The forking thread is blocked in its PM_FORK call, so its user registers
 * are those its system call saved, its FPU state the one saved when it was
 * switched out: both are copied as they are.
 */
#include <posix/posix.h>
#include <posix/pm.h>
#include <kernel/errno.h>
#include <kernel/ica.h>
#include <kernel/ipc.h>
#include <posix/route.h>
#include <kernel/panic.h>
#include <kernel/proc.h>
#include <posix/signal.h>
#include <kernel/string.h>
#include <myrmex/proc.h>

struct thread *pm_blocked_thread(struct process *pm, int tid)
{
	struct thread *t = tid > 0 ? thread_find(tid) : NULL;
	if (!t || t->state != THREAD_BLOCKED || t->exit_pending)
		return NULL;
	if (!t->ipc_waiting || t->ipc_waiting->call.handler != pm)
		return NULL;
	if (t->proc->state != PROC_ALIVE || t->proc->killed)
		return NULL;
	return t;
}

/* The child's fields that are not its memory or its thread. */
static void copy_process(struct process *child, const struct process *parent)
{
	memcpy(child->name, parent->name, sizeof(child->name));
	child->state = PROC_ALIVE;
	child->prio_ceiling = parent->prio_ceiling;
	child->pgid = parent->pgid;
	child->sid = parent->sid;
	child->px->umask = parent->px->umask;
	child->px->cred = parent->px->cred;
	child->px->cmdline_len = parent->px->cmdline_len;
	memcpy(child->px->cmdline, parent->px->cmdline, sizeof(child->px->cmdline));
	child->nproc_limit = parent->nproc_limit;
	child->posix = parent->posix;
	child->may_serve = false;   /* the right to serve is not inherited */
	child->may_manage = false;
	/* Call rights are: a child may do what its parent may, no more. */
	memcpy(child->may_call, parent->may_call, sizeof(child->may_call));
	signal_fork_copy(child, parent);
}

/* The child's thread: from's registers and signal state, and the
 * CLONE_CHILD_SETTID / CLONE_CHILD_CLEARTID word that the forking system
 * call left in from (the child's memory gets its tid, as Linux writes it
 * in the child's context; a word that is not writable is skipped). */
static void copy_thread(struct thread *t, const struct thread *from, uptr_t sp)
{
	t->prio = from->prio;
	arch_thread_init_clone(t, from, t->kstack, KSTACK_PAGES * PAGE_SIZE, sp, false, 0);
	signal_thread_fork(t, from);
	if (from->px->fork_clear_tid)
		t->clear_child_tid = from->px->fork_child_tid;
	if (from->px->fork_set_tid) {
		uint32_t tid = (uint32_t)t->tid;
		vm_store(&t->proc->vm, from->px->fork_child_tid, &tid, sizeof(tid));
	}
	t->state = THREAD_UNSTARTED;
}

int proc_fork(struct process *pm, int tid, uptr_t sp)
{
	struct thread *from = pm_blocked_thread(pm, tid);
	if (!from)
		return -ESRCH;
	struct process *parent = from->proc;
	if (proc_count() >= PROC_MAX || proc_count() >= parent->nproc_limit)
		return -EAGAIN;
	struct process *child = process_alloc();
	if (!child)
		return -ENOMEM;
	struct thread *t = thread_alloc(child);
	int err = t ? 0 : -ENOMEM;
	if (!err)
		err = personality_process_init(child, parent);
	if (!err)
		err = personality_thread_init(t, NULL);
	if (!err)
		err = vm_space_init(&child->vm);
	if (!err) {
		err = vm_space_clone(&child->vm, &parent->vm);
		if (err)
			vm_space_destroy(&child->vm);
	}
	if (err) {
		if (t) {
			t->state = THREAD_DEAD;
			thread_destroy(t);
		}
		process_free(child);
		return err;
	}
	child->pid = t->tid;
	copy_process(child, parent);
	copy_thread(t, from, sp);
	thread_attach(child, t);
	child->fork_pending = true;
	process_insert(child, parent);
	return child->pid;
}

/* Destroys a child that never ran: it holds nothing but its memory, its
 * thread and its place in the table. */
static void discard(struct process *p)
{
	struct thread *t = container_of(p->threads.next, struct thread, proc_link);
	list_remove(&t->proc_link);
	p->thread_count--;
	t->state = THREAD_DEAD;
	thread_destroy(t);
	vm_space_destroy(&p->vm);   /* never active: it never ran */
	struct process *parent = p->parent;
	process_free(p);
	if (parent)   /* a wait4 that counted it looks again */
		waitq_wake(&parent->child_exit, INT32_MAX);
}

int proc_start(int pid, bool discard_it)
{
	struct process *p = pid > 0 ? proc_find(pid) : NULL;
	if (!p || !p->fork_pending)
		return -ESRCH;
	p->fork_pending = false;
	if (discard_it) {
		discard(p);
		return 0;
	}
	struct thread *t = container_of(p->threads.next, struct thread, proc_link);
	KASSERT(t->state == THREAD_UNSTARTED);
	sched_make_runnable(t);
	return 0;
}

void proc_fork_process_exit(struct process *pm)
{
	if (posix_server(SERVICE_PROCESSES) != pm)
		return;
	struct process *p = proc_next(NULL);
	while (p) {
		struct process *next = proc_next(p);   /* discard frees p, nothing else */
		if (p->fork_pending) {
			p->fork_pending = false;
			discard(p);
		}
		p = next;
	}
}
