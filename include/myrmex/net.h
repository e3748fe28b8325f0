/*
 * The network protocols: what a client sends to the NIC driver server
 * (servers/net/virtio_net or servers/net/rtl8139, coreid MYRMEX_COREID_NIC)
 * and to the Ethernet
 * protocol server (servers/net/eth, coreid MYRMEX_COREID_ETH), and what it
 * gets back. docs/net.md describes both servers.
 *
 * Frames travel in data ICAs: the device reads a sent frame from the
 * caller's ICA and writes a received one into an ICA that then goes to the
 * receiver (virtio_net: no copy). Two drivers serve the driver protocol,
 * one at a time: virtio_net and rtl8139 (servers/net/rtl8139), whose
 * device writes into a ring, out of which each received frame is copied
 * once into the receiver's ICA (counted: NET_STATS_MORE). A frame is named
 * by its byte offset in the frame's first data ICA and its length.
 *
 * Driver (MYRMEX_COREID_NIC); frames are whole Ethernet frames without FCS:
 *
 *   NET_SEND   arg[0] offset, arg[1] length (NET_FRAME_MIN..NET_FRAME_MAX),
 *              the frame in data ICA 0, which comes back with the result
 *              once the device has read it. status: the length sent.
 *   NET_RECV   data ICA 0: an empty ICA (>= 1 page) lent to the driver,
 *              which keeps it as a receive buffer. The request waits
 *              (parked) until a frame arrives, or takes the oldest queued
 *              one; it comes back with another ICA, the one the device
 *              wrote the frame into: arg[0] the frame's offset in it,
 *              arg[1] its length. The bytes of the ICA outside the frame
 *              are zero (or a virtio header), never anyone's memory.
 *              status: the length.
 *   NET_INFO   arg[0] the MAC address (byte i of the address in bits
 *              8i..8i+7), arg[1] NET_LINK_UP when the link is up,
 *              arg[2] NET_FRAME_MAX.
 *   NET_STATS  arg[0] NET_STATS_BASIC (0): arg[0..7] the counters
 *              (struct net_stats); arg[0] NET_STATS_MORE: arg[0..7] the
 *              copy and device counters (struct net_stats_more).
 *
 * Ethernet server (MYRMEX_COREID_ETH), payloads without the header:
 *
 *   NET_SEND   arg[0] offset of the payload in data ICA 0 (>= NET_ETH_HLEN:
 *              the server writes the header in the NET_ETH_HLEN bytes
 *              before it, headroom the sender leaves), arg[1] its length
 *              (0..NET_PAYLOAD_MAX; the driver pads nothing, so send at
 *              least NET_PAYLOAD_MIN for a real wire), arg[2] the
 *              destination MAC (as NET_INFO's), arg[3] the EtherType
 *              (>= NET_ETHERTYPE_MIN). The server passes the call on to the
 *              driver, whose result comes straight back (direct return):
 *              status the frame's length (payload + NET_ETH_HLEN).
 *   NET_RECV   arg[3] the EtherType wanted (or NET_ETHERTYPE_ALL: every
 *              frame, and copies of those sent through this server);
 *              data ICA 0 lent as for the driver (one page). Comes back
 *              with the frame's ICA (or the lent one, holding a copy):
 *              arg[0] the payload's offset, arg[1] its length, arg[2] the
 *              source MAC, arg[3] the EtherType, arg[4] NET_RX_OUTGOING for
 *              a frame this host sent. status: the payload length. Each
 *              program that asks for a type is a receiver of it and gets
 *              every frame of it (copied for all receivers but one) until
 *              it cancels its last waiting receive or ends.
 *   NET_INFO   as the driver's (the Ethernet server asks it).
 *   NET_STATS  arg[0] NET_STATS_BASIC: arg[0..7] the server's counters
 *              (struct eth_stats); NET_STATS_MORE: struct eth_stats_more.
 *   NET_CANCEL arg[0] the control ICA handle of a NET_RECV of the caller's
 *              own that waits here: answered at once with -ECANCELED (its
 *              lent ICA back); when none of the caller's receives of that
 *              type waits any more, it is no receiver of the type now.
 *              status 0, or -ENOENT when none waits (its answer may be on
 *              the way).
 *
 * Errors (status < 0): -EINVAL a missing or too small data ICA, a frame
 * that does not lie inside it, an EtherType below NET_ETHERTYPE_MIN, too
 * little headroom; -EMSGSIZE a frame longer than NET_FRAME_MAX (or a
 * payload longer than NET_PAYLOAD_MAX); -EAGAIN too many requests waiting
 * already (receives: NET_RECV_PARKED_MAX per server); -ENOSYS an unknown
 * opcode; -ENETDOWN (Ethernet server) no driver runs: a send finds none
 * registered, a receive finds no receive of its own at the driver, and
 * the receives waiting when the driver ends are answered with it. The
 * kernel adds -EPIPE if the server called dies (a send in flight at the
 * driver when it dies comes back with it, directly).
 */
#ifndef MYRMEX_NET_H
#define MYRMEX_NET_H

#include <stdint.h>

#define MYRMEX_COREID_NIC 7u   /* the NIC driver server */
#define MYRMEX_COREID_ETH 8u   /* the Ethernet protocol server */

