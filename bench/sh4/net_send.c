/*
 * net_send: paper 002's figures 9 and 10 on the SH-4 port (docs/benchmarks.md,
 * "SH-4"): the instructions of one TCP send of 256, 512, 768, 1,024 and
 * 1,280 bytes through the TCP/IP server's native data-ICA path, as
 * bench/posix/net_send.c's `.ica` variant measures it on x86-64: the payload
 * is in a one-page data ICA after INET_ZC_HEADROOM, INET_SEND with
 * INET_ZEROCOPY goes to the TCP/IP server, which writes the headers into the
 * headroom and has the Ethernet server and the RTL8139 driver send the frame
 * from that ICA; the call returns once the driver has given the frame to the
 * card. The peer is tools/inet_peer.py's `discard` behind QEMU's guestfwd of
 * 10.0.2.100:7 (tools/sh4_run.py).
 *
 * sh4_bench starts it (a child with the power to give devices); it starts
 * the driver, the Ethernet server and the TCP/IP server, measures, kills
 * them and exits. Figures, one line each (tools/sh4_run.py):
 *   BENCH sh4 net.send.<B> median=<i> min=<i> runs=<n> tlb_misses=<per send>
 *   BENCH sh4 net.send.<B>.busy ...   beside a process of the lowest
 *                                     priority churning 32 KB without end
 * in instructions (-icount shift=0: a nanosecond of CLOCK_MONOTONIC is one
 * instruction) less the time the CPU was halted within the call (kstats
 * idle_tsc, in TMU ticks), with the kernel's TLB-miss exceptions per send.
 * Sends are PACE_NS apart, so that each finds the last one gone.
 * "net_send churn" is the co-runner itself. "net_send ica=pt|ica=tlb" is
 * the bench, with the kernel's ICA method (sh4_bench's argument). With
 * ICAs in reserved TLB entries (ica=tlb) the servers are started with
 * ica=tlb, which keeps them to few ICA pages (docs/sh4.md, "The
 * network"); with page tables they run twice: as by default, then with
 * ica=tlb too, as a control that differs from the tlb boot only in the ICA
 * method:
 *   BENCH sh4 net.send.few.<B>[.busy] ...  the servers with few ICA pages
 * (in the tlb boot the same measurement as net.send.<B>, printed under
 * both names). Where the servers cannot start it says BENCH-SKIP.
 */
#include <myrmex.h>
#include <myrmex/device.h>
#include <myrmex/inet.h>

#include <arpa/inet.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#define PEER "10.0.2.100"
#define SENDS 31
#define WARMUP 8
#define PACE_NS (2u * 1000u * 1000u)
#define BUSY_AREA (32u * 1024u)
#define TMU_HZ 15000000u   /* the kernel's idle_tsc ticks per second */

static const unsigned sizes[] = { 256, 512, 768, 1024, 1280 };
static struct myrmex_ctl_header *ctl;
static uint32_t data_ica;
static long servers[3];
static bool tlb;   /* ICAs in reserved TLB entries (ica=tlb) */

static _Noreturn void churn(void)
{
	static volatile unsigned char area[BUSY_AREA];
	for (unsigned round = 0;; round++)
		for (unsigned i = 0; i < BUSY_AREA; i += 32)
			area[i] = (unsigned char)(area[i] + round);
}

static long inet_call(uint32_t op, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                      uint32_t data, uint32_t *back)
{
	const uint64_t args[4] = { a0, a1, a2, a3 };
	return myrmex_call(ctl, MYRMEX_COREID_INET, op, args, data, NULL, back);
}

static void skip(const char *why, long err)
{
	printf("BENCH-SKIP sh4 net.send: %s (%ld)\n", why, err);
}

static long start(const char *module, char *const argv[], unsigned flags, int prio)
{
	char *const envp[] = { NULL };
	return myrmex_spawn_flags(module, argv, envp, prio, flags);
}

static void stop(long pid)
{
	if (pid <= 0)
		return;
	kill((pid_t)pid, SIGKILL);
	waitpid((pid_t)pid, NULL, 0);
}

/* The three servers, with ica_arg ("ica=pt" or "ica=tlb"). */
static int start_servers(char *ica_arg)
{
	int card = -1;
	for (uint32_t i = 0; i < 32 && card < 0; i++) {
		struct myrmex_pci_info info;
		if (myrmex_dev_info(i, &info) < 0)
			break;
		if (info.vendor == 0x10ec && info.device == 0x8139)
			card = (int)i;
	}
	if (card < 0)
		return -1;
	char index[8];
	snprintf(index, sizeof index, "%d", card);
	char *const drv[] = { "rtl8139", index, ica_arg, NULL };
	char *const eth[] = { "eth", ica_arg, NULL };
	char *const ip[] = { "tcpip", "10.0.2.15/24", "10.0.2.2", ica_arg, NULL };
	servers[0] = start("rtl8139", drv, MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_DEVICE(card), -1);
	servers[1] = start("eth", eth, MYRMEX_SPAWN_SERVER, -1);
	servers[2] = start("tcpip", ip, MYRMEX_SPAWN_SERVER, -1);
	for (int i = 0; i < 20000 && myrmex_server_pid(MYRMEX_COREID_INET) < 0; i++) {
		int status;
		if (waitpid(-1, &status, WNOHANG) > 0)
			return -1;   /* a server gave up */
		myrmex_sleep_ns(1000 * 1000);
	}
	return myrmex_server_pid(MYRMEX_COREID_INET) == servers[2] ? 0 : -1;
}

