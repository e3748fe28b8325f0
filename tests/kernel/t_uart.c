/*
 * t_uart: COM1 as a device for a user-level driver (include/myrmex/device.h)
 * and the kernel's refusals around it. The kernel keeps its console on the
 * same UART, so every check here must leave it printing.
 *
 *   t_uart none      a process without a device: the port calls give
 *                    -ENODEV; dev_info lists COM1 as documented (legacy,
 *                    16550 class, ports 0x3f8-0x3ff, IRQ 4), not given.
 *   t_uart pci       run with the e1000 NIC given: a PCI device has no port
 *                    range, so every port call gives -EINVAL.
 *   t_uart owner     run with COM1 given: the calls of PCI devices refused;
 *                    bad widths, offsets and values (-EINVAL); the guard's
 *                    refusals (-EPERM: LCR, LSR, MSR, IER high bits, MCR
 *                    loopback, FCR without FIFO or with TX reset); the
 *                    scratch register written and read back; LCR still 8N1;
 *                    the transmitter-empty interrupt arriving through get()
 *                    twice, with dev_irq_ack between. It ends with every
 *                    interrupt of the UART enabled and OUT1/OUT2 set,
 *                    leaving the cleanup to the kernel.
 *   t_uart quiesced  run with COM1 given, after "owner": the kernel turned
 *                    the UART's interrupts off when the last owner ended
 *                    (IER 0, OUT1 and OUT2 off), DTR and RTS kept.
 */
#define TEST_NAME "t_uart"
#include "test_check.h"

#include <errno.h>
#include <myrmex/device.h>

#define COM1_PORT 0x3f8
#define COM1_IRQ 4

#define UART_THR 0
#define UART_IER 1
#define UART_FCR 2
#define UART_IIR 2
#define UART_LCR 3
#define UART_MCR 4
#define UART_LSR 5
#define UART_MSR 6
#define UART_SCR 7
#define IER_THR_EMPTY 0x02
#define IIR_NO_INTERRUPT 0x01
#define IIR_CAUSE 0x0e
#define IIR_THR_EMPTY 0x02
#define LCR_8N1 0x03
#define MCR_DTR_RTS 0x03
#define MCR_OUT1 0x04
#define MCR_OUT2 0x08

static long port_read(long offset, long width)
{
	return myrmex_syscall6(MYRMEX_SYS_DEV_PORT_READ, offset, width, 0, 0, 0, 0);
}

static long port_write(long offset, long width, long value)
{
	return myrmex_syscall6(MYRMEX_SYS_DEV_PORT_WRITE, offset, width, value, 0, 0, 0);
}

/* COM1's index in the device list, its description in *info; -1 if absent. */
static int find_com1(struct myrmex_pci_info *info)
{
	static const uint16_t ids[] = { MYRMEX_DEV_LEGACY_COM1 };
	return myrmex_dev_find(MYRMEX_DEV_VENDOR_LEGACY, ids, 1, info);
}

static void check_listing(int want_owned)
{
	struct myrmex_pci_info info;
	int index = find_com1(&info);
	CHECK(index >= 0, "COM1 is not in the device list");
	if (index < 0)
		return;
	CHECK(info.kind == MYRMEX_DEV_KIND_LEGACY && info.class_code == 0x07 &&
	      info.subclass == 0x00 && info.prog_if == 0x02,
	      "COM1 listed as kind %u class %02x/%02x/%02x", info.kind, info.class_code,
	      info.subclass, info.prog_if);
	CHECK(info.bar_base[0] == COM1_PORT && info.bar_size[0] == 8 && (info.bar_is_io & 1),
	      "COM1 ports %#llx+%llu io %#x", (unsigned long long)info.bar_base[0],
	      (unsigned long long)info.bar_size[0], info.bar_is_io);
	CHECK(info.irq_line == COM1_IRQ, "COM1 irq %u", info.irq_line);
	CHECK(info.owned == want_owned, "COM1 owned %u, expected %d", info.owned, want_owned);
}

