/*
 * Futexes (see kernel/futex.h). All waiters share one wait queue and carry
 * their (process, address) key; a wake scans it. The queue is at most as
 * long as the number of threads, which the per-process and system limits
 * bound.
 */
#include <kernel/futex.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/usercopy.h>

static struct waitq futex_waiters = { LIST_INIT(futex_waiters.waiters) };

int futex_wait(struct process *p, uptr_t uaddr, uint32_t expected, uint64_t deadline_ns)
{
	(void)p;
	uint32_t value;
	if (copy_from_user(&value, uaddr, sizeof(value)) < 0)
		return -EFAULT;
	if (value != expected)
		return -EAGAIN;
	struct thread *t = current_thread();
	t->futex_addr = uaddr;
	int r = thread_block(&futex_waiters, deadline_ns);
	t->futex_addr = 0;
	return r;
}

int futex_wake(struct process *p, uptr_t uaddr, int max)
{
	int woken = 0;
	struct list_node *n, *tmp;
	list_for_each_safe(n, tmp, &futex_waiters.waiters) {
		if (woken >= max)
			break;
		struct thread *t = container_of(n, struct thread, run_link);
		if (t->proc == p && t->futex_addr == uaddr) {
			thread_wake(t, 0);
			woken++;
		}
	}
	return woken;
}
