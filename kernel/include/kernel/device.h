/*
 * Devices for user-level drivers (include/myrmex/device.h): the PCI devices
 * found at boot, each given to at most one driver process, whose memory BARs
 * it may map and whose interrupts reach it as messages through get().
 */
#ifndef KERNEL_DEVICE_H
#define KERNEL_DEVICE_H

#include <kernel/types.h>
#include <myrmex/device.h>

struct process;

struct device {
	struct myrmex_pci_info info;
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
/* get(): takes p's pending interrupts; returns how many (0: none). */
unsigned device_take_interrupts(struct process *p);
/* Unmaps p's BARs and frees its device; before p's address space goes. */
void device_process_exit(struct process *p);
const struct myrmex_pci_info *device_info(unsigned index);
void device_unmap_bar(struct device *d, unsigned bar);

#endif
