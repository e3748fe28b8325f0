/*
 * Opcode -> handler for the disk protocol (include/myrmex/disk.h). An
 * opcode without an entry gets -ENOSYS from the caller of table_lookup.
 */
#include "driver.h"

#include <myrmex/disk.h>

static const blk_handler handlers[] = {
	[DISK_READ] = do_read,
	[DISK_WRITE] = do_write,
	[DISK_INFO] = do_info,
	[DISK_FLUSH] = do_flush,
};

blk_handler table_lookup(uint32_t opcode)
{
	if (opcode >= sizeof handlers / sizeof handlers[0])
		return 0;
	return handlers[opcode];
}
