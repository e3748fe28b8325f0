/*
 * The early console on the SH7751R's SCIF (QEMU's second serial port on
 * the r2d), polled; and the way the machine stops: the r2d has no exit
 * device, so arch_poweroff prints a line the test tools (tools/sh4_run.py)
 * wait for, then stops the CPU for good.
 */
#include <kernel/arch.h>
#include <kernel/printk.h>
#include <arch/sh4.h>

void arch_console_init(void)
{
	mmio_write16(SCSCR2, 0);
	mmio_write16(SCFCR2, 0x6);          /* reset both FIFOs */
	mmio_write16(SCSMR2, 0);            /* 8N1 */
	mmio_write16(SCFCR2, 0);
	mmio_write16(SCSCR2, SCSCR_TE | SCSCR_RE);
}

void arch_console_putc(char c)
{
	while (!(mmio_read16(SCFSR2) & SCFSR_TDFE))
		;
	mmio_write8(SCFTDR2, (uint8_t)c);
	mmio_write16(SCFSR2, mmio_read16(SCFSR2) & ~(SCFSR_TDFE | SCFSR_TEND));
}

NORETURN void arch_poweroff(int code)
{
	printk("\nMYRMEX-POWEROFF %d\n", code);
	for (;;)
		__asm__ volatile("sleep");   /* interrupts are masked: this is the end */
}
