/*
 * The TCP/IP server as the server library sees it: the protocol's opcodes
 * (include/myrmex/inet.h) and their handlers, the ticker's INET_TICK, the
 * result callback (frames and sends, link.c) and the work after every
 * request (sock_settle: parked calls lwIP's events let go on).
 */
#include "tcpip.h"

static const struct server_op ops[] = {
	[INET_SOCKET] = { do_socket, 0 },
	[INET_CLOSE] = { do_close, 0 },
	[INET_BIND] = { do_bind, 0 },
	[INET_LISTEN] = { do_listen, 0 },
	[INET_ACCEPT] = { do_accept, 0 },
	[INET_CONNECT] = { do_connect, 0 },
	[INET_SEND] = { do_send, 0 },
	[INET_RECV] = { do_recv, 0 },
	[INET_SHUTDOWN] = { do_shutdown, 0 },
	[INET_NAME] = { do_name, 0 },
	[INET_SETOPT] = { do_setopt, 0 },
	[INET_GETOPT] = { do_getopt, 0 },
	[INET_POLL] = { do_poll, 0 },
	[INET_IFINFO] = { do_ifinfo, 0 },
	[INET_STATS] = { do_stats, 0 },
	[INET_TICK] = { do_tick, 0 },
	[INET_CANCEL] = { do_cancel, SERVER_KERNEL_ONLY },
	[INET_EXIT] = { do_exit, SERVER_KERNEL_ONLY },
	[INET_NETINFO] = { do_netinfo, 0 },
	[INET_ROUTE] = { do_route, 0 },
};

static void after_request(struct server_request *rq, int64_t status)
{
	(void)rq;
	(void)status;
	sock_settle();
}

static void after_result(const struct myrmex_delivery *d)
{
	link_result(d);
	sock_settle();
}

const struct server tcpip_server = {
	.name = TCPIP_NAME,
	.ops = ops,
	.nops = SERVER_NOPS(ops),
	.handled = after_request,
	.result = after_result,
};
