/*
 * The RTL8139 driver as the server library sees it: the network protocol's
 * opcodes and their handlers (ops.c) and the interrupt callback (nic.c).
 * An opcode without an entry gets -ENOSYS. Who may call the driver is the
 * kernel's call rights (the init gives them to the Ethernet server).
 */
#include "driver.h"

static const struct server_op ops[] = {
	[NET_SEND] = { do_send, 0 },
	[NET_RECV] = { do_recv, 0 },
	[NET_INFO] = { do_info, 0 },
	[NET_STATS] = { do_stats, 0 },
};

const struct server net_server = {
	.name = DRV_NAME,
	.ops = ops,
	.nops = SERVER_NOPS(ops),
	.interrupt = nic_interrupt,
};
