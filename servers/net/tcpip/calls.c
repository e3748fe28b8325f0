/*
 * The socket calls (include/myrmex/inet.h). Each handler checks its handle
 * and arguments; the calls that may wait are written as try_* functions,
 * which the handler runs once and sock.c runs again for a parked call:
 * SERVER_LATER from a try_* means "not yet", returned only when the call
 * may block. A parked send keeps its progress in its own copy's in[7].
 */
#include "tcpip.h"

#include <errno.h>
#include <string.h>

#include "lwip/ip_addr.h"
#include "lwip/timeouts.h"

#define SEND_PROGRESS 7           /* rq->in[] word of a send's bytes taken */
#define TCP_CHUNK 32768u          /* tcp_write and tcp_recved take 16 bits */
#define UDP_PAYLOAD_MAX 65507u
#define LOOPBACK_NET 0x7fu        /* 127/8, first byte */

/* An address into the result words (include/myrmex/inet.h). */
static void put_addr(struct server_request *rq, uint64_t addr, uint64_t port)
{
	server_out(rq, INET_RESULT_FAMILY, INET_FAMILY);
	server_out(rq, INET_RESULT_ADDR, addr);
	server_out(rq, INET_RESULT_PORT, port);
}

struct isock *sock_of(struct server_request *rq)
{
	struct isock *s = sock_get(rq->in[0]);
	return s && s->owner == rq->d.requester ? s : NULL;
}

static void ip_of(ip_addr_t *ip, uint64_t addr)
{
	ip_addr_set_ip4_u32(ip, (u32_t)addr);
}

/* Whether addr (network order) is one of ours or any. */
static bool address_local(uint32_t addr)
{
	return addr == 0 || (addr & 0xff) == LOOPBACK_NET ||
	       addr == ip4_addr_get_u32(netif_ip4_addr(&tcpip_eth));
}

static void on_udp(void *arg, struct udp_pcb *pcb, struct pbuf *p, const ip_addr_t *addr, u16_t port)
{
	struct isock *s = arg;
	(void)pcb;
	if (!s || s->dq_count == DGRAM_QUEUE) {
		pbuf_free(p);
		return;
	}
	struct dgram *d = &s->dq[(s->dq_head + s->dq_count++) % DGRAM_QUEUE];
	d->p = p;
	d->addr = ip4_addr_get_u32(ip_2_ip4(addr));
	d->port = port;
	sock_kick(s);
}

int64_t do_socket(struct server_request *rq)
{
	uint64_t type = rq->in[0];
	if (type != INET_STREAM && type != INET_DGRAM && type != INET_RAW)
		return -EINVAL;
	struct isock *s = sock_new((uint8_t)type);
	if (!s)
		return -ENFILE;
	s->owner = rq->d.requester;
	if (type == INET_RAW) {
		int e = rawsock_open(s, rq->in[1]);
		if (e < 0) {
			sock_free(s);
			return e;
		}
	} else if (type == INET_DGRAM) {
		s->udp = udp_new();
		if (s->udp)
			udp_recv(s->udp, on_udp, s);
	} else {
		struct tcp_pcb *pcb = tcp_new();
		if (pcb)
			sock_tcp_attach(s, pcb);
	}
	if (!s->udp && !s->tcp && !s->raw) {
		sock_free(s);
		return -ENOBUFS;
	}
	return (int64_t)sock_handle(s);
}

int64_t do_close(struct server_request *rq)
{
	struct isock *s = sock_of(rq);
	if (!s)
		return -EBADF;
	sock_free(s);
	return 0;
}

int64_t do_bind(struct server_request *rq)
{
	struct isock *s = sock_of(rq);
	if (!s)
		return -EBADF;
	uint32_t addr = (uint32_t)rq->in[1];
	if (rq->in[2] > 0xffff)
		return -EINVAL;
	if (!address_local(addr))
		return -EADDRNOTAVAIL;
	ip_addr_t ip;
	ip_of(&ip, addr);
	if (s->type == INET_RAW)
		return rawsock_bind(s, addr);
	err_t e;
	if (s->type == INET_DGRAM) {
		if (!s->udp)
			return -EINVAL;
		if (s->udp->local_port)
			return -EINVAL;   /* bound already */
		e = udp_bind(s->udp, &ip, (u16_t)rq->in[2]);
	} else {
		if (!s->tcp || s->tcp->state != CLOSED || s->tcp->local_port)
			return -EINVAL;
		e = tcp_bind(s->tcp, &ip, (u16_t)rq->in[2]);
	}
	return -sock_errno(e);
}

