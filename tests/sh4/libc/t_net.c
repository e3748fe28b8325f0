/*
 * t_net: the network on SH-4 (docs/sh4.md, "The network"). The test starts
 * the three network servers built from their x86-64 sources: the RTL8139
 * driver on the r2d's card (with the device: sh4init runs the test as
 * "^t_net:MAC"), the Ethernet server and the TCP/IP server (lwIP) with the
 * static address 10.0.2.15/24 on QEMU's restricted user network
 * (tools/sh4_run.py), and checks through the TCP/IP server's native calls:
 *   - the interface: the address, the card's MAC (argv[1]), up and running;
 *   - ARP and ICMP: echo requests to QEMU's gateway 10.0.2.2 over a raw
 *     ICMP socket (the first one needs the gateway's MAC: ARP) answered
 *     with the same identifier, sequence and payload;
 *   - TCP to the host peer (tools/inet_peer.py behind QEMU's guestfwd of
 *     10.0.2.100:7, on this machine only): bytes echoed back equal, sent
 *     with a copy and with INET_ZEROCOPY from a data ICA (paper 002's path,
 *     the device reading the frame from the ICA);
 *   - bad inputs on the way, with the network working after them: a raw
 *     socket of protocol 0 and 255, a zero-copy send inside the headroom
 *     and above the MSS, a send on a handle that is no socket.
 * Every wait is bounded (receive timeouts, a bounded wait for the server).
 * The servers are killed and reaped at the end (sh4init checks that the
 * kernel got every page back).
 */
#define TEST_NAME "t_net"
#include "test_check.h"

#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <myrmex/device.h>
#include <myrmex/inet.h>
#include <myrmex/net.h>

#define GATEWAY "10.0.2.2"
#define PEER "10.0.2.100"
#define GUEST "10.0.2.15"
#define PAGE 4096u
#define MSS 1460u
#define PINGS 3
#define WAIT_NS (10ull * 1000 * 1000 * 1000)   /* a receive's timeout */

static struct myrmex_ctl_header *ctl;
static long servers[3];
static const char *ica_arg = "ica=pt";   /* ica=tlb with ICAs in reserved TLB entries */

static long call(uint32_t op, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint32_t data,
                 uint32_t *back, uint64_t out[8])
{
	const uint64_t args[4] = { a0, a1, a2, a3 };
	return myrmex_call(ctl, MYRMEX_COREID_INET, op, args, data, out, back);
}

static uint32_t new_ica(void)
{
	long h = myrmex_ica_alloc(1);
	CHECK(h > 0, "ica_alloc: %ld", h);
	return h > 0 ? (uint32_t)h : 0;
}

/* The index of the RTL8139 in the kernel's PCI list, or -1. */
static int find_card(void)
{
	for (uint32_t i = 0; i < 32; i++) {
		struct myrmex_pci_info info;
		if (myrmex_dev_info(i, &info) < 0)
			break;
		if (info.vendor == 0x10ec && info.device == 0x8139)
			return (int)i;
	}
	return -1;
}

static long start(const char *module, char *const argv[], unsigned flags)
{
	char *const envp[] = { "MYRMEX_TEST=1", NULL };
	long pid = myrmex_spawn_flags(module, argv, envp, -1, MYRMEX_SPAWN_SERVER | flags);
	CHECK(pid > 0, "spawn %s: %ld", module, pid);
	return pid;
}

/* A server given a bad argument says why and exits with 1 before it
 * starts anything (no coreid registered, the device free again). */
