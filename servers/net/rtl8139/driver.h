/*
 * The RTL8139 driver server: what its files share. main.c finds the device
 * and hands the driver to the server library (lib/libmyrmex/server.h);
 * table.c maps the network protocol's opcodes (include/myrmex/net.h) to the
 * handlers; nic.c owns the device (registers, the four transmit slots, the
 * receive ring, the interrupt); ops.c holds the handlers, the parked
 * receives and the frames queued for later ones. One thread: no locks.
 */
#ifndef RTL8139_DRIVER_H
#define RTL8139_DRIVER_H

#include <stdbool.h>
#include <stdint.h>
#include <myrmex.h>
#include <myrmex/net.h>
#include <server.h>

#define DRV_NAME "rtl8139"
#define RX_BUF_BYTES 4096u   /* a frame's ICA: one page */

extern const struct server net_server;
extern struct net_stats net_counters;
extern struct net_stats_more net_more;

/* nic.c: resets and starts the device described by info. 0 or -errno
 * after saying why. */
int nic_init(const struct myrmex_pci_info *info);
uint64_t nic_mac(void);
uint64_t nic_link(void);
void nic_describe(char *buf, unsigned long size);
/* nic.c: the device reads length bytes at phys (below 4 GiB, contiguous);
 * rq is answered (status length) at its completion. SERVER_LATER, or
 * -EAGAIN when too many sends wait already. */
int64_t nic_send(const struct server_request *rq, uint32_t phys, uint32_t length);
/* nic.c: takes the frames left in the ring (after ops_frame refused one). */
void nic_rx_resume(void);
/* nic.c: the interrupt callback. */
void nic_interrupt(uint32_t lines);

/* ops.c: a good frame of length bytes lies in the receive ring at
 * ring[offset..] (wrapping at ring_size): copied into a receiver's ICA,
 * or into a spare ICA queued for the next receive (true); false when the
 * queue is full: the frame stays in the ring, and the next receive calls
 * nic_rx_resume. */
bool ops_frame(const uint8_t *ring, uint32_t ring_size, uint32_t offset, uint32_t length);
/* ops.c: allocates the spare ICAs queued frames are copied into. 0 or -errno. */
int ops_init(void);

int64_t do_send(struct server_request *rq);
int64_t do_recv(struct server_request *rq);
int64_t do_info(struct server_request *rq);
int64_t do_stats(struct server_request *rq);

/* main.c: "rtl8139: <message>" on stderr, one write. */
__attribute__((format(printf, 1, 2)))
void drv_log(const char *fmt, ...);

#endif
