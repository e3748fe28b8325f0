/*
 * Forwarding Linux system calls to servers through the thread's kernel
 * channel (see posix/forward.h and docs/posix.md).
 *
 * The channel's ICAs live in the process's ICA window like any other, so
 * the process (or a server it called) can scribble on them; nothing here
 * believes their contents: the frame is rewritten for every call, and the
 * result's status and arguments are only numbers that each system call
 * checks against what it asked for.
 */
#include <posix/posix.h>
#include <posix/forward.h>
#include <kernel/errno.h>
#include <kernel/ica.h>
#include <kernel/ipc.h>
#include <kernel/kmem.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <posix/signal.h>
#include <kernel/string.h>
#include <myrmex/fs.h>
#include <myrmex/fslock.h>

static struct kmem_cache channel_cache =
	KMEM_CACHE_INIT(channel_cache, "channel", struct forward_channel);

#define FRAME_OFFSET ((uint32_t)sizeof(struct myrmex_ctl_header))

/* The channel ICA a handle names if it is still p's and idle, else NULL. */
static struct ica *own(struct process *p, uint32_t handle)
{
	struct ica *ica = handle ? ica_lookup(handle) : NULL;
	return ica && ica->kernel_channel && ica->state == ICA_ATTACHED && ica->owner == p ? ica : NULL;
}

/* Makes sure *handle names an idle channel ICA of p with npages pages;
 * returns it, or NULL with *err. */
static struct ica *ensure(struct process *p, uint32_t *handle, uint32_t npages, int *err)
{
	struct ica *ica = own(p, *handle);
	if (ica)
		return ica;
	*err = ica_alloc(p, npages, &ica);
	if (*err) {
		*handle = 0;
		return NULL;
	}
	ica_make_channel(ica);
	*handle = ica->handle;
	return ica;
}

/* The thread's channel, made at its first use (NULL: no memory). */
static struct forward_channel *channel_of(struct thread *t)
{
	if (!t->px->channel)
		t->px->channel = kmem_alloc(&channel_cache);   /* zeroed: no ICAs yet */
	return t->px->channel;
}

/*
 * Whether a call may wait in the server for something else to happen (a
 * pipe's writer, a packet, a timer, a key, readiness): a signal interrupts
 * those. Every other call is answered at once, and a signal must not cut
 * it short: the server carries it out anyway, and the caller would lose
 * its result (an open's descriptor left in its table, a rename done but
 * reported EINTR). They wait as Linux's do, for the thread's death only;
 * so do reads and writes on a descriptor known to name a regular file
 * (sys_file.c sets fwd.uninterruptible for them).
 */
#define WAITS(op) (1ull << ((op) - 1))
static const uint64_t files_waiting_calls =      /* the file protocol's, opcode - 1 */
	WAITS(FS_READ) | WAITS(FS_WRITE) | WAITS(FS_PREAD) | WAITS(FS_PWRITE) |
	WAITS(FS_POLL) | WAITS(FS_IOCTL) |           /* the console's, e.g. TCSETSW */
	WAITS(FS_SENDTO) | WAITS(FS_RECVFROM) |
	WAITS(FS_INET) |                             /* connect, accept, recv, send */
	WAITS(FS_BATCH);                             /* any of the above */
_Static_assert(FS_BATCH <= 64 && FS_INET <= 64, "the mask holds the opcodes");

static inline bool call_may_wait(enum posix_service service, uint32_t opcode)
{
	if (service != SERVICE_FILES)
		return true;
	if (opcode - 1 < 64)
		return files_waiting_calls >> (opcode - 1) & 1;
	return opcode == FS_LOCK || opcode == FS_FLOCK;   /* F_SETLKW, flock */
}

int forward_begin(struct fwd *f, enum posix_service service, uint32_t opcode,
                  uint32_t data_bytes)
{
	struct thread *t = current_thread();
	struct process *p = t->proc;
	if (data_bytes > FORWARD_LARGE_BYTES)
		return -E2BIG;
	struct forward_channel *ch = channel_of(t);
	if (!ch)
		return -ENOMEM;
	int err = 0;
	struct ica *ctl = ensure(p, &ch->ctl, 1, &err);
	if (!ctl)
		return err;
	/* Field by field (this is on every forwarded call): a call without
	 * data leaves data NULL, and res[] reads 0 when no result came. */
	f->t = t;
	f->ctl = ctl;
	f->service = service;
	f->target = posix_route(service)->coreid;
	f->opcode = opcode;
	for (unsigned i = 0; i < 8; i++)
		f->arg[i] = f->res[i] = 0;
	f->data = NULL;
	f->data_size = 0;
	f->real_ids = false;
	f->uninterruptible = !call_may_wait(service, opcode);
	if (data_bytes == 0)
		return 0;
	bool small = data_bytes <= FORWARD_SMALL_BYTES;
	uint32_t *slot = small ? &ch->small : &ch->large;
	f->data = ensure(p, slot, small ? 1 : FORWARD_LARGE_PAGES, &err);
	if (!f->data)
		return err;
	f->data_size = f->data->npages * PAGE_SIZE;
	return 0;
}

