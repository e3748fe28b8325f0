/*
 * The RTL8139 driver server: what its files share. main.c finds the device
 * and hands the driver to the NIC driver library (servers/lib/netdrv),
 * which serves the network protocol (include/myrmex/net.h): the handlers,
 * the parked receives and the frames queued for later ones. nic.c owns the
 * device (registers, the four transmit slots, the receive ring, the
 * interrupt); copy.c copies frames out of the ring into ICAs and holds the
 * spare ICAs. One thread: no locks.
 */
#ifndef RTL8139_DRIVER_H
#define RTL8139_DRIVER_H

#include "../../lib/netdrv/netdrv.h"

#define DRV_NAME "rtl8139"
#define RX_BUF_BYTES 4096u   /* a frame's ICA: one page */

/* nic.c: resets and starts the device described by info, with the 64 KiB
 * receive ring, or the 8 KiB one when small (ICAs in reserved TLB entries:
 * 3 pages instead of 17). 0 or -errno after saying why. */
int nic_init(const struct myrmex_pci_info *info, bool small);

/* copy.c: a good frame of length bytes lies in the receive ring at
 * ring[offset..] (wrapping at ring_size): copied into a receiver's ICA,
 * or into a spare ICA queued for the next receive (true); false when the
 * queue is full: the frame stays in the ring, and the next receive calls
 * nic_rx_resume. */
bool copy_frame(const uint8_t *ring, uint32_t ring_size, uint32_t offset, uint32_t length);
/* copy.c: allocates count (at most NET_RX_QUEUE_MAX) spare ICAs queued
 * frames are copied into. 0 or -errno. */
int copy_init(unsigned count);

#endif