/* Our own connection to the peer's discard: its handle. */
static long connect_peer(void)
{
	long h = inet_call(INET_SOCKET, INET_STREAM, 0, 0, 0, 0, NULL);
	if (h <= 0)
		return h;
	long r = inet_call(INET_CONNECT, (uint64_t)h, inet_addr(PEER), 7, 0, 0, NULL);
	if (r == 0)
		r = inet_call(INET_SETOPT, (uint64_t)h, INET_OPT_NODELAY, 1, 0, 0, NULL);
	if (r == 0) {
		memcpy(myrmex_ica_addr(data_ica), "discard\n", 8);
		r = inet_call(INET_SEND, (uint64_t)h, 0, 8, 0, data_ica, NULL);
		r = r == 8 ? 0 : (r < 0 ? r : -1);
	}
	return r < 0 ? r : h;
}

/* The payload into the data ICA (outside the timed call: the program's
 * writing of its data is not the send's cost). */
static void fill_payload(unsigned len)
{
	uint8_t *p = (uint8_t *)myrmex_ica_addr(data_ica) + INET_ZC_HEADROOM;
	for (unsigned i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 7 + len);
}

static long send_one(long h, unsigned len)
{
	uint32_t back = 0;
	long r = inet_call(INET_SEND, (uint64_t)h, INET_ZC_HEADROOM, len, INET_ZEROCOPY, data_ica,
	                   &back);
	if (back)
		data_ica = back;   /* the server kept ours; this one is ours now */
	return r;
}

static void sort(uint64_t *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

/* One figure: net.send.[few.]<len>[.busy]; few: the servers keep few ICA
 * pages (ica=tlb). In the tlb boot both names. */
static int measure(long h, unsigned len, bool busy, bool few)
{
	for (int i = 0; i < WARMUP; i++) {
		fill_payload(len);
		long r = send_one(h, len);
		if (r != (long)len) {
			skip("a warm-up send failed", r);
			return -1;
		}
	}
	uint64_t v[SENDS], misses = 0;
	for (int i = 0; i < SENDS; i++) {
		fill_payload(len);
		myrmex_sleep_ns(PACE_NS);
		struct myrmex_kstats a, b;
		myrmex_kstats(&a);
		uint64_t t0 = myrmex_rdtsc();
		long r = send_one(h, len);
		uint64_t t1 = myrmex_rdtsc();
		myrmex_kstats(&b);
		if (r != (long)len) {
			skip("a send failed", r);
			return -1;
		}
		uint64_t idle = (b.idle_tsc - a.idle_tsc) * 1000000000ull / TMU_HZ;
		v[i] = t1 - t0 > idle ? t1 - t0 - idle : 0;
		misses += b.tlb_misses - a.tlb_misses;
	}
	sort(v, SENDS);
	uint64_t hundredths = misses * 100 / SENDS;
	for (int named = 0; named < 2; named++) {
		if (named == 0 ? few && !tlb : !few)
			continue;
		printf("BENCH sh4 net.send.%s%u%s median=%llu min=%llu runs=%d tlb_misses=%llu.%02llu\n",
		       named ? "few." : "", len, busy ? ".busy" : "", (unsigned long long)v[SENDS / 2],
		       (unsigned long long)v[0], SENDS, (unsigned long long)(hundredths / 100),
		       (unsigned long long)(hundredths % 100));
	}
	fflush(stdout);
	return 0;
}

/* The figures of one configuration: the servers started (few: ica=tlb),
 * a connection, the sends alone and beside the churner, the servers
 * stopped. -1 when it could not run. */
static int run(bool few)
{
	long h = -1;
	if (start_servers(few ? "ica=tlb" : "ica=pt") < 0)
		skip("the network servers did not start", myrmex_server_pid(MYRMEX_COREID_INET));
	else if ((h = connect_peer()) <= 0)
		skip("no connection to the host peer", h);
	if (h > 0) {
		for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
			measure(h, sizes[i], false, few);
		char *const co[] = { "net_send", "churn", NULL };
		long churner = start("net_send", co, 0, 0);
		for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0] && churner > 0; i++)
			measure(h, sizes[i], true, few);
		stop(churner);
		inet_call(INET_CLOSE, (uint64_t)h, 0, 0, 0, 0, NULL);
	}
	for (int i = 2; i >= 0; i--) {
		stop(servers[i]);
		servers[i] = 0;
	}
	return h > 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "churn") == 0)
		churn();
	tlb = argc > 1 && strcmp(argv[1], "ica=tlb") == 0;
	long c = myrmex_ica_alloc(1), d = myrmex_ica_alloc(1);
	if (c < 0 || d < 0) {
		skip("no ICA", c < 0 ? c : d);
		return 1;
	}
	ctl = myrmex_ica_addr((uint32_t)c);
	data_ica = (uint32_t)d;
	/* Page tables: as by default, then with few ICA pages; reserved
	 * entries: with few ICA pages only. */
	for (int few = tlb; few < 2; few++) {
		if (run(few) < 0)
			break;
	}
	return 0;
}
