/*
 * The virtio-net device (virtio 1.x, "Network Device") on the modern PCI
 * transport: feature negotiation (MAC and STATUS when offered, no
 * offloads, no mergeable buffers), the receive queue (0) holding receive
 * buffers, the transmit queue (1), and completion.
 *
 * No copy on either path. A send is a chain of two descriptors: the
 * virtio_net_hdr, one zeroed header in this driver's own ICA that every
 * send shares (the device only reads it: no checksum or segmentation
 * offload asked), then the frame in the caller's data ICA by physical
 * address (an ICA is physically contiguous). The caller's ICA stays here
 * until the device has used the chain; only then is the request answered
 * with it. A receive buffer is a one-page ICA the device writes the header
 * and the frame into; the ICA itself then goes to the receiver (netdrv_frame,
 * servers/lib/netdrv), and the receiver's lent ICA takes its place on the
 * ring (nic_rx_lent).
 */
#include "driver.h"
#include "../../lib/virtio/virtio_pci.h"
#include "../../lib/virtio/virtqueue.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define VIRTIO_NET_F_MAC    (1ull << 5)
#define VIRTIO_NET_F_STATUS (1ull << 16)
#define VIRTIO_NET_S_LINK_UP 1u
#define CFG_MAC_LO 0                 /* mac[0..3] */
#define CFG_MAC_HI_STATUS 4          /* mac[4..5], then the le16 status */

#define RX_QUEUE 0
#define TX_QUEUE 1
#define QUEUE_SIZE_MAX 128           /* entries per queue we ask for */
#define RX_BUFFERS 32                /* receive buffers on the ring at start */

static struct myrmex_pci_info device;
static struct virtio_pci vp;
static struct virtq rxq, txq;
static uint64_t mac;
static uint64_t header_phys;         /* the shared zeroed send header */
static uint32_t header_ica;

/* Receive buffers on the ring, by head descriptor (a buffer is a chain of
 * one): the ICA, 0 when the descriptor is free. */
static uint32_t rx_ica[VQ_SIZE_MAX];

/* Sends in flight, by head descriptor (those waiting for room: netdrv). */
static struct netdrv_send tx_inflight[VQ_SIZE_MAX];
static unsigned bad_used;

/* ---------------------------------------------------------- start-up */

static uint16_t queue_size(uint16_t device_max)
{
	uint16_t size = 1;
	while (size * 2u <= device_max && size * 2u <= QUEUE_SIZE_MAX)
		size = (uint16_t)(size * 2);
	return size;
}

static int queue_up(struct virtq *q, uint16_t index)
{
	uint16_t max = vp_queue_max(&vp, index);
	int err = max ? vq_init(q, index, queue_size(max)) : -ENODEV;
	if (err)
		return err;
	q->notify = vp_queue_enable(&vp, index, q->size, q->desc_phys, q->avail_phys, q->used_phys);
	return q->notify ? 0 : -ENODEV;
}

static void read_mac(void)
{
	if (!(vp.features & VIRTIO_NET_F_MAC)) {
		/* No address from the device: a fixed locally administered one. */
		mac = 0x563412efbe02ull;   /* 02:be:ef:12:34:56 */
		return;
	}
	uint32_t lo = vp_config32(&vp, CFG_MAC_LO), hi = vp_config32(&vp, CFG_MAC_HI_STATUS);
	mac = (uint64_t)lo | (uint64_t)(hi & 0xffff) << 32;
}

int nic_init(const struct myrmex_pci_info *info)
{
	device = *info;
	int err = vp_probe(&vp, info);
	if (err) {
		drv_log("no usable virtio structures in the PCI capabilities (%d)", err);
		return err;
	}
	err = vp_negotiate(&vp, VIRTIO_F_VERSION_1 | VIRTIO_NET_F_MAC | VIRTIO_NET_F_STATUS,
	                   VIRTIO_F_VERSION_1);
	if (err) {
		drv_log("feature negotiation failed (%d)", err);
		return err;
	}
	err = queue_up(&rxq, RX_QUEUE);
	if (!err)
		err = queue_up(&txq, TX_QUEUE);
	long h = err ? err : myrmex_ica_alloc(1);
	long phys = h < 0 ? h : myrmex_ica_phys((uint32_t)h);
	if (phys < 0) {
		drv_log("cannot set up the queues: %ld", phys);
		vp_fail(&vp);
		return (int)phys;
	}
	header_ica = (uint32_t)h;
	header_phys = (uint64_t)phys;   /* zero-filled: no offload, no GSO */
	read_mac();
	for (unsigned i = 0; i < RX_BUFFERS && i < rxq.size; i++) {
		long b = myrmex_ica_alloc(1);
		if (b < 0 || (err = nic_post_rx((uint32_t)b)) < 0) {
			drv_log("cannot post receive buffer %u: %ld", i, b < 0 ? b : (long)err);
			vp_fail(&vp);
			return b < 0 ? (int)b : err;
		}
	}
	vp_driver_ok(&vp);
	return 0;
}

