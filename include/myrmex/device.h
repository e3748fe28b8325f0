/*
 * Devices for user-level drivers: the ABI. The kernel enumerates PCI devices
 * at boot and lists after them the legacy devices of the platform (today
 * COM1, see below); the init gives a device to one driver at spawn
 * (MYRMEX_SPAWN_DEVICE); only that driver may read its configuration space,
 * map its memory BARs, use its I/O ports (legacy devices), receive its
 * interrupts and learn the physical addresses of its ICAs (for DMA).
 * Interrupts arrive as messages through get(): a delivery of kind
 * MYRMEX_DELIVERY_INTERRUPT, after which the line stays masked until the
 * driver calls dev_irq_ack. There is no IOMMU: a driver given a DMA-capable
 * device is trusted with physical memory.
 */
#ifndef MYRMEX_DEVICE_H
#define MYRMEX_DEVICE_H

#include <stdint.h>
#include <myrmex/syscall.h>
#include <myrmex/layout.h>

#define MYRMEX_MAX_DEVICES 32

/* spawn flags: give device `index` (from dev_info) to the new process. */
#define MYRMEX_SPAWN_DEVICE(index) ((uint32_t)((index) + 1) << 8)

#define MYRMEX_DELIVERY_INTERRUPT 3u   /* get(): out->opcode = interrupts since the last */

/* Where BAR i of the caller's device is mapped (uncached) by dev_map_bar:
 * MYRMEX_DEVICE_WINDOW + i * MYRMEX_DEVICE_BAR_SPAN (include/myrmex/layout.h). */
static inline void *myrmex_device_bar(unsigned bar)
{
	return (void *)(uintptr_t)(MYRMEX_DEVICE_WINDOW + bar * MYRMEX_DEVICE_BAR_SPAN);
}

/*
 * Legacy devices are listed like PCI devices, with kind MYRMEX_DEV_KIND_LEGACY,
 * vendor MYRMEX_DEV_VENDOR_LEGACY (0: no PCI vendor has it), bus, slot and
 * function 0, their I/O ports in BAR 0 (bar_is_io bit 0) and their ISA
 * interrupt, edge-triggered, in irq_line. They have no configuration space.
 *
 * COM1: device MYRMEX_DEV_LEGACY_COM1, class 0x07/0x00/0x02 (serial
 * controller, 16550-compatible, as PCI would class it), ports 0x3f8-0x3ff,
 * ISA IRQ 4. The kernel writes its own log, panics and write(1) to it by
 * polling, so its owner (the console server) may only make the register
 * changes that cannot disturb that (dev_port_write below), and when the
 * owner ends the kernel turns the UART's interrupts off (IER 0, OUT1, OUT2 off).
 */
#define MYRMEX_DEV_KIND_PCI       0u
#define MYRMEX_DEV_KIND_LEGACY    1u
#define MYRMEX_DEV_VENDOR_LEGACY  0x0000u
#define MYRMEX_DEV_LEGACY_COM1    0x0001u

struct myrmex_pci_info {
	uint8_t bus, slot, function, irq_line;
	uint16_t vendor, device;
	uint8_t class_code, subclass, prog_if, owned;   /* owned: given to a driver */
	uint8_t kind;            /* MYRMEX_DEV_KIND_* */
	uint8_t reserved[3];
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
 *                                  holds (owners of a PCI device only: -EPERM).
 * dev_port_read(offset, width)  -> the value (width 1, 2 or 4 bytes) of the
 *                                  I/O port at offset in the caller's device's
 *                                  port range (BAR 0 of a legacy device).
 * dev_port_write(offset, width, value)
 *                               -> 0; writes value (which must fit in width
 *                                  bytes) to that port.
 * Port calls: -EINVAL for a width other than 1, 2, 4, an offset not aligned
 * to it, an access past the end of the range (a PCI device has no range), a
 * value wider than width, or a width the device's registers do not have
 * (the 16550's are bytes: width 1 only); -EPERM for a write the device's
 * guard refuses. The COM1 guard lets the owner write THR (0), IER (1) bits
 * 0-3, FCR (2) with FIFO enable set plus RX reset and trigger level (no TX
 * reset: it would drop the kernel's output), MCR (4) bits 0-3 (DTR, RTS,
 * OUT1, OUT2; loopback would take the kernel's output off the line) and SCR
 * (7); LCR (3: framing and the divisor latch), LSR (5) and MSR (6) are
 * read-only. Every register may be read.
 * dev_config_read/write on a legacy device: -EINVAL (no configuration space).
 * All: -ENODEV when the caller owns no device, -EINVAL for bad arguments.
 */
#define MYRMEX_SYS_DEV_INFO         (MYRMEX_SYS_BASE + 20)
#define MYRMEX_SYS_DEV_CONFIG_READ  (MYRMEX_SYS_BASE + 21)
#define MYRMEX_SYS_DEV_CONFIG_WRITE (MYRMEX_SYS_BASE + 22)
#define MYRMEX_SYS_DEV_MAP_BAR      (MYRMEX_SYS_BASE + 23)
#define MYRMEX_SYS_DEV_IRQ_ACK      (MYRMEX_SYS_BASE + 24)
#define MYRMEX_SYS_ICA_PHYS         (MYRMEX_SYS_BASE + 25)
#define MYRMEX_SYS_DEV_PORT_READ    (MYRMEX_SYS_BASE + 26)
#define MYRMEX_SYS_DEV_PORT_WRITE   (MYRMEX_SYS_BASE + 27)

#endif
