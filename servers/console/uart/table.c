/*
 * The console server as the server library sees it: the console
 * protocol's opcodes (include/myrmex/console.h) and their handlers
 * (requests.c, tty.c), and the receive interrupt (requests.c).
 */
#include "uart.h"

#include <myrmex/console.h>

static const struct server_op ops[] = {
	[CONSOLE_WRITE] = { do_write, 0 },
	[CONSOLE_READ] = { do_read, 0 },
	[CONSOLE_IOCTL] = { do_ioctl, 0 },
	[CONSOLE_POLL] = { do_poll, 0 },
	[CONSOLE_CANCEL] = { do_cancel, 0 },
};

const struct server console_server = {
	.name = "uart",
	.ops = ops,
	.nops = SERVER_NOPS(ops),
	.interrupt = console_interrupt,
};