int64_t do_listen(struct server_request *rq)
{
	struct isock *s = sock_of(rq);
	if (!s)
		return -EBADF;
	if (s->type != INET_STREAM)
		return -EOPNOTSUPP;
	int64_t backlog = (int32_t)rq->in[1];
	if (backlog < 1)
		backlog = 1;
	if (backlog > ACCEPT_QUEUE)
		backlog = ACCEPT_QUEUE;
	s->backlog = (int)backlog;
	if (s->listening)
		return 0;
	if (!s->tcp || s->tcp->state != CLOSED)
		return -EINVAL;
	if (!s->tcp->local_port) {
		err_t e = tcp_bind(s->tcp, IP_ANY_TYPE, 0);
		if (e != ERR_OK)
			return -sock_errno(e);
	}
	err_t e = ERR_OK;
	struct tcp_pcb *l = tcp_listen_with_backlog_and_err(s->tcp, (u8_t)backlog, &e);
	if (!l)
		return -sock_errno(e);
	s->listening = true;
	sock_tcp_attach(s, l);   /* the old pcb was freed by lwIP */
	return 0;
}

int64_t try_accept(struct isock *s, struct server_request *rq)
{
	if (!s->listening)
		return -EINVAL;
	if (s->acc_count == 0)
		return rq->in[1] & INET_NONBLOCK ? -EAGAIN : SERVER_LATER;
	struct isock *n = &socks[s->accq[0]];
	memmove(&s->accq[0], &s->accq[1], (s->acc_count - 1) * sizeof(int));
	s->acc_count--;
	n->parent = -1;
	n->owner = rq->d.requester;
	uint64_t addr = 0, port = 0;
	if (n->tcp) {
		tcp_backlog_accepted(n->tcp);
		addr = ip4_addr_get_u32(ip_2_ip4(&n->tcp->remote_ip));
		port = n->tcp->remote_port;
	}
	put_addr(rq, addr, port);
	return (int64_t)sock_handle(n);
}

int64_t do_accept(struct server_request *rq)
{
	struct isock *s = sock_of(rq);
	if (!s)
		return -EBADF;
	if (s->type != INET_STREAM)
		return -EOPNOTSUPP;
	int64_t r = try_accept(s, rq);
	return r == SERVER_LATER ? sock_park(s, rq, PARK_ACCEPT) : r;
}

int64_t try_connect(struct isock *s, struct server_request *rq)
{
	(void)rq;
	if (s->connected)
		return 0;
	if (s->err) {
		int e = s->err;
		s->err = 0;
		return -e;
	}
	if (s->connecting)
		return SERVER_LATER;
	return -ECONNABORTED;
}

int64_t do_connect(struct server_request *rq)
{
	struct isock *s = sock_of(rq);
	if (!s)
		return -EBADF;
	uint32_t addr = (uint32_t)rq->in[1];
	uint64_t port = rq->in[2];
	bool nonblock = rq->in[3] & INET_NONBLOCK;
	if (port > 0xffff)
		return -EINVAL;
	if (s->type == INET_RAW)
		return rawsock_connect(s, addr);
	ip_addr_t ip;
	ip_of(&ip, addr);
	if (s->type == INET_DGRAM) {
		if (!s->udp)
			return -EINVAL;
		if (addr == 0 && port == 0) {
			udp_disconnect(s->udp);
			return 0;
		}
		return -sock_errno(udp_connect(s->udp, &ip, (u16_t)port));
	}
	if (s->listening)
		return -EINVAL;
	if (s->connected)
		return -EISCONN;
	if (s->connecting)
		return nonblock ? -EALREADY : sock_park(s, rq, PARK_CONNECT);
	if (!s->tcp)
		return s->err ? -s->err : -ECONNABORTED;
	if (port == 0)
		return -ECONNREFUSED;
	err_t e = tcp_connect(s->tcp, &ip, (u16_t)port, sock_on_connected);
	if (e != ERR_OK)
		return -sock_errno(e);
	s->connecting = true;
	if (nonblock)
		return -EINPROGRESS;
	return sock_park(s, rq, PARK_CONNECT);
}

