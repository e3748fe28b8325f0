/*
 * The TCP/IP protocol server (paper 002, section 4.2.4; docs/net.md,
 * "TCP/IP"): lwIP (Debian's source, NO_SYS, raw API) inside a server. What
 * its files share:
 *
 *   main.c      start-up: the driver's MAC, lwIP, the interfaces, the
 *               ticker, registration; then the server library's loop
 *   table.c     the protocol's opcodes (include/myrmex/inet.h) -> handlers
 *   link.c      the Ethernet interface: frames from the Ethernet server's
 *               receives into lwIP, lwIP's frames to the NIC driver
 *   sock.c      the socket table: handles, lwIP's callbacks, parked calls
 *   calls.c     the handlers of the socket calls
 *   sockopt.c   setsockopt and getsockopt
 *   netinfo.c   /proc/net's facts (INET_NETINFO), the default route
 *               (INET_ROUTE), the interfaces' counters
 *   raw.c       raw IPv4 sockets (SOCK_RAW: ping's ICMP) over lwIP's raw pcbs
 *   lwip_port.c what lwIP asks of its platform (time, randomness, log)
 *
 * One thread runs lwIP (NO_SYS): the main thread, in the handlers and the
 * result callback. The ticker thread only sleeps and calls the server's own
 * INET_TICK, which runs lwIP's timers on the main thread.
 */
#ifndef TCPIP_H
#define TCPIP_H

#include <stdbool.h>
#include <stdint.h>
#include <myrmex.h>
#include <myrmex/inet.h>
#include <myrmex/net.h>
#include <server.h>

#include "lwip/netif.h"
#include "lwip/pbuf.h"
#include "lwip/raw.h"
#include "lwip/tcp.h"
#include "lwip/udp.h"

#define TCPIP_NAME "tcpip"
#define INET_TICK 16u             /* the ticker's own call (server-internal) */
#define TICK_NS (100u * 1000u * 1000u)

extern const struct server tcpip_server;
extern struct inet_stats tcpip_counters;
extern struct netif tcpip_eth;    /* the Ethernet interface */
extern int tcpip_pid;             /* ours: INET_TICK comes only from us */

/* ---- link.c ---- */
/* The MAC from the driver's NET_INFO: 0 or -errno. */
long link_ask_mac(uint8_t mac[6]);
/* lwIP's netif init function for the Ethernet interface. */
err_t link_netif_init(struct netif *netif);
/* Allocates the send slots and posts the receives at the Ethernet server
 * (ARP and IPv4): by default LINK_RX_SLOTS_MAX receives (LINK_RX_ARP_SLOTS
 * of them for ARP) and LINK_TX_SLOTS_MAX sends; few (ICAs in reserved TLB
 * entries: the argument ica=tlb) one receive of each type and two sends.
 * 0 or -errno. */
#define LINK_RX_SLOTS_MAX 16u
#define LINK_RX_ARP_SLOTS 4u
#define LINK_TX_SLOTS_MAX 64u
int link_start(bool few);
/* A result of one of our calls (receives, sends): the library's callback. */
void link_result(const struct myrmex_delivery *d);
/* Posts again the receives that are not out (after a server died). */
void link_retry(void);

struct isock;

/* ---- zcopy.c: paper 002's send path (the payload kept in its ICA) ---- */
extern bool zc_pending;
/* The send control ICA and the spare ICAs (32, or 2 when few: each spare
 * stands for a zero-copy send lwIP may still hold): 0 or -errno. */
int zc_start(bool few);
/* An INET_SEND with INET_ZEROCOPY: as try_send (SERVER_LATER: not yet). */
int64_t zc_try_send(struct isock *s, struct server_request *rq);
/* lwIP's frame p, if its data is one payload in a kept ICA: sent from
 * there (true); false: not such a frame, the caller copies it. */
bool zc_output(struct pbuf *p);
/* Kept ICAs no segment refers to any more go back to the spare pool. */
void zc_reclaim(void);
/* INET_STATS_MORE's answer. */
void zc_stats(struct inet_stats_more *out);

/* ---- sock.c ---- */
enum park_kind { PARK_RECV, PARK_SEND, PARK_ACCEPT, PARK_CONNECT };

struct dgram {                    /* a received datagram waiting */
	struct pbuf *p;
	uint32_t addr;                /* network order */
	uint16_t port;
};

#define SOCK_MAX 64u
#define DGRAM_QUEUE 32u
#define ACCEPT_QUEUE 16u
#define RXQ_MAX 256u

struct isock {
	bool used;
	uint16_t gen;                 /* in the handle: a closed socket's handle names nothing */
	uint8_t type;                 /* INET_STREAM or INET_DGRAM */
	struct tcp_pcb *tcp;          /* NULL once lwIP freed it (an error) or before connect */
	struct udp_pcb *udp;
	struct raw_pcb *raw;          /* INET_RAW */
	uint8_t raw_proto;            /* INET_RAW: its IP protocol */
	bool listening, connecting, connected, rx_eof, tx_shut;
	int err;                      /* the pending error (positive errno), 0: none */
	/* TCP: bytes received and not read, a ring of lwIP's chains (a chain's
	 * length is 16 bits: they are kept apart, never concatenated). */
	struct pbuf *rxq[RXQ_MAX];
	unsigned rx_head, rx_count;
	uint32_t rx_bytes;
	struct dgram dq[DGRAM_QUEUE]; /* UDP, raw: datagrams received and not read */
	unsigned dq_head, dq_count;
	int accq[ACCEPT_QUEUE];       /* listening: connected sockets not accepted yet */
	unsigned acc_count;
	int parent;                   /* an accepted socket not yet taken: its listener */
	int backlog;
	bool nodelay, keepalive, reuseaddr, broadcast, reuseport;
	uint32_t rcvbuf, sndbuf;      /* as set (lwIP's own buffers are fixed) */
	int owner;                    /* the pid that made it (the file manager, or a
	                                 native program): the only one that may use it */
	bool polled;                  /* INET_POLL looked since its last change: the
	                                 next change posts a readiness notice */
	uint64_t rcvtimeo_ns, sndtimeo_ns;   /* 0: a blocking call waits for ever */
	bool linger_on;               /* with linger_s 0: close resets, as Linux */
	uint32_t linger_s;
	uint16_t user_mss;            /* TCP_MAXSEG as set, 0: none */
	int16_t ttl;                  /* IP_TTL as set, -1: the default */
	uint8_t tos;                  /* IP_TOS */
	uint16_t keepidle, keepintvl, keepcnt;   /* TCP_KEEP*, 0: Linux's default */
};

