/*
 * The RTL8139's one copy, out of the device's receive ring into a one-page
 * ICA: into the lent ICA of the oldest parked receive (which gets its own
 * ICA back with the frame at offset 0), or, when none waits, into a spare
 * one-page ICA of the driver that is queued for the next receive. The
 * parked receives and the queue are the NIC driver library's
 * (servers/lib/netdrv); a receive that takes a queued frame leaves its lent
 * ICA as the spare (nic_rx_lent: buffer exchange, as virtio_net: the ICAs
 * the driver holds never change in number). Every copy is counted
 * (net_more.rx_copies, rx_copy_bytes), and the bytes of the ICA past the
 * frame are zeroed: they carry nothing of an earlier frame.
 */
#include "driver.h"

#include <string.h>

/* Spare one-page ICAs a queued frame is copied into: with the queued ones
 * always copy_init's count (NET_RX_QUEUE_MAX, or fewer with ICAs in
 * reserved TLB entries): the spares bound the queue. */
static uint32_t spares[NET_RX_QUEUE_MAX];
static unsigned nspares;

int copy_init(unsigned count)
{
	for (nspares = 0; nspares < count && nspares < NET_RX_QUEUE_MAX; nspares++) {
		long h = myrmex_ica_alloc(1);
		if (h < 0) {
			drv_log("cannot allocate receive ICA %u: %ld", nspares, h);
			return (int)h;
		}
		spares[nspares] = (uint32_t)h;
	}
	return 0;
}

/* The copy out of the ring (length bytes from offset, wrapping at size)
 * into the page at dst, the rest of the page zeroed. */
static void copy_out(uint8_t *dst, const uint8_t *ring, uint32_t size, uint32_t offset,
                     uint32_t length)
{
	uint32_t first = length < size - offset ? length : size - offset;
	memcpy(dst, ring + offset, first);
	if (first < length) {
		memcpy(dst + first, ring, length - first);
		net_more.rx_wrapped++;
	}
	memset(dst + length, 0, RX_BUF_BYTES - length);
	net_more.rx_copies++;
	net_more.rx_copy_bytes += length;
}

bool copy_frame(const uint8_t *ring, uint32_t ring_size, uint32_t offset, uint32_t length)
{
	long lent = netdrv_parked_ica();
	uint32_t handle;
	if (lent >= 0)
		handle = (uint32_t)lent;
	else if (netdrv_queue_full() || nspares == 0)
		return false;
	else
		handle = spares[--nspares];
	copy_out(myrmex_ica_addr(handle), ring, ring_size, offset, length);
	return netdrv_frame(handle, length);
}

int nic_rx_lent(uint32_t handle, bool taking_queued)
{
	/* A parked receive keeps its ICA until a frame is copied into it;
	 * one taking a queued frame leaves it in the frame's place. */
	if (taking_queued)
		spares[nspares++] = handle;
	return 0;
}
