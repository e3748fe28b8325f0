/*
 * The scheduler: fixed priorities, round robin within a priority, driven by
 * the periodic timer. One run queue per priority; the idle thread runs when
 * every queue is empty. Blocking goes through wait queues and an optional
 * deadline (the timed-sleep list checked at every tick).
 *
 * Locking: the run queues, the sleep list and the threads' scheduling
 * fields are guarded by the kernel lock (kernel/klock.h), the [sched] group
 * when it is split; schedule, thread_block and thread_wake assert it. A CPU's
 * struct cpu is its own.
 */
#ifndef KERNEL_SCHED_H
#define KERNEL_SCHED_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/arch.h>

struct thread;

#define SCHED_HZ          1000  /* timer ticks per second */
#define SCHED_SLICE_TICKS 10    /* round-robin quantum */
#define SCHED_IO_HOPS     4     /* threads an interrupt's preference reaches (sched.c) */

/* A wait queue: the threads blocked on it, in arrival order. Guarded by the
 * kernel lock; [sched] when it is split (kernel/proc.h). */
struct waitq {
	struct list_node waiters;  /* of struct thread, via run_link */
};

static inline void waitq_init(struct waitq *q) { list_init(&q->waiters); }

/* Per-CPU scheduler state, indexed by arch_cpu_id(). Only its own CPU
 * touches an entry, so it needs no lock. */
struct cpu {
	struct thread *current;
	struct thread *dead;        /* exited, to be freed once we are off its stack */
	bool need_resched;
	bool in_interrupt;          /* waking threads for a device's or the timer's
	                               interrupt (thread_wake prefers them, sched.c) */
};
extern struct cpu sched_cpus[ARCH_MAX_CPUS];

/* Around the wake-ups an interrupt causes (device_interrupt, sched_tick):
 * a thread woken then had been waiting for the event (I/O, a deadline), and
 * thread_wake gives it the CPU before a running thread of its priority has
 * used up its slice (sched.c, "I/O preference"). */
static inline void sched_interrupt_wakes(bool on)
{
	sched_cpus[arch_cpu_id()].in_interrupt = on;
}

/* The thread running on this CPU. */
static inline struct thread *current_thread(void)
{
	return sched_cpus[arch_cpu_id()].current;
}

void sched_init(void);
/* Makes a thread runnable (it must not be on any queue). */
void sched_make_runnable(struct thread *t);
/* Gives up the CPU to a runnable thread of equal or higher priority. */
void sched_yield(void);
/* Picks the next thread and switches to it; returns when the caller runs again. */
void schedule(void);
/* Called from the timer interrupt. */
void sched_tick(void);
/* Ends the current thread: it never runs again and is freed (thread_destroy)
 * by the next thread to run, once off its stack. */
NORETURN void sched_exit_current(void);
/* The idle loop of the boot CPU; never returns. */
NORETURN void sched_idle_loop(void);
/* Changes a thread's priority, moving it between run queues. */
void sched_set_prio(struct thread *t, int prio);

/* Blocks the current thread on q (may be NULL: only the deadline can wake it)
 * until woken, until the monotonic clock reaches deadline_ns (0 = never),
 * until its process is killed or a signal it takes is sent to it (at once
 * if one is pending already). Returns 0 when woken, -ETIMEDOUT, or -EINTR. */
int thread_block(struct waitq *q, uint64_t deadline_ns);
/* Wakes one / all threads blocked on q with result 0; returns how many. */
int waitq_wake(struct waitq *q, int max);
/* Wakes a blocked thread with the given result, wherever it waits. */
void thread_wake(struct thread *t, int result);
/* Called on every return to user mode: runs another thread if one of higher
 * priority became runnable or the slice ran out, ends the thread if its
 * process was killed, and delivers its signals. */
void sched_return_to_user(void);
/* Runs once on the new thread after every switch (frees exited threads). */
void sched_finish_switch(void);
/* The first kernel code of a new thread, from the port's start-up stub:
 * finishes the switch, passes the way back to user mode, and gives back the
 * kernel lock its creator's CPU held (kernel/klock.h). */
void sched_thread_start(void);

/* Direct hand-off, for the IPC fast path (kernel/ipc_fast.c), in seL4's
 * manner: the CPU goes from the current thread straight to a blocked one
 * without the run queues.
 * sched_can_hand_off: next could run now, no runnable thread having a higher
 * priority (the scheduler would then pick it too, or one of its priority,
 * whose turn it takes: as in seL4, a call donates the rest of the slice).
 * sched_hand_off: the current thread, which has checked that it may block
 * (not killed, nothing to deliver: thread_block's checks), blocks on q (or
 * on nothing) without a deadline, and next, blocked, is taken off its wait
 * queue and runs. With restart, next's kernel stack is given up: next
 * leaves for user mode through its saved user registers, after restart(next)
 * ran in its context (its address space active) and gave the result of the
 * system call next blocked in; without, next resumes where it blocked.
 * Returns, like thread_block, the current thread's wake result once it runs
 * again. */
bool sched_can_hand_off(const struct thread *next);
int sched_hand_off(struct waitq *q, struct thread *next, long (*restart)(struct thread *));
/* Where a restarted thread's stack begins (the port's stub calls it). */
void sched_thread_restarted(void);

#endif
