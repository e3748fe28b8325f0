/*
 * PCI configuration space (mechanism #1, ports 0xcf8/0xcfc) and the I/O APIC
 * that carries device interrupt lines to the CPU. PCI lines are
 * level-triggered, active high, as QEMU's PC board routes PCI INTx (its MADT
 * overrides say so); ISA lines (legacy.c) are edge-triggered, active high.
 * Lines start masked.
 */
#include <kernel/arch.h>
#include <arch/x86.h>

#define PCI_ADDRESS 0xcf8
#define PCI_DATA    0xcfc
#define IOAPIC_BASE (DIRECT_MAP + 0xfec00000ull)
#define REDIR_MASKED (1u << 16)
#define REDIR_LEVEL  (1u << 15)

static inline void outl_port(uint16_t port, uint32_t v) { __asm__ volatile("outl %0, %1" :: "a"(v), "Nd"(port)); }
static inline uint32_t inl_port(uint16_t port)
{
	uint32_t v;
	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static uint32_t config_address(unsigned bus, unsigned slot, unsigned fn, unsigned offset)
{
	return 0x80000000u | (bus & 0xff) << 16 | (slot & 0x1f) << 11 | (fn & 7) << 8 | (offset & 0xfc);
}

uint32_t arch_pci_read32(unsigned bus, unsigned slot, unsigned fn, unsigned offset)
{
	outl_port(PCI_ADDRESS, config_address(bus, slot, fn, offset));
	return inl_port(PCI_DATA);
}

void arch_pci_write32(unsigned bus, unsigned slot, unsigned fn, unsigned offset, uint32_t v)
{
	outl_port(PCI_ADDRESS, config_address(bus, slot, fn, offset));
	outl_port(PCI_DATA, v);
}

static void ioapic_write(uint32_t reg, uint32_t v)
{
	*(volatile uint32_t *)IOAPIC_BASE = reg;
	*(volatile uint32_t *)(IOAPIC_BASE + 0x10) = v;
}

static uint32_t ioapic_read(uint32_t reg)
{
	*(volatile uint32_t *)IOAPIC_BASE = reg;
	return *(volatile uint32_t *)(IOAPIC_BASE + 0x10);
}

void arch_irq_route(unsigned line, enum irq_trigger trigger)
{
	uint32_t mode = trigger == IRQ_LEVEL ? REDIR_LEVEL : 0;   /* polarity bit 0: active high */
	ioapic_write(0x10 + 2 * line + 1, 0);   /* to the boot CPU (APIC id 0) */
	ioapic_write(0x10 + 2 * line, REDIR_MASKED | mode | (VEC_IRQ_BASE + line));
}

void arch_irq_mask(unsigned line)
{
	ioapic_write(0x10 + 2 * line, ioapic_read(0x10 + 2 * line) | REDIR_MASKED);
}

void arch_irq_unmask(unsigned line)
{
	ioapic_write(0x10 + 2 * line, ioapic_read(0x10 + 2 * line) & ~REDIR_MASKED);
}
