/*
 * Legacy devices and the port space on the r2d: none yet. PCI is pci.c,
 * the interrupt lines irq.c; the CF slot's registers are memory-mapped and
 * not yet offered (docs/sh4.md).
 */
#include <kernel/arch.h>

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
