/*
 * The Ethernet interface under lwIP (paper 002's protocol server beside
 * the NIC driver). Receiving: nrx (link_start's) receive requests wait at the
 * Ethernet server (coreid 8) for ARP and IPv4 frames, each lending a
 * one-page ICA; a frame comes back in an ICA of its own (buffer exchange,
 * docs/net.md), is copied once into a pbuf and given to lwIP, and the slot
 * goes out again with the ICA it brought. Sending: lwIP's frame (header
 * included) is copied once into one of ntx one-page ICAs and sent
 * straight to the NIC driver (coreid 7) asynchronously; the ICA comes back
 * with the result. A frame finding no free slot is dropped and counted (TCP
 * sends it again). Both copies are counted in inet_stats.
 */
#include "tcpip.h"

#include <errno.h>
#include <string.h>

#include "lwip/etharp.h"
#include "netif/ethernet.h"

#define PAGE 4096u
#define WIRE_MIN 60u              /* a frame shorter is padded with zeros */
#define ETH_WAIT_MS 10000

struct slot {
	uint32_t ctl, buf;            /* control ICA; the data ICA (0: none) */
	bool busy;                    /* the call is out */
	uint16_t type;                /* receives: the EtherType asked for */
};
static struct slot rx[LINK_RX_SLOTS_MAX], tx[LINK_TX_SLOTS_MAX];
static unsigned nrx, nrx_arp, ntx;   /* the first nrx_arp receives for ARP, the rest IPv4 */

static void put_mac(uint8_t *p, uint64_t mac)
{
	for (unsigned i = 0; i < 6; i++)
		p[i] = (uint8_t)(mac >> (8 * i));
}

long link_ask_mac(uint8_t mac[6])
{
	uint64_t res[8];
	long r = myrmex_ask(MYRMEX_COREID_ETH, NET_INFO, ETH_WAIT_MS, res);
	if (r == 0)
		put_mac(mac, res[0]);
	return r;
}

static int rx_post(struct slot *s)
{
	if (s->busy || !s->buf)
		return 0;
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr(s->ctl));
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_ETH, NET_RECV);
	f->ndata = 1;
	f->data[0] = s->buf;
	f->arg[3] = s->type;
	long r = myrmex_callasync(h);
	if (r < 0)
		return (int)r;
	s->busy = true;
	return 0;
}

static int slot_alloc(struct slot *s)
{
	long c = myrmex_ica_alloc(1), b = c < 0 ? c : myrmex_ica_alloc(1);
	if (b < 0)
		return (int)b;
	s->ctl = (uint32_t)c;
	s->buf = (uint32_t)b;
	return 0;
}

int link_start(bool few)
{
	nrx = few ? 2 : LINK_RX_SLOTS_MAX;
	nrx_arp = few ? 1 : LINK_RX_ARP_SLOTS;
	ntx = few ? 2 : LINK_TX_SLOTS_MAX;
	for (unsigned i = 0; i < nrx; i++) {
		int err = slot_alloc(&rx[i]);
		if (err)
			return err;
		rx[i].type = i < nrx_arp ? ETHTYPE_ARP : ETHTYPE_IP;
		err = rx_post(&rx[i]);
		if (err)
			return err;
	}
	for (unsigned i = 0; i < ntx; i++) {
		int err = slot_alloc(&tx[i]);
		if (err)
			return err;
	}
	return 0;
}

/* lwIP's output of one whole frame: copied into a free send slot's ICA and
 * sent to the driver. */
