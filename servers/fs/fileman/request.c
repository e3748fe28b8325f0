/*
 * request.c - one request of the file protocol (include/myrmex/fs.h): the
 * arguments copied out of the caller's frame once, the handler looked up by
 * opcode and run, and the one place that replies. Also what several
 * handlers ask of a request: its path, the directory a relative path starts
 * from, whether the process manager sent it, and passing it on.
 */
#include "fileman.h"

#include <errno.h>
#include <string.h>
#include <myrmex/proc.h>

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
	[FS_DUP] = op_dup,             [FS_DUP2] = op_dup2,
	[FS_FCNTL] = op_fcntl,         [FS_PIPE] = op_pipe,
	[FS_FORK] = op_fork,           [FS_EXEC] = op_exec,
	[FS_EXIT] = op_exit,           [FS_CHDIR] = op_chdir,
	[FS_GETCWD] = op_getcwd,       [FS_IOCTL] = op_ioctl,
	[FS_POLL] = op_poll,           [FS_ACCESS] = op_access,
	[FS_READLINK] = op_readlink,   [FS_OPEN_AS] = op_open_as,
	[FS_CANCEL] = op_cancel,
	[FS_MAP] = op_map,             [FS_PAGEIN] = op_pagein,
	[FS_UNMAP] = op_unmap,         [FS_SYNCMAP] = op_syncmap,
};
#define HANDLER_COUNT (sizeof(handlers) / sizeof(handlers[0]))

/* Calls served even when no file system is mounted: the counters, the
 * shutdown, and the bookkeeping of processes and maps, which touches no
 * disk (an unmap frees blocks past the end only while mounted). */
static bool needs_no_disk(uint32_t opcode)
{
	return opcode == FS_STATS || opcode == FS_SHUTDOWN || opcode == FS_FORK ||
	       opcode == FS_EXEC || opcode == FS_EXIT || opcode == FS_CANCEL ||
	       opcode == FS_UNMAP;
}

void request_serve(const struct myrmex_delivery *d)
{
	struct request rq;
	memset(&rq, 0, sizeof(rq));
	rq.d = *d;
	rq.ctl = (struct myrmex_ctl_header *)(uintptr_t)d->control;
	rq.frame = (struct myrmex_frame *)(uintptr_t)(d->control + d->frame);
	const volatile struct myrmex_frame *f = rq.frame;
	for (unsigned i = 0; i < 8; i++)
		rq.arg[i] = f->arg[i];
	rq.origin = d->origin;   /* the kernel's word, not the frame's */
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
	else if (fm_fs_state != 0 && !needs_no_disk(d->opcode))
		status = fm_fs_state;   /* nothing mounted (corrupt, or shut down) */
	else {
		diskio_use(rq.ctl);
		status = handler(&rq);
		diskio_use(NULL);
		fmap_after_request();
	}
	if (status != FM_LATER)
		request_reply(&rq, status);
}

void request_out(struct request *rq, unsigned i, uint64_t v)
{
	rq->out[i] = v;
	rq->out_mask |= (uint8_t)(1u << i);
}

void request_reply(struct request *rq, int64_t status)
{
	for (unsigned i = 0; i < 8; i++)
		if (rq->out_mask & (1u << i))
			rq->frame->arg[i] = rq->out[i];
	myrmex_reply("fileman", &rq->d, status);   /* the caller's data ICAs go back */
}

int64_t request_pass_on(struct request *rq, uint32_t target, uint32_t opcode, uint64_t a0,
                        uint64_t a1, uint64_t a2)
{
	struct myrmex_ctl_header *h = rq->ctl;
	long r = myrmex_claim(h);
	if (r < 0)
		return r;
	uint32_t below = h->currentp, flags = h->flags;
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, target, opcode);
	if (!f)
		return -EINVAL;
	f->arg[0] = a0;
	f->arg[1] = a1;
	f->arg[2] = a2;
	/* The result the caller sees is this frame (resultp) with direct
	 * return; our own frame below gets the same arg[7]. */
	if (rq->out_mask & 0x80u) {
		f->arg[7] = rq->out[7];
		rq->frame->arg[7] = rq->out[7];
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

bool request_at_fdcwd(uint64_t v)
{
	uint32_t high = (uint32_t)(v >> 32);
	return (int32_t)(uint32_t)v == -100 && (high == 0 || high == 0xffffffffu);
}

const char *request_path_at(struct request *rq, uint32_t *dir, const char **cwd, int *err)
{
	const char *path = request_path(rq, err);
	if (path)
		*err = request_base(rq, path, dir, cwd);
	return path && *err == 0 ? path : NULL;
}

int request_base(struct request *rq, const char *path, uint32_t *dir, const char **cwd)
{
	*cwd = NULL;
	if (rq->arg[4] & ~(uint64_t)(FS_AT_DIRFD | FS_AT_NOFOLLOW | FS_AT_EMPTY_PATH))
		return -EINVAL;
	if ((rq->arg[4] & FS_AT_DIRFD) && path[0] != '/' && !request_at_fdcwd(rq->arg[3])) {
		struct open_file *f = files_get(rq->pid, rq->arg[3]);
		if (!f)
			return -EBADF;
		if (f->kind != FM_DIR)
			return -ENOTDIR;
		*dir = f->ino;   /* 0 once removed: relative lookups give -ENOENT */
		return 0;
	}
	*dir = files_cwd(rq->pid, cwd);
	return 0;
}

bool request_from_kernel(const struct request *rq)
{
	return rq->origin == MYRMEX_ORIGIN_KERNEL;
}

bool request_from_pm(const struct request *rq)
{
	long pm = myrmex_server_pid(MYRMEX_COREID_PM);
	return pm > 0 && pm == rq->pid;
}
