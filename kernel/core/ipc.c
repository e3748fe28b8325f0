/*
 * The communication mechanism (see kernel/ipc.h and docs/ipc.md).
 *
 * A call reads the caller's top frame once into kernel memory, checks it
 * completely (control ICA, frame bounds, the right to call the target,
 * quotas, data ICAs, queue room), and only then moves anything. From then on
 * the kernel follows its own record (struct ipc_call: the hops, each with
 * the opcode, routing flag and lent data ICAs read at its call), never the
 * frames, which a sync caller may still write while it maps them: at ret it
 * takes from the frame only the status and data ICAs that this stage was
 * lent (docs/ipc.md, "What the kernel reads"). Every mapping into a
 * receiver happens in the receiver's own context (its get or its wake-up in
 * callsync); a data ICA that cannot be mapped there is parked for it
 * instead. A server that dies hands back with its -EPIPE what each of its
 * requests was lent.
 *
 * Locking: the kernel lock (kernel/klock.h) guards the server table, the
 * queues and every call's state; the entry points (ipc_call_ica,
 * ipc_call_channel, ipc_return, ipc_get, ipc_claim) assert it. The [ipc]
 * tags of kernel/proc.h and kernel/ica.h say which fields move under a lock
 * of the mechanism's own when the kernel lock is split.
 */
#include <kernel/ipc.h>
#include <kernel/ipc_impl.h>
#include <kernel/device.h>
#include <kernel/errno.h>
#include <kernel/ica.h>
#include <kernel/klock.h>
#include <kernel/panic.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/stats.h>
#include <kernel/string.h>

static struct process *servers[MYRMEX_MAX_COREID + 1];

int ipc_register(struct process *p, uint64_t arg)
{
	bool more = arg & MYRMEX_REGIST_MORE;
	uint64_t coreid = arg & ~(uint64_t)MYRMEX_REGIST_MORE;
	if (!p->may_serve)
		return -EPERM;
	if (coreid > MYRMEX_MAX_COREID)
		return -EINVAL;
	if (more) {
		/* One more coreid on the same queue (a server answering two
		 * protocols, e.g. the file manager answering the time calls). */
		if (p->server_coreid < 0)
			return -EINVAL;
		if (servers[coreid])
			return servers[coreid] == p ? -EEXIST : -EBUSY;
		servers[coreid] = p;
		return 0;
	}
	if (p->server_coreid >= 0)
		return -EEXIST;
	if (servers[coreid])
		return -EBUSY;
	servers[coreid] = p;
	p->server_coreid = (int)coreid;
	return 0;
}

struct process *ipc_server(uint64_t coreid)
{
	return coreid <= MYRMEX_MAX_COREID ? servers[coreid] : NULL;
}

/* ---- Reading the control ICA ---- */

static bool frame_offset_ok(const struct ica *ctl, uint64_t off)
{
	uint64_t size = (uint64_t)ctl->npages * PAGE_SIZE;
	return off >= sizeof(struct myrmex_ctl_header) && (off & 7) == 0 &&
	       off + sizeof(struct myrmex_frame) <= size;
}

/* Copies the part of the frame at off that the kernel acts on: everything
 * but arg[], which is the servers' business. */
static void ipc_read_frame_head(const struct ica *ctl, uint32_t off, struct myrmex_frame *f)
{
	memcpy(f, ica_kernel_ptr(ctl, off), offsetof(struct myrmex_frame, arg));
}

/* Copies the top frame's head after checking the header and the frame's links. */
int ipc_read_top_frame(const struct ica *ctl, uint32_t *offset, struct myrmex_frame *f,
                          uint32_t *flags)
{
	struct myrmex_ctl_header h;
	memcpy(&h, ica_kernel_ptr(ctl, 0), sizeof(h));
	if (h.magic != MYRMEX_CTL_MAGIC || !frame_offset_ok(ctl, h.currentp))
		return -EINVAL;
	ipc_read_frame_head(ctl, h.currentp, f);
	if (f->prev != 0 && (f->prev >= h.currentp || !frame_offset_ok(ctl, f->prev)))
		return -EINVAL;
	if (f->ndata > MYRMEX_FRAME_DATA)
		return -EINVAL;
	*offset = h.currentp;
	*flags = h.flags;
	return 0;
}

