/*
 * tcpip: the TCP/IP protocol server (paper 002, section 4.2.4; docs/net.md,
 * "TCP/IP"), lwIP inside. The init starts it with the server right and the
 * right to call the Ethernet server and the NIC driver:
 *
 *     tcpip [ADDRESS/PREFIX [GATEWAY] | dhcp] [ica=pt|ica=tlb]
 *
 * (default 10.0.2.15/24 via 10.0.2.2, the addresses of QEMU's user-mode
 * network). ica=tlb says that ICAs live in reserved TLB entries (paper
 * 002's method on SH-4, docs/sh4.md), which all address spaces share: the
 * server then holds 12 ICA pages (2 receives at the Ethernet server, 2
 * send slots, 2 zero-copy spares) instead of 194; ica=pt, the default, is
 * the latter. It waits (up to 10 s) for the Ethernet server, learns the MAC,
 * starts lwIP with the Ethernet interface and the loopback, posts its
 * receives, starts the ticker, registers MYRMEX_COREID_INET and serves
 * include/myrmex/inet.h forever. Exits with 1 when it cannot start.
 */
#include "tcpip.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lwip/dhcp.h"
#include "lwip/init.h"
#include "lwip/ip4_addr.h"
#include "netif/ethernet.h"

struct netif tcpip_eth;
struct inet_stats tcpip_counters;
int tcpip_pid;

/* The ticker: every TICK_NS, INET_TICK to ourselves, so that lwIP's timers
 * run on the main thread (lwIP is NO_SYS: one thread only). */
static void ticker(void *unused)
{
	(void)unused;
	long c = myrmex_ica_alloc(1);
	if (c < 0) {
		myrmex_log(TCPIP_NAME, "the ticker has no control ICA: %ld", c);
		return;
	}
	struct myrmex_ctl_header *h = myrmex_ica_addr((uint32_t)c);
	bool told = false;
	for (;;) {
		myrmex_sleep_ns(TICK_NS);
		myrmex_ctl_init(h);
		myrmex_ctl_push(h, 1, MYRMEX_COREID_INET, INET_TICK);
		long r = myrmex_callsync(h);
		if (r < 0 && !told) {   /* lwIP's timers do not run: say so once */
			myrmex_log(TCPIP_NAME, "the ticker cannot call the server: %ld (the right to call coreid %u?)",
			           r, MYRMEX_COREID_INET);
			told = true;
		}
	}
}

/* "a.b.c.d/prefix" into address and mask: true when it reads. */
static bool parse_address(const char *text, ip4_addr_t *addr, ip4_addr_t *mask)
{
	char buf[32];
	unsigned prefix = 24;
	snprintf(buf, sizeof(buf), "%s", text);
	char *slash = strchr(buf, '/');
	if (slash) {
		*slash = 0;
		char *end;
		unsigned long p = strtoul(slash + 1, &end, 10);
		if (*end || p > 32)
			return false;
		prefix = (unsigned)p;
	}
	if (!ip4addr_aton(buf, addr))
		return false;
	uint32_t m = prefix ? ~0u << (32 - prefix) : 0;
	ip4_addr_set_u32(mask, lwip_htonl(m));
	return true;
}

int main(int argc, char **argv)
{
	ip4_addr_t addr, mask, gw;
	/* ica=... anywhere; the addresses in their order around it. */
	const char *pos[2] = { NULL, NULL };
	int npos = 0;
	bool few = false, bad = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "ica=pt") == 0 || strcmp(argv[i], "ica=tlb") == 0)
			few = strcmp(argv[i], "ica=tlb") == 0;
		else if (strncmp(argv[i], "ica=", 4) == 0 || npos == 2)
			bad = true;
		else
			pos[npos++] = argv[i];
	}
	bool dhcp = pos[0] && strcmp(pos[0], "dhcp") == 0;
	if (bad ||
	    !parse_address(pos[0] && !dhcp ? pos[0] : "10.0.2.15/24", &addr, &mask) ||
	    !ip4addr_aton(pos[1] ? pos[1] : "10.0.2.2", &gw)) {
		myrmex_log(TCPIP_NAME, "usage: tcpip [ADDRESS/PREFIX [GATEWAY] | dhcp] [ica=pt|ica=tlb]");
		return 1;
	}
	if (dhcp) {
		ip4_addr_set_zero(&addr);
		ip4_addr_set_zero(&mask);
		ip4_addr_set_zero(&gw);
	}
	uint8_t mac[6];
	long r = link_ask_mac(mac);
	if (r < 0) {
		myrmex_log(TCPIP_NAME, "no Ethernet server answers: %ld", r);
		return 1;
	}
	lwip_init();
	memcpy(tcpip_eth.hwaddr, mac, 6);
	if (!netif_add(&tcpip_eth, &addr, &mask, &gw, NULL, link_netif_init, ethernet_input)) {
		myrmex_log(TCPIP_NAME, "lwIP refused the interface");
		return 1;
	}
	netif_set_default(&tcpip_eth);
	netif_set_up(&tcpip_eth);
	ifstats_attach();
	if (dhcp)
		dhcp_start(&tcpip_eth);
	r = link_start(few);
	if (r < 0) {
		myrmex_log(TCPIP_NAME, "cannot post the receives: %ld", r);
		return 1;
	}
	r = zc_start(few);
	if (r < 0) {
		myrmex_log(TCPIP_NAME, "cannot make the spare ICAs: %ld", r);
		return 1;
	}
	r = myrmex_registserver(MYRMEX_COREID_INET);
	if (r < 0) {
		myrmex_log(TCPIP_NAME, "registserver(%u): %ld", MYRMEX_COREID_INET, r);
		return 1;
	}
	tcpip_pid = (int)myrmex_server_pid(MYRMEX_COREID_INET);
	static struct myrmex_thread tick;
	r = myrmex_thread_create(&tick, ticker, NULL, 0);
	if (r < 0) {
		myrmex_log(TCPIP_NAME, "cannot start the ticker: %ld", r);
		return 1;
	}
	char text[16];
	myrmex_log(TCPIP_NAME, "lwIP %s over the Ethernet server, %s/%d%s", LWIP_VERSION_STRING,
	           dhcp ? "dhcp" : ip4addr_ntoa_r(&addr, text, sizeof(text)),
	           32 - __builtin_popcount(~lwip_ntohl(ip4_addr_get_u32(&mask))),
	           dhcp ? "" : "");
	server_run(&tcpip_server);
}
