/*
 * What the file manager's /proc/net and the routing ioctls ask of the
 * TCP/IP server (include/myrmex/inet.h): INET_NETINFO (the interfaces'
 * counters and every pcb lwIP holds, as /proc/net/dev, tcp and udp show
 * them) and INET_ROUTE (the default route, which is lwIP's one gateway of
 * the Ethernet interface; lwIP has no routing table: every other
 * destination is on an interface's own network).
 *
 * The counters: ifstats_attach wraps the interfaces' input and output
 * functions once lwIP has them, so that every frame and every looped
 * packet is counted without touching the link code.
 */
#include "tcpip.h"

#include <errno.h>
#include <string.h>

#include "lwip/ip_addr.h"
#include "lwip/priv/tcp_priv.h"
#include "lwip/raw.h"
#include "lwip/udp.h"

/* Linux's TCP states, by lwIP's (CLOSED 0 .. TIME_WAIT 10). */
static const uint8_t linux_state[] = {
	[CLOSED] = 7, [LISTEN] = 10, [SYN_SENT] = 2, [SYN_RCVD] = 3, [ESTABLISHED] = 1,
	[FIN_WAIT_1] = 4, [FIN_WAIT_2] = 5, [CLOSE_WAIT] = 8, [CLOSING] = 11,
	[LAST_ACK] = 9, [TIME_WAIT] = 6,
};
#define LINUX_UDP_CLOSE 7u
#define LINUX_UDP_CONNECTED 1u

static struct inet_ifcount eth_count, lo_count;
static netif_input_fn eth_input;
static netif_linkoutput_fn eth_output;
static netif_output_fn lo_output;
static struct netif *loop_if;

static err_t count_eth_input(struct pbuf *p, struct netif *netif)
{
	eth_count.rx_packets++;
	eth_count.rx_bytes += p->tot_len;
	err_t e = eth_input(p, netif);
	if (e != ERR_OK)
		eth_count.rx_drops++;
	return e;
}

static err_t count_eth_output(struct netif *netif, struct pbuf *p)
{
	err_t e = eth_output(netif, p);
	if (e == ERR_OK) {
		eth_count.tx_packets++;
		eth_count.tx_bytes += p->tot_len;
	} else {
		eth_count.tx_drops++;
	}
	return e;
}

/* The loopback: what goes out comes in. */
static err_t count_lo_output(struct netif *netif, struct pbuf *p, const ip4_addr_t *addr)
{
	err_t e = lo_output(netif, p, addr);
	if (e == ERR_OK) {
		lo_count.tx_packets++;
		lo_count.tx_bytes += p->tot_len;
		lo_count.rx_packets++;
		lo_count.rx_bytes += p->tot_len;
	} else {
		lo_count.tx_drops++;
	}
	return e;
}

void ifstats_attach(void)
{
	eth_input = tcpip_eth.input;
	eth_output = tcpip_eth.linkoutput;
	tcpip_eth.input = count_eth_input;
	tcpip_eth.linkoutput = count_eth_output;
	struct netif *n;
	NETIF_FOREACH(n) {
		if (n->name[0] == 'l' && n->name[1] == 'o' && n->output) {
			loop_if = n;
			lo_output = n->output;
			n->output = count_lo_output;
		}
	}
}

/* The bytes a TCP pcb's program has not read yet (its socket's queue). */
static uint32_t unread(const struct tcp_pcb *pcb)
{
	const struct isock *s = pcb->callback_arg;
	return s && s->tcp == pcb ? s->rx_bytes : 0;
}

