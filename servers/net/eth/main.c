/*
 * eth: the Ethernet protocol server (paper 004, section 4; docs/net.md).
 * Between programs and the NIC driver server (MYRMEX_COREID_NIC): it puts
 * the Ethernet header in front of a program's payload and passes the send
 * on to the driver with direct return, and strips the header from received
 * frames and hands them to the program waiting for their EtherType. The
 * init starts it with the server right and the right to call the driver:
 *
 *     eth [ica=pt|ica=tlb]
 *
 * ica=tlb says that ICAs live in reserved TLB entries (paper 002's method
 * on SH-4, docs/sh4.md), which all address spaces share: the server then
 * keeps 1 receive at the driver and 2 spare ICAs for queued frames (4
 * pages) instead of 8 and 16 (32 pages); ica=pt, the default, is the
 * latter. It waits (up to 10 s) for the driver, learns the MAC address, posts its
 * receives at the driver, registers MYRMEX_COREID_ETH and serves the
 * network protocol (include/myrmex/net.h) forever with the server library.
 * Exits with 1 when an argument is bad or it cannot start.
 */
#include "eth.h"

#include <errno.h>
#include <string.h>

#define DRIVER_WAIT_MS 10000
/* ica=tlb: receives at the driver, frames queued for programs. */
#define SLOTS_TLB 1u
#define QUEUE_TLB 2u

uint64_t eth_mac;

/* NET_INFO at the driver, once it is registered: 0 or -errno. */
static long ask_driver(void)
{
	uint64_t res[8];
	long r = myrmex_ask(MYRMEX_COREID_NIC, NET_INFO, DRIVER_WAIT_MS, res);
	if (r == 0)
		eth_mac = res[0];
	return r;
}

int main(int argc, char **argv)
{
	bool few = false;   /* ica=tlb */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "ica=pt") != 0 && strcmp(argv[i], "ica=tlb") != 0) {
			myrmex_log(ETH_NAME, "bad argument \"%s\": usage: eth [ica=pt|ica=tlb]", argv[i]);
			return 1;
		}
		few = strcmp(argv[i], "ica=tlb") == 0;
	}
	long r = ask_driver();
	if (r < 0) {
		myrmex_log(ETH_NAME, "no NIC driver answers: %ld", r);
		return 1;
	}
	r = few ? recv_init(SLOTS_TLB, QUEUE_TLB) : recv_init(RECV_SLOTS_MAX, ETH_QUEUE_MAX);
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
