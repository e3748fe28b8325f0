/*
 * PCI enumeration, the legacy devices after it, and device ownership (see
 * kernel/device.h). BAR sizes are probed at boot, with decoding switched off
 * while the BAR is written.
 */
#include <kernel/device.h>
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/string.h>

#define PCI_COMMAND 0x04
#define PCI_BAR0    0x10
#define CMD_DECODE  0x3   /* I/O and memory space */

static struct device devices[MYRMEX_MAX_DEVICES];
static unsigned device_count;

/* A PCI device stops its DMA when its driver ends: Bus Master Enable off in
 * the command register. */
static void pci_quiesce(const struct device *d)
{
	const struct myrmex_pci_info *i = &d->info;
	uint32_t command = arch_pci_read32(i->bus, i->slot, i->function, 4);
	arch_pci_write32(i->bus, i->slot, i->function, 4, command & 0xfffbu);
}

/* PCI devices have no port range: port_count 0 refuses every port call. */
static const struct device_ops pci_ops = {
	.port_check = NULL,
	.quiesce = pci_quiesce,
	.trigger = IRQ_LEVEL,
};

static uint32_t cfg(const struct myrmex_pci_info *i, unsigned off)
{
	return arch_pci_read32(i->bus, i->slot, i->function, off);
}

static void probe_bars(struct myrmex_pci_info *i)
{
	uint32_t command = cfg(i, PCI_COMMAND);
	arch_pci_write32(i->bus, i->slot, i->function, PCI_COMMAND, command & ~CMD_DECODE);
	for (unsigned b = 0; b < 6; b++) {
		unsigned off = PCI_BAR0 + 4 * b;
		uint32_t orig = cfg(i, off);
		arch_pci_write32(i->bus, i->slot, i->function, off, 0xffffffffu);
		uint32_t mask = cfg(i, off);
		arch_pci_write32(i->bus, i->slot, i->function, off, orig);
		if (mask == 0 || mask == 0xffffffffu)
			continue;
		if (orig & 1) {   /* I/O ports */
			i->bar_is_io |= 1u << b;
			i->bar_base[b] = orig & ~3u;
			i->bar_size[b] = (uint16_t)(~(mask & ~3u) + 1);
			continue;
		}
		uint64_t base = orig & ~0xfull, size_mask = mask & ~0xfull;
		if (((orig >> 1) & 3) == 2 && b < 5) {   /* 64-bit BAR: the next one is the high half */
			unsigned hi_off = off + 4;
			uint32_t hi = cfg(i, hi_off);
			arch_pci_write32(i->bus, i->slot, i->function, hi_off, 0xffffffffu);
			uint32_t hi_mask = cfg(i, hi_off);
			arch_pci_write32(i->bus, i->slot, i->function, hi_off, hi);
			base |= (uint64_t)hi << 32;
			size_mask |= (uint64_t)hi_mask << 32;
			i->bar_base[b] = base;
			i->bar_size[b] = ~size_mask + 1;
			b++;
			continue;
		}
		i->bar_base[b] = base;
		i->bar_size[b] = (uint32_t)(~(uint32_t)size_mask + 1);
	}
	arch_pci_write32(i->bus, i->slot, i->function, PCI_COMMAND, command);
}

static void legacy_init(void)
{
	struct myrmex_pci_info info;
	const struct device_ops *ops;
	for (unsigned n = 0; device_count < MYRMEX_MAX_DEVICES && arch_legacy_device(n, &info, &ops);
	     n++) {
		if (!ops || !(info.bar_is_io & 1) || info.bar_size[0] > 0xffff ||
		    info.bar_base[0] + info.bar_size[0] > 0x10000)
			continue;
		struct device *d = &devices[device_count++];
		d->info = info;
		d->ops = ops;
		d->port_base = (uint16_t)info.bar_base[0];
		d->port_count = (uint16_t)info.bar_size[0];
	}
}

