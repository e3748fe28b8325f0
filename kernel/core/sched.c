/*
 * The scheduler (see kernel/sched.h). Run queues are FIFO lists, one per
 * priority, with a bitmap of the non-empty ones. The running thread is on no
 * queue. Timed sleeps sit on a list sorted by deadline that the timer tick
 * checks from the front.
 *
 * Locking: the kernel lock (kernel/klock.h) guards the queues, held by
 * whichever thread runs kernel code and handed to the next one across
 * arch_context_switch; schedule, thread_block and thread_wake assert it.
 */
#include <kernel/cputime_edges.h>
#include <kernel/sched.h>
#include <kernel/proc.h>
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/klock.h>
#include <kernel/personality.h>
#include <kernel/panic.h>
#include <kernel/stats.h>
#include <kernel/time.h>
#include <myrmex/syscall.h>

struct cpu sched_cpus[ARCH_MAX_CPUS];
#define this_cpu (&sched_cpus[arch_cpu_id()])
static struct thread idle_thread;
static struct list_node run_queue[MYRMEX_PRIO_MAX + 1];
static uint32_t run_bitmap;          /* bit p set: run_queue[p] is not empty */
static struct list_node sleepers;    /* sorted by wake_deadline */

void sched_init(void)
{
	for (int p = 0; p <= MYRMEX_PRIO_MAX; p++)
		list_init(&run_queue[p]);
	list_init(&sleepers);
	list_init(&idle_thread.run_link);
	list_init(&idle_thread.sleep_link);
	idle_thread.state = THREAD_RUNNING;
	idle_thread.prio = -1;
	arch_thread_init_boot(&idle_thread);
	this_cpu->current = &idle_thread;
}

static void enqueue(struct thread *t)
{
	list_push_back(&run_queue[t->prio], &t->run_link);
	run_bitmap |= 1u << t->prio;
}

static void dequeue(struct thread *t)
{
	list_remove(&t->run_link);
	if (list_empty(&run_queue[t->prio]))
		run_bitmap &= ~(1u << t->prio);
}

void sched_make_runnable(struct thread *t)
{
	KASSERT(!list_linked(&t->run_link));
	t->state = THREAD_RUNNABLE;
	enqueue(t);
	if (t->prio > this_cpu->current->prio)
		this_cpu->need_resched = true;
}

static struct thread *pick_next(void)
{
	if (!run_bitmap)
		return &idle_thread;
	int prio = 31 - __builtin_clz(run_bitmap);
	struct thread *t = container_of(run_queue[prio].next, struct thread, run_link);
	dequeue(t);
	return t;
}

void schedule(void)
{
	KASSERT(kernel_lock_held());   /* handed to the next thread across the switch */
	struct thread *prev = this_cpu->current;
	struct thread *next = pick_next();
	this_cpu->need_resched = false;
	if (next == prev) {
		prev->state = THREAD_RUNNING;
		return;
	}
	next->state = THREAD_RUNNING;
	if (next->slice_left <= 0)
		next->slice_left = SCHED_SLICE_TICKS;
	this_cpu->current = next;
	cputime_switch(prev, next);
	arch_context_switch(prev, next);
	sched_finish_switch();
}

void sched_finish_switch(void)
{
	struct thread *dead = this_cpu->dead;
	if (dead) {
		this_cpu->dead = NULL;
		thread_destroy(dead);
	}
}

void sched_yield(void)
{
	struct thread *t = this_cpu->current;
	if (t == &idle_thread)
		return;
	t->state = THREAD_RUNNABLE;
	enqueue(t);
	schedule();
}

NORETURN void sched_exit_current(void)
{
	struct thread *t = this_cpu->current;
	KASSERT(t != &idle_thread && this_cpu->dead == NULL);
	t->state = THREAD_DEAD;
	this_cpu->dead = t;
	schedule();
	panic("sched_exit_current: a dead thread ran again");
}

