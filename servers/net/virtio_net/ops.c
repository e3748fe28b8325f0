/*
 * The network protocol's handlers (include/myrmex/net.h) for the virtio-net
 * driver, and the receive side's bookkeeping: receive requests waiting for
 * a frame (parked, oldest first) and frames waiting for a receive request
 * (queued, oldest first, at most NET_RX_QUEUE_MAX; more are dropped and
 * counted).
 *
 * Invariant (buffer exchange): a receive request lends one one-page ICA,
 * which goes onto the receive ring at once, and takes away the ICA a frame
 * arrived in. So the buffers the driver holds are always its RX_BUFFERS
 * plus one per parked request: a receiver can neither drain the ring nor
 * make the driver allocate.
 */
#include "driver.h"

#include <errno.h>

/* Parked receive requests, a FIFO. */
static struct server_request parked[NET_RECV_PARKED_MAX];
static unsigned parked_first, parked_count;

/* Frames no request has taken yet, a FIFO: the ICA and the length. */
static struct {
	uint32_t handle, length;
} queued[NET_RX_QUEUE_MAX];
static unsigned queued_first, queued_count;

/* Answers receive request rq with the frame in ICA handle: the request's
 * own lent ICA is on the ring already and stays with the driver. */
static int64_t deliver(struct server_request *rq, uint32_t handle, uint32_t length)
{
	/* Returning an ICA the caller did not lend needs the control ICA to
	 * be ours alone (docs/ipc.md, ret). */
	server_claim(rq);
	rq->d.ndata = 1;
	rq->d.data[0] = handle;
	rq->d.parked = 0;
	struct net_frame_args *out = SERVER_OUT(rq, struct net_frame_args);
	out->offset = VNET_HDR_LEN;
	out->length = length;
	out->mac = 0;
	out->ethertype = 0;
	return length;
}

void ops_frame(uint32_t handle, uint32_t length)
{
	if (parked_count > 0) {
		struct server_request *rq = &parked[parked_first];
		parked_first = (parked_first + 1) % NET_RECV_PARKED_MAX;
		parked_count--;
		int64_t status = deliver(rq, handle, length);
		server_reply_later(DRV_NAME, rq, status);
		return;
	}
	if (queued_count < NET_RX_QUEUE_MAX) {
		unsigned at = (queued_first + queued_count++) % NET_RX_QUEUE_MAX;
		queued[at].handle = handle;
		queued[at].length = length;
		return;
	}
	net_counters.rx_dropped++;
	if (nic_post_rx(handle) < 0)
		myrmex_ica_free(handle);
}

int64_t do_recv(struct server_request *rq)
{
	if (rq->d.ndata < 1 || rq->d.data_pages[0] != 1)
		return -EINVAL;
	if (!server_data(rq, 0, NULL))
		return -ENOMEM;   /* it came parked and cannot be mapped now */
	if (queued_count == 0 && parked_count == NET_RECV_PARKED_MAX)
		return -EAGAIN;
	uint32_t lent = rq->d.data[0];
	int err = nic_post_rx(lent);
	if (err < 0)
		return err;
	if (queued_count > 0) {
		uint32_t handle = queued[queued_first].handle, length = queued[queued_first].length;
		queued_first = (queued_first + 1) % NET_RX_QUEUE_MAX;
		queued_count--;
		return deliver(rq, handle, length);
	}
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
	if (phys < 0)
		err = -EINVAL;
	if (err) {
		net_counters.tx_errors++;
		return err;
	}
	/* ICAs are physically contiguous: one address covers the frame. */
	return nic_send(rq, (uint64_t)phys + a->offset, (uint32_t)a->length);
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
	if (rq->in[0] == NET_STATS_MORE) {
		/* Nothing copied, no ring to overflow: every counter 0. */
		*SERVER_OUT(rq, struct net_stats_more) = (struct net_stats_more){ 0 };
		return 0;
	}
	if (rq->in[0] != NET_STATS_BASIC)
		return -EINVAL;
	struct net_stats *out = SERVER_OUT(rq, struct net_stats);
	*out = net_counters;
	return 0;
}
