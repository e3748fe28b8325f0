/*
 * The network protocol's handlers (include/myrmex/net.h) for the RTL8139,
 * and the receive side: receive requests waiting for a frame (parked,
 * oldest first) and frames waiting for a receive (queued, oldest first, at
 * most NET_RX_QUEUE_MAX; more wait in the device's ring, which drops and
 * counts what does not fit).
 *
 * The one copy: a frame leaves the device's receive ring by memcpy, into
 * the lent ICA of the oldest parked receive (which gets its own ICA back
 * with the frame at offset 0), or, when none waits, into a spare one-page
 * ICA of the driver that is queued. A receive that finds a frame queued
 * takes its ICA and leaves its lent one as the spare (buffer exchange, as
 * virtio_net: the ICAs the driver holds never change in number). Every
 * copy is counted (net_more.rx_copies, rx_copy_bytes), and the bytes of the
 * ICA past the frame are zeroed: they carry nothing of an earlier frame.
 */
#include "driver.h"

#include <errno.h>
#include <string.h>

/* Parked receive requests, a FIFO; their lent ICAs are mapped here. */
static struct server_request parked[NET_RECV_PARKED_MAX];
static unsigned parked_first, parked_count;

/* Frames no request has taken yet, a FIFO: the ICA and the length. */
static struct {
	uint32_t handle, length;
} queued[NET_RX_QUEUE_MAX];
static unsigned queued_first, queued_count;

/* Spare one-page ICAs a queued frame is copied into: with the queued ones
 * always NET_RX_QUEUE_MAX. */
static uint32_t spares[NET_RX_QUEUE_MAX];
static unsigned nspares;

int ops_init(void)
{
	for (nspares = 0; nspares < NET_RX_QUEUE_MAX; nspares++) {
		long h = myrmex_ica_alloc(1);
		if (h < 0) {
			drv_log("cannot allocate receive ICA %u: %ld", nspares, h);
			return (int)h;
		}
		spares[nspares] = (uint32_t)h;
	}
	return 0;
}

/* The copy out of the ring (length bytes from offset, wrapping at size)
 * into the page at dst, the rest of the page zeroed. */
static void copy_out(uint8_t *dst, const uint8_t *ring, uint32_t size, uint32_t offset,
                     uint32_t length)
{
	uint32_t first = length < size - offset ? length : size - offset;
	memcpy(dst, ring + offset, first);
	if (first < length) {
		memcpy(dst + first, ring, length - first);
		net_more.rx_wrapped++;
	}
	memset(dst + length, 0, RX_BUF_BYTES - length);
	net_more.rx_copies++;
	net_more.rx_copy_bytes += length;
}

/* Answers receive request rq with the frame in ICA handle, at offset 0. */
static int64_t deliver(struct server_request *rq, uint32_t handle, uint32_t length)
{
	/* An ICA the caller did not lend (a queued frame's) goes back only on
	 * a control ICA that is ours alone (docs/ipc.md, ret). */
	if (handle != rq->d.data[0])
		server_claim(rq);
	rq->d.ndata = 1;
	rq->d.data[0] = handle;
	rq->d.parked = 0;
	struct net_frame_args *out = SERVER_OUT(rq, struct net_frame_args);
	out->offset = 0;
	out->length = length;
	out->mac = 0;
	out->ethertype = 0;
	return length;
}

bool ops_frame(const uint8_t *ring, uint32_t ring_size, uint32_t offset, uint32_t length)
{
	if (parked_count > 0) {
		struct server_request *rq = &parked[parked_first];
		parked_first = (parked_first + 1) % NET_RECV_PARKED_MAX;
		parked_count--;
		uint32_t lent = rq->d.data[0];
		copy_out(myrmex_ica_addr(lent), ring, ring_size, offset, length);
		server_reply_later(DRV_NAME, rq, deliver(rq, lent, length));
		return true;
	}
	if (queued_count == NET_RX_QUEUE_MAX || nspares == 0)
		return false;
	uint32_t handle = spares[--nspares];
	copy_out(myrmex_ica_addr(handle), ring, ring_size, offset, length);
	unsigned at = (queued_first + queued_count++) % NET_RX_QUEUE_MAX;
	queued[at].handle = handle;
	queued[at].length = length;
	return true;
}

int64_t do_recv(struct server_request *rq)
{
	if (rq->d.ndata < 1 || rq->d.data_pages[0] != 1)
		return -EINVAL;
	if (!server_data(rq, 0, NULL))
		return -ENOMEM;   /* it came parked and cannot be mapped now */
	if (queued_count > 0) {
		uint32_t handle = queued[queued_first].handle, length = queued[queued_first].length;
		queued_first = (queued_first + 1) % NET_RX_QUEUE_MAX;
		queued_count--;
		spares[nspares++] = rq->d.data[0];   /* the lent ICA takes the frame's place */
		int64_t status = deliver(rq, handle, length);
		nic_rx_resume();   /* a frame the full queue left in the ring takes the room */
		return status;
	}
	if (parked_count == NET_RECV_PARKED_MAX)
		return -EAGAIN;
	parked[(parked_first + parked_count++) % NET_RECV_PARKED_MAX] = *rq;
	return SERVER_LATER;
}

int64_t do_send(struct server_request *rq)
{
	const struct net_frame_args *a = SERVER_IN(rq, struct net_frame_args);
	uint64_t bytes = rq->d.ndata ? (uint64_t)rq->d.data_pages[0] * 4096 : 0;
	int64_t err = 0;
	if (a->length > NET_FRAME_MAX)
		err = -EMSGSIZE;
	else if (a->length < NET_FRAME_MIN || a->offset > bytes || a->length > bytes - a->offset)
		err = -EINVAL;
	long phys = err ? 0 : myrmex_ica_phys(rq->d.data[0]);
	/* The device takes a 32-bit address: the frame must lie below 4 GiB. */
	if (phys < 0 || (uint64_t)phys + a->offset + a->length > 0x100000000ull)
		err = -EINVAL;
	if (err) {
		net_counters.tx_errors++;
		return err;
	}
	/* ICAs are physically contiguous: one address covers the frame. */
	return nic_send(rq, (uint32_t)((uint64_t)phys + a->offset), (uint32_t)a->length);
}

int64_t do_info(struct server_request *rq)
{
	struct net_info_result *out = SERVER_OUT(rq, struct net_info_result);
	out->mac = nic_mac();
	out->link = nic_link();
	out->frame_max = NET_FRAME_MAX;
	return 0;
}

int64_t do_stats(struct server_request *rq)
{
	uint64_t which = rq->in[0];
	if (which == NET_STATS_MORE) {
		*SERVER_OUT(rq, struct net_stats_more) = net_more;
		return 0;
	}
	if (which != NET_STATS_BASIC)
		return -EINVAL;
	*SERVER_OUT(rq, struct net_stats) = net_counters;
	return 0;
}
