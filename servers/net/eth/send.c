/*
 * Sending (paper 004, section 4): the program's payload is in its data ICA
 * with NET_ETH_HLEN bytes of headroom before it; the server writes the
 * Ethernet header there (destination, its own address, the EtherType) and
 * passes the same request on to the driver as a second stage on the same
 * control ICA, with direct return: the driver's result, and the data ICA
 * with it, goes straight back to the program. Nothing is copied but the
 * 14 header bytes, and this server never sees the request again (but for
 * the copies a receiver of every frame gets, deliver.c).
 */
#include "eth.h"

#include <errno.h>
#include <string.h>

int64_t eth_pass_on(struct server_request *rq, uint32_t opcode, uint64_t a0, uint64_t a1)
{
	/* The driver acts on the frame we push: no thread of the caller may
	 * rewrite it in between (docs/ipc.md, claim). */
	long r = server_claim(rq);
	if (r < 0)
		return r;
	struct myrmex_ctl_header *h = (struct myrmex_ctl_header *)(uintptr_t)rq->d.control;
	uint32_t below = h->currentp, flags = h->flags;
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_NIC, opcode);
	if (!f)
		return -EINVAL;   /* the caller's control ICA has no room for a stage */
	f->arg[0] = a0;
	f->arg[1] = a1;
	for (unsigned i = 0; i < rq->d.ndata && i < MYRMEX_FRAME_DATA; i++)
		f->data[f->ndata++] = rq->d.data[i];
	h->flags = flags | MYRMEX_CTL_DIRECT_RETURN;
	r = myrmex_callasync(h);
	if (r < 0) {
		h->currentp = below;   /* not sent: our frame off again */
		h->flags = flags;
		return r == -ESRCH ? -ENETDOWN : r;   /* no driver registered */
	}
	return SERVER_LATER;
}

static void put_mac(uint8_t *p, uint64_t mac)
{
	for (unsigned i = 0; i < 6; i++)
		p[i] = (uint8_t)(mac >> (8 * i));
}

int64_t do_send(struct server_request *rq)
{
	const struct net_frame_args *a = SERVER_IN(rq, struct net_frame_args);
	uint64_t size = 0;
	uint8_t *data = server_data(rq, 0, &size);
	int64_t err = 0;
	if (a->length > NET_PAYLOAD_MAX)
		err = -EMSGSIZE;
	else if (!data || a->offset < NET_ETH_HLEN || a->offset > size ||
	         a->length > size - a->offset || a->ethertype < NET_ETHERTYPE_MIN ||
	         a->ethertype > 0xffff)
		err = -EINVAL;
	if (err) {
		eth_counters.tx_errors++;
		return err;
	}
	uint8_t *frame = data + a->offset - NET_ETH_HLEN;
	put_mac(frame, a->mac);
	put_mac(frame + 6, eth_mac);
	frame[12] = (uint8_t)(a->ethertype >> 8);
	frame[13] = (uint8_t)a->ethertype;
	/* Copies for the receivers of every frame now: once passed on, the
	 * data ICA is the driver's (a send the driver then refuses has still
	 * been shown to them, as Linux shows a frame before the device). */
	deliver_outgoing(frame, (uint32_t)(a->length + NET_ETH_HLEN));
	int64_t r = eth_pass_on(rq, NET_SEND, a->offset - NET_ETH_HLEN, a->length + NET_ETH_HLEN);
	if (r == SERVER_LATER)
		eth_counters.tx_frames++;
	else
		eth_counters.tx_errors++;
	return r;
}

/* The driver knows the link: asked with direct return. */
int64_t do_info(struct server_request *rq)
{
	return eth_pass_on(rq, NET_INFO, 0, 0);
}

/* arg[0] NET_STATS_BASIC: struct eth_stats; NET_STATS_MORE: struct
 * eth_stats_more. */
int64_t do_stats(struct server_request *rq)
{
	if (rq->in[0] == NET_STATS_MORE) {
		deliver_count(SERVER_OUT(rq, struct eth_stats_more));
		return 0;
	}
	if (rq->in[0] != NET_STATS_BASIC)
		return -EINVAL;
	struct eth_stats *out = SERVER_OUT(rq, struct eth_stats);
	*out = eth_counters;
	return 0;
}
