/*
 * request.c - one request of the file protocol (include/myrmex/fs.h): the
 * arguments copied out of the caller's frame once, the handler looked up by
 * opcode and run, and the one place that replies.
 */
#include "fileman.h"

#include <errno.h>
#include <string.h>

static const fm_handler handlers[] = {
	[FS_OPEN] = op_open,           [FS_CLOSE] = op_close,
	[FS_READ] = op_read,           [FS_WRITE] = op_write,
	[FS_PREAD] = op_read,          [FS_PWRITE] = op_write,
	[FS_LSEEK] = op_lseek,         [FS_FSTAT] = op_fstat,
	[FS_STAT] = op_stat,           [FS_READDIR] = op_readdir,
	[FS_MKDIR] = op_mkdir,         [FS_RMDIR] = op_rmdir,
	[FS_UNLINK] = op_unlink,       [FS_RENAME] = op_rename,
	[FS_FTRUNCATE] = op_ftruncate, [FS_SYNC] = op_sync,
	[FS_STATFS] = op_statfs,       [FS_STATS] = op_stats,
	[FS_DROP_CACHE] = op_drop_cache, [FS_SHUTDOWN] = op_shutdown,
};
#define HANDLER_COUNT (sizeof(handlers) / sizeof(handlers[0]))

void request_serve(const struct myrmex_delivery *d)
{
	struct request rq;
	memset(&rq, 0, sizeof(rq));
	rq.d = *d;
	rq.ctl = (struct myrmex_ctl_header *)(uintptr_t)d->control;
	rq.frame = (struct myrmex_frame *)(uintptr_t)(d->control + d->frame);
	const volatile struct myrmex_frame *f = rq.frame;
	for (unsigned i = 0; i < 3; i++)
		rq.arg[i] = f->arg[i];
	rq.pid = d->requester;
	if (d->ndata >= 1) {
		myrmex_ica_attach(d->data[0]);   /* in case it came parked */
		rq.data = myrmex_ica_addr(d->data[0]);
		rq.data_size = (uint64_t)d->data_pages[0] * FM_BLOCK;
	}
	fm_stats.v[FS_STAT_REQUESTS]++;
	fm_handler handler = d->opcode < HANDLER_COUNT ? handlers[d->opcode] : NULL;
	int64_t status;
	if (!handler)
		status = -ENOSYS;
	else if (fm_fs_state != 0 && d->opcode != FS_STATS && d->opcode != FS_SHUTDOWN)
		status = fm_fs_state;   /* nothing mounted (corrupt, or shut down) */
	else {
		diskio_use(rq.ctl);
		status = handler(&rq);
		diskio_use(NULL);
	}
	if (status != FM_LATER)
		request_reply(&rq, status);
}

void request_reply(struct request *rq, int64_t status)
{
	if (rq->has_out)
		memcpy(rq->frame->arg, rq->out, sizeof(rq->frame->arg));
	myrmex_reply("fileman", &rq->d, status);   /* the caller's data ICAs go back */
}

int64_t request_pass_on(struct request *rq, uint32_t target, uint32_t opcode, uint64_t a0,
                        uint64_t a1)
{
	struct myrmex_ctl_header *h = rq->ctl;
	uint32_t below = h->currentp, flags = h->flags;
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, target, opcode);
	if (!f)
		return -EINVAL;
	f->arg[0] = a0;
	f->arg[1] = a1;
	/* The caller's data ICAs travel on and come back to it with the result. */
	for (unsigned i = 0; i < rq->d.ndata && i < MYRMEX_FRAME_DATA; i++)
		f->data[f->ndata++] = rq->d.data[i];
	h->flags = flags | MYRMEX_CTL_DIRECT_RETURN;
	long r = myrmex_callasync(h);
	if (r < 0) {
		h->currentp = below;   /* not sent: take our frame off again */
		h->flags = flags;
		return r;
	}
	return FM_LATER;
}

const char *request_path(struct request *rq, int *err)
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