#define NET_SEND  1u
#define NET_RECV  2u
#define NET_INFO  3u
#define NET_STATS 4u
#define NET_CANCEL 5u   /* Ethernet server only */

#define NET_ETH_HLEN       14u     /* destination, source, EtherType */
#define NET_FRAME_MIN      14u     /* a header and nothing else */
#define NET_FRAME_MAX      1514u   /* an MTU of 1500, without FCS */
#define NET_PAYLOAD_MIN    46u     /* what fills a frame to the wire's 60 bytes */
#define NET_PAYLOAD_MAX    (NET_FRAME_MAX - NET_ETH_HLEN)
#define NET_ETHERTYPE_MIN  0x0600u /* below: an 802.3 length, not a type */
#define NET_ETHERTYPE_ALL  0x0003u /* NET_RECV: every frame (Linux's ETH_P_ALL) */
#define NET_RX_OUTGOING    1u      /* NET_RECV's arg[4]: a frame this host sent */
#define NET_RECV_PARKED_MAX 32u    /* receive requests one server keeps waiting */

#define NET_LINK_UP 1u             /* NET_INFO arg[1] */

/* Typed views of the frame's uint64_t arg[8]: one uint64_t per word. */
struct net_frame_args {      /* NET_SEND in, NET_RECV out */
	uint64_t offset;         /* bytes into data ICA 0 */
	uint64_t length;         /* bytes */
	uint64_t mac;            /* Ethernet server: destination (send), source (receive) */
	uint64_t ethertype;      /* Ethernet server: the type */
	uint64_t flags;          /* Ethernet server's NET_RECV: NET_RX_OUTGOING */
};
struct net_info_result {     /* NET_INFO */
	uint64_t mac;
	uint64_t link;           /* NET_LINK_UP or 0 */
	uint64_t frame_max;      /* NET_FRAME_MAX */
};
/* The driver's counters (NET_STATS). Frames refused before the device saw
 * them (bad or oversized sends) are tx_errors; received frames the driver
 * threw away are rx_errors when malformed (shorter than a header, longer
 * than NET_FRAME_MAX) and rx_dropped when no one took them in time (the
 * queue of NET_RX_QUEUE_MAX frames was full). */
struct net_stats {
	uint64_t tx_frames, tx_bytes, tx_errors;
	uint64_t rx_frames, rx_bytes, rx_errors, rx_dropped;
	uint64_t interrupts;
};
/* NET_STATS with arg[0] NET_STATS_MORE: the driver's other counters. */
#define NET_STATS_BASIC 0u
#define NET_STATS_MORE  1u
struct net_stats_more {
	uint64_t rx_copies;      /* received frames copied by the CPU (RTL8139: out of its ring) */
	uint64_t rx_copy_bytes;  /* the bytes those copies moved */
	uint64_t tx_copies;      /* sent frames copied (none: both drivers send by DMA) */
	uint64_t rx_overflows;   /* the device's receive buffer or FIFO overflowed */
	uint64_t rx_missed;      /* frames the device dropped for want of room */
	uint64_t tx_device_errors; /* sends the device failed (aborted, underrun) */
	uint64_t resets;         /* device resets after a corrupt ring header */
	uint64_t rx_wrapped;     /* copies in two pieces: the frame wrapped at the ring's end */
};
/* The Ethernet server's counters (NET_STATS to MYRMEX_COREID_ETH). */
struct eth_stats {
	uint64_t tx_frames;      /* sends passed on to the driver */
	uint64_t tx_errors;      /* sends refused by the checks */
	uint64_t rx_frames;      /* frames given to a receiver */
	uint64_t rx_dropped;     /* frames no receiver took (queue full) */
	uint64_t rx_errors;      /* frames from the driver too short for a header */
	uint64_t rx_bytes;       /* payload bytes given to receivers */
	uint64_t rx_queued;      /* frames that waited in the queue for a receiver */
	uint64_t driver_errors;  /* receive requests the driver answered with an error */
};
/* NET_STATS with arg[0] NET_STATS_MORE to the Ethernet server. */
struct eth_stats_more {
	uint64_t rx_copies;      /* received frames copied: one per receiver but the last */
	uint64_t rx_copy_bytes;  /* the bytes those copies moved (headers included) */
	uint64_t tx_copies;      /* sent frames copied to NET_ETHERTYPE_ALL receivers */
	uint64_t receivers;      /* receivers now (a program's interest in a type) */
	uint64_t receivers_gone; /* receivers ended (cancelled, or their program gone) */
	uint64_t pad[3];
};
_Static_assert(sizeof(struct net_frame_args) <= 64, "net_frame_args fits arg[]");
_Static_assert(sizeof(struct net_info_result) <= 64, "net_info_result fits arg[]");
_Static_assert(sizeof(struct net_stats) == 64, "net_stats fills arg[]");
_Static_assert(sizeof(struct net_stats_more) == 64, "net_stats_more fills arg[]");
_Static_assert(sizeof(struct eth_stats) == 64, "eth_stats fills arg[]");
_Static_assert(sizeof(struct eth_stats_more) == 64, "eth_stats_more fills arg[]");

#define NET_RX_QUEUE_MAX 16u       /* frames the driver keeps for later receives */

#endif
