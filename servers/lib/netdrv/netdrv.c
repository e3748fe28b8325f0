/*
 * netdrv: the network protocol's handlers (include/myrmex/net.h) for a NIC
 * driver, its server table, counters and log helper, and the receive
 * side's two FIFOs: receive requests waiting for a frame (parked) and
 * frames waiting for a receive (queued). What a device does lies behind
 * the nic_* functions of netdrv.h, which each driver implements.
 *
 * Buffer exchange: a receive lends one one-page ICA and its answer carries
 * the ICA the frame is in. Where the lent ICA goes is the driver's
 * (nic_rx_lent: onto a receive ring, or kept as a spare to copy into), so
 * the ICAs a driver holds never change in number.
 */
#include "netdrv.h"

#include <errno.h>
#include <stdarg.h>

struct net_stats net_counters;
struct net_stats_more net_more;

/* Parked receive requests, a FIFO. */
static struct server_request parked[NET_RECV_PARKED_MAX];
static unsigned parked_first, parked_count;

/* Frames no request has taken yet, a FIFO: the ICA and the length. */
static struct {
	uint32_t handle, length;
} queued[NET_RX_QUEUE_MAX];
static unsigned queued_first, queued_count;

void drv_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	myrmex_vlog(netdrv.name, fmt, ap);
	va_end(ap);
}

/* Answers receive request rq with the frame in ICA handle. */
static int64_t deliver(struct server_request *rq, uint32_t handle, uint32_t length)
{
	if (netdrv.claim_always || handle != rq->d.data[0])
		server_claim(rq);
	rq->d.ndata = 1;
	rq->d.data[0] = handle;
	rq->d.parked = 0;
	struct net_frame_args *out = SERVER_OUT(rq, struct net_frame_args);
	out->offset = netdrv.rx_offset;
	out->length = length;
	out->mac = 0;
	out->ethertype = 0;
	return length;
}

bool netdrv_frame(uint32_t handle, uint32_t length)
{
	if (parked_count > 0) {
		struct server_request *rq = &parked[parked_first];
		parked_first = (parked_first + 1) % NET_RECV_PARKED_MAX;
		parked_count--;
		int64_t status = deliver(rq, handle, length);
		server_reply_later(netdrv.name, rq, status);
		return true;
	}
	if (queued_count == NET_RX_QUEUE_MAX)
		return false;
	unsigned at = (queued_first + queued_count++) % NET_RX_QUEUE_MAX;
	queued[at].handle = handle;
	queued[at].length = length;
	return true;
}

long netdrv_parked_ica(void)
{
	return parked_count > 0 ? (long)parked[parked_first].d.data[0] : -1;
}

bool netdrv_queue_full(void)
{
	return queued_count == NET_RX_QUEUE_MAX;
}

/*
 * The Ethernet server the driver last took receives from (its pid). A
 * server that ends leaves its receives parked here (the kernel lets a dead
 * caller's requests go on), and a frame answering one of them goes to
 * nobody: after three restarts of the Ethernet server, 24 of them stood
 * before the live server's and swallowed the frames TCP retransmitted, each
 * later after a longer backoff. So when another process, registered as the
 * Ethernet server now, sends its first receive, the old one's are answered
 * (to nobody; their lent ICAs stay on the ring, whose owner is gone).
 */
static int eth_client;

static void drop_parked_of(int pid)
{
	unsigned kept = 0, n = parked_count;
	for (unsigned i = 0; i < n; i++) {
		struct server_request *rq = &parked[(parked_first + i) % NET_RECV_PARKED_MAX];
		if (rq->d.requester != pid) {
			parked[(parked_first + kept++) % NET_RECV_PARKED_MAX] = *rq;
			continue;
		}
		server_claim(rq);
		rq->d.ndata = 0;
		server_reply_later(netdrv.name, rq, -ECANCELED);
	}
	parked_count = kept;
}

static void note_client(int requester)
{
	if (requester == eth_client || myrmex_server_pid(MYRMEX_COREID_ETH) != requester)
		return;
	if (eth_client > 0)
		drop_parked_of(eth_client);
	eth_client = requester;
}