static void pci_init(void)
{
	for (unsigned bus = 0; bus < 256; bus++) {
		for (unsigned slot = 0; slot < 32; slot++) {
			for (unsigned fn = 0; fn < 8; fn++) {
				uint32_t id = arch_pci_read32(bus, slot, fn, 0);
				if ((id & 0xffff) == 0xffff) {
					if (fn == 0)
						break;
					continue;
				}
				if (device_count == MYRMEX_MAX_DEVICES - DEVICE_LEGACY_SLOTS)
					return;
				devices[device_count].ops = &pci_ops;
				struct myrmex_pci_info *i = &devices[device_count++].info;
				i->bus = (uint8_t)bus, i->slot = (uint8_t)slot, i->function = (uint8_t)fn;
				i->vendor = (uint16_t)id, i->device = (uint16_t)(id >> 16);
				uint32_t class = cfg(i, 0x08);
				i->class_code = (uint8_t)(class >> 24), i->subclass = (uint8_t)(class >> 16);
				i->prog_if = (uint8_t)(class >> 8);
				i->irq_line = (uint8_t)cfg(i, 0x3c);
				probe_bars(i);
				if (fn == 0 && !(cfg(i, 0x0c) & 0x800000))
					break;   /* not multi-function */
			}
		}
	}
}

void device_init(void)
{
	pci_init();
	unsigned pci = device_count;
	legacy_init();
	printk("pci: %u devices, %u legacy\n", pci, device_count - pci);
}

int device_grant(unsigned index, struct process *p)
{
	if (index >= device_count)
		return -ENODEV;
	struct device *d = &devices[index];
	if (d->owner || device_of(p))
		return -EBUSY;
	d->owner = p;
	p->device = d;
	d->info.owned = 1;
	d->irq_pending = 0;
	if (d->info.irq_line < ARCH_IRQ_LINES) {
		arch_irq_route(d->info.irq_line, d->ops->trigger);
		arch_irq_unmask(d->info.irq_line);
	}
	return 0;
}

struct device *device_of(struct process *p)
{
	return p->device;
}

const struct myrmex_pci_info *device_info(unsigned index)
{
	return index < device_count ? &devices[index].info : NULL;
}

void device_interrupt(unsigned line)
{
	/* Level-triggered: keep the line masked until the driver acknowledges.
	 * Edge-triggered lines too, for the same contract; an edge while masked
	 * is lost, so their drivers acknowledge first and then empty the
	 * device (an event after that raises a new edge). */
	arch_irq_mask(line);
	sched_interrupt_wakes(true);
	for (unsigned i = 0; i < device_count; i++) {
		struct device *d = &devices[i];
		if (d->owner && d->info.irq_line == line) {
			d->irq_pending++;
			waitq_wake(&d->owner->ipc_waiters, 1);
		}
	}
	sched_interrupt_wakes(false);
}

unsigned device_take_interrupts(struct process *p)
{
	struct device *d = p->device;
	if (!d || !d->irq_pending)
		return 0;
	unsigned n = d->irq_pending;
	d->irq_pending = 0;
	return n;
}

void device_unmap_bar(struct device *d, unsigned bar)
{
	arch_as_unmap_range(&d->owner->vm.as, (uptr_t)(uintptr_t)myrmex_device_bar(bar),
	                    ALIGN_UP(d->info.bar_size[bar], PAGE_SIZE) / PAGE_SIZE);
	d->bars_mapped &= ~(1u << bar);
}

void device_process_exit(struct process *p)
{
	struct device *d = device_of(p);
	if (!d)
		return;
	for (unsigned b = 0; b < 6; b++)
		if (d->bars_mapped & (1u << b))
			device_unmap_bar(d, b);
	if (d->info.irq_line < ARCH_IRQ_LINES)
		arch_irq_mask(d->info.irq_line);
	/* Before the driver's ICAs (a PCI device's rings and buffers) are freed. */
	d->ops->quiesce(d);
	d->owner = NULL;
	p->device = NULL;
	d->info.owned = 0;
	d->irq_pending = 0;
}