void *forward_data(struct fwd *f)
{
	return ica_kernel_ptr(f->data, 0);
}

/* Writes the request into the control ICA: a header and one frame. Every
 * field is stored (anyone the ICA visited may have scribbled on it), one
 * by one rather than cleared first: this is on every forwarded call. */
static void write_request(struct ica *ctl, const struct fwd *f)
{
	struct myrmex_ctl_header *h = ica_kernel_ptr(ctl, 0);
	h->magic = MYRMEX_CTL_MAGIC;
	h->currentp = FRAME_OFFSET;
	h->flags = 0;
	h->resultp = 0;
	h->kind = 0;
	struct myrmex_frame *fr = ica_kernel_ptr(ctl, FRAME_OFFSET);
	/* The caller's identity, for the file manager's permission checks
	 * (include/myrmex/fs.h, FS_CRED_*): the user cannot touch this ICA.
	 * Notices without a calling thread (a process's end) go as root. */
	const struct posix_cred *cred = f->t && f->t->proc->px ? &f->t->proc->px->cred : NULL;
	h->reserved[FS_CRED_UID] = !cred ? 0 : f->real_ids ? cred->ruid : cred->fsuid;
	h->reserved[FS_CRED_GID] = !cred ? 0 : f->real_ids ? cred->rgid : cred->fsgid;
	fr->prev = 0;
	fr->requester = 0;
	fr->target = f->target;
	fr->opcode = f->opcode;
	fr->status = 0;
	fr->ndata = f->data ? 1 : 0;
	fr->data[0] = f->data ? f->data->handle : 0;
	for (unsigned i = 1; i < MYRMEX_FRAME_DATA; i++)
		fr->data[i] = 0;
	for (unsigned i = 0; i < 8; i++)
		fr->arg[i] = f->arg[i];
}

static void cancel_orphan(struct process *p, enum posix_service service, uint32_t ctl_handle);

/* Reads the result out of control ICA ctl after a call: the server's
 * status, with the result frame's arguments in res. */
static long read_result(struct ica *ctl, uint64_t res[8])
{
	/* The result is in the frame the header names: ours, or with direct
	 * return the last stage's (a second server answered for the first). */
	uint32_t at = ((const struct myrmex_ctl_header *)ica_kernel_ptr(ctl, 0))->resultp;
	if (at < FRAME_OFFSET || (at & 7) || at + sizeof(struct myrmex_frame) > PAGE_SIZE)
		return -EIO;
	const struct myrmex_frame *fr = ica_kernel_ptr(ctl, at);
	memcpy(res, fr->arg, sizeof(fr->arg));
	int64_t status = fr->status;
	if (status < -4095)
		status = -EIO;   /* not an errno: a confused server */
	return (long)status;
}

long forward_call(struct fwd *f)
{
	struct thread *t = f->t;
	struct process *p = t->proc;
	struct forward_channel *ch = t->px->channel;
	struct ica *ctl = f->ctl;
	uint32_t ctl_handle = ctl->handle, data_handle = f->data ? f->data->handle : 0;
	write_request(ctl, f);
	bool was = t->only_death_wakes;
	t->only_death_wakes = was | f->uninterruptible;
	long r = ipc_call_channel(p, t, ctl, f->target, f->data, true);
	t->only_death_wakes = was;

	/* Whatever happened, believe only handles looked up afresh. */
	ctl = own(p, ctl_handle);
	if (!ctl)
		ch->ctl = 0;
	f->data = data_handle ? own(p, data_handle) : NULL;
	if (data_handle && !f->data) {
		if (ch->small == data_handle)
			ch->small = 0;
		if (ch->large == data_handle)
			ch->large = 0;
	}
	if (r == -EINTR && !ctl && posix_route(f->service)->cancel_at) {
		cancel_orphan(p, f->service, ctl_handle);
		return signal_eintr(SIG_RESTART_SA);   /* SA_RESTART: the call runs again */
	}
	if (r == -EPIPE)
		return posix_route(f->service)->died_errno;   /* the server died with the call */
	if (r < 0)
		return r;
	if (!ctl)
		return -EIO;
	long status = read_result(ctl, f->res);
	/* A server's -EINTR for a process stopped meanwhile (the console
	 * answers its reads so after Ctrl-Z): the call runs again once the
	 * process continues, as Linux restarts it (-ERESTARTSYS). */
	if (status == -EINTR && p->px->sig.stopped)
		return signal_eintr(SIG_RESTART_SA);
	return status;
}