/* The bytes of a send or the room of a receive: data ICA 0 from offset. */
static uint8_t *io_area(struct server_request *rq, uint64_t offset, uint64_t len)
{
	uint64_t size = 0;
	uint8_t *data = server_data(rq, 0, &size);
	if (!data || offset > size || len > size - offset)
		return NULL;
	return data + offset;
}

static int64_t send_udp(struct isock *s, struct server_request *rq, const uint8_t *bytes,
                        uint64_t len)
{
	if (len > UDP_PAYLOAD_MAX)
		return -EMSGSIZE;
	if (!s->udp)
		return -EINVAL;
	bool addressed = rq->in[3] & INET_ADDRESSED;
	if (!addressed && !(s->udp->flags & UDP_FLAGS_CONNECTED))
		return -EDESTADDRREQ;
	if (addressed && rq->in[5] > 0xffff)
		return -EINVAL;
	struct pbuf *p = pbuf_alloc(PBUF_TRANSPORT, (u16_t)len, PBUF_RAM);
	if (!p)
		return -ENOBUFS;
	pbuf_take(p, bytes, (u16_t)len);
	err_t e;
	if (addressed) {
		ip_addr_t ip;
		ip_of(&ip, rq->in[4]);
		if (ip4_addr_isbroadcast_u32((u32_t)rq->in[4], &tcpip_eth) && !s->broadcast) {
			pbuf_free(p);
			return -EACCES;
		}
		e = udp_sendto(s->udp, p, &ip, (u16_t)rq->in[5]);
	} else {
		e = udp_send(s->udp, p);
	}
	pbuf_free(p);
	return e == ERR_OK ? (int64_t)len : -sock_errno(e);
}

int64_t try_send(struct isock *s, struct server_request *rq)
{
	if (rq->in[3] & INET_ZEROCOPY)
		return zc_try_send(s, rq);
	uint64_t len = rq->in[2], done = rq->in[SEND_PROGRESS];
	const uint8_t *bytes = io_area(rq, rq->in[1], len);
	if (!bytes)
		return -EFAULT;
	if (s->err) {
		int e = s->err;
		s->err = 0;
		return done ? (int64_t)done : -e;
	}
	if (s->tx_shut || (!s->tcp && s->connected))
		return done ? (int64_t)done : -EPIPE;
	if (!s->connected) {   /* never connected: EPIPE, as Linux */
		if (s->connecting)
			return rq->in[3] & INET_NONBLOCK ? -EAGAIN : SERVER_LATER;
		return -EPIPE;
	}
	while (done < len) {
		uint32_t room = tcp_sndbuf(s->tcp);
		uint64_t n = len - done;
		if (n > room)
			n = room;
		if (n > TCP_CHUNK)
			n = TCP_CHUNK;
		if (n == 0 || tcp_sndqueuelen(s->tcp) >= TCP_SND_QUEUELEN - 4)
			break;
		if (tcp_write(s->tcp, bytes + done, (u16_t)n, TCP_WRITE_FLAG_COPY) != ERR_OK)
			break;
		done += n;
	}
	tcp_output(s->tcp);
	rq->in[SEND_PROGRESS] = done;
	if (done == len)
		return (int64_t)len;
	if (rq->in[3] & INET_NONBLOCK)
		return done ? (int64_t)done : -EAGAIN;
	return SERVER_LATER;
}

