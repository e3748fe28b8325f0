/*
 * Device system calls for user-level drivers (include/myrmex/device.h):
 * each checks the caller's ownership and every argument before it touches
 * the device.
 */
#include <kernel/syscall.h>
#include <kernel/arch.h>
#include <kernel/device.h>
#include <kernel/errno.h>
#include <kernel/ica.h>
#include <kernel/proc.h>
#include <kernel/usercopy.h>

static struct device *my_device(void)
{
	return device_of(current_thread()->proc);
}

long sys_dev_info(const struct syscall_args *a)
{
	const struct myrmex_pci_info *i = a->arg[0] < MYRMEX_MAX_DEVICES ? device_info((unsigned)a->arg[0]) : NULL;
	if (!i)
		return -ENODEV;
	return copy_to_user(a->arg[1], i, sizeof(*i));
}

/* The caller's device and a checked configuration offset: 0 or -errno. */
static int config_target(uint64_t offset, struct device **d)
{
	*d = my_device();
	if (!*d)
		return -ENODEV;
	if ((*d)->info.kind != MYRMEX_DEV_KIND_PCI)
		return -EINVAL;   /* no configuration space */
	return offset < 256 && (offset & 3) == 0 ? 0 : -EINVAL;
}

long sys_dev_config_read(const struct syscall_args *a)
{
	struct device *d;
	int err = config_target(a->arg[0], &d);
	if (err)
		return err;
	return arch_pci_read32(d->info.bus, d->info.slot, d->info.function, (unsigned)a->arg[0]);
}

long sys_dev_config_write(const struct syscall_args *a)
{
	struct device *d;
	int err = config_target(a->arg[0], &d);
	if (err)
		return err;
	if (a->arg[0] != 4 && a->arg[0] < 64)
		return -EPERM;   /* BARs, interrupt line and the rest are the kernel's */
	arch_pci_write32(d->info.bus, d->info.slot, d->info.function, (unsigned)a->arg[0],
	                 (uint32_t)a->arg[1]);
	return 0;
}

long sys_dev_map_bar(const struct syscall_args *a)
{
	struct device *d = my_device();
	uint64_t bar = a->arg[0];
	if (!d)
		return -ENODEV;
	if (bar >= 6 || !d->info.bar_size[bar] || (d->info.bar_is_io & (1u << bar)) ||
	    d->info.bar_size[bar] > MYRMEX_DEVICE_BAR_SPAN || (d->info.bar_base[bar] & PAGE_MASK))
		return -EINVAL;
	uptr_t va = (uptr_t)(uintptr_t)myrmex_device_bar((unsigned)bar);
	if (d->bars_mapped & (1u << bar))
		return (long)va;
	struct process *p = current_thread()->proc;
	int err = arch_as_map_range(&p->vm.as, va, d->info.bar_base[bar],
	                            ALIGN_UP(d->info.bar_size[bar], PAGE_SIZE) / PAGE_SIZE,
	                            MAP_R | MAP_W | MAP_U | MAP_DEVICE);
	if (err)
		return err == -EAGAIN ? -ENOMEM : err;
	d->bars_mapped |= 1u << bar;
	return (long)va;
}

long sys_dev_irq_ack(const struct syscall_args *a)
{
	(void)a;
	struct device *d = my_device();
	if (!d)
		return -ENODEV;
	if (d->info.irq_line < ARCH_IRQ_LINES)
		arch_irq_unmask(d->info.irq_line);
	return 0;
}

long sys_ica_phys(const struct syscall_args *a)
{
	struct process *p = current_thread()->proc;
	struct device *d = device_of(p);
	if (!d || d->info.kind != MYRMEX_DEV_KIND_PCI)
		return -EPERM;   /* only a PCI device can do DMA */
	struct ica *ica = a->arg[0] <= UINT32_MAX ? ica_lookup((uint32_t)a->arg[0]) : NULL;
	if (!ica || ica->owner != p)
		return -EINVAL;
	return (long)ica->base;
}

/* The caller's device and a checked port access (offset arg[0], width
 * arg[1], for a write value arg[2]): 0 or -errno. Generic checks first (the
 * range, alignment, value width), then the device's guard. */
static int port_target(const struct syscall_args *a, bool write, struct device **d)
{
	*d = my_device();
	if (!*d)
		return -ENODEV;
	uint64_t offset = a->arg[0], width = a->arg[1], value = a->arg[2];
	if (width != 1 && width != 2 && width != 4)
		return -EINVAL;
	if (offset >= (*d)->port_count || width > (*d)->port_count - offset || offset % width)
		return -EINVAL;   /* a PCI device's port_count is 0 */
	if (write && (value >> (8 * width)) != 0)
		return -EINVAL;
	if (!(*d)->ops->port_check)
		return -EINVAL;
	return (*d)->ops->port_check((unsigned)offset, (unsigned)width, write, (uint32_t)value);
}

long sys_dev_port_read(const struct syscall_args *a)
{
	struct device *d;
	int err = port_target(a, false, &d);
	if (err)
		return err;
	return arch_port_read(d->port_base + (unsigned)a->arg[0], (unsigned)a->arg[1]);
}

long sys_dev_port_write(const struct syscall_args *a)
{
	struct device *d;
	int err = port_target(a, true, &d);
	if (err)
		return err;
	arch_port_write(d->port_base + (unsigned)a->arg[0], (unsigned)a->arg[1], (uint32_t)a->arg[2]);
	return 0;
}
