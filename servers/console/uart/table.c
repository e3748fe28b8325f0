/*
 * The console protocol's opcodes (include/myrmex/console.h) and their
 * handlers (requests.c).
 */
#include "server.h"

#include <myrmex/console.h>

static const console_handler handlers[] = {
	[CONSOLE_WRITE] = do_write,
	[CONSOLE_READ] = do_read,
};

console_handler table_lookup(uint32_t opcode)
{
	return opcode < sizeof handlers / sizeof handlers[0] ? handlers[opcode] : NULL;
}
