/*
 * The fast path of the communication mechanism (docs/ipc.md, "Fast path"),
 * in seL4's manner, for the common synchronous case:
 *   - callsync to a server one of whose threads waits in get: the request
 *     goes straight to that thread, not through the server's queue;
 *   - get(p) returning the result of a one-stage call whose caller waits in
 *     callsync: the result goes straight to the caller;
 *   - the same two for the calls the kernel makes over a thread's channel
 *     (the forwarded system calls of the POSIX personality).
 * Either way the CPU is handed to the receiving thread without the run
 * queues (sched_hand_off), and that thread finishes its own system call in
 * its own context (the delivery, its mappings, its result register) before
 * leaving for user mode, without unwinding the kernel stack it blocked on.
 *
 * Each path is a short list of bail-out checks, then the commit. Whatever
 * fails a check takes the slow path (ipc.c) with nothing moved. The commit
 * is made of the slow path's own steps (kernel/ipc_impl.h): the same frame
 * checks, rights, records and counters (kstats.ipc_fast_* count what went
 * this way); only the queue, the wake-up and the scheduler are skipped.
 *
 * One CPU: the waiting thread found here cannot be running elsewhere. With
 * SMP the hand-off must stay on the caller's CPU or bail.
 */
#include <kernel/ipc.h>
#include <kernel/ipc_impl.h>
#include <kernel/device.h>
#include <kernel/errno.h>
#include <kernel/ica.h>
#include <kernel/klock.h>
#include <kernel/panic.h>
#include <kernel/personality.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/stats.h>
#include <kernel/usercopy.h>

bool ipc_fast_enabled = true;

/* The data ICAs a fast call may carry; more take the slow path. */
#define FAST_MAX_DATA 2

/* The thread may block now (thread_block's own checks). */
static bool may_block(const struct thread *t)
{
	return !t->proc->killed && !t->exit_pending && !personality_interrupts(t);
}

/* The first thread of server waiting in get, if the fast path may finish
 * that get for it. */
static struct thread *waiting_getter(struct process *server)
{
	struct list_node *first = server->ipc_waiters.waiters.next;
	if (first == &server->ipc_waiters.waiters)
		return NULL;
	struct thread *w = container_of(first, struct thread, run_link);
	return w->ipc_resume == IPC_RESUME_GET ? w : NULL;
}

/* ---- callsync ---- */

/* Finishes the get of w, a server thread handed a request (in
 * w->ipc_delivered), in its own context: what ipc_get does when it finds
 * the request at the head of its queue. */
static long get_restart(struct thread *w)
{
	struct process *me = w->proc;
	struct ica *ctl = w->ipc_delivered;
	w->ipc_delivered = NULL;
	w->ipc_resume = IPC_RESUME_NONE;
	struct myrmex_delivery d;
	int err = ipc_receive(ctl, me, &d);
	if (err) {
		/* No page table for the control ICA now: as in the slow get, the
		 * request waits at the head of the queue and get fails. */
		list_push_front(&me->requests, &ctl->call.link);
		me->request_count++;
		return err;
	}
	if (w->ipc_get_out)
		w->ipc_get_out_written =
			copy_to_user(w->ipc_get_out, &d, sizeof(d)) == 0 ? w->ipc_get_out : 0;
	return (long)ica_address(ctl);
}

/* The commit of a checked first-stage sync call: recorded as the slow path
 * records it, handed to w, and waited for. */
static int hand_request(struct process *me, struct thread *t, struct ica *ctl, uint32_t off,
                        uint32_t opcode, uint32_t target, struct thread *w, struct ica **data,
                        uint32_t ndata)
{
	ipc_call_record(me, t, ctl, true, off, opcode, target, false, data, ndata, true);
	STAT_INC(ipc_fast_calls);
	t->ipc_waiting = ctl;
	w->ipc_delivered = ctl;
	int r = sched_hand_off(NULL, w, get_restart);
	return ipc_call_wait_end(t, ctl, r);
}

/* Checks 4 and 5 below: a thread of server waiting in get with nothing
 * queued ahead, that the scheduler would run now, and a caller that may
 * block. */
static struct thread *receiver_for(struct process *server, struct thread *t)
{
	struct thread *w = waiting_getter(server);
	if (!w || !list_empty(&server->requests) || !sched_can_hand_off(w) || !may_block(t))
		return NULL;
	return w;
}

