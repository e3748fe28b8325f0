/*
 * The r2d's legacy devices (the contract's arch_legacy_device): the CF slot
 * (cf.c), whose registers are the whole port space. PCI is pci.c, the
 * interrupt lines irq.c.
 */
#include <kernel/arch.h>
#include <arch/sh4.h>

bool arch_legacy_device(unsigned i, struct myrmex_pci_info *out, const struct device_ops **guard)
{
	if (i != 0)
		return false;
	sh4_cf_describe(out, guard);
	return true;
}
