/*
 * The early console on COM1 (115200 8N1, polled) and machine power-off
 * through QEMU's isa-debug-exit device at port 0xf4. The console server may
 * own COM1 too (legacy.c, kernel/arch/x86_64/uart16550.c): the kernel's output
 * only needs the framing set here and the transmitter, which the server's
 * guard leaves alone.
 */
#include <kernel/arch.h>
#include <arch/x86.h>

#define COM1 COM1_BASE
#define DEBUG_EXIT_PORT 0xf4

void arch_console_init(void)
{
	outb(COM1 + 1, 0x00);   /* no interrupts */
	outb(COM1 + 3, 0x80);   /* divisor latch */
	outb(COM1 + 0, 0x01);   /* 115200 baud */
	outb(COM1 + 1, 0x00);
	outb(COM1 + 3, 0x03);   /* 8 bits, no parity, one stop bit */
	outb(COM1 + 2, 0xc7);   /* FIFOs on, cleared */
	outb(COM1 + 4, 0x03);   /* DTR, RTS */
}

void arch_console_putc(char c)
{
	while (!(inb(COM1 + 5) & 0x20))
		;
	outb(COM1, (uint8_t)c);
}

void arch_poweroff(int code)
{
	outl(DEBUG_EXIT_PORT, (uint32_t)code);
	/* Not under QEMU (or the device is absent): stop here. */
	for (;;)
		__asm__ volatile("cli; hlt");
}