bool ipc_fast_call(struct thread *t, uptr_t addr, long *result)
{
	KASSERT(kernel_lock_held() && t == current_thread());
	if (!ipc_fast_enabled)
		return false;
	struct process *me = t->proc;
	struct ica *ctl = ica_at(addr);
	/* 1. An idle control ICA of the caller's own: a first-stage call (a
	 *    forwarded stage has a chain to keep: slow path). */
	if (!ctl || ctl->state != ICA_ATTACHED || ctl->owner != me || ctl->kernel_channel)
		return false;
	/* 2. A well-formed single frame without direct return, carrying at most
	 *    FAST_MAX_DATA data ICAs (the slow path gives the errors). */
	uint32_t off, flags;
	struct myrmex_frame f;
	if (ipc_read_top_frame(ctl, &off, &f, &flags) || f.prev != 0 ||
	    (flags & MYRMEX_CTL_DIRECT_RETURN) || f.ndata > FAST_MAX_DATA ||
	    f.target > MYRMEX_MAX_COREID)
		return false;
	/* 3. The right to call the target (a refusal is counted by the slow
	 *    path) and a server registered for it. */
	struct process *server = me->may_call[f.target] ? ipc_server(f.target) : NULL;
	if (!server)
		return false;
	/* 4. One of its threads waits in get, so nothing is queued ahead of us;
	 * 5. the scheduler would run it now, and the caller may block. */
	struct thread *w = receiver_for(server, t);
	if (!w)
		return false;
	/* 6. The data ICAs are the caller's own, idle and distinct. */
	struct ica *data[MYRMEX_FRAME_DATA];
	if (ipc_check_data(me, ctl, &f, data))
		return false;
	*result = hand_request(me, t, ctl, off, f.opcode, f.target, w, data, f.ndata);
	return true;
}

bool ipc_fast_call_channel(struct process *me, struct thread *t, struct ica *ctl,
                           uint32_t opcode, uint32_t target, struct process *server,
                           struct ica *data, int *result)
{
	if (!ipc_fast_enabled)
		return false;
	/* The kernel wrote and checked the call (ipc_call_channel): only checks
	 * 4 and 5 remain. */
	struct thread *w = receiver_for(server, t);
	if (!w)
		return false;
	*result = hand_request(me, t, ctl, (uint32_t)sizeof(struct myrmex_ctl_header), opcode,
	                       target, w, &data, data ? 1 : 0);
	return true;
}

/* ---- get(p) ---- */

/* Finishes the callsync of t, whose result (in t->ipc_delivered) was handed
 * to it, in its own context: what callsync does after its wait. */
static long call_restart(struct thread *t)
{
	t->ipc_resume = IPC_RESUME_NONE;
	return ipc_call_wait_end(t, t->ipc_delivered, 0);
}

bool ipc_fast_reply(struct thread *t, uptr_t addr)
{
	KASSERT(kernel_lock_held() && t == current_thread());
	if (!ipc_fast_enabled)
		return false;
	struct process *me = t->proc;
	struct ica *ctl = ica_at(addr);
	/* 1. A request this process handles, of a one-stage call (a deeper
	 *    call's result goes to a server, or to several stages at once). */
	if (!ctl || ctl->state != ICA_IN_FLIGHT || ctl->carrier || ctl->call.handler != me ||
	    ctl->call.nhops != 1)
		return false;
	/* 2. Its caller waits for it, and may run now: a thread in callsync
	 *    (restarted: its system call ends here), or a thread the kernel made
	 *    the call for (a forwarded system call, resumed where it waits). */
	struct thread *caller = ctl->call.hops[0].waiter;
	if (!caller || caller->ipc_waiting != ctl || caller->state != THREAD_BLOCKED ||
	    caller->proc->killed || !sched_can_hand_off(caller))
		return false;
	bool restart = caller->ipc_resume == IPC_RESUME_CALL;
	if (!restart && !ctl->kernel_channel)
		return false;
	/* 3. The get that follows would block: nothing queued, no interrupt to
	 *    take, nothing to deliver to this thread. */
	if (!list_empty(&me->requests) || !list_empty(&me->results) ||
	    (me->device && device_interrupts_pending(me->device)) || !may_block(t))
		return false;
	/* 4. ret's own checks of the frame and the ICAs it gives back; from here
	 *    on the result has left this process. */
	int64_t status;
	bool direct;
	int err;
	if (!ipc_return_take(t, addr, &status, &direct, &err))
		return false;   /* the slow path fails the same way */

	/* Commit: the result of the last stage, to its waiting caller. */
	struct ipc_call *c = &ctl->call;
	c->nhops = 0;
	c->opcode = c->hops[0].opcode;
	c->kind = MYRMEX_DELIVERY_RESULT;
	c->status = status;
	c->from = me->pid;
	c->frame = c->hops[0].frame;
	STAT_INC(ipc_returns);
	STAT_INC(ipc_fast_returns);
	caller->ipc_waiting = NULL;
	caller->ipc_delivered = ctl;
	sched_hand_off(&me->ipc_waiters, caller, restart ? call_restart : NULL);
	return true;
}
