/*
 * The SH7751R's PCI bridge (PCIC), as QEMU's r2d models it (sh_pci.c): the
 * contract's configuration-space access, and at boot the work a firmware
 * would have done — every function on bus 0 gets its BARs placed in the
 * bridge's windows, decoding on, and its interrupt line (configuration
 * offset 0x3c) set to the IRL line its slot reaches (irq.c), so that the
 * portable scan (kernel/core/device.c) finds them ready.
 *
 * Configuration cycles: the address (enable, bus, device, function,
 * register) into PCIPAR, then a 32-bit access to PCIPDR. Memory BARs go in
 * the 16 MiB memory window, which the CPU reaches at P4 0xfd000000 and, as a
 * physical address a TLB entry can name, at its area-7 shadow 0x1d000000;
 * PCIMBR puts the window at PCI address 0x1d000000 too, so a BAR's value is
 * its physical address (on QEMU, which maps PCI memory straight into the
 * system bus, that is where the BAR appears). Each memory BAR gets whole
 * pages of its own: mapping one into a driver maps nothing else. I/O BARs
 * are placed from 0x1000 in the 256 KiB I/O window (PCIIOBR) but not used:
 * the contract's port space is the platform's legacy devices. Bus mastering
 * stays off until the driver turns it on (dev_config_write, offset 4).
 */
#include <kernel/arch.h>
#include <kernel/types.h>
#include <arch/sh4.h>

#define PCI_ID        0x00
#define PCI_COMMAND   0x04
#define PCI_HEADER    0x0c
#define PCI_BAR0      0x10
#define PCI_INTERRUPT 0x3c
#define CMD_IO        0x1u
#define CMD_MEMORY    0x2u
#define PCI_SLOTS     32
#define IO_FIRST      0x1000u
#define IO_END        0x40000u
#define LINE_NONE     0xffu

static uint32_t par_of(unsigned bus, unsigned slot, unsigned fn, unsigned offset)
{
	return 0x80000000u | bus << 16 | slot << 11 | fn << 8 | (offset & 0xfc);
}

/* Only bus 0 exists (no PCI-PCI bridge on the r2d); offsets are the
 * 256-byte header's, 4-aligned (the caller's promise, enforced here too). */
static bool valid(unsigned bus, unsigned slot, unsigned fn, unsigned offset)
{
	return bus == 0 && slot < PCI_SLOTS && fn < 8 && offset < 256 && !(offset & 3);
}

uint32_t arch_pci_read32(unsigned bus, unsigned slot, unsigned fn, unsigned offset)
{
	if (!valid(bus, slot, fn, offset))
		return 0xffffffffu;
	mmio_write32(SH4_PCIPAR, par_of(bus, slot, fn, offset));
	return mmio_read32(SH4_PCIPDR);
}

void arch_pci_write32(unsigned bus, unsigned slot, unsigned fn, unsigned offset, uint32_t v)
{
	if (!valid(bus, slot, fn, offset))
		return;
	mmio_write32(SH4_PCIPAR, par_of(bus, slot, fn, offset));
	mmio_write32(SH4_PCIPDR, v);
}

/* The IRL line of a slot's interrupt: the bridge wires slot n to INTA + n
 * (sh_pci.c's map_irq; the r2d's Linux table agrees), the FPGA each INTx to
 * its IRL code; slots past 3 have none. */
static uint8_t line_of_slot(unsigned slot)
{
	static const uint8_t lines[4] = { R2D_LINE_PCI_INTA, R2D_LINE_PCI_INTB,
	                                  R2D_LINE_PCI_INTC, R2D_LINE_PCI_INTD };
	return slot < 4 ? lines[slot] : LINE_NONE;
}

/* Next free addresses in the two windows. */
static uint32_t mem_next = SH4_PCI_MEM_BASE, io_next = IO_FIRST;

static uint32_t place(uint32_t *next, uint32_t end, uint32_t size, uint32_t align)
{
	if (align < size)
		align = size;
	uint32_t at = (*next + align - 1) & ~(align - 1);
	if (at < *next || at > end || end - at < size)
		return 0;
	*next = at + size;
	return at;
}

static void assign_bars(unsigned slot, unsigned fn)
{
	uint32_t command = arch_pci_read32(0, slot, fn, PCI_COMMAND);
	arch_pci_write32(0, slot, fn, PCI_COMMAND, command & ~(CMD_IO | CMD_MEMORY));
	for (unsigned b = 0; b < 6; b++) {
		unsigned off = PCI_BAR0 + 4 * b;
		arch_pci_write32(0, slot, fn, off, 0xffffffffu);
		uint32_t mask = arch_pci_read32(0, slot, fn, off);
		if (mask == 0 || mask == 0xffffffffu)
			continue;
		uint32_t at;
		if (mask & 1) {
			uint32_t size = ~(mask & ~3u) + 1;
			at = place(&io_next, IO_END, size & 0xffff, 4);
		} else {
			uint32_t size = ~(mask & ~0xfu) + 1;
			at = place(&mem_next, SH4_PCI_MEM_BASE + SH4_PCI_MEM_SIZE, size, PAGE_SIZE);
			if (((mask >> 1) & 3) == 2 && b < 5)
				arch_pci_write32(0, slot, fn, off + 4, 0);   /* 64-bit: below 4 GiB */
		}
		arch_pci_write32(0, slot, fn, off, at);   /* 0 when the window is full */
		if (!(mask & 1) && ((mask >> 1) & 3) == 2)
			b++;
	}
	uint32_t irq = arch_pci_read32(0, slot, fn, PCI_INTERRUPT);
	arch_pci_write32(0, slot, fn, PCI_INTERRUPT, (irq & ~0xffu) | line_of_slot(slot));
	arch_pci_write32(0, slot, fn, PCI_COMMAND, command | CMD_IO | CMD_MEMORY);
}

void sh4_pci_init(void)
{
	mmio_write32(SH4_PCIMBR, SH4_PCI_MEM_BASE);
	for (unsigned slot = 0; slot < PCI_SLOTS; slot++) {
		for (unsigned fn = 0; fn < 8; fn++) {
			uint32_t id = arch_pci_read32(0, slot, fn, PCI_ID);
			if ((id & 0xffff) == 0xffff) {
				if (fn == 0)
					break;
				continue;
			}
			assign_bars(slot, fn);
			if (fn == 0 && !(arch_pci_read32(0, slot, fn, PCI_HEADER) & 0x800000))
				break;
		}
	}
}
