/*
 * cf_ide as the server library sees it: the disk protocol's opcodes
 * (include/myrmex/disk.h) and their handlers (ide.c), the check of who may
 * use the disk, and the drive's interrupt. An opcode without an entry gets
 * -ENOSYS.
 */
#include "driver.h"

#include <errno.h>
#include <myrmex/disk.h>

/* The driver's one client when it has one (the file manager's coreid),
 * else 0: anyone (the disk tests drive it directly). */
static unsigned client_coreid;
static long client_pid;

void ide_serve_only(unsigned coreid)
{
	client_coreid = coreid;
}

/* Reads, writes and flushes come from the client alone; the requester is
 * the kernel's (the delivery), never the frame's. DISK_INFO is public. */
static int64_t ide_check(struct server_request *rq, const struct server_op *op)
{
	(void)op;
	if (!client_coreid || rq->d.opcode == DISK_INFO)
		return 0;
	if (client_pid <= 0 || rq->d.requester != client_pid)
		client_pid = myrmex_server_pid(client_coreid);
	return client_pid > 0 && rq->d.requester == client_pid ? 0 : -EPERM;
}

static const struct server_op ops[] = {
	[DISK_READ] = { do_read, 0 },
	[DISK_WRITE] = { do_write, 0 },
	[DISK_INFO] = { do_info, 0 },
	[DISK_FLUSH] = { do_flush, 0 },
};

const struct server ide_server = {
	.name = "cf_ide",
	.ops = ops,
	.nops = SERVER_NOPS(ops),
	.check = ide_check,
	.interrupt = ide_interrupt,
};
