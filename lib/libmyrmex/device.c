/*
 * Wrappers for the device calls of user-level drivers
 * (include/myrmex/device.h): device information, configuration space, BAR
 * mapping, I/O ports, interrupt acknowledgement and the physical address of
 * an ICA. On Linux each gives -ENOSYS.
 */
#include "myrmex.h"

#include <stdlib.h>

long myrmex_dev_info(uint32_t index, struct myrmex_pci_info *out)
{
	return myrmex_syscall6(MYRMEX_SYS_DEV_INFO, (long)index, (long)out, 0, 0, 0, 0);
}

long myrmex_dev_config_read(uint32_t offset)
{
	return myrmex_syscall6(MYRMEX_SYS_DEV_CONFIG_READ, (long)offset, 0, 0, 0, 0, 0);
}

long myrmex_dev_config_write(uint32_t offset, uint32_t value)
{
	return myrmex_syscall6(MYRMEX_SYS_DEV_CONFIG_WRITE, (long)offset, (long)value, 0, 0, 0, 0);
}

long myrmex_dev_map_bar(uint32_t bar)
{
	return myrmex_syscall6(MYRMEX_SYS_DEV_MAP_BAR, (long)bar, 0, 0, 0, 0, 0);
}

long myrmex_dev_irq_ack(void)
{
	return myrmex_syscall6(MYRMEX_SYS_DEV_IRQ_ACK, 0, 0, 0, 0, 0, 0);
}

long myrmex_ica_phys(uint32_t handle)
{
	return myrmex_syscall6(MYRMEX_SYS_ICA_PHYS, (long)handle, 0, 0, 0, 0, 0);
}

long myrmex_dev_port_read(uint32_t offset, uint32_t width)
{
	return myrmex_syscall6(MYRMEX_SYS_DEV_PORT_READ, (long)offset, (long)width, 0, 0, 0, 0);
}

long myrmex_dev_port_write(uint32_t offset, uint32_t width, uint32_t value)
{
	return myrmex_syscall6(MYRMEX_SYS_DEV_PORT_WRITE, (long)offset, (long)width, (long)value,
	                       0, 0, 0);
}

int myrmex_dev_find(uint16_t vendor, const uint16_t *devices, unsigned ndevices,
                    struct myrmex_pci_info *out)
{
	struct myrmex_pci_info info;
	for (uint32_t i = 0; i < MYRMEX_MAX_DEVICES; i++) {
		if (myrmex_dev_info(i, &info) < 0)
			return -1;
		if (info.vendor != vendor)
			continue;
		for (unsigned k = 0; k < ndevices; k++) {
			if (info.device == devices[k]) {
				if (out)
					*out = info;
				return (int)i;
			}
		}
	}
	return -1;
}

int myrmex_dev_pick(const char *arg, uint16_t vendor, const uint16_t *devices,
                    unsigned ndevices, struct myrmex_pci_info *out)
{
	if (!arg)
		return myrmex_dev_find(vendor, devices, ndevices, out);
	char *end;
	long index = strtol(arg, &end, 10);
	struct myrmex_pci_info info;
	if (*arg == '\0' || *end != '\0' || index < 0 || index >= MYRMEX_MAX_DEVICES ||
	    myrmex_dev_info((uint32_t)index, &info) < 0 || info.vendor != vendor)
		return -1;
	for (unsigned k = 0; k < ndevices; k++) {
		if (info.device == devices[k]) {
			if (out)
				*out = info;
			return (int)index;
		}
	}
	return -1;
}
