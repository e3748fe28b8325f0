/*
 * The Ethernet server as the server library sees it: the network
 * protocol's opcodes (include/myrmex/net.h) and their handlers, and the
 * result callback that brings frames from the driver (recv.c). An opcode
 * without an entry gets -ENOSYS.
 */
#include "eth.h"

static const struct server_op ops[] = {
	[NET_SEND] = { do_send, 0 },
	[NET_RECV] = { do_recv, 0 },
	[NET_INFO] = { do_info, 0 },
	[NET_STATS] = { do_stats, 0 },
	[NET_CANCEL] = { do_cancel, 0 },
};

const struct server eth_server = {
	.name = ETH_NAME,
	.ops = ops,
	.nops = SERVER_NOPS(ops),
	.result = recv_result,
};
