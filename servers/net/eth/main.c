/*
 * eth: the Ethernet protocol server (paper 004, section 4; docs/net.md).
 * Between programs and the NIC driver server (MYRMEX_COREID_NIC): it puts
 * the Ethernet header in front of a program's payload and passes the send
 * on to the driver with direct return, and strips the header from received
 * frames and hands them to the program waiting for their EtherType. The
 * init starts it with the server right and the right to call the driver:
 *
 *     eth
 *
 * It waits (up to 10 s) for the driver, learns the MAC address, posts its
 * receives at the driver, registers MYRMEX_COREID_ETH and serves the
 * network protocol (include/myrmex/net.h) forever with the server library.
 * Exits with 1 when it cannot start.
 */
#include "eth.h"

#include <errno.h>

#define DRIVER_WAIT_TRIES 10000    /* 1 ms apart */

uint64_t eth_mac;

/* NET_INFO at the driver, once it is registered: 0 or -errno. */
static long ask_driver(void)
{
	long c = myrmex_ica_alloc(1);
	if (c < 0)
		return c;
	struct myrmex_ctl_header *h = myrmex_ica_addr((uint32_t)c);
	long r = -ESRCH;
	for (int i = 0; i < DRIVER_WAIT_TRIES && r == -ESRCH; i++) {
		myrmex_ctl_init(h);
		myrmex_ctl_push(h, 1, MYRMEX_COREID_NIC, NET_INFO);
		r = myrmex_callsync(h);
		if (r == -ESRCH)
			myrmex_sleep_ns(1000 * 1000);
	}
	const struct myrmex_frame *res = myrmex_ctl_result(h);
	if (r == 0 && res && res->status < 0)
		r = res->status;
	if (r == 0)
		eth_mac = res->arg[0];
	myrmex_ica_free((uint32_t)c);
	return r;
}

int main(void)
{
	long r = ask_driver();
	if (r < 0) {
		myrmex_log(ETH_NAME, "no NIC driver answers: %ld", r);
		return 1;
	}
	r = recv_init();
	if (r < 0) {
		myrmex_log(ETH_NAME, "cannot post the receives at the driver: %ld", r);
		return 1;
	}
	r = myrmex_registserver(MYRMEX_COREID_ETH);
	if (r < 0) {
		myrmex_log(ETH_NAME, "registserver(%u): %ld", MYRMEX_COREID_ETH, r);
		return 1;
	}
	uint8_t b[6];
	for (unsigned i = 0; i < 6; i++)
		b[i] = (uint8_t)(eth_mac >> (8 * i));
	myrmex_log(ETH_NAME, "over the NIC driver, MAC %02x:%02x:%02x:%02x:%02x:%02x", b[0], b[1],
	           b[2], b[3], b[4], b[5]);
	server_run(&eth_server);
}
