/*
 * The TCP/IP protocol: what the file manager (and native programs with the
 * right) send to the TCP/IP server (servers/net/tcpip, coreid
 * MYRMEX_COREID_INET), which runs lwIP over the Ethernet server; docs/net.md,
 * "TCP/IP". A socket is named by a handle the server gives (a number of
 * the server's run, the slot and a generation: a closed socket's handle, or
 * one kept across a restart of the server, never names another).
 *
 * POSIX programs reach it through the file manager, which keeps their
 * sockets as descriptors and passes every call on, with the handle in
 * place of the descriptor, as the next stage of the program's own call
 * with direct return (fileman/inet.c); the server answers parked calls
 * (accept, connect, a receive with nothing queued, a send with no room)
 * when lwIP says they can go on.
 *
 *   INET_SOCKET   arg0 INET_STREAM, INET_DGRAM or INET_RAW (arg1 its IP
 *                 protocol: datagrams are received with their IP header,
 *                 sent without, as Linux's raw sockets) -> status the handle
 *   INET_CLOSE    arg0 handle -> 0 (parked calls on it end with -EBADF)
 *   INET_BIND     arg0 handle, arg1 IPv4 address (network order, in the low
 *                 32 bits), arg2 port (host order, 0: any) -> 0
 *   INET_LISTEN   arg0 handle, arg1 backlog -> 0
 *   INET_ACCEPT   arg0 handle, arg1 INET_NONBLOCK -> status the new handle,
 *                 the peer's address (INET_RESULT_ADDR); waits (parked)
 *                 for a connection unless INET_NONBLOCK (-EAGAIN)
 *   INET_CONNECT  arg0 handle, arg1 address, arg2 port, arg3 INET_NONBLOCK
 *                 -> 0 once connected (TCP waits; non-blocking: -EINPROGRESS)
 *   INET_SEND     arg0 handle, arg1 offset of the bytes in data ICA 0, arg2
 *                 their length, arg3 flags (INET_NONBLOCK, INET_ADDRESSED),
 *                 arg4 address, arg5 port (INET_ADDRESSED: a datagram's
 *                 destination) -> status the bytes taken; TCP waits for
 *                 room in the send buffer unless INET_NONBLOCK.
 *                 With INET_ZEROCOPY (paper 002's send path, TCP): data
 *                 ICA 0 is one page, the payload at offset arg1 >=
 *                 INET_ZC_HEADROOM, arg2 at most the connection's MSS; the
 *                 server keeps that ICA (its headroom takes the headers,
 *                 the device reads the frame from it) and the answer
 *                 carries another one-page ICA in its place, once the NIC
 *                 driver has given the frame to the device; -EMSGSIZE
 *                 above the MSS, -EINVAL for a bad ICA or offset
 *   INET_RECV     arg0 handle, arg1 the most bytes wanted, arg2 flags
 *                 (INET_NONBLOCK, INET_PEEK, INET_WAITALL: a stream's
 *                 receive waits until min(arg1, INET_WAITALL_MAX) bytes
 *                 are queued, the end, an error or its timeout; nothing is
 *                 taken before, so an interrupted one loses no byte) ->
 *                 status the bytes, written at
 *                 offset 0 of data ICA 0; arg2 a datagram's full length, the
 *                 source (INET_RESULT_ADDR); 0 at the end of a stream
 *   INET_SHUTDOWN arg0 handle, arg1 0 read, 1 write, 2 both -> 0
 *   INET_NAME     arg0 handle, arg1 0 local / 1 peer -> the address
 *                 (INET_RESULT_ADDR)
 *   INET_SETOPT   arg0 handle, arg1 INET_OPT_*, arg2 value -> 0
 *   INET_GETOPT   arg0 handle, arg1 INET_OPT_* -> arg0 value
 *   INET_POLL     arg0 handle -> status the POLL* bits ready now
 *   INET_IFINFO   -> arg0 address, arg1 mask, arg2 gateway, arg3 MAC,
 *                 arg4 INET_IF_* flags, arg5 MTU (the Ethernet interface)
 *   INET_STATS    arg0 0 -> arg0..7 struct inet_stats; arg0
 *                 INET_STATS_MORE -> struct inet_stats_more
 *   INET_CANCEL   the kernel only: arg0 the control ICA handle of a parked
 *                 call of the notice's process, whose thread a signal took
 *                 away: answered -EINTR at once (to nobody) -> 0 or -ENOENT
 *   INET_EXIT     the kernel only: arg0 a pid that ended: its parked calls
 *                 are answered (to nobody), so that what they would take
 *                 goes to the sockets' other users -> 0
 *   INET_NETINFO  data ICA 0 (a page at least) <- struct inet_netinfo: the
 *                 interfaces' counters and every TCP, UDP and raw pcb
 *                 (the file manager's /proc/net) -> status the bytes
 *   INET_ROUTE    arg0 INET_ROUTE_ADD or INET_ROUTE_DEL, arg1 the gateway
 *                 (network order): the default route, lwIP's one gateway
 *                 of the Ethernet interface (the file manager checks the
 *                 caller's privilege) -> 0, -EEXIST (one is there),
 *                 -ESRCH (none to delete), -ENETUNREACH (a gateway not on
 *                 the interface's network)
 *
 * Every call that names a handle must come from the process that made the
 * socket (the file manager for POSIX programs' sockets; a native program
 * for its own): another caller gets -EBADF. A native program's sockets are
 * closed when it ends (INET_EXIT).
 *
 * An address in a result: word 4 INET_FAMILY (Linux's AF_INET, so that a
 * result word tells an inet answer from a packet socket's), word 5 the
 * IPv4 address (network order), word 6 the port (host order). Word 7 is
 * never written (the file manager's FS_RESULT_KIND rides there).
 *
 * Errors are Linux's errno values, as a socket call returns them.
 */
