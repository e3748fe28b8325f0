/*
 * uart: the console server, the driver of COM1 (the 16550 UART at ports
 * 0x3f8-0x3ff, ISA IRQ 4), which the kernel lists as a legacy device
 * (include/myrmex/device.h). The init starts it with the server right and
 * the device (MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_DEVICE(index)), passing
 * the device index as its argument:
 *
 *     uart <device index>
 *
 * Without an argument it takes the device dev_info lists as COM1. It turns
 * the UART's receive interrupt on, registers MYRMEX_COREID_CONSOLE and then
 * serves the console protocol (include/myrmex/console.h) forever with the
 * server library: requests and interrupts both arrive through get(). The
 * kernel keeps writing its own messages to the same UART. Exits with 1 when the device cannot be
 * used.
 */
#include "uart.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <myrmex/console.h>

void console_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	myrmex_vlog("uart", fmt, ap);
	va_end(ap);
}

/* The device this process was given: by index from argv, else the one
 * listed as COM1. -1 when there is none. */
static int find_device(int argc, char **argv, struct myrmex_pci_info *info)
{
	static const uint16_t ids[] = { MYRMEX_DEV_LEGACY_COM1 };
	int index = myrmex_dev_pick(argc > 1 ? argv[1] : NULL, MYRMEX_DEV_VENDOR_LEGACY, ids, 1, info);
	return index >= 0 && info->kind == MYRMEX_DEV_KIND_LEGACY ? index : -1;
}

int main(int argc, char **argv)
{
	struct myrmex_pci_info info;
	int index = find_device(argc, argv, &info);
	if (index < 0) {
		console_log("no COM1 device%s%s", argc > 1 ? " at index " : "", argc > 1 ? argv[1] : "");
		return 1;
	}
	int err = uart_start();
	if (err < 0) {
		console_log("cannot drive COM1 (device %d; was it given to this process?): %d", index, err);
		return 1;
	}
	console_input_init();
	long r = myrmex_registserver(MYRMEX_COREID_CONSOLE);
	if (r < 0) {
		console_log("registserver(%u): %ld", MYRMEX_COREID_CONSOLE, r);
		return 1;
	}
	console_log("COM1 (device %d, ports %#llx, irq %u): console on coreid %u", index,
	            (unsigned long long)info.bar_base[0], info.irq_line, MYRMEX_COREID_CONSOLE);

	server_run(&console_server);
}
