/*
 * diskio.c - the file manager's calls to the disk driver (include/myrmex/
 * disk.h). While a request is served, a disk call is pushed as a new frame
 * onto that request's own control ICA and made with callsync: a multi-stage
 * call (client -> file manager -> driver) whose result comes back to the
 * file manager, which still has work to do. Outside a request (mount,
 * shutdown) the file manager uses a control ICA of its own.
 *
 * The data travels in a cache chunk ICA, which the driver fills or drains
 * by DMA at the given offset: nothing is copied between the two servers.
 *
 * Before the first disk frame goes onto a client's control ICA, the file
 * manager claims it (myrmex_claim): a synchronous caller lends its control
 * ICA, and a second thread of the caller could otherwise rewrite the
 * sector or offset of our frame before the driver reads them, and make the
 * driver write our cache to any sector.
 */
#include "fileman.h"

#include <errno.h>
#include <myrmex/disk.h>

#define SECTORS_PER_BLOCK (FM_BLOCK / DISK_SECTOR_SIZE)

static struct myrmex_ctl_header *own_ctl;
static struct myrmex_ctl_header *current_ctl;   /* the request's, or NULL */
static bool claimed;                            /* current_ctl is ours alone */

void diskio_use(struct myrmex_ctl_header *ctl)
{
	current_ctl = ctl;
	claimed = false;
}

/* One call to the driver: a frame pushed onto the current control ICA.
 * Returns the result frame's status (or -errno of callsync); *res gets the
 * result frame. */
static int64_t disk_call(uint32_t opcode, uint64_t a0, uint64_t a1, uint64_t a2, long ica,
                         struct myrmex_frame *res)
{
	struct myrmex_ctl_header *h = current_ctl ? current_ctl : own_ctl;
	if (!current_ctl)
		myrmex_ctl_init(h);
	else if (!claimed) {
		long r = myrmex_claim(h);
		if (r < 0)
			return r;
		claimed = true;
	}
	uint32_t below = h->currentp;
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_DISK, opcode);
	if (!f)
		return -ENOSPC;
	f->arg[0] = a0;
	f->arg[1] = a1;
	f->arg[2] = a2;
	if (ica >= 0) {
		f->ndata = 1;
		f->data[0] = (uint32_t)ica;
	}
	long r = myrmex_callsync(h);
	if (r < 0) {
		if (current_ctl && h->currentp != below)
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

int64_t diskio_start(unsigned timeout_ms, uint32_t *info_flags)
{
	long h = myrmex_ica_alloc(1);
	if (h < 0)
		return h;
	own_ctl = myrmex_ctl_init(myrmex_ica_addr((uint32_t)h));
	struct myrmex_frame res;
	int64_t status = -ESRCH;
	for (unsigned waited = 0; status == -ESRCH && waited <= timeout_ms; waited++) {
		status = disk_call(DISK_INFO, 0, 0, 0, -1, &res);
		if (status == -ESRCH)
			myrmex_sleep_ns(1000000);
	}
	if (status < 0)
		return status;
	*info_flags = (uint32_t)res.arg[3];
	return (int64_t)res.arg[0];
}

int diskio_transfer(bool write, uint64_t block, uint32_t count, uint32_t ica, uint64_t offset,
                    bool *lost)
{
	int64_t status = disk_call(write ? DISK_WRITE : DISK_READ, block * SECTORS_PER_BLOCK,
	                           (uint64_t)count * SECTORS_PER_BLOCK, offset, ica, NULL);
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

int diskio_flush(void)
{
	int64_t status = disk_call(DISK_FLUSH, 0, 0, 0, -1, NULL);
	return status < 0 ? (int)status : 0;
}