int64_t do_send(struct server_request *rq)
{
	struct isock *s = sock_of(rq);
	if (!s)
		return -EBADF;
	uint64_t len = rq->in[2];
	if (rq->in[3] & INET_ZEROCOPY) {
		int64_t r = zc_try_send(s, rq);
		return r == SERVER_LATER ? sock_park(s, rq, PARK_SEND) : r;
	}
	if (len > INET_SEND_MAX)
		return -EMSGSIZE;
	const uint8_t *bytes = io_area(rq, rq->in[1], len);
	if (!bytes && len)
		return -EFAULT;
	if (s->type == INET_DGRAM)
		return send_udp(s, rq, bytes, len);
	if (s->type == INET_RAW)
		return rawsock_send(s, bytes, len, rq->in[3] & INET_ADDRESSED, (uint32_t)rq->in[4]);
	rq->in[SEND_PROGRESS] = 0;
	if (len == 0)
		return s->connected ? 0 : -ENOTCONN;
	int64_t r = try_send(s, rq);
	return r == SERVER_LATER ? sock_park(s, rq, PARK_SEND) : r;
}

static int64_t recv_udp(struct isock *s, struct server_request *rq, uint8_t *to, uint64_t want)
{
	if (!s->dq_count)
		return rq->in[2] & INET_NONBLOCK ? -EAGAIN : SERVER_LATER;
	struct dgram *d = &s->dq[s->dq_head];
	uint64_t n = d->p->tot_len < want ? d->p->tot_len : want;
	pbuf_copy_partial(d->p, to, (u16_t)n, 0);
	put_addr(rq, d->addr, d->port);
	server_out(rq, INET_RESULT_FULL, d->p->tot_len);
	if (!(rq->in[2] & INET_PEEK)) {
		pbuf_free(d->p);
		s->dq_head = (s->dq_head + 1) % DGRAM_QUEUE;
		s->dq_count--;
	}
	return (int64_t)n;
}

/* MSG_WAITALL: whether a blocking stream receive of want bytes waits
 * still; nothing is taken before it goes on, so that a signal or a
 * timeout (sock_expire takes the flag away) loses no byte. */
static bool waits_for_all(const struct isock *s, const struct server_request *rq, uint64_t want)
{
	uint64_t flags = rq->in[2];
	if (!(flags & INET_WAITALL) || flags & (INET_NONBLOCK | INET_PEEK))
		return false;
	uint64_t enough = want < INET_WAITALL_MAX ? want : INET_WAITALL_MAX;
	/* A full ring takes no more from lwIP: waiting on would never end. */
	return s->rx_bytes < enough && s->rx_count < RXQ_MAX && !s->rx_eof && !s->err && s->tcp &&
	       s->connected;
}

int64_t try_recv(struct isock *s, struct server_request *rq)
{
	uint64_t size = 0;
	uint8_t *to = server_data(rq, 0, &size);
	uint64_t want = rq->in[1];
	if (want > size)
		want = size;
	if (want > INET_RECV_MAX)
		want = INET_RECV_MAX;
	if (!to)
		return -EFAULT;
	if (s->type != INET_STREAM)
		return recv_udp(s, rq, to, want);   /* raw sockets' datagrams too */
	if (s->listening)
		return -ENOTCONN;
	if (waits_for_all(s, rq, want))
		return SERVER_LATER;
	if (s->rx_count && want) {
		bool peek = rq->in[2] & INET_PEEK;
		uint64_t n = rxq_take(s, to, want, peek);
		if (!peek) {
			for (uint64_t left = n; s->tcp && left;) {
				uint64_t k = left > TCP_CHUNK ? TCP_CHUNK : left;
				tcp_recved(s->tcp, (u16_t)k);
				left -= k;
			}
		}
		server_out(rq, INET_RESULT_FULL, n);   /* a stream names no source */
		return (int64_t)n;
	}
	if (s->rx_eof)
		return 0;
	if (s->err) {
		int e = s->err;
		s->err = 0;
		return -e;
	}
	if (!s->tcp)   /* the connection is gone, its error told: the end */
		return s->connected ? 0 : -ENOTCONN;
	if (!s->connected && !s->connecting)
		return -ENOTCONN;
	if (want == 0)
		return 0;
	return rq->in[2] & INET_NONBLOCK ? -EAGAIN : SERVER_LATER;
}

