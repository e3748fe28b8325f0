/*
 * The Ethernet protocol server: what its files share. main.c asks the NIC
 * driver for the MAC, posts the receive slots and hands the server to the
 * server library; table.c maps the network protocol's opcodes
 * (include/myrmex/net.h) to the handlers; send.c passes a program's send on
 * to the driver with the header written in front; recv.c keeps receive
 * requests at the driver (the slots), and matches the frames they bring to
 * the programs' receive requests by EtherType. One thread: no locks.
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
extern uint64_t eth_mac;   /* ours, from the driver's NET_INFO */

int64_t do_send(struct server_request *rq);
int64_t do_info(struct server_request *rq);
int64_t do_recv(struct server_request *rq);
/* NET_CANCEL: a waiting receive of the caller's answered -ECANCELED. */
int64_t do_cancel(struct server_request *rq);
int64_t do_stats(struct server_request *rq);

/* recv.c: allocates the receive slots' ICAs and posts them at the driver.
 * 0 or -errno. */
int recv_init(void);
/* recv.c: the result of one of our receives at the driver (the server
 * library's result callback). */
void recv_result(const struct myrmex_delivery *d);

/* send.c: pushes a frame for the driver onto rq's control ICA, with
 * direct return, and calls it asynchronously: SERVER_LATER, or -errno
 * with nothing sent. */
int64_t eth_pass_on(struct server_request *rq, uint32_t opcode, uint64_t a0, uint64_t a1);

#endif