uint64_t nic_mac(void)
{
	return mac;
}

uint64_t nic_link(void)
{
	if (!(vp.features & VIRTIO_NET_F_STATUS))
		return NET_LINK_UP;   /* the spec: without STATUS the link is up */
	return (vp_config32(&vp, CFG_MAC_HI_STATUS) >> 16) & VIRTIO_NET_S_LINK_UP ? NET_LINK_UP : 0;
}

void nic_describe(char *buf, unsigned long size)
{
	uint8_t b[6];
	for (unsigned i = 0; i < 6; i++)
		b[i] = (uint8_t)(mac >> (8 * i));
	snprintf(buf, size, "MAC %02x:%02x:%02x:%02x:%02x:%02x, link %s, queues %u/%u, irq %u",
	         b[0], b[1], b[2], b[3], b[4], b[5], nic_link() ? "up" : "down", rxq.size, txq.size,
	         device.irq_line);
}

/* ---------------------------------------------------------- receive ring */

int nic_post_rx(uint32_t handle)
{
	long phys = myrmex_ica_phys(handle);
	if (phys < 0)
		return (int)phys;
	int head = vq_chain_alloc(&rxq, 1);
	if (head < 0)
		return head;
	rx_ica[head] = handle;
	struct vq_buf buf = { (uint64_t)phys, RX_BUF_BYTES, 1 };
	vq_chain_submit(&rxq, head, &buf, 1);
	return 0;
}

/* A receive lends its ICA: onto the ring at once, whether it takes a
 * queued frame or parks. */
int nic_rx_lent(uint32_t handle, bool taking_queued)
{
	(void)taking_queued;
	return nic_post_rx(handle);
}

/* Nothing waits outside the ring: a frame finding the queue full was
 * dropped. */
void nic_rx_resume(void)
{
}

/* A used receive buffer: a good frame goes to the oldest parked receive
 * or the queue (netdrv_frame); with the queue full it is dropped (counted)
 * and its buffer posted again, as is anything else (counted). */
static void received(int head, uint32_t written)
{
	uint32_t handle = rx_ica[head];
	rx_ica[head] = 0;
	uint32_t length = written > VNET_HDR_LEN ? written - VNET_HDR_LEN : 0;
	if (written > RX_BUF_BYTES || length < NET_FRAME_MIN || length > NET_FRAME_MAX) {
		net_counters.rx_errors++;
		if (nic_post_rx(handle) < 0)
			myrmex_ica_free(handle);
		return;
	}
	/* The bytes past the frame go to the receiver with the ICA: clear
	 * what an earlier frame left there. */
	uint8_t *base = myrmex_ica_addr(handle);
	memset(base + written, 0, RX_BUF_BYTES - written);
	net_counters.rx_frames++;
	net_counters.rx_bytes += length;
	if (netdrv_frame(handle, length))
		return;
	net_counters.rx_dropped++;
	if (nic_post_rx(handle) < 0)
		myrmex_ica_free(handle);
}

/* ---------------------------------------------------------- transmit */

int nic_submit(const struct netdrv_send *s)
{
	int head = vq_chain_alloc(&txq, 2);
	if (head < 0)
		return head;
	struct vq_buf bufs[2] = {
		{ header_phys, VNET_HDR_LEN, 0 },
		{ s->phys, s->length, 0 },
	};
	tx_inflight[head] = *s;
	vq_chain_submit(&txq, head, bufs, 2);
	return 0;
}

int64_t nic_send(const struct server_request *rq, uint64_t phys, uint64_t offset,
                 uint32_t length)
{
	const struct netdrv_send s = { .rq = *rq, .phys = phys + offset, .length = length };
	return netdrv_send(&s);
}

/* ---------------------------------------------------------- completion */

void nic_interrupt(uint32_t lines)
{
	(void)lines;   /* one line */
	net_counters.interrupts++;
	/* Reading the ISR deasserts the line; what completes after this read
	 * raises it again, delivered after the ack. */
	uint8_t isr = vp_isr(&vp);
	if (isr & VIRTIO_ISR_CONFIG)
		drv_log("configuration changed: link %s", nic_link() ? "up" : "down");
	unsigned bad_before = bad_used;
	uint32_t len;
	int head;
	while ((head = vq_next_used(&txq, &len, &bad_used)) >= 0) {
		struct netdrv_send *s = &tx_inflight[head];
		net_counters.tx_frames++;
		net_counters.tx_bytes += s->length;
		server_reply_later(DRV_NAME, &s->rq, s->length);
	}
	netdrv_send_pending();
	while ((head = vq_next_used(&rxq, &len, &bad_used)) >= 0)
		received(head, len);
	if (bad_used != bad_before)
		drv_log("the device used %u descriptors that were not in flight", bad_used - bad_before);
	myrmex_dev_irq_ack();
}