static void without_device(void)
{
	check_listing(0);
	CHECK_EQ(port_read(0, 1), -ENODEV);
	CHECK_EQ(port_read(UART_LSR, 1), -ENODEV);
	CHECK_EQ(port_write(UART_THR, 1, 'x'), -ENODEV);
	CHECK_EQ(port_write(UART_IER, 1, 0), -ENODEV);
	CHECK_EQ(port_read(-1, 1), -ENODEV);
	/* Only the init gives devices, COM1 too. */
	struct myrmex_pci_info info;
	int index = find_com1(&info);
	char *argv[] = { "t_alive", NULL };
	if (index >= 0)
		CHECK_EQ(myrmex_spawn_flags("t_alive", argv, argv + 1, -1, MYRMEX_SPAWN_DEVICE(index)),
		         -EPERM);
}

static void with_pci_device(void)
{
	CHECK_EQ(port_read(0, 1), -EINVAL);
	CHECK_EQ(port_read(0, 4), -EINVAL);
	CHECK_EQ(port_write(0, 1, 0), -EINVAL);
	CHECK_EQ(port_write(0, 4, 0), -EINVAL);
}

/* Everything malformed, whatever the register: -EINVAL, and nothing done. */
static void bad_arguments(void)
{
	static const long widths[] = { 0, 3, 5, 8, -1, 1L << 32 | 1 };
	for (unsigned i = 0; i < sizeof widths / sizeof widths[0]; i++) {
		CHECK_EQ(port_read(UART_SCR, widths[i]), -EINVAL);
		CHECK_EQ(port_write(UART_SCR, widths[i], 0), -EINVAL);
	}
	static const long offsets[] = { 8, 9, 0xffff, 1L << 32, -1, -8, 0x3f8 };
	for (unsigned i = 0; i < sizeof offsets / sizeof offsets[0]; i++) {
		CHECK_EQ(port_read(offsets[i], 1), -EINVAL);
		CHECK_EQ(port_write(offsets[i], 1, 0), -EINVAL);
	}
	CHECK_EQ(port_read(1, 2), -EINVAL);        /* not aligned */
	CHECK_EQ(port_read(6, 4), -EINVAL);        /* past the end */
	CHECK_EQ(port_read(0, 2), -EINVAL);        /* the 16550's registers are bytes */
	CHECK_EQ(port_read(4, 4), -EINVAL);
	CHECK_EQ(port_write(UART_SCR - 1, 2, 0), -EINVAL);
	CHECK_EQ(port_write(UART_SCR, 1, 0x100), -EINVAL);   /* wider than the width */
	CHECK_EQ(port_write(UART_SCR, 1, -1), -EINVAL);
	CHECK_EQ(port_write(UART_SCR, 1, 1L << 40), -EINVAL);
}

/* What the kernel keeps to itself: -EPERM, and the register unchanged. */
static void guard(void)
{
	CHECK_EQ(port_write(UART_LCR, 1, LCR_8N1), -EPERM);   /* even the same framing */
	CHECK_EQ(port_write(UART_LCR, 1, 0x80 | LCR_8N1), -EPERM);   /* the divisor latch */
	CHECK_EQ(port_write(UART_LSR, 1, 0), -EPERM);
	CHECK_EQ(port_write(UART_MSR, 1, 0), -EPERM);
	CHECK_EQ(port_write(UART_IER, 1, 0x10), -EPERM);
	CHECK_EQ(port_write(UART_IER, 1, 0x80), -EPERM);
	CHECK_EQ(port_write(UART_MCR, 1, 0x10 | MCR_DTR_RTS), -EPERM);   /* loopback */
	CHECK_EQ(port_write(UART_MCR, 1, 0x20), -EPERM);
	CHECK_EQ(port_write(UART_FCR, 1, 0x00), -EPERM);   /* FIFO off */
	CHECK_EQ(port_write(UART_FCR, 1, 0x05), -EPERM);   /* TX reset */
	CHECK_EQ(port_write(UART_FCR, 1, 0x09), -EPERM);   /* DMA mode */
	CHECK_EQ(port_write(UART_FCR, 1, 0x21), -EPERM);   /* 64-byte FIFO */
	CHECK_EQ(port_write(UART_FCR, 1, 0xc6), -EPERM);   /* resets without FIFO enable */
	CHECK_EQ(port_read(UART_LCR, 1), LCR_8N1);         /* the kernel's framing stands */

	/* What the driver may do. */
	CHECK_EQ(port_write(UART_SCR, 1, 0x5a), 0);
	CHECK_EQ(port_read(UART_SCR, 1), 0x5a);
	CHECK_EQ(port_write(UART_SCR, 1, 0xa5), 0);
	CHECK_EQ(port_read(UART_SCR, 1), 0xa5);
	CHECK_EQ(port_write(UART_FCR, 1, 0xc3), 0);        /* RX reset, trigger 14 */
	CHECK_EQ(port_write(UART_FCR, 1, 0x01), 0);
	CHECK_EQ(port_write(UART_IER, 1, 0x0f), 0);
	CHECK_EQ(port_read(UART_IER, 1), 0x0f);
	CHECK_EQ(port_write(UART_IER, 1, 0), 0);
	long mcr = port_read(UART_MCR, 1);
	CHECK(mcr >= 0 && (mcr & MCR_DTR_RTS) == MCR_DTR_RTS, "MCR %#lx: DTR/RTS off", mcr);
	CHECK_EQ(port_write(UART_MCR, 1, MCR_DTR_RTS | MCR_OUT2), 0);
	CHECK_EQ(port_read(UART_MCR, 1), MCR_DTR_RTS | MCR_OUT2);
	long lsr = port_read(UART_LSR, 1);
	CHECK(lsr >= 0 && lsr <= 0xff, "LSR read %ld", lsr);
}

