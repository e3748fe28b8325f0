/*
 * The Ethernet protocol server: what its files share. main.c asks the NIC
 * driver for the MAC, posts the receive slots and hands the server to the
 * server library; table.c maps the network protocol's opcodes
 * (include/myrmex/net.h) to the handlers; send.c passes a program's send on
 * to the driver with the header written in front; recv.c keeps receive
 * requests at the driver (the slots); deliver.c gives the frames they
 * bring to the programs' receivers by EtherType, a copy to each but the
 * last. One thread: no locks.
 */
#ifndef ETH_H
#define ETH_H

#include <stdint.h>
#include <myrmex.h>
#include <myrmex/net.h>
#include <server.h>

#define ETH_NAME "eth"

extern const struct server eth_server;
extern struct eth_stats eth_counters;
extern struct eth_stats_more eth_more;

/* A frame in one of our ICAs: the whole frame at offset, length bytes. */
struct eth_frame {
	uint32_t ica;
	uint32_t offset, length;   /* header included */
	uint64_t src;
	uint16_t type;
	uint8_t outgoing;          /* one we sent (ETH_P_ALL receivers' copies) */
};
extern uint64_t eth_mac;   /* ours, from the driver's NET_INFO */

int64_t do_send(struct server_request *rq);
int64_t do_info(struct server_request *rq);
int64_t do_recv(struct server_request *rq);
/* NET_CANCEL: a waiting receive of the caller's answered -ECANCELED. */
int64_t do_cancel(struct server_request *rq);
int64_t do_stats(struct server_request *rq);

/* The most receives the server keeps at the driver, and frames it keeps
 * queued for programs' later receives (the defaults). */
#define RECV_SLOTS_MAX 8u
#define ETH_QUEUE_MAX 16u

/* recv.c: allocates slots (1..RECV_SLOTS_MAX) receive slots' ICAs and
 * posts them at the driver, then deliver_init(queue). 0 or -errno. */
int recv_init(unsigned slots, unsigned queue);
/* recv.c: posts the idle slots again (after the driver failed some, or
 * died and was started again): how many are at the driver now. */
unsigned slots_refill(void);
/* deliver.c: the spare ICAs of a queue of queue (1..ETH_QUEUE_MAX)
 * frames. 0 or -errno. */
int deliver_init(unsigned queue);
/* deliver.c: a good frame from a slot to every receiver it matches; the
 * ICA the slot takes as its next buffer. */
uint32_t deliver_frame(const struct eth_frame *fr);
/* deliver.c: copies of a frame we send (its bytes, whole) to the
 * receivers of every frame (NET_ETHERTYPE_ALL). */
void deliver_outgoing(const uint8_t *frame, uint32_t length);
/* deliver.c: the driver ended: every parked receive gets -ENETDOWN. */
void deliver_driver_gone(void);
/* deliver.c: the delivery counters (NET_STATS_MORE). */
void deliver_count(struct eth_stats_more *m);
/* recv.c: the result of one of our receives at the driver (the server
 * library's result callback). */
void recv_result(const struct myrmex_delivery *d);

/* send.c: pushes a frame for the driver onto rq's control ICA, with
 * direct return, and calls it asynchronously: SERVER_LATER, or -errno
 * with nothing sent. */
int64_t eth_pass_on(struct server_request *rq, uint32_t opcode, uint64_t a0, uint64_t a1);

#endif