static int64_t do_recv(struct server_request *rq)
{
	if (rq->d.ndata < 1 || rq->d.data_pages[0] != 1)
		return -EINVAL;
	note_client(rq->d.requester);
	if (!server_data(rq, 0, NULL))
		return -ENOMEM;   /* it came parked and cannot be mapped now */
	if (queued_count == 0 && parked_count == NET_RECV_PARKED_MAX)
		return -EAGAIN;
	int err = nic_rx_lent(rq->d.data[0], queued_count > 0);
	if (err < 0)
		return err;
	if (queued_count > 0) {
		uint32_t handle = queued[queued_first].handle, length = queued[queued_first].length;
		queued_first = (queued_first + 1) % NET_RX_QUEUE_MAX;
		queued_count--;
		int64_t status = deliver(rq, handle, length);
		nic_rx_resume();
		return status;
	}
	parked[(parked_first + parked_count++) % NET_RECV_PARKED_MAX] = *rq;
	return SERVER_LATER;
}

static int64_t do_send(struct server_request *rq)
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
	/* Where device DMA does not see the CPU's cache (the SH-4), the
	 * frame's dirty lines are written back before the device reads it:
	 * through this process's mapping of the data ICA (the compiler drops
	 * this where DMA is coherent). */
	if (!err && !MYRMEX_DMA_COHERENT) {
		uint8_t *bytes = server_data(rq, 0, NULL);
		if (!bytes)
			err = -ENOMEM;
		else
			myrmex_dma_to_device(bytes + a->offset, (unsigned long)a->length);
	}
	if (err) {
		net_counters.tx_errors++;
		return err;
	}
	/* ICAs are physically contiguous: one address covers the frame. */
	return nic_send(rq, (uint64_t)phys, a->offset, (uint32_t)a->length);
}

static int64_t do_info(struct server_request *rq)
{
	struct net_info_result *out = SERVER_OUT(rq, struct net_info_result);
	out->mac = nic_mac();
	out->link = nic_link();
	out->frame_max = NET_FRAME_MAX;
	return 0;
}

static int64_t do_stats(struct server_request *rq)
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

/* The protocol's opcodes; one without an entry gets -ENOSYS. Who may call
 * the driver is the kernel's call rights: the init gives them to the
 * Ethernet server (and to the tests that drive the NIC directly). */
static const struct server_op ops[] = {
	[NET_SEND] = { do_send, 0 },
	[NET_RECV] = { do_recv, 0 },
	[NET_INFO] = { do_info, 0 },
	[NET_STATS] = { do_stats, 0 },
};

int netdrv_serve(int index)
{
	static struct server s = {
		.ops = ops,
		.nops = SERVER_NOPS(ops),
		.interrupt = nic_interrupt,
	};
	long r = myrmex_registserver(MYRMEX_COREID_NIC);
	if (r < 0) {
		drv_log("registserver(%u): %ld", MYRMEX_COREID_NIC, r);
		return 1;
	}
	char about[160];
	nic_describe(about, sizeof about);
	drv_log("device %d: %s", index, about);
	s.name = netdrv.name;
	server_run(&s);
}

/* ---- sends waiting for room in the device ---- */

static struct netdrv_send tx_pending[NETDRV_TX_PENDING_MAX];
static unsigned tx_pending_first, tx_pending_count;

int64_t netdrv_send(const struct netdrv_send *s)
{
	if (tx_pending_count == 0 && nic_submit(s) == 0)
		return SERVER_LATER;
	if (tx_pending_count == NETDRV_TX_PENDING_MAX)
		return -EAGAIN;
	tx_pending[(tx_pending_first + tx_pending_count) % NETDRV_TX_PENDING_MAX] = *s;
	tx_pending_count++;
	return SERVER_LATER;
}

void netdrv_send_pending(void)
{
	while (tx_pending_count > 0 && nic_submit(&tx_pending[tx_pending_first]) == 0) {
		tx_pending_first = (tx_pending_first + 1) % NETDRV_TX_PENDING_MAX;
		tx_pending_count--;
	}
}