#ifndef MYRMEX_INET_H
#define MYRMEX_INET_H

#include <stdint.h>

#define MYRMEX_COREID_INET 10u

#define INET_SOCKET   1u
#define INET_CLOSE    2u
#define INET_BIND     3u
#define INET_LISTEN   4u
#define INET_ACCEPT   5u
#define INET_CONNECT  6u
#define INET_SEND     7u
#define INET_RECV     8u
#define INET_SHUTDOWN 9u
#define INET_NAME     10u
#define INET_SETOPT   11u
#define INET_GETOPT   12u
#define INET_POLL     13u
#define INET_IFINFO   14u
#define INET_STATS    15u
#define INET_CANCEL   17u   /* 16 is the server's own tick */
#define INET_EXIT     18u
#define INET_NETINFO  19u
#define INET_ROUTE    20u

#define INET_ROUTE_ADD 1u
#define INET_ROUTE_DEL 2u

#define INET_FAMILY 2u          /* Linux's AF_INET */
#define INET_RESULT_FAMILY 4u
#define INET_RESULT_ADDR   5u
#define INET_RESULT_PORT   6u
#define INET_RESULT_FULL   2u   /* INET_RECV: a datagram's whole length */

#define INET_STREAM 1u
#define INET_DGRAM  2u
#define INET_RAW    3u   /* arg1 of INET_SOCKET: the IP protocol (1..255) */

#define INET_NONBLOCK  1u
#define INET_ADDRESSED 2u
#define INET_PEEK      4u
#define INET_WAITALL   8u
#define INET_ZEROCOPY  16u

#define INET_ZC_HEADROOM 64u    /* >= Ethernet + IPv4 + TCP headers (54) */
#define INET_STATS_MORE  1u

#define INET_IF_UP       1u
#define INET_IF_RUNNING  2u

