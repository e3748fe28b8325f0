/*
 * diskio.c - the file manager's calls to the disk driver (include/myrmex/
 * disk.h). A disk call made for a request (the caller passes it down) is
 * pushed as a new frame onto that request's own control ICA and made with
 * callsync: a multi-stage
 * call (client -> file manager -> driver) whose result comes back to the
 * file manager, which still has work to do. Outside a request (mount,
 * shutdown) the file manager uses a control ICA of its own.
 *
 * The data travels in a cache chunk ICA, which the driver fills or drains
 * by DMA at the given offset: nothing is copied between the two servers.
 *
 * Before the first disk frame goes onto a client's control ICA, the file
 * manager claims it (server_claim, once per request): a synchronous caller lends its control
 * ICA, and a second thread of the caller could otherwise rewrite the
 * sector or offset of our frame before the driver reads them, and make the
 * driver write our cache to any sector.
 */
#include "fileman.h"

#include <errno.h>
#include <myrmex/disk.h>

#define SECTORS_PER_BLOCK (FM_BLOCK / DISK_SECTOR_SIZE)

static struct myrmex_ctl_header *own_ctl;

/* One call to the driver on control ICA h: a frame pushed, callsync, the
 * result frame in *res. *refused when the call could not be made on h (no
 * room for the frame, or the kernel refused the forward: nothing moved),
 * with the frame taken off again. The result's status or -errno. */
static int64_t call_on(struct myrmex_ctl_header *h, uint32_t opcode,
                       const struct disk_transfer_args *args, long ica,
                       struct myrmex_frame *res, bool *refused)
{
	uint32_t below = h->currentp;
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_DISK, opcode);
	*refused = f == NULL;
	if (!f)
		return -ENOSPC;
	if (args) {
		struct disk_transfer_args *a = (struct disk_transfer_args *)(void *)f->arg;
		*a = *args;
	}
	if (ica >= 0) {
		f->ndata = 1;
		f->data[0] = (uint32_t)ica;
	}
	long r = myrmex_callsync(h);
	if (r < 0) {
		*refused = r == -EINVAL;
		if (h->currentp != below)
			h->currentp = below;   /* not sent: take our frame off again */
		return r;
	}
	struct myrmex_frame *out = myrmex_ctl_result(h);
	if (!out)
		return -EIO;
	if (res)
		*res = *out;
	return out->status;
}

/* One call to the driver for request rq: a frame pushed onto rq's control
 * ICA (rq NULL: onto our own). Returns the result frame's status (or
 * -errno of callsync); *res gets the result frame.
 *
 * The request's control ICA is its caller's: the caller may have set it up
 * so that no frame can go on from it (direct return asked for in the
 * header, its frame at the end of the page, currentp moved before we
 * claimed it). The kernel then refuses the forward, and the disk call goes
 * on our own control ICA instead: what a caller writes into its header
 * must not make the file system's reads and writes fail halfway through an
 * operation (an rmdir whose bitmap read failed left its directory's blocks
 * allocated to nobody: fs-hostile-ctl). */
static int64_t disk_call(struct server_request *rq, uint32_t opcode,
                         const struct disk_transfer_args *args, long ica,
                         struct myrmex_frame *res)
{
	bool refused = true;
	int64_t status = -EINVAL;
	if (rq) {
		long r = server_claim(rq);
		if (r < 0)
			return r;
		status = call_on(request_ctl(rq), opcode, args, ica, res, &refused);
	}
	if (refused) {
		myrmex_ctl_init(own_ctl);
		status = call_on(own_ctl, opcode, args, ica, res, &refused);
	}
	return status;
}

int64_t diskio_start(unsigned timeout_ms, uint32_t *info_flags)
{
	long h = myrmex_ica_alloc(1);
	if (h < 0)
		return h;
	own_ctl = myrmex_ctl_init(myrmex_ica_addr((uint32_t)h));
	struct myrmex_frame res;
	int64_t status = -ESRCH;
	for (unsigned waited = 0; status == -ESRCH && waited <= timeout_ms; waited++) {
		status = disk_call(NULL, DISK_INFO, NULL, -1, &res);
		if (status == -ESRCH)
			myrmex_sleep_ns(1000000);
	}
	if (status < 0)
		return status;
	const struct disk_info_result *info = (const struct disk_info_result *)(const void *)res.arg;
	*info_flags = (uint32_t)info->flags;
	return (int64_t)info->sectors;
}

int diskio_transfer(struct server_request *rq, bool write, uint64_t block, uint32_t count,
                    uint32_t ica, uint64_t offset, bool *lost)
{
	struct disk_transfer_args args = {
		.sector = block * SECTORS_PER_BLOCK,
		.count = (uint64_t)count * SECTORS_PER_BLOCK,
		.offset = offset,
	};
	int64_t status = disk_call(rq, write ? DISK_WRITE : DISK_READ, &args, ica, NULL);
	fm_stats.v[write ? FS_STAT_DISK_WRITES : FS_STAT_DISK_READS]++;
	/* -EPIPE, -ECANCELED, -EINTR: the call was made and the driver never
	 * answered; the ICA it carried went with it. Other refusals happen
	 * before anything moves. */
	*lost = status == -EPIPE || status == -ECANCELED || status == -EINTR;
	/* The ICA came back parked if it could not be mapped at once (no page
	 * table); map it now rather than fault on it. Attached: -EINVAL, no-op. */
	if (!*lost)
		myrmex_ica_attach(ica);
	if (status < 0)
		return (int)status;
	return status == (int64_t)count * FM_BLOCK ? 0 : -EIO;
}

int diskio_flush(struct server_request *rq)
{
	int64_t status = disk_call(rq, DISK_FLUSH, NULL, -1, NULL);
	return status < 0 ? (int)status : 0;
}