static err_t link_output(struct netif *netif, struct pbuf *p)
{
	(void)netif;
	if (zc_output(p))
		return ERR_OK;
	struct slot *s = NULL;
	for (unsigned i = 0; i < ntx && !s; i++)
		if (!tx[i].busy && tx[i].buf)
			s = &tx[i];
	if (!s || p->tot_len > NET_FRAME_MAX || p->tot_len < NET_FRAME_MIN) {
		tcpip_counters.frames_dropped++;
		return ERR_MEM;
	}
	uint8_t *frame = myrmex_ica_addr(s->buf);
	uint16_t len = pbuf_copy_partial(p, frame, p->tot_len, 0);
	if (len < WIRE_MIN) {
		memset(frame + len, 0, WIRE_MIN - len);
		len = WIRE_MIN;
	}
	tcpip_counters.copies_out++;
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr(s->ctl));
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_NIC, NET_SEND);
	f->ndata = 1;
	f->data[0] = s->buf;
	f->arg[0] = 0;
	f->arg[1] = len;
	if (myrmex_callasync(h) < 0) {
		tcpip_counters.frames_dropped++;
		return ERR_IF;
	}
	s->busy = true;
	tcpip_counters.frames_out++;
	return ERR_OK;
}

err_t link_netif_init(struct netif *netif)
{
	netif->name[0] = 'e';
	netif->name[1] = 't';
	netif->mtu = NET_PAYLOAD_MAX;
	netif->hwaddr_len = ETH_HWADDR_LEN;
	netif->flags = NETIF_FLAG_BROADCAST | NETIF_FLAG_ETHARP | NETIF_FLAG_ETHERNET |
	               NETIF_FLAG_LINK_UP;
	netif->output = etharp_output;
	netif->linkoutput = link_output;
	return ERR_OK;
}

static struct slot *slot_of(uint32_t ctl, bool *is_rx)
{
	for (unsigned i = 0; i < nrx; i++)
		if (rx[i].ctl == ctl) {
			*is_rx = true;
			return &rx[i];
		}
	for (unsigned i = 0; i < ntx; i++)
		if (tx[i].ctl == ctl) {
			*is_rx = false;
			return &tx[i];
		}
	return NULL;
}

/* A received frame in s's ICA (the payload at offset, length bytes, the
 * Ethernet header just before it): copied into a pbuf for lwIP. */
static void frame_in(struct slot *s, uint64_t offset, uint64_t length)
{
	if (offset < NET_ETH_HLEN || offset > PAGE || length > PAGE - offset ||
	    length > NET_PAYLOAD_MAX)
		return;
	const uint8_t *frame = (const uint8_t *)myrmex_ica_addr(s->buf) + offset - NET_ETH_HLEN;
	uint16_t total = (uint16_t)(length + NET_ETH_HLEN);
	struct pbuf *p = pbuf_alloc(PBUF_RAW, total, PBUF_POOL);
	if (!p) {
		tcpip_counters.frames_dropped++;
		return;
	}
	pbuf_take(p, frame, total);
	tcpip_counters.copies_in++;
	tcpip_counters.frames_in++;
	if (tcpip_eth.input(p, &tcpip_eth) != ERR_OK)
		pbuf_free(p);
}

void link_result(const struct myrmex_delivery *d)
{
	bool is_rx = false;
	struct slot *s = slot_of(d->handle, &is_rx);
	if (!s) {
		myrmex_log(TCPIP_NAME, "a result of opcode %u for no slot dropped", d->opcode);
		return;
	}
	s->busy = false;
	s->buf = d->ndata ? d->data[0] : 0;
	if (d->ndata && (d->parked & 1u))
		myrmex_ica_attach(s->buf);
	if (!s->buf) {   /* it did not come back (a server died): a fresh one */
		long b = myrmex_ica_alloc(1);
		s->buf = b > 0 ? (uint32_t)b : 0;
	}
	if (!is_rx)
		return;
	if (d->status >= 0) {
		const struct myrmex_frame *res =
			myrmex_ctl_result((struct myrmex_ctl_header *)(uintptr_t)d->control);
		if (res)
			frame_in(s, res->arg[0], res->arg[1]);
	} else if (d->status != -EPIPE && d->status != -ENETDOWN) {
		myrmex_log(TCPIP_NAME, "a receive failed: %ld", (long)d->status);
	}
	/* After the Ethernet server or the driver died, a slot is posted again
	 * at the next tick (link_retry). */
	if (d->status >= 0)
		rx_post(s);
}

void link_retry(void)
{
	for (unsigned i = 0; i < nrx; i++)
		rx_post(&rx[i]);
}
