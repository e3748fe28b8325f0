/*
 * The virtio-blk driver as the server library sees it: the disk protocol's
 * opcodes (include/myrmex/disk.h) and their handlers, the check of who may
 * use the disk, and the completion interrupt (blk.c). An opcode without an
 * entry gets -ENOSYS.
 */
#include "driver.h"
#include "../../lib/diskdrv/client.h"

#include <myrmex/disk.h>

static const struct server_op ops[] = {
	[DISK_READ] = { do_read, 0 },
	[DISK_WRITE] = { do_write, 0 },
	[DISK_INFO] = { do_info, 0 },
	[DISK_FLUSH] = { do_flush, 0 },
};

const struct server blk_server = {
	.name = "virtio_blk",
	.ops = ops,
	.nops = SERVER_NOPS(ops),
	.check = disk_client_check,   /* servers/lib/diskdrv */
	.interrupt = blk_interrupt,
};