static void add_tcp(struct inet_netinfo *ni, const struct tcp_pcb *pcb)
{
	for (; pcb && ni->npcbs < INET_NETINFO_PCBS; pcb = pcb->next) {
		struct inet_pcbinfo *r = &ni->pcbs[ni->npcbs++];
		memset(r, 0, sizeof(*r));
		r->proto = 6;
		r->state = pcb->state < sizeof(linux_state) ? linux_state[pcb->state] : 7;
		r->local_addr = ip4_addr_get_u32(ip_2_ip4(&pcb->local_ip));
		r->local_port = pcb->local_port;
		if (pcb->state != LISTEN) {
			r->remote_addr = ip4_addr_get_u32(ip_2_ip4(&pcb->remote_ip));
			r->remote_port = pcb->remote_port;
			r->tx_queue = pcb->snd_lbb - pcb->lastack;
			r->rx_queue = unread(pcb);
		}
	}
}

int64_t do_netinfo(struct server_request *rq)
{
	uint64_t size = 0;
	struct inet_netinfo *ni = server_data(rq, 0, &size);
	if (!ni || size < sizeof(*ni))
		return -EINVAL;
	memset(ni, 0, offsetof(struct inet_netinfo, pcbs));
	ni->eth = eth_count;
	ni->lo = lo_count;
	ni->gateway = ip4_addr_get_u32(netif_ip4_gw(&tcpip_eth));
	add_tcp(ni, tcp_listen_pcbs.pcbs);
	add_tcp(ni, tcp_active_pcbs);
	add_tcp(ni, tcp_tw_pcbs);
	for (unsigned i = 0; i < SOCK_MAX && ni->npcbs < INET_NETINFO_PCBS; i++) {
		const struct isock *s = &socks[i];
		if (!s->used || (!s->udp && !s->raw))
			continue;
		struct inet_pcbinfo *r = &ni->pcbs[ni->npcbs++];
		memset(r, 0, sizeof(*r));
		uint32_t queued = 0;
		for (unsigned k = 0; k < s->dq_count; k++)
			queued += s->dq[(s->dq_head + k) % DGRAM_QUEUE].p->tot_len;
		r->rx_queue = queued;
		if (s->udp) {
			r->proto = 17;
			bool connected = s->udp->flags & UDP_FLAGS_CONNECTED;
			r->state = connected ? LINUX_UDP_CONNECTED : LINUX_UDP_CLOSE;
			r->local_addr = ip4_addr_get_u32(ip_2_ip4(&s->udp->local_ip));
			r->local_port = s->udp->local_port;
			if (connected) {
				r->remote_addr = ip4_addr_get_u32(ip_2_ip4(&s->udp->remote_ip));
				r->remote_port = s->udp->remote_port;
			}
		} else {
			r->proto = s->raw_proto;
			r->state = LINUX_UDP_CLOSE;
			r->local_addr = ip4_addr_get_u32(ip_2_ip4(&s->raw->local_ip));
			r->local_port = s->raw_proto;   /* as Linux's /proc/net/raw */
		}
	}
	return (int64_t)sizeof(*ni);
}

/* Whether gw is on the Ethernet interface's own network. */
static bool on_link(uint32_t gw)
{
	uint32_t mask = ip4_addr_get_u32(netif_ip4_netmask(&tcpip_eth));
	uint32_t addr = ip4_addr_get_u32(netif_ip4_addr(&tcpip_eth));
	return mask && (gw & mask) == (addr & mask) && gw != addr;
}

int64_t do_route(struct server_request *rq)
{
	uint32_t gw = (uint32_t)rq->in[1];
	bool have = !ip4_addr_isany_val(*netif_ip4_gw(&tcpip_eth));
	ip4_addr_t g;
	switch (rq->in[0]) {
	case INET_ROUTE_ADD:
		if (have)
			return -EEXIST;
		if (!on_link(gw))
			return -ENETUNREACH;
		ip4_addr_set_u32(&g, gw);
		netif_set_gw(&tcpip_eth, &g);
		return 0;
	case INET_ROUTE_DEL:
		if (!have || (gw && gw != ip4_addr_get_u32(netif_ip4_gw(&tcpip_eth))))
			return -ESRCH;
		ip4_addr_set_zero(&g);
		netif_set_gw(&tcpip_eth, &g);
		return 0;
	default:
		return -EINVAL;
	}
}
