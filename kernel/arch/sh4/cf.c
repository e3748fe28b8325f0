/*
 * The r2d's CompactFlash slot, in True IDE mode (QEMU's r2d.c: an "mmio-ide"
 * with register shift 1, master only), offered to a user-level driver as
 * the platform's legacy device: kind MYRMEX_DEV_KIND_LEGACY, vendor 0,
 * device SH4_LEGACY_CF, class 0x01/0x01 (an IDE controller), interrupt line
 * R2D_LINE_CF_IDE (level: INTRQ holds until the status register is read).
 *
 * The r2d has no I/O-port space, so the port gives the slot a port range of
 * its own numbering in the contract's port space (arch_port_read/write):
 * CF_PORT_BASE + 0..7 are the task file (data, error/features, sector
 * count, LBA low/mid/high, device, status/command), + 8 the device control
 * (write) and alternate status (read) register. The registers are 16 bits
 * apart in the slot's area-5 memory (task file at physical 0x14001000,
 * control at 0x1400080c), reached through P2 (uncached) with 16-bit
 * accesses, the CF's bus width; the byte registers are the low byte.
 * The guard lets the owner read and write every register at its width (the
 * data register 2 bytes, the others 1); the kernel itself never uses the
 * slot. When the owner ends, nIEN silences the slot's interrupt.
 */
#include <kernel/arch.h>
#include <kernel/device.h>
#include <kernel/errno.h>
#include <kernel/string.h>
#include <arch/sh4.h>

#define CF_TASKFILE  0xb4001000u   /* P2 of physical 0x14001000 */
#define CF_CONTROL   0xb400080cu   /* P2 of physical 0x1400080c */
#define CF_REG_DATA  0
#define CF_REG_CTL   8
#define CF_PORTS     9
#define CTL_NIEN     0x02u

static uint32_t reg_address(unsigned reg)
{
	return reg == CF_REG_CTL ? CF_CONTROL : CF_TASKFILE + (reg << 1);
}

static int cf_port_check(unsigned offset, unsigned width, bool write, uint32_t value)
{
	(void)write, (void)value;
	if (offset >= CF_PORTS)
		return -EINVAL;
	return width == (offset == CF_REG_DATA ? 2u : 1u) ? 0 : -EINVAL;
}

static void cf_quiesce(const struct device *d)
{
	(void)d;
	mmio_write16(reg_address(CF_REG_CTL), CTL_NIEN);
}

static const struct device_ops cf_ops = {
	.port_check = cf_port_check,
	.quiesce = cf_quiesce,
	.trigger = IRQ_LEVEL,
};

void sh4_cf_describe(struct myrmex_pci_info *out, const struct device_ops **guard)
{
	*guard = &cf_ops;
	memset(out, 0, sizeof(*out));
	out->kind = MYRMEX_DEV_KIND_LEGACY;
	out->vendor = MYRMEX_DEV_VENDOR_LEGACY;
	out->device = SH4_LEGACY_CF;
	out->class_code = 0x01;   /* mass storage */
	out->subclass = 0x01;     /* IDE */
	out->irq_line = R2D_LINE_CF_IDE;
	out->bar_base[0] = CF_PORT_BASE;
	out->bar_size[0] = CF_PORTS;
	out->bar_is_io = 1u;
	/* Interrupts off until a driver turns them on. */
	mmio_write16(reg_address(CF_REG_CTL), CTL_NIEN);
}

/* The contract's port space on this port is the CF's range alone. */
uint32_t arch_port_read(unsigned port, unsigned width)
{
	if (port < CF_PORT_BASE || port - CF_PORT_BASE >= CF_PORTS)
		return 0xffffffffu;
	uint16_t v = mmio_read16(reg_address(port - CF_PORT_BASE));
	return width == 2 ? v : (v & 0xffu);
}

void arch_port_write(unsigned port, unsigned width, uint32_t value)
{
	if (port < CF_PORT_BASE || port - CF_PORT_BASE >= CF_PORTS)
		return;
	mmio_write16(reg_address(port - CF_PORT_BASE), (uint16_t)(width == 2 ? value : value & 0xffu));
}
