/*
 * request.c - what the file manager's handlers ask of a request (the
 * server library's, lib/libmyrmex/server.h): its path, the directory a
 * relative path starts from, whether the process manager sent it, passing
 * it on to another server; and the library's callbacks around each
 * handler (table.c): the check before, the work after, and the results
 * that reach get().
 */
#include "fileman.h"
#include "lock.h"

#include <errno.h>
#include <string.h>
#include <myrmex/proc.h>

struct ext2_fs *fm_fs_for(struct server_request *rq)
{
	fm_fs.dev.ctx = rq;
	return &fm_fs;
}

int64_t request_check(struct server_request *rq, const struct server_op *op)
{
	fm_request_begin(rq, op->flags);   /* the lock, until request_handled (lock.h) */
	if (fm_fs_state != 0 && !(op->flags & FM_NO_DISK))
		return fm_fs_state;   /* nothing mounted (corrupt, or shut down) */
	/* The data ICA is used by almost every call that carries one: its
	 * address and size set up now (mapped first if it came parked). */
	if (rq->d.ndata >= 1)
		server_data(rq, 0, NULL);
	return 0;
}

void request_inline_data(struct server_request *rq, bool write)
{
	if (write) {
		rq->data = (uint8_t *)SERVER_IN(rq, struct fs_io_args)->bytes;
	} else {
		for (unsigned i = 0; i < FS_INLINE_BYTES / 8; i++)
			rq->out[i] = 0;
		rq->out_mask |= (1u << (FS_INLINE_BYTES / 8)) - 1;
		rq->data = (uint8_t *)rq->out;
	}
	rq->data_size = FS_INLINE_BYTES;
}

void request_rebase(struct server_request *copy, const struct server_request *rq)
{
	if (rq->data == (const uint8_t *)rq->out)
		copy->data = (uint8_t *)copy->out;
	else if (rq->data == (const uint8_t *)SERVER_IN(rq, struct fs_io_args)->bytes)
		copy->data = (uint8_t *)SERVER_IN(copy, struct fs_io_args)->bytes;
}

void request_handled(struct server_request *rq, int64_t status)
{
	(void)status;
	if (!fm_lock_held_by(rq))
		fm_request_begin(rq, 0);   /* refused before request_check ran */
	fm_stats.v[FS_STAT_REQUESTS]++;
	fm_fs.dev.ctx = NULL;   /* the request is over: no disk call rides on it any more */
	fmap_after_request();
	orphans_reap(false);   /* files unlinked while open whose last close this was */
	fm_request_end(rq);
}

/* Our calls to the driver are callsync and those passed on with direct
 * return skip us, so a result reaches get() only when the kernel made it:
 * the console server died holding a call (-EPIPE). It goes back to the
 * caller as our result. */
void request_result(const struct myrmex_delivery *d)
{
	if (socket_result(d))
		return;   /* a packet socket's own receive (socket.c) */
	struct myrmex_ctl_header *h = (struct myrmex_ctl_header *)(uintptr_t)d->control;
	struct myrmex_frame *mine = myrmex_ctl_top(h);
	if (!mine)
		return;
	/* The next server died with the call (the kernel's -EPIPE, from pid 0):
	 * the console is restarted by the service manager, so the reader is
	 * told EINTR and reads again. */
	mine->status = d->status == -EPIPE && d->requester == 0 ? -EINTR : d->status;
	mine->ndata = 0;
	for (unsigned i = 0; i < d->ndata && i < MYRMEX_FRAME_DATA; i++)
		mine->data[mine->ndata++] = d->data[i];
	myrmex_ret(h);
}

int64_t request_pass_on(struct server_request *rq, uint32_t target, uint32_t opcode, uint64_t a0,
                        uint64_t a1, uint64_t a2)
{
	const uint64_t a[4] = { a0, a1, a2, 0 };
	return request_pass_on_args(rq, target, opcode, a);
}

int64_t request_pass_on_args(struct server_request *rq, uint32_t target, uint32_t opcode,
                             const uint64_t a[4])
{
	return request_pass_on_n(rq, target, opcode, a, 4);
}

int64_t request_pass_on_n(struct server_request *rq, uint32_t target, uint32_t opcode,
                          const uint64_t *a, unsigned n)
{
	struct myrmex_ctl_header *h = request_ctl(rq);
	long r = server_claim(rq);
	if (r < 0)
		return r;
	uint32_t below = h->currentp, flags = h->flags;
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, target, opcode);
	if (!f)
		return -EINVAL;
	for (unsigned i = 0; i < n && i < FS_RESULT_KIND; i++)
		f->arg[i] = a[i];
	/* The result the caller sees is this frame (resultp) with direct
	 * return; our own frame below gets the same arg[7]. */
	if (rq->out_mask & (1u << FS_RESULT_KIND)) {
		f->arg[FS_RESULT_KIND] = rq->out[FS_RESULT_KIND];
		rq->frame->arg[FS_RESULT_KIND] = rq->out[FS_RESULT_KIND];
	}
	/* The caller's data ICAs travel on and come back to it with the result. */
	for (unsigned i = 0; i < rq->d.ndata && i < MYRMEX_FRAME_DATA; i++)
		f->data[f->ndata++] = rq->d.data[i];
	h->flags = flags | MYRMEX_CTL_DIRECT_RETURN;
	r = myrmex_callasync(h);
	if (r < 0) {
		h->currentp = below;   /* not sent: take our frame off again */
		h->flags = flags;
		return r;
	}
	return SERVER_LATER;
}

const char *request_path(struct server_request *rq, int *err)
{
	if (!rq->data) {
		*err = -EINVAL;
		return NULL;
	}
	uint64_t limit = rq->data_size < FS_PATH_MAX ? rq->data_size : FS_PATH_MAX;
	const char *path = (const char *)rq->data;
	if (!memchr(path, '\0', limit)) {
		*err = rq->data_size < FS_PATH_MAX ? -EINVAL : -ENAMETOOLONG;
		return NULL;
	}
	if (path[0] == '\0') {
		*err = -ENOENT;
		return NULL;
	}
	return path;
}

bool request_at_fdcwd(uint64_t v)
{
	uint32_t high = (uint32_t)(v >> 32);
	return (int32_t)(uint32_t)v == -100 && (high == 0 || high == 0xffffffffu);
}

const char *request_path_at(struct server_request *rq, uint32_t *dir, const char **cwd, int *err)
{
	const char *path = request_path(rq, err);
	if (path)
		*err = request_base(rq, path, dir, cwd);
	return path && *err == 0 ? path : NULL;
}

int request_base(struct server_request *rq, const char *path, uint32_t *dir, const char **cwd)
{
	const struct fs_path_args *a = SERVER_IN(rq, struct fs_path_args);
	*cwd = NULL;
	if (a->at_flags & ~(uint64_t)(FS_AT_DIRFD | FS_AT_NOFOLLOW | FS_AT_EMPTY_PATH))
		return -EINVAL;
	if ((a->at_flags & FS_AT_DIRFD) && path[0] != '/' && !request_at_fdcwd(a->dirfd)) {
		struct open_file *f = files_get(rq->d.requester, a->dirfd);
		if (!f)
			return -EBADF;
		if (f->kind != FM_DIR)
			return -ENOTDIR;
		*dir = f->ino;   /* 0 once removed: relative lookups give -ENOENT */
		return 0;
	}
	*dir = files_cwd(rq->d.requester, cwd);
	return 0;
}

bool request_from_pm(const struct server_request *rq)
{
	long pm = myrmex_server_pid(MYRMEX_COREID_PM);
	return pm > 0 && pm == rq->d.requester;
}