/* Gives way to the thread the scheduler prefers (sched_return_to_user). */
static __attribute__((noinline)) void give_way(struct thread *t)
{
	while (this_cpu->need_resched) {
		t->state = THREAD_RUNNABLE;
		enqueue(t);
		schedule();
	}
}

void sched_return_to_user(void)
{
	struct thread *t = this_cpu->current;
	if (this_cpu->need_resched)
		give_way(t);
	proc_check_killed();
	personality_return_to_user();
	cputime_to_user(t);
}

static void sleepers_insert(struct thread *t)
{
	struct list_node *pos;
	list_for_each(pos, &sleepers) {
		struct thread *o = container_of(pos, struct thread, sleep_link);
		if (o->wake_deadline > t->wake_deadline)
			break;
	}
	list_insert_before(pos, &t->sleep_link);
}

void sched_tick(void)
{
	uint64_t now = time_monotonic_ns();
	sched_interrupt_wakes(true);
	personality_tick(now);
	while (!list_empty(&sleepers)) {
		struct thread *t = container_of(sleepers.next, struct thread, sleep_link);
		if (t->wake_deadline > now)
			break;
		thread_wake(t, -ETIMEDOUT);
	}
	sched_interrupt_wakes(false);
	struct thread *cur = this_cpu->current;
	if (cur != &idle_thread && --cur->slice_left <= 0) {
		cur->io_hops = 0;   /* its slice used up: it prefers nobody any more */
		/* Round robin: only a thread of the same or a higher priority takes over. */
		if (run_bitmap >> cur->prio)
			this_cpu->need_resched = true;
		else
			cur->slice_left = SCHED_SLICE_TICKS;
	}
}

NORETURN void sched_idle_loop(void)
{
	for (;;) {
		if (run_bitmap) {
			schedule();
		} else {
			/* The interrupt that ends the halt takes the lock itself. */
			uint64_t halted = arch_read_tsc();
			kernel_lock_give();
			arch_wait_for_interrupt();
			kernel_lock_take();
			STAT_ADD(idle_tsc, arch_read_tsc() - halted);
		}
	}
}

void sched_thread_start(void)
{
	sched_finish_switch();
	sched_return_to_user();   /* as every return to user mode: a killed thread ends here */
	kernel_lock_give();       /* taken by the thread that switched to this one */
}

bool sched_can_hand_off(const struct thread *next)
{
	return !(run_bitmap >> (next->prio + 1));
}

int sched_hand_off(struct waitq *q, struct thread *next, long (*restart)(struct thread *))
{
	struct thread *t = this_cpu->current;
	KASSERT(kernel_lock_held() && t != &idle_thread && next->state == THREAD_BLOCKED);
	t->state = THREAD_BLOCKED;
	t->wake_result = 0;
	/* next runs in t's place: it carries t's I/O preference one hop on. */
	next->io_hops = t->io_hops ? (uint8_t)(t->io_hops - 1) : 0;
	t->io_hops = 0;
	t->waiting_on = q;
	if (q)
		list_push_back(&q->waiters, &t->run_link);
	t->wake_deadline = 0;
	if (next->waiting_on) {
		list_remove(&next->run_link);
		next->waiting_on = NULL;
	}
	KASSERT(!list_linked(&next->sleep_link));
	next->wake_result = 0;
	next->state = THREAD_RUNNING;
	if (next->slice_left <= 0)
		next->slice_left = SCHED_SLICE_TICKS;
	if (restart) {
		next->restart = restart;
		arch_thread_restart_user(next);
	}
	this_cpu->current = next;
	cputime_switch(t, next);
	arch_context_switch(t, next);
	sched_finish_switch();
	return t->wake_result;
}

void sched_thread_restarted(void)
{
	sched_finish_switch();
	struct thread *t = this_cpu->current;
	long (*restart)(struct thread *) = t->restart;
	t->restart = NULL;
	arch_thread_set_return(t, (uint64_t)restart(t));
	sched_return_to_user();
	kernel_lock_give();
}