extern struct isock socks[SOCK_MAX];

/* The socket a handle names, or NULL. */
struct isock *sock_get(uint64_t handle);
/* The socket a request's arg0 names, if the caller owns it; else NULL. */
struct isock *sock_of(struct server_request *rq);
uint64_t sock_handle(const struct isock *s);
/* A free slot, with its generation advanced; NULL when all are used. */
struct isock *sock_new(uint8_t type);
/* Frees s: its lwIP state closed, its parked calls answered -EBADF. */
void sock_free(struct isock *s);
/* Sets lwIP's callbacks of a TCP pcb to s. */
void sock_tcp_attach(struct isock *s, struct tcp_pcb *pcb);
/* Parks rq (a copy) on s: SERVER_LATER, or -EAGAIN when the table is full. */
int64_t sock_park(struct isock *s, struct server_request *rq, enum park_kind kind);
/* Marks s: its parked calls are tried again at the next sock_settle. */
void sock_kick(struct isock *s);
/* Runs lwIP's loopback queue and tries the parked calls of every marked
 * socket again: after each request, frame and tick. */
void sock_settle(void);
/* The POLL* bits s is ready for. */
unsigned sock_poll(const struct isock *s);
/* lwIP's connected callback of a TCP pcb whose arg is its socket. */
err_t sock_on_connected(void *arg, struct tcp_pcb *pcb, err_t err);
/* A signal took pid's thread out of the call on control ICA handle: the
 * call parked for it is answered -EINTR (to nobody). Whether one was. */
bool sock_cancel(int pid, uint64_t handle);
/* pid ended: its parked calls are answered (to nobody), the sockets it
 * made itself (a native program's) closed. */
void sock_exit(int pid);
/* Parked calls whose socket's timeout (SO_RCVTIMEO, SO_SNDTIMEO) has run
 * out by now_ns are tried once more as non-blocking ones and answered
 * (what they got, or -EAGAIN; a connect -EINPROGRESS, as Linux). */
void sock_expire(uint64_t now_ns);
/* The stream receive ring of s (sock.c): push a chain lwIP gave (false:
 * full, lwIP keeps it and offers it again); take up to want bytes into to
 * (peek: leave them); drop everything. */
bool rxq_push(struct isock *s, struct pbuf *p);
uint64_t rxq_take(struct isock *s, uint8_t *to, uint64_t want, bool peek);
void rxq_drop(struct isock *s);
/* Linux's errno for an lwIP error. */
int sock_errno(err_t e);

/* ---- raw.c: INET_RAW sockets; each 0 or -errno unless said ---- */
/* Opens s's raw pcb for IP protocol proto. */
int rawsock_open(struct isock *s, uint64_t proto);
/* The bytes (an ICMP message, no IP header) to addr (network order) when
 * addressed, else to the connected peer: the bytes sent or -errno. */
int64_t rawsock_send(struct isock *s, const uint8_t *bytes, uint64_t len, bool addressed,
                     uint32_t addr);
int rawsock_bind(struct isock *s, uint32_t addr);
int rawsock_connect(struct isock *s, uint32_t addr);   /* 0: the peer forgotten */
/* s's raw pcb, or NULL (sockopt.c's IP options). */
struct ip_pcb *sock_raw_pcb(struct isock *s);

/* ---- calls.c: each tries a call; SERVER_LATER means "not yet" and is
 * only returned when blocking is allowed (the caller parks it). ---- */
int64_t try_recv(struct isock *s, struct server_request *rq);
int64_t try_send(struct isock *s, struct server_request *rq);
int64_t try_accept(struct isock *s, struct server_request *rq);
int64_t try_connect(struct isock *s, struct server_request *rq);

int64_t do_socket(struct server_request *rq);
int64_t do_close(struct server_request *rq);
int64_t do_bind(struct server_request *rq);
int64_t do_listen(struct server_request *rq);
int64_t do_accept(struct server_request *rq);
int64_t do_connect(struct server_request *rq);
int64_t do_send(struct server_request *rq);
int64_t do_recv(struct server_request *rq);
int64_t do_shutdown(struct server_request *rq);
int64_t do_name(struct server_request *rq);
int64_t do_setopt(struct server_request *rq);
int64_t do_getopt(struct server_request *rq);
int64_t do_poll(struct server_request *rq);
int64_t do_ifinfo(struct server_request *rq);
int64_t do_stats(struct server_request *rq);
int64_t do_tick(struct server_request *rq);
int64_t do_cancel(struct server_request *rq);
int64_t do_exit(struct server_request *rq);

/* ---- netinfo.c ---- */
/* Wraps the interfaces' input and output to count them: once, after
 * netif_add. */
void ifstats_attach(void);
int64_t do_netinfo(struct server_request *rq);
int64_t do_route(struct server_request *rq);

#endif
