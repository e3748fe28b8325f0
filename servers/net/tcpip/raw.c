/*
 * Raw IPv4 sockets (Linux's SOCK_RAW, for ping's ICMP) over lwIP's raw
 * pcbs (LWIP_RAW). As Linux's: a received packet is given whole, its IP
 * header first; a sent one is the protocol's message alone (the program
 * writes ICMP's header and checksum), lwIP writes the IP header. A raw
 * socket sees a copy of every packet of its protocol and lwIP goes on with
 * the original, so echo requests to us are still answered by lwIP's ICMP
 * (Linux's raw sockets see them too). Datagrams wait in the socket's
 * datagram queue (struct dgram, the port 0), read by calls.c's datagram
 * receive.
 */
#include "tcpip.h"

#include <errno.h>

#include "lwip/ip_addr.h"

#define IP_HEADER 20u
#define RAW_PAYLOAD_MAX (0xffffu - IP_HEADER)

/* lwIP's raw receive callback (arg: the socket). Returns 0: not eaten. */
static u8_t on_raw(void *arg, struct raw_pcb *pcb, struct pbuf *p, const ip_addr_t *addr)
{
	struct isock *s = arg;
	(void)pcb;
	if (!s || s->dq_count == DGRAM_QUEUE)
		return 0;   /* a full queue drops, as a full socket buffer does */
	struct pbuf *copy = pbuf_clone(PBUF_RAW, PBUF_RAM, p);
	if (!copy)
		return 0;
	struct dgram *d = &s->dq[(s->dq_head + s->dq_count++) % DGRAM_QUEUE];
	d->p = copy;
	d->addr = ip4_addr_get_u32(ip_2_ip4(addr));
	d->port = 0;
	sock_kick(s);
	return 0;
}

int rawsock_open(struct isock *s, uint64_t proto)
{
	if (proto == 0 || proto > 254)
		return -EPROTONOSUPPORT;   /* 255 (IPPROTO_RAW: the header written by the program) is not built */
	s->raw = raw_new((u8_t)proto);
	if (!s->raw)
		return -ENOBUFS;
	s->raw_proto = (uint8_t)proto;
	raw_recv(s->raw, on_raw, s);
	return 0;
}

int64_t rawsock_send(struct isock *s, const uint8_t *bytes, uint64_t len, bool addressed,
                     uint32_t addr)
{
	if (!s->raw)
		return -EINVAL;
	if (len > RAW_PAYLOAD_MAX)
		return -EMSGSIZE;
	if (!addressed && !(s->raw->flags & RAW_FLAGS_CONNECTED))
		return -EDESTADDRREQ;
	struct pbuf *p = pbuf_alloc(PBUF_IP, (u16_t)len, PBUF_RAM);
	if (!p)
		return -ENOBUFS;
	if (len)
		pbuf_take(p, bytes, (u16_t)len);
	/* A connected socket's send names no address: it goes to the peer. */
	if (!addressed)
		addr = ip4_addr_get_u32(ip_2_ip4(&s->raw->remote_ip));
	ip_addr_t ip;
	ip_addr_set_ip4_u32(&ip, addr);
	if (ip4_addr_isbroadcast_u32(addr, &tcpip_eth) && !s->broadcast) {
		pbuf_free(p);
		return -EACCES;
	}
	err_t e = addressed ? raw_sendto(s->raw, p, &ip) : raw_send(s->raw, p);
	pbuf_free(p);
	return e == ERR_OK ? (int64_t)len : -sock_errno(e);
}

int rawsock_bind(struct isock *s, uint32_t addr)
{
	ip_addr_t ip;
	ip_addr_set_ip4_u32(&ip, addr);
	return s->raw ? -sock_errno(raw_bind(s->raw, &ip)) : -EINVAL;
}

int rawsock_connect(struct isock *s, uint32_t addr)
{
	if (!s->raw)
		return -EINVAL;
	if (addr == 0) {   /* AF_UNSPEC: the peer forgotten */
		raw_disconnect(s->raw);
		return 0;
	}
	ip_addr_t ip;
	ip_addr_set_ip4_u32(&ip, addr);
	return -sock_errno(raw_connect(s->raw, &ip));
}

struct ip_pcb *sock_raw_pcb(struct isock *s)
{
	return s->raw ? (struct ip_pcb *)(void *)s->raw : NULL;
}