int64_t do_recv(struct server_request *rq)
{
	struct isock *s = sock_of(rq);
	if (!s)
		return -EBADF;
	int64_t r = try_recv(s, rq);
	return r == SERVER_LATER ? sock_park(s, rq, PARK_RECV) : r;
}

int64_t do_shutdown(struct server_request *rq)
{
	struct isock *s = sock_of(rq);
	if (!s)
		return -EBADF;
	uint64_t how = rq->in[1];
	if (how > 2)
		return -EINVAL;
	if (s->type == INET_DGRAM || !s->connected)
		return -ENOTCONN;
	if (how != 1) {   /* reading ends here: what comes is thrown away */
		s->rx_eof = true;
		rxq_drop(s);
	}
	if (how != 0 && !s->tx_shut) {
		s->tx_shut = true;
		if (s->tcp)
			tcp_shutdown(s->tcp, 0, 1);
	}
	sock_kick(s);
	return 0;
}

int64_t do_name(struct server_request *rq)
{
	struct isock *s = sock_of(rq);
	if (!s)
		return -EBADF;
	bool peer = rq->in[1] != 0;
	const ip_addr_t *ip = NULL;
	uint16_t port = 0;
	if (s->tcp) {
		ip = peer ? &s->tcp->remote_ip : &s->tcp->local_ip;
		port = peer ? s->tcp->remote_port : s->tcp->local_port;
		if (peer && !s->connected)
			return -ENOTCONN;
	} else if (s->udp) {
		ip = peer ? &s->udp->remote_ip : &s->udp->local_ip;
		port = peer ? s->udp->remote_port : s->udp->local_port;
		if (peer && !(s->udp->flags & UDP_FLAGS_CONNECTED))
			return -ENOTCONN;
	} else if (peer) {
		return -ENOTCONN;
	}
	put_addr(rq, ip ? ip4_addr_get_u32(ip_2_ip4(ip)) : 0, port);
	return 0;
}

int64_t do_poll(struct server_request *rq)
{
	struct isock *s = sock_of(rq);
	if (!s)
		return -EBADF;
	s->polled = true;
	return (int64_t)sock_poll(s);
}

int64_t do_ifinfo(struct server_request *rq)
{
	uint64_t mac = 0;
	for (unsigned i = 0; i < 6; i++)
		mac |= (uint64_t)tcpip_eth.hwaddr[i] << (8 * i);
	server_out(rq, 0, ip4_addr_get_u32(netif_ip4_addr(&tcpip_eth)));
	server_out(rq, 1, ip4_addr_get_u32(netif_ip4_netmask(&tcpip_eth)));
	server_out(rq, 2, ip4_addr_get_u32(netif_ip4_gw(&tcpip_eth)));
	server_out(rq, 3, mac);
	server_out(rq, 4, (netif_is_up(&tcpip_eth) ? INET_IF_UP : 0) |
	                  (netif_is_link_up(&tcpip_eth) ? INET_IF_RUNNING : 0));
	server_out(rq, 5, tcpip_eth.mtu);
	return 0;
}

int64_t do_stats(struct server_request *rq)
{
	if (rq->in[0] == INET_STATS_MORE)
		zc_stats(SERVER_OUT(rq, struct inet_stats_more));
	else if (rq->in[0] == 0)
		*SERVER_OUT(rq, struct inet_stats) = tcpip_counters;
	else
		return -EINVAL;
	return 0;
}

int64_t do_tick(struct server_request *rq)
{
	if (rq->d.requester != tcpip_pid)
		return -EPERM;
	sys_check_timeouts();
	sock_expire(myrmex_now_ns());
	link_retry();
	zc_pending = true;   /* a closed connection's pcb may have gone quietly */
	tcpip_counters.ticks++;
	return 0;
}

int64_t do_cancel(struct server_request *rq)
{
	return sock_cancel(rq->d.requester, rq->in[0]) ? 0 : -ENOENT;
}

int64_t do_exit(struct server_request *rq)
{
	sock_exit((int)rq->in[0]);
	return 0;
}