/* The data ICAs a frame names must be distinct idle ICAs attached to p. */
int ipc_check_data(struct process *p, const struct ica *ctl, const struct myrmex_frame *f,
                      struct ica **data)
{
	for (uint32_t i = 0; i < f->ndata; i++) {
		struct ica *d = ica_lookup(f->data[i]);
		if (!d || d == ctl || d->state != ICA_ATTACHED || d->owner != p)
			return -EINVAL;
		if (d->kernel_channel && !ctl->kernel_channel)
			return -EINVAL;
		for (uint32_t j = 0; j < i; j++)
			if (data[j] == d)
				return -EINVAL;
		data[i] = d;
	}
	return 0;
}

/* Data ICAs, unmapped already, travel with ctl. */
static void carry_unmapped(struct ica *ctl, struct ica **data, uint32_t n)
{
	ctl->call.ncarried = n;
	for (uint32_t i = 0; i < n; i++) {
		data[i]->state = ICA_IN_FLIGHT;
		data[i]->owner = NULL;
		data[i]->carrier = ctl;
		ctl->call.carried[i] = data[i];
	}
}

/* Detaches checked data ICAs from p; they travel with ctl. */
static void ipc_carry(struct ica *ctl, struct process *p, struct ica **data, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		ica_unmap(data[i], p);
	carry_unmapped(ctl, data, n);
}

static void wake_getters(struct process *p)
{
	waitq_wake(&p->ipc_waiters, 1);
}

/* ---- Delivery ---- */

static void cancel_waiter(struct thread *w, int64_t status)
{
	w->ipc_waiting = NULL;
	w->ipc_delivered = NULL;
	w->ipc_status = status;
	thread_wake(w, 0);
}

/* Pops the returning stage (or, direct, every stage) and hands the result to
 * the caller of the last popped stage. A stage whose caller has gone fails
 * in turn: the stage below it gets -EPIPE. A result for nobody is freed with
 * what it carries. */
static void deliver_result(struct ica *ctl, int64_t status, bool direct, int from)
{
	struct ipc_call *c = &ctl->call;
	for (;;) {
		uint32_t result_frame = c->hops[c->nhops - 1].frame;
		c->opcode = c->hops[c->nhops - 1].opcode;
		struct ipc_hop dest;
		if (direct) {
			for (unsigned i = c->nhops - 1; i >= 1; i--)
				if (c->hops[i].waiter)
					cancel_waiter(c->hops[i].waiter, -ECANCELED);
			dest = c->hops[0];
			c->nhops = 0;
		} else {
			dest = c->hops[--c->nhops];
		}
		c->kind = MYRMEX_DELIVERY_RESULT;
		c->status = status;
		c->from = from;
		c->frame = result_frame;
		STAT_INC(ipc_returns);
		struct process *r = proc_find(dest.requester);
		if (r && r->state == PROC_ALIVE && !r->killed) {
			if (dest.waiter) {
				dest.waiter->ipc_waiting = NULL;
				dest.waiter->ipc_delivered = ctl;
				thread_wake(dest.waiter, 0);
			} else if (c->nhops == 0 && ctl->kernel_channel) {
				/* The kernel's own call (an orphan of an interrupted
				 * thread, or a notice): nobody takes the result. */
				ica_destroy(ctl);
			} else {
				list_push_back(&r->results, &c->link);
				wake_getters(r);
			}
			return;
		}
		if (dest.waiter)
			cancel_waiter(dest.waiter, -EINTR);
		if (c->nhops == 0) {
			ica_destroy(ctl);
			return;
		}
		status = -EPIPE;
		from = 0;
		direct = false;
	}
}

/* Takes delivery of ctl in me's own context: maps it and what it carries,
 * updates the header, and describes it in *out. 0 or -ENOMEM (nothing moved). */
