/*
 * Futexes (see kernel/futex.h). All waiters share one wait queue and carry
 * their key: (process, address), or for a shared futex on shared memory
 * (frame + offset); a wake scans it. The queue is at most as long as the
 * number of threads, which the per-process and system limits bound.
 */
#include <kernel/futex.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/usercopy.h>
#include <kernel/vm.h>

static struct waitq futex_waiters = { LIST_INIT(futex_waiters.waiters) };

/* The key of uaddr in p: *is_shared says whether it is a frame's address
 * plus offset (a shared futex on shared memory) or uaddr itself. */
static uptr_t futex_key(struct process *p, uptr_t uaddr, bool shared, bool *is_shared)
{
	paddr_t pa;
	*is_shared = shared && vm_shared_frame(&p->vm, uaddr, &pa);
	return *is_shared ? (uptr_t)(pa + (uaddr & PAGE_MASK)) : uaddr;
}

int futex_wait(struct process *p, uptr_t uaddr, uint32_t expected, uint64_t deadline_ns,
               bool shared)
{
	uint32_t value;
	if (copy_from_user(&value, uaddr, sizeof(value)) < 0)
		return -EFAULT;
	if (value != expected)
		return -EAGAIN;
	struct thread *t = current_thread();
	t->futex_addr = futex_key(p, uaddr, shared, &t->futex_shared);
	int r = thread_block(&futex_waiters, deadline_ns);
	t->futex_addr = 0;
	t->futex_shared = false;
	return r;
}

int futex_wake(struct process *p, uptr_t uaddr, int max, bool shared)
{
	bool is_shared;
	uptr_t key = futex_key(p, uaddr, shared, &is_shared);
	int woken = 0;
	struct list_node *n, *tmp;
	list_for_each_safe(n, tmp, &futex_waiters.waiters) {
		if (woken >= max)
			break;
		struct thread *t = container_of(n, struct thread, run_link);
		if (t->futex_addr == key && t->futex_shared == is_shared &&
		    (is_shared || t->proc == p)) {
			thread_wake(t, 0);
			woken++;
		}
	}
	return woken;
}
