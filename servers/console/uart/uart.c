/*
 * COM1, a 16550 UART, through the kernel's port calls (dev_port_read and
 * dev_port_write on the device this process was given). The kernel keeps
 * its own console on the same UART, so this driver touches only what input
 * and output need: IER (receive interrupt), FCR (trigger level), MCR (OUT2,
 * the PC's gate of the IRQ line), THR and RBR; never LCR or the divisor,
 * which the kernel set at boot (and its guard refuses anyway).
 *
 * Output polls LSR.THRE. When THRE is set the transmit FIFO is empty, so up
 * to TX_BURST bytes go without asking again; TX_BURST is one less than the
 * FIFO because the kernel may put one byte in it between two of our calls
 * (it too waits for THRE, and writes one byte at a time).
 */
#include "uart.h"

#define UART_RBR 0   /* read */
#define UART_THR 0   /* write */
#define UART_IER 1
#define UART_FCR 2   /* write */
#define UART_IIR 2   /* read */
#define UART_MCR 4
#define UART_LSR 5

#define IER_RX_DATA   0x01u
#define FCR_ENABLE    0x01u   /* trigger level bits 0: an interrupt per byte */
#define IIR_FIFOS_ON  0xc0u
#define MCR_OUT2      0x08u
#define LSR_DATA      0x01u
#define LSR_THR_EMPTY 0x20u

#define FIFO_BYTES 16u
#define TX_BURST (FIFO_BYTES - 1)

static unsigned tx_burst = 1;   /* TX_BURST once the FIFO is known to be on */

/* A register's value, or -errno (only if the device were not ours). */
static long reg_read(unsigned reg)
{
	return myrmex_dev_port_read(reg, 1);
}

static long reg_write(unsigned reg, uint8_t value)
{
	return myrmex_dev_port_write(reg, 1, value);
}

int uart_start(void)
{
	long r = reg_write(UART_FCR, FCR_ENABLE);   /* the FIFOs stay on; no reset */
	if (r < 0)
		return (int)r;
	long iir = reg_read(UART_IIR);
	if (iir >= 0 && (iir & IIR_FIFOS_ON) == IIR_FIFOS_ON)
		tx_burst = TX_BURST;
	long mcr = reg_read(UART_MCR);
	if (mcr < 0)
		return (int)mcr;
	r = reg_write(UART_MCR, (uint8_t)(mcr | MCR_OUT2));
	if (r == 0)
		r = reg_write(UART_IER, IER_RX_DATA);
	return (int)r;
}

void uart_write(const char *s, uint64_t n)
{
	unsigned room = 0;   /* bytes the FIFO surely takes now */
	for (uint64_t i = 0; i < n; i++) {
		if (room == 0) {
			long lsr;
			while ((lsr = reg_read(UART_LSR)) >= 0 && !(lsr & LSR_THR_EMPTY))
				;
			if (lsr < 0)
				return;
			room = tx_burst;
		}
		reg_write(UART_THR, (uint8_t)s[i]);
		room--;
	}
}

void uart_receive(void (*take)(uint8_t c))
{
	long lsr, c;
	while ((lsr = reg_read(UART_LSR)) >= 0 && (lsr & LSR_DATA) && (c = reg_read(UART_RBR)) >= 0)
		take((uint8_t)c);
}
