/*
 * CPU time accounting (see kernel/cputime.h): TSC ticks charged at the
 * kernel's edges, converted to nanoseconds when read.
 */
#include <kernel/cputime.h>
#include <kernel/cputime_edges.h>
#include <kernel/arch.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/time.h>

void cputime_thread_exit(struct thread *t)
{
	cputime_to_user(t);   /* charges the last stretch, as system time */
	t->proc->cpu_gone_user += t->cpu_user;
	t->proc->cpu_gone_sys += t->cpu_sys;
}

void cputime_reap(struct process *parent, const struct process *child,
                  struct cpu_usage *child_total)
{
	/* Every thread of a zombie has ended: its time is all in cpu_gone_*. */
	uint64_t user = child->cpu_gone_user + child->cpu_child_user;
	uint64_t sys = child->cpu_gone_sys + child->cpu_child_sys;
	parent->cpu_child_user += user;
	parent->cpu_child_sys += sys;
	if (child_total)
		*child_total = (struct cpu_usage){ time_tsc_to_ns(user), time_tsc_to_ns(sys) };
}

/* t's ticks, the running thread's up to now (as system time: it is in the
 * kernel, reading). */
static void thread_ticks(const struct thread *t, uint64_t *user, uint64_t *sys)
{
	*user += t->cpu_user;
	*sys += t->cpu_sys;
	if (t == current_thread())
		*sys += arch_read_tsc() - t->cpu_stamp;
}

struct cpu_usage cputime_thread(const struct thread *t)
{
	uint64_t user = 0, sys = 0;
	thread_ticks(t, &user, &sys);
	return (struct cpu_usage){ time_tsc_to_ns(user), time_tsc_to_ns(sys) };
}

struct cpu_usage cputime_process(const struct process *p)
{
	uint64_t user = p->cpu_gone_user, sys = p->cpu_gone_sys;
	const struct list_node *n;
	list_for_each(n, &p->threads)
		thread_ticks(container_of(n, struct thread, proc_link), &user, &sys);
	return (struct cpu_usage){ time_tsc_to_ns(user), time_tsc_to_ns(sys) };
}

struct cpu_usage cputime_children(const struct process *p)
{
	return (struct cpu_usage){ time_tsc_to_ns(p->cpu_child_user),
	                           time_tsc_to_ns(p->cpu_child_sys) };
}
