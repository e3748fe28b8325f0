/*
 * The PC's legacy (non-PCI) devices that a user-level driver may be given,
 * described for the device list (include/myrmex/device.h), and port I/O for
 * their drivers' port calls. Today one device: COM1, the 16550 UART that the
 * kernel also uses as its console (serial.c).
 */
#include <kernel/arch.h>
#include <kernel/device.h>
#include <kernel/string.h>
#include <myrmex/device.h>
#include <arch/x86.h>

/*
 * COM1's ISA IRQ 4 is I/O APIC input 4. The kernel reads no MADT yet; QEMU's
 * PC MADT overrides only ISA IRQ 0 (to input 2) and the PCI lines (5, 9, 10,
 * 11: level-triggered), so IRQ 4 keeps the ISA default: identity mapped,
 * edge-triggered, active high. A board whose MADT overrides IRQ 4 needs that
 * override applied here (input, trigger and polarity).
 */
#define COM1_INPUT 4

/* uart16550.c: the guard of a 16550 UART that the kernel's console shares. */
extern const struct device_ops uart16550_ops;

bool arch_legacy_device(unsigned i, struct myrmex_pci_info *out, const struct device_ops **guard)
{
	if (i != 0)
		return false;
	*guard = &uart16550_ops;
	memset(out, 0, sizeof(*out));
	out->kind = MYRMEX_DEV_KIND_LEGACY;
	out->vendor = MYRMEX_DEV_VENDOR_LEGACY;
	out->device = MYRMEX_DEV_LEGACY_COM1;
	out->class_code = 0x07;   /* communication controller */
	out->subclass = 0x00;     /* serial */
	out->prog_if = 0x02;      /* 16550-compatible */
	out->irq_line = COM1_INPUT;
	out->bar_base[0] = COM1_BASE;
	out->bar_size[0] = COM1_PORTS;
	out->bar_is_io = 1u;
	return true;
}

uint32_t arch_port_read(unsigned port, unsigned width)
{
	switch (width) {
	case 1: return inb((uint16_t)port);
	case 2: return inw((uint16_t)port);
	default: return inl((uint16_t)port);
	}
}

void arch_port_write(unsigned port, unsigned width, uint32_t value)
{
	switch (width) {
	case 1: outb((uint16_t)port, (uint8_t)value); break;
	case 2: outw((uint16_t)port, (uint16_t)value); break;
	default: outl((uint16_t)port, value); break;
	}
}
