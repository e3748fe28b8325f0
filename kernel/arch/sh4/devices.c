/*
 * Devices: not yet on this port (docs/sh4.md). The r2d's PCI bridge, its
 * CF slot and the INTC's external lines are to come; until then there is
 * no PCI function, no legacy device, no port space and no routable line.
 */
#include <kernel/arch.h>

uint32_t arch_pci_read32(unsigned bus, unsigned slot, unsigned fn, unsigned offset)
{
	(void)bus, (void)slot, (void)fn, (void)offset;
	return 0xffffffffu;
}

void arch_pci_write32(unsigned bus, unsigned slot, unsigned fn, unsigned offset, uint32_t v)
{
	(void)bus, (void)slot, (void)fn, (void)offset, (void)v;
}

bool arch_legacy_device(unsigned i, struct myrmex_pci_info *out, const struct device_ops **guard)
{
	(void)i, (void)out, (void)guard;
	return false;
}

uint32_t arch_port_read(unsigned port, unsigned width)
{
	(void)port, (void)width;
	return 0xffffffffu;
}

void arch_port_write(unsigned port, unsigned width, uint32_t value)
{
	(void)port, (void)width, (void)value;
}

void arch_irq_route(unsigned line, enum irq_trigger trigger) { (void)line, (void)trigger; }
void arch_irq_mask(unsigned line) { (void)line; }
void arch_irq_unmask(unsigned line) { (void)line; }