int ipc_receive(struct ica *ctl, struct process *me, struct myrmex_delivery *out)
{
	struct ipc_call *c = &ctl->call;
	if (me != c->home) {
		int err = ica_map(ctl, me);
		if (err)
			return err;
	}
	struct myrmex_ctl_header *h = ica_kernel_ptr(ctl, 0);
	int requester = c->kind == MYRMEX_DELIVERY_REQUEST ? c->hops[c->nhops - 1].requester : c->from;
	if (c->kind == MYRMEX_DELIVERY_RESULT) {
		h->currentp = c->nhops ? c->hops[c->nhops - 1].frame : 0;
		h->resultp = c->frame;
		if (c->from == 0)   /* a result the kernel made (-EPIPE): say so in the frame */
			((struct myrmex_frame *)ica_kernel_ptr(ctl, c->frame))->status = c->status;
	}
	h->kind = c->kind;
	if (c->kind == MYRMEX_DELIVERY_RESULT && c->nhops == 0) {
		/* The call is over: the control ICA is idle again, and mine. */
		if (c->home && c->home != me)
			ica_unmap(ctl, c->home);
		ctl->state = ICA_ATTACHED;
		ctl->owner = me;
		c->home = NULL;
		c->handler = NULL;
	} else {
		c->handler = me;
	}
	bool request = c->kind == MYRMEX_DELIVERY_REQUEST;
	if (out)
		*out = (struct myrmex_delivery){
			.control = ica_address(ctl),
			.handle = ctl->handle,
			.kind = c->kind,
			.requester = requester,
			.frame = c->frame,
			.opcode = c->opcode,
			.status = request ? 0 : c->status,
			.ndata = c->ncarried,
			.origin = request && c->kernel_origin ? MYRMEX_ORIGIN_KERNEL : 0,
			.client = request ? c->hops[0].requester : 0,
			.coreid = request ? c->hops[c->nhops - 1].target : 0,
		};
	/* What this stage is lent: the only ICAs it may give back while the
	 * caller still maps the frame (ipc_return). */
	struct ipc_hop *top = request ? &c->hops[c->nhops - 1] : NULL;
	if (top)
		top->nlent = (uint8_t)c->ncarried;
	for (unsigned i = 0; i < c->ncarried; i++) {
		struct ica *d = c->carried[i];
		if (top)
			top->lent[i] = d->handle;
		d->carrier = NULL;
		d->owner = me;
		d->state = ica_map(d, me) == 0 ? ICA_ATTACHED : ICA_PARKED;
		if (out) {
			out->data[i] = d->handle;
			out->data_pages[i] = (uint16_t)d->npages;
			if (d->state == ICA_PARKED)
				out->parked |= 1u << i;
		}
	}
	c->ncarried = 0;
	return 0;
}

/* After callsync's wait: take the result (or the reason there is none). */
static int ipc_receive_sync(struct thread *t)
{
	struct ica *ctl = t->ipc_delivered;
	t->ipc_delivered = NULL;
	if (!ctl)
		return (int)t->ipc_status;
	int64_t status = ctl->call.status;
	bool from_kernel = ctl->call.from == 0;
	if (ipc_receive(ctl, t->proc, NULL) < 0) {
		/* A middle stage that cannot map the control ICA now: the result
		 * waits in its result queue, for a get() to take later. */
		list_push_back(&t->proc->results, &ctl->call.link);
		return -ENOMEM;
	}
	return from_kernel ? (int)status : 0;
}

/* ---- Calls ---- */

/* A request left server's queue: it no longer counts for its caller. */
static void ipc_request_taken(struct process *server, struct ica *ctl)
{
	server->request_count--;
	if (ctl->call.queued_by) {
		ctl->call.queued_by->calls_queued--;
		ctl->call.queued_by = NULL;
	}
}

int ipc_call(struct thread *t, uptr_t addr, bool sync)
{
	struct ica *ctl = ica_at(addr);
	if (!ctl || (ctl->kernel_channel && ctl->state != ICA_IN_FLIGHT))
		return -EINVAL;   /* only the kernel starts calls with a channel */
	return ipc_call_ica(t->proc, t, ctl, sync);
}

/* Records a checked call: the frame at off of ctl (idle and me's, or a
 * request me handles) goes to a server with the data ICAs data[0..ndata-1]
 * (idle and me's, unmapped from me here), a sync caller t to wait for the
 * result. It is not queued yet: call_commit queues it, the fast path
 * (ipc_fast.c) hands it straight to a waiting server thread. */
