/*
 * Devices for user-level drivers (include/myrmex/device.h): the PCI devices
 * found at boot and the platform's legacy devices, each given to at most one
 * driver process, whose memory BARs it may map, whose I/O ports (legacy
 * devices) it may use under the device's guard, and whose interrupts reach
 * it as messages through get().
 *
 * Locking: the device table and each struct device are guarded by the
 * kernel lock (kernel/klock.h), which device_interrupt takes like any
 * kernel entry; [dev] in kernel/proc.h when it is split.
 */
#ifndef KERNEL_DEVICE_H
#define KERNEL_DEVICE_H

#include <kernel/types.h>
#include <kernel/arch.h>
#include <myrmex/device.h>

struct process;
struct device;

/* Legacy devices get slots the PCI scan may not fill. */
#define DEVICE_LEGACY_SLOTS 4

/* What differs between kinds of device. */
struct device_ops {
	/* Checks one port access of the owner, whose offset and width the
	 * caller has already found inside the port range and aligned; for a
	 * write, value fits in width. 0, -EINVAL (a width the registers do not
	 * have) or -EPERM (a write the kernel keeps to itself). */
	int (*port_check)(unsigned offset, unsigned width, bool write, uint32_t value);
	/* Silences the device when its owner ends, before the owner's ICAs are
	 * freed: no more DMA, no more interrupts. */
	void (*quiesce)(const struct device *d);
	enum irq_trigger trigger;   /* of its interrupt line */
};

struct device {
	struct myrmex_pci_info info;
	const struct device_ops *ops;
	uint16_t port_base, port_count;   /* the I/O ports of a legacy device (BAR 0) */
	struct process *owner;
	unsigned irq_pending;    /* interrupts not yet delivered to the owner */
	uint32_t bars_mapped;    /* bit i: BAR i is mapped in the owner */
};

void device_init(void);
/* Gives device index to p (at spawn): -ENODEV, -EBUSY. */
int device_grant(unsigned index, struct process *p);
/* The device p owns, or NULL. */
struct device *device_of(struct process *p);
/* From the interrupt path: line fired. */
void device_interrupt(unsigned line);
/* Whether d has interrupts its owner's get() has not taken yet. */
static inline bool device_interrupts_pending(const struct device *d)
{
	return d->irq_pending != 0;
}
/* get(): takes p's pending interrupts; returns how many (0: none). */
unsigned device_take_interrupts(struct process *p);
/* Unmaps p's BARs, silences its device and frees it; before p's address
 * space and ICAs go. */
void device_process_exit(struct process *p);
const struct myrmex_pci_info *device_info(unsigned index);
void device_unmap_bar(struct device *d, unsigned bar);

#endif
