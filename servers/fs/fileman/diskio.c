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
 * When the driver dies with a call of ours (its service manager restarts
 * it), the chunk it was lent comes back with -EPIPE and the call is made
 * again once the driver is registered anew (diskio_transfer).
 *
 * Before the first disk frame goes onto a client's control ICA, the file
 * manager claims it (server_claim, once per request): a synchronous caller lends its control
 * ICA, and a second thread of the caller could otherwise rewrite the
 * sector or offset of our frame before the driver reads them, and make the
 * driver write our cache to any sector.
 */
#include "fileman.h"
#include "fsconf.h"
#include "lock.h"

#include <errno.h>
#include <myrmex/disk.h>

#define SECTORS_PER_BLOCK (FM_BLOCK / DISK_SECTOR_SIZE)

/* A call the driver's death cut short is made again this many times, each
 * after waiting up to DISKIO_DRIVER_WAIT_MS for the driver to be back. */
#define DISKIO_RETRIES 3
#define DISKIO_DRIVER_WAIT_MS 10000

static struct myrmex_ctl_header *own_ctl;
static bool own_ctl_busy;   /* a thread's disk call is on it (lock.h) */

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
	/* The one place the lock goes for the disk (lock.h): other threads
	 * serve meanwhile; nothing of ours but h, and the chunk the caller
	 * marked busy, is held across. */
	struct fm_held held = fm_unlock_for_disk();
	long r = ult_active() ? ult_call(h) : myrmex_callsync(h);
	fm_relock_after_disk(held);
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
		/* Our own control ICA serves one disk call at a time. */
		while (own_ctl_busy)
			fm_wait();
		own_ctl_busy = true;
		myrmex_ctl_init(own_ctl);
		status = call_on(own_ctl, opcode, args, ica, res, &refused);
		own_ctl_busy = false;
		fm_wake_all();
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

/* Whether the ICA is ours (attached, or parked and now attached). */
static bool ica_is_ours(uint32_t ica)
{
	return myrmex_ica_attach(ica) == 0 ||
	       (myrmex_ica_detach(ica) == 0 && myrmex_ica_attach(ica) == 0);
}

/* The driver is gone (-EPIPE: it died with our call; -ESRCH: not registered
 * now): waits until the service manager has started it again. */
static bool driver_back(void)
{
	for (unsigned ms = 0; ms < DISKIO_DRIVER_WAIT_MS; ms++) {
		if (myrmex_server_pid(MYRMEX_COREID_DISK) > 0)
			return true;
		myrmex_sleep_ns(1000000);
	}
	return false;
}

int diskio_transfer(struct server_request *rq, bool write, uint64_t block, uint32_t count,
                    uint32_t ica, uint64_t offset, bool *lost)
{
	struct disk_transfer_args args = {
		.sector = block * SECTORS_PER_BLOCK,
		.count = (uint64_t)count * SECTORS_PER_BLOCK,
		.offset = offset,
	};
	int64_t status;
	for (unsigned attempt = 0;; attempt++) {
		status = disk_call(rq, write ? DISK_WRITE : DISK_READ, &args, ica, NULL);
		fm_stats.v[write ? FS_STAT_DISK_WRITES : FS_STAT_DISK_READS]++;
		/* A driver that died hands the chunk it was lent back with -EPIPE
		 * (its device stopped first): the transfer is made again once the
		 * driver is back, so neither the caller nor the cache loses it. */
		if ((status != -EPIPE && status != -ESRCH) || attempt == DISKIO_RETRIES)
			break;
		if (status == -EPIPE && !ica_is_ours(ica))
			break;
		myrmex_log("fileman", "disk driver gone (%lld) during a %s of block %llu: retrying",
		           (long long)status, write ? "write" : "read", (unsigned long long)block);
		if (!driver_back())
			break;
		fm_recovery.v[FS_RSTAT_DISK_RETRIES]++;
	}
	/* -EPIPE, -ECANCELED, -EINTR: the call was made and the driver never
	 * answered; the ICA it carried went with it unless it came back. Other
	 * refusals happen before anything moves. */
	*lost = (status == -EPIPE || status == -ECANCELED || status == -EINTR) && !ica_is_ours(ica);
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