void sched_set_prio(struct thread *t, int prio)
{
	if (t->state == THREAD_RUNNABLE) {
		dequeue(t);
		t->prio = prio;
		enqueue(t);
	} else {
		t->prio = prio;
	}
	/* A lowered running thread may now have to give way. */
	if (run_bitmap >> (this_cpu->current->prio + 1))
		this_cpu->need_resched = true;
}

/* I/O preference (issue 19): a thread an interrupt wakes (its device's
 * event, its deadline) goes to the front of its run queue and takes the CPU
 * from a running thread of its own priority at once (at the interrupt's
 * return), while it has slice left in this round: it blocked before using
 * it up. So do the threads it wakes in turn, up to SCHED_IO_HOPS of them
 * along the chain (the disk driver wakes the file manager, which wakes the
 * reader): t->io_hops is what a woken thread may still pass on, and a
 * thread that blocks again passes nothing. Without this a busy thread of
 * the same priority kept the CPU for the rest of its 10 ms slice at every
 * step of a disk read. Nobody starves: a woken thread gets at most the rest
 * of its slice before it queues at the back (sched_tick), the chain is
 * short and only an interrupt starts one, so a busy thread still gets a
 * slice per round. Other wakes keep the plain order: the woken thread
 * queues behind the others. */
static void wake_preferred(struct thread *t, unsigned hops)
{
	struct thread *cur = this_cpu->current;
	if (t->slice_left <= 0 || cur == &idle_thread || t->prio != cur->prio) {
		sched_make_runnable(t);
		return;
	}
	KASSERT(!list_linked(&t->run_link));
	t->io_hops = (uint8_t)(hops - 1);
	t->state = THREAD_RUNNABLE;
	list_push_front(&run_queue[t->prio], &t->run_link);
	run_bitmap |= 1u << t->prio;
	this_cpu->need_resched = true;
}

int thread_block(struct waitq *q, uint64_t deadline_ns)
{
	struct thread *t = this_cpu->current;
	KASSERT(kernel_lock_held() && t != &idle_thread);
	if (t->proc && (t->proc->killed || t->exit_pending || personality_interrupts(t)))
		return -EINTR;
	t->state = THREAD_BLOCKED;
	t->wake_result = 0;
	t->io_hops = 0;   /* waiting again: it passes no preference on */
	t->waiting_on = q;
	if (q)
		list_push_back(&q->waiters, &t->run_link);
	t->wake_deadline = deadline_ns;
	if (deadline_ns)
		sleepers_insert(t);
	schedule();
	return t->wake_result;
}

void thread_wake(struct thread *t, int result)
{
	KASSERT(kernel_lock_held());
	if (t->state != THREAD_BLOCKED)
		return;
	/* A fork or exec in progress is not interrupted by a signal that will
	 * be handled: the request would carry on without the thread. Death
	 * still wakes it. */
	if (result == -EINTR && t->only_death_wakes && t->proc && !t->proc->killed &&
	    !t->exit_pending)
		return;
	if (t->waiting_on) {
		list_remove(&t->run_link);
		t->waiting_on = NULL;
	}
	if (list_linked(&t->sleep_link))
		list_remove(&t->sleep_link);
	t->wake_deadline = 0;
	t->wake_result = result;
	struct thread *cur = this_cpu->current;
	if (this_cpu->in_interrupt)
		wake_preferred(t, SCHED_IO_HOPS);
	else if (cur->io_hops)
		wake_preferred(t, cur->io_hops);
	else
		sched_make_runnable(t);
}

int waitq_wake(struct waitq *q, int max)
{
	int woken = 0;
	while (woken < max && !list_empty(&q->waiters)) {
		struct thread *t = container_of(q->waiters.next, struct thread, run_link);
		thread_wake(t, 0);
		woken++;
	}
	return woken;
}
