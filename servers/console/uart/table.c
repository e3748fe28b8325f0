/*
 * The console protocol's opcodes (include/myrmex/console.h) and their
 * handlers (requests.c, tty.c).
 */
#include "server.h"

#include <myrmex/console.h>

static const console_handler handlers[] = {
	[CONSOLE_WRITE] = do_write,
	[CONSOLE_READ] = do_read,
	[CONSOLE_IOCTL] = do_ioctl,
	[CONSOLE_POLL] = do_poll,
	[CONSOLE_CANCEL] = do_cancel,
};

console_handler table_lookup(uint32_t opcode)
{
	return opcode < sizeof handlers / sizeof handlers[0] ? handlers[opcode] : NULL;
}
