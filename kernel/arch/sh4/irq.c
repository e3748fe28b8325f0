/*
 * Device interrupt lines on the r2d (the contract's arch_irq_route, mask and
 * unmask). The board's FPGA gathers its sources (PCI INTA-INTD, the CF slot,
 * the SM501, ...) into one 4-bit IRL code on the SH7751R's IRL pins (ICR.IRLM
 * 0: encoded levels); of the sources its mask register IRLMSK lets through,
 * the one with the lowest code wins. The INTC takes IRL code n as INTEVT
 * 0x200 + 0x20 * n (the SH7750 series manual's IRL table; QEMU's sh7750.c and
 * r2d.c agree), priority level 15 - n, accepted whenever SR.IMASK is below it:
 * in user mode and in the idle loop, never elsewhere in the kernel.
 *
 * The port's line number is that IRL code (0..14). A line is level-triggered:
 * its source stays asserted until the device is served, so the FPGA mask is
 * the gate — device_interrupt (kernel/core/device.c) masks the line, the
 * owner's dev_irq_ack unmasks it. Lines the board does not wire are ignored.
 */
#include <kernel/arch.h>
#include <arch/sh4.h>

/* FPGA IRLMSK bit of each IRL code (r2d.c's irqtab; 0: no source). */
static const uint16_t line_mask[ARCH_IRQ_LINES] = {
	[R2D_LINE_PCI_INTD] = 1u << 11,
	[R2D_LINE_CF_IDE]   = 1u << 9,
	[2]                 = 1u << 8,    /* CF card detect */
	[R2D_LINE_PCI_INTC] = 1u << 12,
	[4]                 = 1u << 10,   /* SM501 */
	[5]                 = 1u << 6,    /* keyboard */
	[6]                 = 1u << 5,    /* RTC alarm */
	[7]                 = 1u << 4,    /* RTC tick */
	[8]                 = 1u << 7,    /* SD card */
	[R2D_LINE_PCI_INTA] = 1u << 14,
	[R2D_LINE_PCI_INTB] = 1u << 13,
	[11]                = 1u << 0,    /* external */
	[12]                = 1u << 15,   /* touch panel */
};

/* The mask register's value: the FPGA is the only writer, the kernel lock
 * (every kernel entry holds it) the only guard needed on one CPU. */
static uint16_t irlmsk;

void sh4_irq_init(void)
{
	irlmsk = 0;
	mmio_write16(R2D_IRLMSK, irlmsk);   /* every source masked until routed */
}

static void set_mask(uint16_t value)
{
	irlmsk = value;
	mmio_write16(R2D_IRLMSK, irlmsk);
}

void arch_irq_route(unsigned line, enum irq_trigger trigger)
{
	(void)trigger;   /* the FPGA holds a source's level: every line is level */
	if (line < ARCH_IRQ_LINES)
		set_mask((uint16_t)(irlmsk & ~line_mask[line]));
}

void arch_irq_mask(unsigned line)
{
	if (line < ARCH_IRQ_LINES)
		set_mask((uint16_t)(irlmsk & ~line_mask[line]));
}

void arch_irq_unmask(unsigned line)
{
	if (line < ARCH_IRQ_LINES)
		set_mask((uint16_t)(irlmsk | line_mask[line]));
}

int sh4_irq_line_of(uint32_t intevt)
{
	if (intevt < INT_IRL_FIRST || intevt > INT_IRL_LAST || (intevt & 0x1f))
		return -1;
	return (int)((intevt - INT_IRL_FIRST) >> 5);
}
