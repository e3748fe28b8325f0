/*
 * CPU time per thread, user and system, counted in TSC ticks at the
 * kernel's edges: entering from user mode (syscall_dispatch, trap_dispatch)
 * charges the time since the last edge to user time; going back
 * (sched_return_to_user) and switching away (schedule, sched_hand_off)
 * charge it to system time. The kernel runs with interrupts off, so these
 * edges see every transition; an interrupt taken in user mode is system
 * time of the thread it interrupted, as on Linux. The idle thread's time is
 * nobody's.
 *
 * A process's time is its live threads' plus what its ended threads left
 * (cpu_gone_*); its children's is what the children it reaped with wait
 * had, theirs and their own reaped children's (cpu_child_*), as Linux's
 * times() and getrusage(RUSAGE_CHILDREN). Read in nanoseconds (the TSC's
 * calibration, kernel/time.h).
 */
#ifndef KERNEL_CPUTIME_H
#define KERNEL_CPUTIME_H

#include <kernel/types.h>

struct thread;
struct process;

struct cpu_usage {
	uint64_t user_ns, sys_ns;
};

/* The edges are inline, on every kernel entry and exit:
 * kernel/cputime_edges.h. */
/* t ends: its time stays with its process. */
void cputime_thread_exit(struct thread *t);
/* The parent reaps child (wait): the child's total joins the parent's
 * children's time; *child_total (may be NULL) receives it. */
void cputime_reap(struct process *parent, const struct process *child,
                  struct cpu_usage *child_total);

/* Readings, up to now for the running thread. */
struct cpu_usage cputime_thread(const struct thread *t);
struct cpu_usage cputime_process(const struct process *p);
struct cpu_usage cputime_children(const struct process *p);

#endif
