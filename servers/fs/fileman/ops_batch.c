/*
 * ops_batch.c - FS_BATCH (include/myrmex/fs.h; issue 18): the forwarded
 * calls of one wrapped-call batch that the kernel sends in one request.
 * Each record runs in order as the request of its own opcode would: the
 * batch request (one copy of it for the whole batch) with that opcode,
 * those argument words and the record's slice of the data ICA as its data,
 * through the same handler. The
 * server stops before a record it does not run here, and the kernel runs
 * that call (and the rest) by itself, one request each.
 */
#include "fileman.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

/* The operations a batch may hold, and their handlers. */
static server_handler batch_handler(uint32_t opcode)
{
	switch (opcode) {
	case FS_READ:
	case FS_PREAD:
		return do_read;
	case FS_WRITE:
	case FS_PWRITE:
		return do_write;
	case FS_LSEEK:
		return do_lseek;
	case FS_FSTAT:
		return do_fstat;
	case FS_CLOSE:
		return do_close;
	default:
		return NULL;
	}
}

/* Whether a transfer on descriptor fd of requester ends at once here: an
 * unknown descriptor (-EBADF), a file, a directory (-EISDIR), a memory
 * device or a /proc file. Not a pipe, which may park the request, nor the
 * console, which goes on to the console server, nor a socket or any kind
 * added later: those leave the batch (their handlers may answer later). */
static bool transfer_ends_here(int requester, uint64_t fd)
{
	const struct open_file *f = files_get(requester, fd);
	if (!f)
		return true;
	switch (f->kind) {
	case FM_FILE:
	case FM_DIR:
	case FM_PROC:
		return true;
	default:
		return devfile_is_device(f->kind);
	}
}

/* Runs record sub (copied) as the request one, a copy of rq that the
 * batch makes once (no handler changes its delivery or frame; what a
 * handler learns of the request, claimed and mapped, stays in it for the
 * next records and goes back to rq); false when it may not run in a
 * batch (nothing written), else its status and result words in *out (the
 * record's answer, in the ICA). */
static bool run_record(struct server_request *rq, struct server_request *one_rq,
                       uint64_t records_end, const struct fs_batch_sub *sub,
                       struct fs_batch_sub *out)
{
	server_handler run = batch_handler(sub->opcode);
	if (!run)
		return false;
	if (sub->data_off < records_end || sub->data_off > rq->data_size ||
	    sub->data_len > rq->data_size - sub->data_off)
		return false;
	bool transfer = sub->opcode != FS_LSEEK && sub->opcode != FS_FSTAT &&
	                sub->opcode != FS_CLOSE;
	if (transfer && !transfer_ends_here(rq->d.requester, sub->arg[0]))
		return false;
	struct server_request *one = one_rq;
	one->d.opcode = sub->opcode;
	one->in[0] = sub->arg[0];
	one->in[1] = sub->arg[1];
	one->in[2] = sub->arg[2];
	one->in[3] = transfer ? 0 : sub->arg[3];   /* flags: never inline, the bytes are in the slice */
	one->in[4] = one->in[5] = one->in[6] = one->in[7] = 0;
	memset(one->out, 0, sizeof(one->out));
	one->out_mask = 0;
	one->data = rq->data + sub->data_off;
	one->data_size = sub->data_len;
	int64_t status = run(one);
	/* What a handler learns of the request itself stays for the next
	 * records: its control ICA claimed for disk calls (once), data ICAs
	 * mapped. */
	rq->claimed = one->claimed;
	rq->mapped |= one->mapped;
	if (status == SERVER_LATER) {
		/* Cannot happen for the kinds let through above; if a handler
		 * changes so, the record's request is parked with a copy of
		 * this batch request, which must not be answered twice. */
		fm_log("FS_BATCH: opcode %u parked a record; batches are broken", sub->opcode);
		status = -EIO;
	}
	out->status = status;
	/* The words the handler marked, the others 0. */
	memset(out->res, 0, sizeof(out->res));
	for (unsigned mask = one->out_mask; mask; mask &= mask - 1) {
		unsigned i = (unsigned)__builtin_ctz(mask);
		out->res[i] = one->out[i];
	}
	return true;
}

int64_t do_batch(struct server_request *rq)
{
	uint64_t count = SERVER_IN(rq, struct fs_batch_args)->count;
	if (count == 0 || count > FS_BATCH_MAX)
		return -EINVAL;
	uint64_t records_end = count * sizeof(struct fs_batch_sub);
	if (!rq->data || rq->data_size < records_end)
		return -EINVAL;
	struct fs_batch_sub *rec = (struct fs_batch_sub *)(void *)rq->data;
	struct server_request one = *rq;
	uint64_t run = 0;
	for (; run < count; run++) {
		/* Copied first: the slices of earlier records may not overlap the
		 * records (checked), but nothing else in the ICA is believed. The
		 * request's words only: the answer's are written, not read. */
		struct fs_batch_sub sub;
		memcpy(&sub, &rec[run], offsetof(struct fs_batch_sub, status));
		if (!run_record(rq, &one, records_end, &sub, &rec[run]))
			break;
	}
	return (int64_t)run;
}
