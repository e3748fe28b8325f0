/*
 * The virtio-net driver server: what its files share. main.c starts the
 * driver and hands it to the server library (lib/libmyrmex/server.h);
 * table.c maps the network protocol's opcodes (include/myrmex/net.h) to
 * the handlers; nic.c brings the device up and owns its two queues, the
 * receive buffers and the counters; ops.c holds the handlers, the parked
 * receive requests and the queue of frames no one has asked for yet. The
 * driver is one thread: nothing needs a lock.
 */
#ifndef VIRTIO_NET_DRIVER_H
#define VIRTIO_NET_DRIVER_H

#include <stdint.h>
#include <myrmex.h>
#include <myrmex/net.h>
#include <server.h>

#define DRV_NAME "virtio_net"

/* The virtio_net_hdr (virtio 1.x: always 12 bytes, num_buffers included)
 * that precedes every frame on both queues. */
#define VNET_HDR_LEN 12u
#define RX_BUF_BYTES 4096u   /* a receive buffer: one ICA page */

extern const struct server net_server;
extern struct net_stats net_counters;

/* nic.c: brings up the device described by info (features, both queues,
 * the receive buffers posted). 0 or -errno after saying why. */
int nic_init(const struct myrmex_pci_info *info);
/* nic.c: MAC (as NET_INFO gives it) and link state (NET_LINK_UP or 0). */
uint64_t nic_mac(void);
uint64_t nic_link(void);
void nic_describe(char *buf, unsigned long size);
/* nic.c: gives the device the frame of rq (length bytes at phys) behind a
 * header chain; rq is answered (status length) when the device is done.
 * SERVER_LATER, or -EAGAIN when too many sends wait already. */
int64_t nic_send(const struct server_request *rq, uint64_t phys, uint32_t length);
/* nic.c: posts ICA handle (one page, mapped here) as a receive buffer.
 * 0 or -errno (the ICA is then still the caller's to free). */
int nic_post_rx(uint32_t handle);
/* nic.c: the interrupt callback: sends completed, frames received (each
 * handed to ops_frame), the line acknowledged. */
void nic_interrupt(uint32_t lines);

/* ops.c: a good frame arrived in ICA handle (the frame at VNET_HDR_LEN,
 * length bytes): given to the oldest waiting receive, queued, or dropped
 * (and its buffer posted again). */
void ops_frame(uint32_t handle, uint32_t length);

int64_t do_send(struct server_request *rq);
int64_t do_recv(struct server_request *rq);
int64_t do_info(struct server_request *rq);
int64_t do_stats(struct server_request *rq);

/* main.c: "virtio_net: <message>" on stderr, one write. */
__attribute__((format(printf, 1, 2)))
void drv_log(const char *fmt, ...);

#endif
