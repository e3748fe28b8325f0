/*
 * Devices for user-level drivers: the ABI. The kernel enumerates PCI devices
 * at boot; the init gives a device to one driver at spawn
 * (MYRMEX_SPAWN_DEVICE); only that driver may read its configuration space,
 * map its memory BARs, receive its interrupts and learn the physical
 * addresses of its ICAs (for DMA). Interrupts arrive as messages through
 * get(): a delivery of kind MYRMEX_DELIVERY_INTERRUPT, after which the line
 * stays masked until the driver calls dev_irq_ack. There is no IOMMU: a
 * driver given a DMA-capable device is trusted with physical memory.
 */
#ifndef MYRMEX_DEVICE_H
#define MYRMEX_DEVICE_H

#include <stdint.h>
#include <myrmex/syscall.h>

#define MYRMEX_MAX_DEVICES 32

/* spawn flags: give device `index` (from dev_info) to the new process. */
#define MYRMEX_SPAWN_DEVICE(index) ((uint32_t)((index) + 1) << 8)

#define MYRMEX_DELIVERY_INTERRUPT 3u   /* get(): out->opcode = interrupts since the last */

/* Where BAR i of the caller's device is mapped (uncached) by dev_map_bar. */
#define MYRMEX_DEVICE_WINDOW      0x0000500000000000ull
#define MYRMEX_DEVICE_BAR_SPAN    (256ull << 20)
static inline void *myrmex_device_bar(unsigned bar)
{
	return (void *)(uintptr_t)(MYRMEX_DEVICE_WINDOW + bar * MYRMEX_DEVICE_BAR_SPAN);
}

struct myrmex_pci_info {
	uint8_t bus, slot, function, irq_line;
	uint16_t vendor, device;
	uint8_t class_code, subclass, prog_if, owned;   /* owned: given to a driver */
	uint32_t reserved;
	uint64_t bar_base[6];    /* physical base (memory) or port (I/O), 0 = none */
	uint64_t bar_size[6];
	uint32_t bar_is_io;      /* bit i: BAR i is an I/O-port BAR */
	uint32_t reserved2;
};
_Static_assert(sizeof(struct myrmex_pci_info) == 120, "pci info layout");

/*
 * dev_info(index, out)          -> 0, or -ENODEV past the last device. Anyone.
 * dev_config_read(offset)       -> the 32-bit configuration word at offset
 *                                  (4-aligned, < 256) of the caller's device.
 * dev_config_write(offset, v)   -> 0; the command register (offset 4) and the
 *                                  capabilities area (64..255) only: BARs and
 *                                  the rest are the kernel's (-EPERM).
 * dev_map_bar(bar)              -> the address of the mapped memory BAR.
 * dev_irq_ack()                 -> 0; unmasks the device's interrupt line.
 * ica_phys(handle)              -> the physical address of an ICA the caller
 *                                  holds (device owners only: -EPERM).
 * All: -ENODEV when the caller owns no device, -EINVAL for bad arguments.
 */
#define MYRMEX_SYS_DEV_INFO         (MYRMEX_SYS_BASE + 20)
#define MYRMEX_SYS_DEV_CONFIG_READ  (MYRMEX_SYS_BASE + 21)
#define MYRMEX_SYS_DEV_CONFIG_WRITE (MYRMEX_SYS_BASE + 22)
#define MYRMEX_SYS_DEV_MAP_BAR      (MYRMEX_SYS_BASE + 23)
#define MYRMEX_SYS_DEV_IRQ_ACK      (MYRMEX_SYS_BASE + 24)
#define MYRMEX_SYS_ICA_PHYS         (MYRMEX_SYS_BASE + 25)

#endif