long forward_pager_call(uint32_t opcode, const uint64_t arg[8], uint64_t res[8], void **data)
{
	struct thread *t = current_thread();
	struct process *p = t->proc;
	struct forward_channel *ch = channel_of(t);
	if (!ch)
		return -ENOMEM;
	int err = 0;
	if (!ensure(p, &ch->pager, 1, &err) || (data && !ensure(p, &ch->pager_data, 1, &err)))
		return err;
	struct ica *ctl = own(p, ch->pager);
	uint32_t handle = ctl->handle, data_handle = data ? ch->pager_data : 0;
	struct fwd f = { .t = t, .service = SERVICE_FILES,
	                 .target = posix_route(SERVICE_FILES)->coreid, .opcode = opcode };
	f.data = data ? own(p, data_handle) : NULL;
	memcpy(f.arg, arg, sizeof(f.arg));
	write_request(ctl, &f);
	/* A fault is not a system call: a signal cannot interrupt it (the
	 * access would only fault again), only the thread's death. */
	bool was = t->only_death_wakes;
	t->only_death_wakes = true;
	long r = ipc_call_channel(p, t, ctl, f.target, f.data, true);
	t->only_death_wakes = was;
	ctl = own(p, handle);
	if (!ctl)
		ch->pager = 0;
	if (data) {
		struct ica *d = own(p, data_handle);
		if (!d)
			ch->pager_data = 0;
		*data = d ? ica_kernel_ptr(d, 0) : NULL;
	}
	if (r < 0)
		return r;
	return ctl ? read_result(ctl, res) : -EIO;
}

void forward_thread_exit(struct thread *t)
{
	struct forward_channel *ch = t->px->channel;
	if (!ch)
		return;
	uint32_t handles[5] = { ch->ctl, ch->small, ch->large, ch->pager, ch->pager_data };
	for (int i = 0; i < 5; i++) {
		struct ica *ica = own(t->proc, handles[i]);
		if (ica)
			ica_destroy(ica);
	}
	kmem_free(&channel_cache, ch);
	t->px->channel = NULL;
}

int forward_notify(struct process *p, enum posix_service service, uint32_t opcode, uint64_t arg0)
{
	uint32_t target = posix_route(service)->coreid;
	struct process *server = ipc_server(target);
	if (!server)
		return -ESRCH;
	/* Never a notice from the server to itself: the channel ICA made for
	 * it is hidden from the process it is charged to, so the server could
	 * not map the request it would get (fmap_flush in the file manager's
	 * own munmap, carrying another process's FS_UNMAP: the file manager
	 * read the frame and was killed for the fault). The notice waits for
	 * the next flush by another process. */
	if (server == p)
		return -EAGAIN;
	struct ica *ctl;
	int err = ica_alloc(p, 1, &ctl);
	if (err)
		return err;
	ica_make_channel(ctl);
	struct fwd f = { .service = service, .target = target, .opcode = opcode };
	f.arg[0] = arg0;
	write_request(ctl, &f);
	err = ipc_call_channel(p, NULL, ctl, target, NULL, false);
	if (err)
		ica_destroy(ctl);
	return err;
}

void forward_process_exit(struct process *p)
{
	if (!p->posix)
		return;
	for (int s = 0; s < SERVICE_COUNT; s++) {
		const struct posix_route *r = posix_route((enum posix_service)s);
		if (r->exit_op && ipc_server(r->coreid) &&
		    forward_notify(p, (enum posix_service)s, r->exit_op, (uint64_t)p->pid) < 0)
			printk("myrmex: pid %d ended without telling the server of coreid %u\n",
			       p->pid, r->coreid);
	}
}

/* A signal took the thread out of a file call that goes on without it: a
 * pipe read or write parked at the file manager, or a console read passed
 * on to the console server, is cancelled there, so that the data it would
 * take goes to the next call instead of to nobody. */
static void cancel_orphan(struct process *p, enum posix_service service, uint32_t ctl_handle)
{
	uint32_t at = posix_route(service)->cancel_at;
	for (int s = 0; s < SERVICE_COUNT; s++) {
		const struct posix_route *r = posix_route((enum posix_service)s);
		if ((at & (1u << s)) && r->cancel_op)
			forward_notify(p, (enum posix_service)s, r->cancel_op, ctl_handle);
	}
}
