/*
 * The kernel's guard over a 16550 UART given to a user-level driver (the
 * console server). The kernel keeps writing its log, panic dumps and
 * write(1) to the same UART, polling the transmitter, with the framing and
 * divisor it set at boot; so the driver may receive, transmit and switch
 * interrupts on, but never change what the kernel's output relies on:
 * LCR (framing, and the divisor latch bit that would turn registers 0 and 1
 * into the divisor), loopback in MCR, or a TX FIFO reset. When the driver
 * ends the UART's interrupts go off (IER 0, OUT2 off), as they were.
 */
#include <kernel/device.h>
#include <kernel/errno.h>

/* Register offsets from the base port (DLAB is never set). */
#define UART_THR 0   /* write: transmit holding; read: RBR, receive buffer */
#define UART_IER 1
#define UART_FCR 2   /* write: FIFO control; read: IIR, interrupt identification */
#define UART_LCR 3
#define UART_MCR 4
#define UART_LSR 5
#define UART_MSR 6
#define UART_SCR 7

/* IER: received data, transmitter empty, line status, modem status. The
 * high bits (sleep, low power on later parts) stay 0. */
#define IER_ALLOWED 0x0fu
/* FCR: the FIFO stays on (turning it off or on clears both FIFOs); the
 * receive FIFO may be reset and its trigger level chosen; no TX reset, DMA
 * mode or 64-byte FIFO. */
#define FCR_ENABLE   0x01u
#define FCR_RX_RESET 0x02u
#define FCR_TRIGGER  0xc0u
/* MCR: DTR, RTS, OUT1, OUT2 (which gates the IRQ line on PCs); not loopback. */
#define MCR_ALLOWED 0x0fu
#define MCR_DTR_RTS 0x03u

static int uart_port_check(unsigned offset, unsigned width, bool write, uint32_t value)
{
	if (width != 1)
		return -EINVAL;   /* byte registers: a wider access would span two */
	if (!write)
		return 0;         /* reads change only what the driver owns (RX, IIR, status) */
	switch (offset) {
	case UART_THR:
	case UART_SCR:
		return 0;
	case UART_IER:
		return (value & ~IER_ALLOWED) ? -EPERM : 0;
	case UART_FCR:
		return (value & FCR_ENABLE) && !(value & ~(FCR_ENABLE | FCR_RX_RESET | FCR_TRIGGER))
		       ? 0 : -EPERM;
	case UART_MCR:
		return (value & ~MCR_ALLOWED) ? -EPERM : 0;
	default:
		return -EPERM;    /* LCR, LSR, MSR */
	}
}

static void uart_quiesce(const struct device *d)
{
	arch_port_write(d->port_base + UART_IER, 1, 0);
	uint32_t mcr = arch_port_read(d->port_base + UART_MCR, 1);
	arch_port_write(d->port_base + UART_MCR, 1, mcr & MCR_DTR_RTS);
}

/* ISA: the UART's interrupt line is edge-triggered. */
const struct device_ops uart16550_ops = {
	.port_check = uart_port_check,
	.quiesce = uart_quiesce,
	.trigger = IRQ_EDGE,
};