void ipc_call_record(struct process *me, struct thread *t, struct ica *ctl, bool idle,
                     uint32_t off, uint32_t opcode, uint32_t target, bool direct,
                     struct ica **data, uint32_t ndata, bool sync)
{
	struct ipc_call *c = &ctl->call;
	((struct myrmex_frame *)ica_kernel_ptr(ctl, off))->requester = me->pid;
	/* Only the first stage of a kernel channel's call is the kernel's own: a
	 * server passing it on speaks for itself. */
	c->kernel_origin = idle && ctl->kernel_channel;
	if (idle) {
		ctl->state = ICA_IN_FLIGHT;
		ctl->owner = NULL;
		c->home = sync ? me : NULL;
		c->handler = NULL;
		c->nhops = 0;
		if (!sync)
			ica_unmap(ctl, me);
	} else {
		if (me != c->home)
			ica_unmap(ctl, me);
		c->handler = NULL;
	}
	ipc_carry(ctl, me, data, ndata);
	struct ipc_hop *h = &c->hops[c->nhops++];
	h->requester = me->pid;
	h->waiter = sync ? t : NULL;
	h->frame = off;
	h->opcode = opcode;
	h->target = target;
	h->direct = direct;
	h->nlent = 0;
	if (sync)
		KASSERT(t);
	c->kind = MYRMEX_DELIVERY_REQUEST;
	c->frame = off;
	c->opcode = opcode;
	c->queued_by = NULL;
	STAT_INC(ipc_calls);
}

/* Queues a recorded call at server (counted for me when counted). */
void ipc_call_queue(struct process *me, struct ica *ctl, struct process *server, bool counted)
{
	struct ipc_call *c = &ctl->call;
	c->queued_by = counted ? me : NULL;
	me->calls_queued += counted;
	list_push_back(&server->requests, &c->link);
	server->request_count++;
	wake_getters(server);
}

int ipc_call_wait_end(struct thread *t, struct ica *ctl, int r)
{
	if (t->ipc_waiting) {
		/* Killed while waiting: the call goes on without us. */
		struct ipc_call *c = &ctl->call;
		for (unsigned i = 0; i < c->nhops; i++)
			if (c->hops[i].waiter == t)
				c->hops[i].waiter = NULL;
		t->ipc_waiting = NULL;
		return r < 0 ? r : -EINTR;
	}
	return ipc_receive_sync(t);
}

/* Moves a checked call (ipc_call_record) to server's queue, and a sync
 * caller t waits for the result. Nothing here can fail before t blocks. */
static int call_commit(struct process *me, struct thread *t, struct ica *ctl, bool idle,
                       uint32_t off, uint32_t opcode, uint32_t target, bool direct,
                       struct process *server, struct ica **data, uint32_t ndata, bool sync,
                       bool counted)
{
	ipc_call_record(me, t, ctl, idle, off, opcode, target, direct, data, ndata, sync);
	ipc_call_queue(me, ctl, server, counted);
	if (!sync)
		return 0;
	t->ipc_waiting = ctl;
	return ipc_call_wait_end(t, ctl, thread_block(NULL, 0));
}

int ipc_call_ica(struct process *me, struct thread *t, struct ica *ctl, bool sync)
{
	KASSERT(kernel_lock_held());
	bool idle = ctl->state == ICA_ATTACHED && ctl->owner == me;
	bool forwarding = ctl->state == ICA_IN_FLIGHT && !ctl->carrier && ctl->call.handler == me;
	if (!idle && !forwarding)
		return -EINVAL;
	struct ipc_call *c = &ctl->call;
	if (forwarding && c->nhops >= MYRMEX_MAX_STAGES)
		return -EINVAL;
	uint32_t off, flags;
	struct myrmex_frame f;
	int err = ipc_read_top_frame(ctl, &off, &f, &flags);
	if (err)
		return err;
	/* A forwarded call must push a new frame on top of the one it serves. */
	if (forwarding && f.prev != c->hops[c->nhops - 1].frame)
		return -EINVAL;
	if (idle && f.prev != 0)
		return -EINVAL;
	if (f.target > MYRMEX_MAX_COREID)
		return -ESRCH;
	/* The right to call the target (include/myrmex/rights.h): one bit. */
	if (!me->may_call[f.target]) {
		STAT_INC(ipc_refused);
		return -EPERM;
	}
	struct process *server = servers[f.target];
	if (!server)
		return -ESRCH;
	/* The caller's own first stages count against its quota (kernel/ipc.h);
	 * a channel's control ICA is never idle here (ipc_call). */
	if (idle && me->calls_queued >= IPC_QUEUE_PER_CALLER) {
		STAT_INC(ipc_quota_refused);
		return -EAGAIN;
	}
	if (server->request_count >= IPC_QUEUE_MAX)
		return -EAGAIN;
	/* Direct return skips intermediate stages, which must not wait for it. */
	if (sync && forwarding && (flags & MYRMEX_CTL_DIRECT_RETURN))
		return -EINVAL;
	struct ica *data[MYRMEX_FRAME_DATA];
	err = ipc_check_data(me, ctl, &f, data);
	if (err)
		return err;
	return call_commit(me, t, ctl, idle, off, f.opcode, f.target,
	                   flags & MYRMEX_CTL_DIRECT_RETURN, server, data, f.ndata, sync, idle);
}