static void refused(const char *module, char *const argv[], unsigned flags)
{
	long pid = start(module, argv, flags);
	if (pid <= 0)
		return;
	int status = -1;
	CHECK_EQ(waitpid((pid_t)pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1, "%s %s: status %#x, not exit 1", module,
	      argv[1], status);
}

static void bad_arguments(int card, char *index)
{
	char *const drv[] = { "rtl8139", index, "ica=tlbx", NULL };
	char *const drv2[] = { "rtl8139", "ica=", index, NULL };
	char *const eth[] = { "eth", "ica=TLB", NULL };
	char *const eth2[] = { "eth", "tlb", NULL };
	char *const ip[] = { "tcpip", GUEST "/24", GATEWAY, "ica=page", NULL };
	refused("rtl8139", drv, MYRMEX_SPAWN_DEVICE(card));
	refused("rtl8139", drv2, MYRMEX_SPAWN_DEVICE(card));
	refused("eth", eth, 0);
	refused("eth", eth2, 0);
	refused("tcpip", ip, 0);
	CHECK(myrmex_server_pid(MYRMEX_COREID_NIC) < 0 && myrmex_server_pid(MYRMEX_COREID_ETH) < 0 &&
	      myrmex_server_pid(MYRMEX_COREID_INET) < 0, "a refused server registered");
}

static int start_servers(void)
{
	int card = find_card();
	CHECK(card >= 0, "no RTL8139 on the PCI bus");
	if (card < 0)
		return -1;
	char index[8];
	snprintf(index, sizeof index, "%d", card);
	bad_arguments(card, index);
	char *const drv[] = { "rtl8139", index, (char *)ica_arg, NULL };
	char *const eth[] = { "eth", (char *)ica_arg, NULL };
	char *const ip[] = { "tcpip", GUEST "/24", GATEWAY, (char *)ica_arg, NULL };
	servers[0] = start("rtl8139", drv, MYRMEX_SPAWN_DEVICE(card));
	servers[1] = start("eth", eth, 0);
	servers[2] = start("tcpip", ip, 0);
	for (int i = 0; i < 3; i++)
		if (servers[i] <= 0)
			return -1;
	/* Bounded: the TCP/IP server waits at most 10 s for the Ethernet server. */
	for (int i = 0; i < 30000 && myrmex_server_pid(MYRMEX_COREID_INET) < 0; i++)
		myrmex_sleep_ns(1000 * 1000);
	CHECK(myrmex_server_pid(MYRMEX_COREID_INET) == servers[2], "the TCP/IP server is not up");
	return myrmex_server_pid(MYRMEX_COREID_INET) == servers[2] ? 0 : -1;
}

static void stop_servers(void)
{
	for (int i = 2; i >= 0; i--) {
		if (servers[i] <= 0)
			continue;
		kill((pid_t)servers[i], SIGKILL);
		int status = 0;
		CHECK_EQ(waitpid((pid_t)servers[i], &status, 0), servers[i]);
	}
}

/* "52:54:00:12:34:56" -> the MAC as NET_INFO gives it (byte i in bits 8i). */
static uint64_t parse_mac(const char *s)
{
	uint64_t mac = 0;
	for (unsigned i = 0; i < 6; i++) {
		unsigned v;
		if (sscanf(s + 3 * i, "%2x", &v) != 1)
			return 0;
		mac |= (uint64_t)v << (8 * i);
	}
	return mac;
}

static void check_interface(const char *mac_text)
{
	uint64_t out[8] = { 0 };
	CHECK_EQ(call(INET_IFINFO, 0, 0, 0, 0, 0, NULL, out), 0);
	CHECK(out[0] == inet_addr(GUEST), "address %#llx", (unsigned long long)out[0]);
	CHECK(out[2] == inet_addr(GATEWAY), "gateway %#llx", (unsigned long long)out[2]);
	CHECK(out[3] == parse_mac(mac_text), "MAC %#llx, QEMU gave %s", (unsigned long long)out[3],
	      mac_text);
	CHECK((out[4] & (INET_IF_UP | INET_IF_RUNNING)) == (INET_IF_UP | INET_IF_RUNNING),
	      "flags %#llx", (unsigned long long)out[4]);
}

static uint16_t icmp_sum(const uint8_t *p, size_t n)
{
	uint32_t sum = 0;
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* PINGS echo requests to the gateway, each answered in kind. */
static void ping_gateway(uint32_t tx, uint32_t rx)
{
	long h = call(INET_SOCKET, INET_RAW, 1 /* ICMP */, 0, 0, 0, NULL, NULL);
	CHECK(h > 0, "raw ICMP socket: %ld", h);
	if (h <= 0)
		return;
	CHECK_EQ(call(INET_SETOPT, (uint64_t)h, INET_OPT_RCVTIMEO, WAIT_NS, 0, 0, NULL, NULL), 0);
	CHECK_EQ(call(INET_CONNECT, (uint64_t)h, inet_addr(GATEWAY), 0, 0, 0, NULL, NULL), 0);
	for (unsigned seq = 1; seq <= PINGS; seq++) {
		uint8_t *m = myrmex_ica_addr(tx);
		size_t n = 8 + 56;
		memset(m, 0, n);
		m[0] = 8;                     /* echo request */
		m[4] = 0x21, m[5] = 0x04;     /* identifier */
		m[6] = 0, m[7] = (uint8_t)seq;
		for (size_t i = 8; i < n; i++)
			m[i] = (uint8_t)(i * 5 + seq);
		uint16_t sum = icmp_sum(m, n);
		m[2] = (uint8_t)(sum >> 8), m[3] = (uint8_t)sum;
		CHECK_EQ(call(INET_SEND, (uint64_t)h, 0, n, 0, tx, NULL, NULL), (long)n);
		long r = call(INET_RECV, (uint64_t)h, PAGE, 0, 0, rx, NULL, NULL);
		CHECK(r == (long)(20 + n), "echo reply %u: %ld bytes", seq, r);
		if (r != (long)(20 + n))
			continue;
		const uint8_t *ip = myrmex_ica_addr(rx), *icmp = ip + 20;
		CHECK(ip[9] == 1 && icmp[0] == 0 && icmp[1] == 0, "reply %u: protocol %u type %u", seq,
		      ip[9], icmp[0]);
		CHECK(icmp[4] == 0x21 && icmp[5] == 0x04 && icmp[7] == seq, "reply %u: id or seq", seq);
		CHECK(memcmp(icmp + 8, m + 8, n - 8) == 0, "reply %u: payload differs", seq);
		CHECK(icmp_sum(icmp, n) == 0, "reply %u: checksum", seq);
	}
	CHECK_EQ(call(INET_CLOSE, (uint64_t)h, 0, 0, 0, 0, NULL, NULL), 0);
}

/* Reads exactly n bytes of h into to through ICA rx. */
static int recv_exact(long h, uint32_t rx, uint8_t *to, size_t n)
{
	for (size_t got = 0; got < n;) {
		long r = call(INET_RECV, (uint64_t)h, n - got, 0, 0, rx, NULL, NULL);
		if (r <= 0) {
			CHECK(0, "INET_RECV after %zu of %zu bytes: %ld", got, n, r);
			return -1;
		}
		memcpy(to + got, myrmex_ica_addr(rx), (size_t)r);
		got += (size_t)r;
	}
	return 0;
}

static uint8_t want[MSS], echoed[MSS];

/* Echoes through the host peer: sends with a copy and without. */
static void tcp_echo(uint32_t *tx, uint32_t rx)
{
	long h = call(INET_SOCKET, INET_STREAM, 0, 0, 0, 0, NULL, NULL);
	CHECK(h > 0, "INET_SOCKET: %ld", h);
	if (h <= 0)
		return;
	CHECK_EQ(call(INET_SETOPT, (uint64_t)h, INET_OPT_RCVTIMEO, WAIT_NS, 0, 0, NULL, NULL), 0);
	long c = call(INET_CONNECT, (uint64_t)h, inet_addr(PEER), 7, 0, 0, NULL, NULL);
	CHECK_EQ(c, 0);
	if (c != 0)
		return;
	CHECK_EQ(call(INET_SETOPT, (uint64_t)h, INET_OPT_NODELAY, 1, 0, 0, NULL, NULL), 0);
	memcpy(myrmex_ica_addr(*tx), "echo\n", 5);
	CHECK_EQ(call(INET_SEND, (uint64_t)h, 0, 5, 0, *tx, NULL, NULL), 5);
	for (unsigned round = 0; round < 8; round++) {
		unsigned len = 1 + round * 208, zc = round & 1;
		for (unsigned k = 0; k < len; k++)
			want[k] = (uint8_t)(k * 11 + round);
		uint64_t off = zc ? INET_ZC_HEADROOM : 0;
		memcpy((uint8_t *)myrmex_ica_addr(*tx) + off, want, len);
		uint32_t back = 0;
		long r = call(INET_SEND, (uint64_t)h, off, len, zc ? INET_ZEROCOPY : 0, *tx, &back, NULL);
		CHECK(r == (long)len && back != 0, "send %u (%s) of %u bytes: %ld", round,
		      zc ? "zero-copy" : "copy", len, r);
		if (r != (long)len || back == 0)
			break;
		*tx = back;   /* a zero-copy send keeps ours and gives another */
		if (recv_exact(h, rx, echoed, len))
			break;
		CHECK(memcmp(want, echoed, len) == 0, "echo %u differs", round);
	}
	/* Bad inputs on this connection: inside the headroom, above the MSS. */
	CHECK_EQ(call(INET_SEND, (uint64_t)h, INET_ZC_HEADROOM - 1, 10, INET_ZEROCOPY, *tx, NULL, NULL),
	         -EINVAL);
	CHECK_EQ(call(INET_SEND, (uint64_t)h, INET_ZC_HEADROOM, PAGE - INET_ZC_HEADROOM, INET_ZEROCOPY,
	              *tx, NULL, NULL), -EMSGSIZE);
	/* And it still echoes. */
	memcpy(myrmex_ica_addr(*tx), "after", 5);
	CHECK_EQ(call(INET_SEND, (uint64_t)h, 0, 5, 0, *tx, NULL, NULL), 5);
	if (recv_exact(h, rx, echoed, 5) == 0)
		CHECK(memcmp(echoed, "after", 5) == 0, "the echo after the bad sends differs");
	CHECK_EQ(call(INET_CLOSE, (uint64_t)h, 0, 0, 0, 0, NULL, NULL), 0);
}

static void bad_calls(uint32_t tx)
{
	CHECK_EQ(call(INET_SOCKET, INET_RAW, 0, 0, 0, 0, NULL, NULL), -EPROTONOSUPPORT);
	CHECK_EQ(call(INET_SOCKET, INET_RAW, 255, 0, 0, 0, NULL, NULL), -EPROTONOSUPPORT);
	CHECK_EQ(call(INET_SEND, 12345, 0, 5, 0, tx, NULL, NULL), -EBADF);
}

/* The TCP/IP server's counters, for the log (no verdict: TCP sends again
 * what a full pool drops): how the pools of ica=tlb fared (the same
 * counts as with ica=pt, 1 frame dropped in both, when it was written). */
static void log_counters(void)
{
	uint64_t b[8] = { 0 }, m[8] = { 0 };
	if (call(INET_STATS, 0, 0, 0, 0, 0, NULL, b) < 0 ||
	    call(INET_STATS, INET_STATS_MORE, 0, 0, 0, 0, NULL, m) < 0)
		return;
	const struct inet_stats *st = (const struct inet_stats *)b;
	const struct inet_stats_more *zc = (const struct inet_stats_more *)m;
	printf("t_net (%s): frames in %llu, out %llu, dropped %llu; "
	       "zero-copy sends %llu, frames %llu\n", ica_arg, (unsigned long long)st->frames_in,
	       (unsigned long long)st->frames_out, (unsigned long long)st->frames_dropped,
	       (unsigned long long)zc->sends, (unsigned long long)zc->frames);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		test_fail("usage: t_net MAC (sh4init passes QEMU's)");
		return test_exit_code();
	}
	const char *method = getenv("MYRMEX_ICA");
	if (method && strcmp(method, "tlb") == 0)
		ica_arg = "ica=tlb";
	long c = myrmex_ica_alloc(1);
	CHECK(c > 0, "control ICA: %ld", c);
	if (c <= 0)
		return test_exit_code();
	ctl = myrmex_ica_addr((uint32_t)c);
	if (start_servers() == 0) {
		uint32_t tx = new_ica(), rx = new_ica();
		check_interface(argv[1]);
		ping_gateway(tx, rx);
		bad_calls(tx);
		tcp_echo(&tx, rx);
		ping_gateway(tx, rx);   /* the network works after all of it */
		log_counters();
		myrmex_ica_free(tx);
		myrmex_ica_free(rx);
	}
	stop_servers();
	myrmex_ica_free((uint32_t)c);
	return test_exit_code();
}