/* Other device calls are for PCI devices. */
static void not_pci(void)
{
	CHECK_EQ(myrmex_dev_config_read(0), -EINVAL);
	CHECK_EQ(myrmex_dev_config_write(4, 0), -EINVAL);
	CHECK_EQ(myrmex_dev_map_bar(0), -EINVAL);
	long h = myrmex_ica_alloc(1);
	CHECK(h > 0, "ica_alloc: %ld", h);
	CHECK_EQ(myrmex_ica_phys((uint32_t)h), -EPERM);   /* a UART does no DMA */
	myrmex_ica_free((uint32_t)h);
}

/* The UART raises its transmitter-empty interrupt as soon as it is enabled
 * (the transmitter is idle); it arrives through get() as a message. Reading
 * IIR clears it; after dev_irq_ack, enabling it again gives a new edge. */
static void interrupt_as_message(void)
{
	for (int round = 0; round < 2; round++) {
		CHECK_EQ(port_write(UART_IER, 1, IER_THR_EMPTY), 0);
		struct myrmex_delivery d;
		long r = myrmex_get(NULL, &d);
		CHECK_EQ(r, 0);
		CHECK(d.kind == MYRMEX_DELIVERY_INTERRUPT && d.opcode >= 1,
		      "round %d: get gave kind %u count %u, not an interrupt", round, d.kind, d.opcode);
		long iir = port_read(UART_IIR, 1);
		CHECK(iir >= 0 && ((iir & IIR_CAUSE) == IIR_THR_EMPTY || (iir & IIR_NO_INTERRUPT)),
		      "round %d: IIR %#lx", round, iir);
		CHECK_EQ(port_write(UART_IER, 1, 0), 0);
		CHECK_EQ(myrmex_dev_irq_ack(), 0);
	}
}

static void with_com1(void)
{
	check_listing(1);
	long ier = port_read(UART_IER, 1), mcr = port_read(UART_MCR, 1);
	CHECK(ier == 0, "IER %#lx when given: interrupts left on", ier);
	CHECK(mcr >= 0 && !(mcr & (MCR_OUT1 | MCR_OUT2)), "MCR %#lx when given: OUT1/OUT2 on", mcr);
	not_pci();
	bad_arguments();
	guard();
	interrupt_as_message();
	/* Leave it noisy: the kernel must silence it when this process ends. */
	CHECK_EQ(port_write(UART_MCR, 1, MCR_DTR_RTS | MCR_OUT1 | MCR_OUT2), 0);
	CHECK_EQ(port_write(UART_IER, 1, 0x0f), 0);
}

static void quiesced(void)
{
	check_listing(1);
	CHECK_EQ(port_read(UART_IER, 1), 0);
	CHECK_EQ(port_read(UART_MCR, 1), MCR_DTR_RTS);
	CHECK_EQ(port_read(UART_LCR, 1), LCR_8N1);
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: nothing to test");
		return 0;
	}
	const char *mode = argc > 1 ? argv[1] : "none";
	if (strcmp(mode, "owner") == 0)
		with_com1();
	else if (strcmp(mode, "quiesced") == 0)
		quiesced();
	else if (strcmp(mode, "pci") == 0)
		with_pci_device();
	else
		without_device();
	return test_exit_code();
}