int ipc_call_channel(struct process *me, struct thread *t, struct ica *ctl, uint32_t target,
                     struct ica *data, bool sync)
{
	/* The kernel wrote the only frame itself into a channel ICA that no
	 * process maps while it is idle: only what may have changed since is
	 * checked, the server and its queue. */
	KASSERT(kernel_lock_held() && (!sync || t == current_thread()));
	KASSERT(ctl->kernel_channel && ctl->state == ICA_ATTACHED && ctl->owner == me);
	KASSERT(!data || (data->kernel_channel && data->state == ICA_ATTACHED && data->owner == me));
	struct process *server = ipc_server(target);
	if (!server)
		return -ESRCH;
	if (server->request_count >= IPC_QUEUE_MAX)
		return -EAGAIN;
	uint32_t off = (uint32_t)sizeof(struct myrmex_ctl_header);
	uint32_t opcode = ((struct myrmex_frame *)ica_kernel_ptr(ctl, off))->opcode;
	int r;
	if (sync && ipc_fast_call_channel(me, t, ctl, opcode, target, server, data, &r))
		return r;
	return call_commit(me, t, ctl, true, off, opcode, target, false, server, &data,
	                   data ? 1 : 0, sync, false);
}

int ipc_claim(struct thread *t, uptr_t addr)
{
	KASSERT(kernel_lock_held() && t == current_thread());
	struct process *me = t->proc;
	struct ica *ctl = ica_at(addr);
	if (!ctl || ctl->state != ICA_IN_FLIGHT || ctl->carrier || ctl->call.handler != me)
		return -EINVAL;
	/* Without a home the call is like an asynchronous one: the result is
	 * mapped into whoever receives it, the waiting caller included. */
	struct ipc_call *c = &ctl->call;
	if (c->home && c->home != me) {
		ica_unmap(ctl, c->home);
		c->home = NULL;
	}
	return 0;
}

static bool ipc_hop_lent(const struct ipc_hop *hop, uint32_t handle)
{
	for (unsigned i = 0; i < hop->nlent; i++)
		if (hop->lent[i] == handle)
			return true;
	return false;
}

struct ica *ipc_return_take(struct thread *t, uptr_t addr, int64_t *status, bool *direct,
                            int *err)
{
	KASSERT(kernel_lock_held() && t == current_thread());
	struct process *me = t->proc;
	struct ica *ctl = ica_at(addr);
	*err = -EINVAL;
	if (!ctl || ctl->state != ICA_IN_FLIGHT || ctl->carrier || ctl->call.handler != me)
		return NULL;
	struct ipc_call *c = &ctl->call;
	const struct ipc_hop *top = &c->hops[c->nhops - 1];
	struct myrmex_frame f;
	ipc_read_frame_head(ctl, top->frame, &f);
	if (f.ndata > MYRMEX_FRAME_DATA)
		return NULL;
	struct ica *data[MYRMEX_FRAME_DATA];
	*err = ipc_check_data(me, ctl, &f, data);
	if (*err)
		return NULL;
	/* A sync caller that still maps the frame may have rewritten it since
	 * the handler filled it: then the routing flag is the one recorded at
	 * the call, and only ICAs lent to this stage go back (a handler that
	 * returns ICAs of its own, or sets the flag, claims first). */
	bool shared = c->home && c->home != me && !ctl->kernel_channel;
	*direct = top->direct;
	if (shared) {
		*err = -EINVAL;
		for (uint32_t i = 0; i < f.ndata; i++)
			if (!ipc_hop_lent(top, f.data[i]))
				return NULL;
	} else {
		*direct = ((struct myrmex_ctl_header *)ica_kernel_ptr(ctl, 0))->flags &
		          MYRMEX_CTL_DIRECT_RETURN;
	}
	if (me != c->home)
		ica_unmap(ctl, me);
	c->handler = NULL;
	ipc_carry(ctl, me, data, f.ndata);
	*status = f.status;
	*err = 0;
	return ctl;
}