/* Options (INET_SETOPT, INET_GETOPT): Linux's level and name folded. */
#define INET_OPT_REUSEADDR 1u
#define INET_OPT_KEEPALIVE 2u
#define INET_OPT_RCVBUF    3u
#define INET_OPT_SNDBUF    4u
#define INET_OPT_ERROR     5u   /* get only: the pending error, cleared */
#define INET_OPT_NODELAY   6u
#define INET_OPT_TYPE      7u   /* get only */
#define INET_OPT_ACCEPTCONN 8u  /* get only */
#define INET_OPT_BROADCAST 9u
#define INET_OPT_RCVTIMEO  10u  /* nanoseconds, 0: none (a timed-out call: -EAGAIN) */
#define INET_OPT_SNDTIMEO  11u  /* nanoseconds, 0: none */
#define INET_OPT_LINGER    12u  /* bit 32 l_onoff, bits 0..31 l_linger (seconds) */
#define INET_OPT_TTL       13u  /* IP_TTL: 1..255, -1 the default */
#define INET_OPT_MAXSEG    14u  /* TCP_MAXSEG */
#define INET_OPT_PROTOCOL  15u  /* get only: SO_PROTOCOL */
#define INET_OPT_REUSEPORT 16u  /* kept and reported; lwIP has no port sharing */
#define INET_OPT_KEEPIDLE  17u  /* TCP_KEEPIDLE, seconds */
#define INET_OPT_KEEPINTVL 18u  /* TCP_KEEPINTVL, seconds */
#define INET_OPT_KEEPCNT   19u  /* TCP_KEEPCNT */
#define INET_OPT_TOS       20u  /* IP_TOS */
#define INET_LINGER_ON (1ull << 32)

#define INET_SEND_MAX (256u * 1024u)   /* bytes one INET_SEND carries */
#define INET_RECV_MAX (256u * 1024u)   /* bytes one INET_RECV returns */
#define INET_WAITALL_MAX (128u * 1024u) /* what MSG_WAITALL waits for at most (half the window) */

struct inet_stats {
	uint64_t frames_in, frames_out;   /* Ethernet frames to and from lwIP */
	uint64_t copies_in, copies_out;   /* frame copies (ICA <-> lwIP buffers) */
	uint64_t frames_dropped;          /* sends lost for want of a frame ICA */
	uint64_t sockets;                 /* open now */
	uint64_t parked;                  /* calls waiting now */
	uint64_t ticks;                   /* timer rounds run */
};
_Static_assert(sizeof(struct inet_stats) == 64, "inet_stats fills arg[]");

/* Paper 002's send path (INET_ZEROCOPY), INET_STATS with INET_STATS_MORE. */
struct inet_stats_more {
	uint64_t sends;                   /* INET_ZEROCOPY sends taken */
	uint64_t frames;                  /* frames sent from a kept ICA (no copy) */
	uint64_t kept;                    /* ICAs kept now (segments refer to them) */
	uint64_t spare;                   /* spare ICAs now */
	uint64_t released;                /* kept ICAs let go (no segment left) */
	uint64_t reserved[3];
};
_Static_assert(sizeof(struct inet_stats_more) == 64, "inet_stats_more fills arg[]");

/* INET_NETINFO's answer. Addresses in network order, ports in host order;
 * states are Linux's numbers (TCP_ESTABLISHED 1 ... TCP_LISTEN 10,
 * TCP_CLOSING 11; a UDP pcb is 7, CLOSE, or 1 when connected). */
struct inet_ifcount {
	uint64_t rx_bytes, rx_packets, tx_bytes, tx_packets, rx_drops, tx_drops;
};
struct inet_pcbinfo {
	uint8_t proto;                /* 6 TCP, 17 UDP, else a raw pcb's protocol */
	uint8_t state;
	uint16_t local_port, remote_port;
	uint16_t pad;
	uint32_t local_addr, remote_addr;
	uint32_t tx_queue, rx_queue;  /* bytes not yet acknowledged / not yet read */
};
#define INET_NETINFO_PCBS 160u
struct inet_netinfo {
	struct inet_ifcount eth, lo;
	uint32_t gateway, npcbs;      /* the default route (0: none); records below */
	struct inet_pcbinfo pcbs[INET_NETINFO_PCBS];
};
_Static_assert(sizeof(struct inet_pcbinfo) == 24, "inet_pcbinfo's layout");
_Static_assert(sizeof(struct inet_netinfo) <= 4096, "inet_netinfo fits a page");

#endif
