/*
 * Wrapped system calls (paper 001; include/myrmex/syscall.h, batch): one
 * kernel entry runs the calls a program stored in an area of its memory,
 * in order, and writes each result back. The area is never trusted: each
 * entry is copied in before it is looked at, and the result goes back with
 * copy_to_user, so another thread rewriting or unmapping the area changes
 * only what the batch reads next. Each entry runs as the trap path runs a
 * call (its handler, or syscall_run's -ENOSYS when it has none), with the
 * batch's own arguments record, unless
 * the personality runs it with the entries after it in one request to
 * their server (personality_batch_group).
 */
#include <kernel/syscall.h>
#include <kernel/errno.h>
#include <kernel/personality.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/usercopy.h>
#include <myrmex/syscall.h>

/* The entry's call may not run in a batch: the batch itself, and the IPC
 * calls whose fast path may end them on a fresh kernel stack
 * (sched_hand_off with a restart), which would leave the batch unfinished
 * with the entry's result as its own. */
static bool batch_refuses(syscall_fn fn)
{
	return fn == sys_myrmex_batch || fn == sys_callsync || fn == sys_get ||
	       !personality_batch_allows(fn);
}

/* Runs one copied entry, whose handler is fn: its result. *allowed is the
 * handler last found allowed in this batch (a batch mostly repeats a few
 * calls: the check is skipped for it). */
static long batch_run_entry(const struct myrmex_batch_entry *e, syscall_fn fn,
                            struct trapframe *tf, syscall_fn *allowed)
{
	if (e->state != MYRMEX_BATCH_STORED)
		return -EINVAL;
	if (fn && fn != *allowed) {
		if (batch_refuses(fn))
			return -EINVAL;
		*allowed = fn;
	}
	const struct syscall_args a = {
		.arg = { e->arg[0], e->arg[1], e->arg[2], e->arg[3], e->arg[4], e->arg[5] },
		.tf = tf,
	};
	/* syscall_run's own step, without the call for a handler found. */
	long r = fn ? fn(&a) : syscall_run(fn, e->nr, &a);
	personality_batch_entry_end();
	return r;
}

/* What a batch keeps for its groups of forwarded calls. */
struct batch_groups {
	syscall_fn no_group;   /* the handler last found not to start a group */
	uint64_t memo;         /* the personality's word (personality_batch_group) */
};

/* Runs the entry e (handler fn, at user address at, left entries from it)
 * with the ones after it as one request to their server, if the
 * personality can: the entries run, or 0 to run it alone. Apart from the
 * loop, which it would otherwise slow for every entry. */
static __attribute__((noinline)) uint64_t
batch_try_group(const struct myrmex_batch_entry *e, syscall_fn fn, uptr_t at, uint64_t left,
                struct batch_groups *g, unsigned *flags)
{
	if (e->state != MYRMEX_BATCH_STORED)
		return 0;
	if (!personality_batch_may_group(fn)) {
		g->no_group = fn;
		return 0;
	}
	return personality_batch_group(e, at, left, &g->memo, flags);
}

/* The batch stops after an entry when the thread must leave for user mode
 * (a signal to deliver) or end (a kill): what would cut a wait short. */
static bool batch_must_stop(const struct thread *t)
{
	return t->proc->killed || t->exit_pending || personality_interrupts(t);
}

long sys_myrmex_batch(const struct syscall_args *a)
{
	uptr_t area = a->arg[0];
	uint64_t n = a->arg[1];
	if (n > MYRMEX_BATCH_MAX)
		return -EINVAL;
	struct myrmex_batch_area head;
	if (copy_from_user(&head, area, sizeof(head)))
		return -EFAULT;
	if (head.capacity > MYRMEX_BATCH_MAX || n > head.capacity ||
	    (head.flags & ~MYRMEX_BATCH_FLAGS))
		return -EINVAL;

	struct thread *t = current_thread();
	syscall_fn allowed = NULL;
	struct batch_groups g = { NULL, 0 };
	uint64_t done = 0;
	bool alone = head.flags & MYRMEX_BATCH_ALONE;
	/* The last number looked up and its handler: a batch mostly repeats a
	 * few calls, and syscall_lookup depends on the number alone. */
	uint64_t last_nr = 0;
	syscall_fn last_fn = syscall_lookup(last_nr);
	while (done < n) {
		uptr_t at = area + sizeof(head) + done * sizeof(struct myrmex_batch_entry);
		struct myrmex_batch_entry e;
		if (copy_from_user(&e, at, sizeof(e)))
			return done ? (long)done : -EFAULT;
		/* Consecutive calls for one server may go in one request (a
		 * batch mostly repeats a few calls: a handler found not to start
		 * groups is not asked about again). */
		if (e.nr != last_nr) {
			last_nr = e.nr;
			last_fn = syscall_lookup(e.nr);
		}
		syscall_fn fn = last_fn;
		if (!alone && fn != g.no_group && n - done > 1) {
			unsigned flags = 0;
			uint64_t ran = batch_try_group(&e, fn, at, n - done, &g, &flags);
			if (ran) {
				done += ran;
				alone = flags & BATCH_GROUP_ALONE;
				if ((flags & BATCH_GROUP_STOP) || batch_must_stop(t))
					break;
				continue;
			}
		}
		alone = head.flags & MYRMEX_BATCH_ALONE;
		struct { int64_t result; uint32_t state; } out = {
			batch_run_entry(&e, fn, a->tf, &allowed), MYRMEX_BATCH_DONE,
		};
		done++;
		if (copy_to_user(at + __builtin_offsetof(struct myrmex_batch_entry, result), &out,
		                 sizeof(out.result) + sizeof(out.state)))
			break;
		if (batch_must_stop(t))
			break;
	}
	return (long)done;
}