int ipc_return(struct thread *t, uptr_t addr)
{
	int64_t status;
	bool direct;
	int err;
	struct ica *ctl = ipc_return_take(t, addr, &status, &direct, &err);
	if (!ctl)
		return err;
	deliver_result(ctl, status, direct, t->proc->pid);
	return 0;
}

long ipc_get(struct thread *t, struct myrmex_delivery *out)
{
	KASSERT(kernel_lock_held() && t == current_thread());
	struct process *me = t->proc;
	for (;;) {
		unsigned interrupts = device_take_interrupts(me);
		if (interrupts) {
			memset(out, 0, sizeof(*out));
			out->kind = MYRMEX_DELIVERY_INTERRUPT;
			out->opcode = interrupts;
			return 0;
		}
		struct list_node *queue = !list_empty(&me->requests) ? &me->requests
		                        : !list_empty(&me->results) ? &me->results : NULL;
		if (queue) {
			struct ica *ctl = container_of(queue->next, struct ica, call.link);
			list_remove(&ctl->call.link);
			int err = ipc_receive(ctl, me, out);
			if (err) {
				list_push_front(queue, &ctl->call.link);
				return err;
			}
			if (queue == &me->requests)
				ipc_request_taken(me, ctl);
			return (long)ica_address(ctl);
		}
		int r = thread_block(&me->ipc_waiters, 0);
		if (r < 0)
			return r;
	}
}

/* ---- A process ends ---- */

/* A request p was working on fails with -EPIPE, and the data ICAs it was
 * lent that p still holds go back with it: a file manager's cache chunk
 * survives the disk driver's death (its device was quiesced first, in
 * process_end), and a client gets its buffer back. */
static void exit_fail_handled(struct ica *ica, void *arg)
{
	struct process *p = arg;
	struct ipc_call *c = &ica->call;
	if (ica->state != ICA_IN_FLIGHT || ica->carrier || c->handler != p)
		return;
	const struct ipc_hop *top = &c->hops[c->nhops - 1];
	struct ica *back[MYRMEX_FRAME_DATA];
	uint32_t n = 0;
	for (unsigned i = 0; i < top->nlent; i++) {
		struct ica *d = ica_lookup(top->lent[i]);
		if (d && d->owner == p && d->state != ICA_IN_FLIGHT) {
			if (d->state == ICA_ATTACHED)
				ica_unmap(d, p);
			back[n++] = d;
		}
	}
	if (c->home != p)
		ica_unmap(ica, p);
	c->handler = NULL;
	carry_unmapped(ica, back, n);
	deliver_result(ica, -EPIPE, false, 0);
}

/* An ICA p held goes; a sync call p made goes on without its home mapping;
 * a queued call p made no longer counts for p. */
static void exit_cleanup(struct ica *ica, void *arg)
{
	struct process *p = arg;
	if (ica->state != ICA_IN_FLIGHT) {
		if (ica->owner == p)
			ica_destroy(ica);
		return;
	}
	if (ica->carrier)
		return;
	struct ipc_call *c = &ica->call;
	if (c->queued_by == p)
		c->queued_by = NULL;
	if (c->home == p) {
		ica_unmap(ica, p);
		c->home = NULL;
	}
}

static void uncharge(struct ica *ica, void *arg)
{
	if (ica->charged == arg)
		ica->charged = NULL;
}

void ipc_process_exit(struct process *p)
{
	KASSERT(p->killed);   /* so that no result is delivered to p any more */
	if (p->server_coreid >= 0) {
		for (unsigned i = 0; i <= MYRMEX_MAX_COREID; i++)
			if (servers[i] == p)   /* its first coreid and any MORE */
				servers[i] = NULL;
		p->server_coreid = -1;
	}
	/* Requests queued for p, and results p would have passed on, fail. */
	struct list_node *n;
	while ((n = list_pop_front(&p->requests))) {
		struct ica *ctl = container_of(n, struct ica, call.link);
		ipc_request_taken(p, ctl);
		deliver_result(ctl, -EPIPE, false, 0);
	}
	while ((n = list_pop_front(&p->results))) {
		struct ica *ctl = container_of(n, struct ica, call.link);
		if (ctl->call.nhops > 0)
			deliver_result(ctl, -EPIPE, false, 0);
		else
			ica_destroy(ctl);
	}
	ica_for_each(exit_fail_handled, p);
	ica_for_each(exit_cleanup, p);
	ica_for_each(uncharge, p);
}
