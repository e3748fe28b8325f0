/*
 * The virtio-net driver server: what its files share. main.c starts the
 * driver and hands it to the NIC driver library (servers/lib/netdrv), which
 * serves the network protocol (include/myrmex/net.h): the handlers, the
 * parked receive requests and the queue of frames no one has asked for yet.
 * nic.c brings the device up and owns its two queues and the receive
 * buffers, implementing the library's nic_* interface. The driver is one
 * thread: nothing needs a lock.
 *
 * Invariant (buffer exchange): a receive request lends one one-page ICA,
 * which goes onto the receive ring at once (nic_rx_lent), and takes away
 * the ICA a frame arrived in. So the buffers the driver holds are always
 * its RX_BUFFERS plus one per parked request: a receiver can neither drain
 * the ring nor make the driver allocate.
 */
#ifndef VIRTIO_NET_DRIVER_H
#define VIRTIO_NET_DRIVER_H

#include "../../lib/netdrv/netdrv.h"

#define DRV_NAME "virtio_net"

/* The virtio_net_hdr (virtio 1.x: always 12 bytes, num_buffers included)
 * that precedes every frame on both queues. */
#define VNET_HDR_LEN 12u
#define RX_BUF_BYTES 4096u   /* a receive buffer: one ICA page */

/* nic.c: brings up the device described by info (features, both queues,
 * the receive buffers posted). 0 or -errno after saying why. */
int nic_init(const struct myrmex_pci_info *info);
/* nic.c: posts ICA handle (one page, mapped here) as a receive buffer.
 * 0 or -errno (the ICA is then still the caller's to free). */
int nic_post_rx(uint32_t handle);

#endif
