/*
 * bench_eth: paper 004's figure 10 on Myrmex. A user process (this one)
 * sends a frame of L data bytes through the Ethernet server and the NIC
 * driver server to the host peer (tools/net_peer.py in its `ack` mode, as
 * the paper's server machine), and waits for its 1-byte ACK frame back: one
 * exchange. For L = 46, 110, ... (64-byte steps up to 1500), 1500 and the
 * paper's 750-byte crossover, RUNS runs of EXCHANGES exchanges each (after
 * a warm-up) give one line per length:
 *
 *   BENCH eth eth.<nic>.<L> median=<ticks> min=<ticks> runs=<n> bytes=<L>
 *         ipc=.. attach=.. detach=.. ctxsw=.. syscalls=.. irq=.. idle=.. busy=..
 *         copies=..
 *
 * <nic> is the argument, the NIC the driver at MYRMEX_COREID_NIC drives:
 * virtio (the default) or rtl8139;
 *
 * in TSC ticks per exchange (under -icount: instructions plus the clock's
 * jumps while the CPU was halted waiting for the host), and per exchange:
 * idle (those halted ticks, kstats idle_tsc), busy (the median over the
 * runs of ticks minus idle: under -icount the instructions the guest
 * executed per exchange, idle excluded),
 * IPC calls, ICA attaches and detaches, context switches, system calls, NIC
 * interrupts (the driver's NET_STATS) and frame copies (the driver's
 * NET_STATS_MORE rx_copies: none over virtio-net, whose device reads the
 * payload from this process's ICA and writes the ACK into an ICA that comes
 * here whole; one per exchange over the RTL8139, the ACK copied out of its
 * receive ring; the send is DMA from the ICA on both). benchinit starts the driver and the Ethernet
 * server around it (docs/net.md).
 *
 * On Linux the same binary measures the same exchange through a Linux
 * AF_PACKET socket (SOCK_DGRAM, bound to eth0 and EtherType 0x88b5;
 * sendto the peer's MAC, recvfrom its ACK), the figures named alike,
 * <nic> from eth0's driver (virtio_net: virtio, 8139cp: rtl8139). Idle is
 * excluded the same way: the CPU's idle time from /proc/timer_list
 * (idle_sleeptime, nanoseconds; /proc/stat's idle, in 10 ms steps, when it
 * is missing) turned into TSC ticks with the TSC's rate against
 * CLOCK_MONOTONIC over the run, so busy= is under -icount the instructions
 * Linux executed per exchange, idle excluded. irq= counts the interrupts
 * of eth0's queues (/proc/interrupts). The kernel counts of Myrmex (ipc,
 * attach, ...) have no Linux counterpart and are left out.
 */
#include "bench.h"

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <netpacket/packet.h>
#include <myrmex/net.h>

#define PROG "bench_eth"
#define ETH_DATA 0x88b5u       /* the peer answers these (tools/net_peer.py) */
#define ETH_CONTROL 0x88b6u    /* commands to the peer */
#define PEER_MAC 0x010000000002ull   /* 02:00:00:00:00:01, byte 0 lowest */
#define ACK_BYTE 0x06
#define OFFSET 64u             /* the payload's place in its ICA (>= 14: headroom) */
#define EXCHANGES 100          /* per run */
#define RUNS 5
#define WARMUP 20
#define WAIT_TRIES 10000       /* 1 ms apart: the servers registering */

static struct myrmex_ctl_header *ctl;
static uint32_t send_ica, recv_ica;

/* One synchronous call to `target`, retried while it has not registered
 * yet; the result frame's words in out (may be NULL). The status, or the
 * call's error. */
static long call(uint32_t target, uint32_t op, const uint64_t a[4], uint32_t data, uint64_t *out,
                 uint32_t *data_back)
{
	long r = -ESRCH;
	for (int i = 0; i < WAIT_TRIES && r == -ESRCH; i++) {
		r = myrmex_call(ctl, target, op, a, data, out, data_back);
		if (r == -ESRCH)
			myrmex_sleep_ns(1000 * 1000);
	}
	return r;
}

/* The next payload of type `type`: its length; *p its first byte. */
static long receive(uint16_t type, const uint8_t **p)
{
	uint64_t a[4] = { 0, 0, 0, type }, out[8];
	uint32_t back = 0;
	long r = call(MYRMEX_COREID_ETH, NET_RECV, a, recv_ica, out, &back);
	if (back)
		recv_ica = back;   /* the frame's ICA: lent with the next receive */
	if (r >= 0)
		*p = (const uint8_t *)myrmex_ica_addr(recv_ica) + out[0];
	return r;
}

static long send_payload(uint16_t type, uint32_t length)
{
	uint64_t a[4] = { OFFSET, length, PEER_MAC, type };
	return call(MYRMEX_COREID_ETH, NET_SEND, a, send_ica, NULL, NULL);
}

/* One exchange: L bytes out, the ACK back. 0 or -1. */
static int exchange(uint32_t length)
{
	if (send_payload(ETH_DATA, length) != (long)(length + NET_ETH_HLEN))
		return -1;
	const uint8_t *p;
	long r = receive(ETH_DATA, &p);
	return r >= 1 && p[0] == ACK_BYTE ? 0 : -1;
}

static int peer_mode_ack(void)
{
	uint8_t *p = (uint8_t *)myrmex_ica_addr(send_ica) + OFFSET;
	memset(p, 0, NET_PAYLOAD_MIN);
	memcpy(p, "mode ack", 8);
	if (send_payload(ETH_CONTROL, NET_PAYLOAD_MIN) < 0)
		return -1;
	const uint8_t *q;
	long r = receive(ETH_CONTROL, &q);
	return r >= 11 && memcmp(q, "ok mode ack", 11) == 0 ? 0 : -1;
}

static uint64_t nic_interrupts(void)
{
	uint64_t out[8] = { 0 };
	if (call(MYRMEX_COREID_NIC, NET_STATS, NULL, 0, out, NULL) < 0)
		return 0;
	return ((const struct net_stats *)(const void *)out)->interrupts;
}

/* Frames the driver copied (received and sent). */
static uint64_t nic_copies(void)
{
	uint64_t out[8] = { 0 };
	uint64_t a[4] = { NET_STATS_MORE, 0, 0, 0 };
	if (call(MYRMEX_COREID_NIC, NET_STATS, a, 0, out, NULL) < 0)
		return 0;
	const struct net_stats_more *m = (const struct net_stats_more *)(const void *)out;
	return m->rx_copies + m->tx_copies;
}

static const char *nic_name = "virtio";

/* Measures length L and prints its BENCH line: 0 or -1. */
static int measure(uint32_t length)
{
	uint8_t *p = (uint8_t *)myrmex_ica_addr(send_ica) + OFFSET;
	for (uint32_t i = 0; i < length; i++)
		p[i] = (uint8_t)(i * 7 + length);
	for (int i = 0; i < WARMUP; i++)
		if (exchange(length) < 0)
			return -1;
	uint64_t tenths[RUNS], busy[RUNS];
	struct myrmex_kstats k0, k1, r0, r1;
	uint64_t copies0 = nic_copies();
	uint64_t irq0 = nic_interrupts();
	myrmex_kstats(&k0);
	for (unsigned r = 0; r < RUNS; r++) {
		myrmex_kstats(&r0);
		uint64_t t0 = myrmex_rdtsc();
		for (int i = 0; i < EXCHANGES; i++)
			if (exchange(length) < 0)
				return -1;
		uint64_t t1 = myrmex_rdtsc();
		myrmex_kstats(&r1);
		uint64_t idle = r1.idle_tsc - r0.idle_tsc;
		tenths[r] = ((t1 - t0) * 10 + EXCHANGES / 2) / EXCHANGES;
		/* Ticks the CPU ran (not halted): under -icount, instructions. */
		busy[r] = t1 - t0 > idle ? t1 - t0 - idle : 0;
	}
	myrmex_kstats(&k1);
	uint64_t irq1 = nic_interrupts();
	uint64_t copies1 = nic_copies();
	uint64_t idle = k1.idle_tsc - k0.idle_tsc;
	bench_sort_u64(tenths, RUNS);
	bench_sort_u64(busy, RUNS);
	uint64_t med = tenths[RUNS / 2], ops = (uint64_t)RUNS * EXCHANGES;
	char line[512];
	int w = snprintf(line, sizeof line,
	                 "BENCH eth eth.%s.%u median=%" PRIu64 ".%" PRIu64 " min=%" PRIu64 ".%" PRIu64
	                 " runs=%u bytes=%u",
	                 nic_name, length, med / 10, med % 10, tenths[0] / 10, tenths[0] % 10, RUNS, length);
	size_t len = w > 0 ? (size_t)w : 0;
	/* One NET_STATS call sits inside the window (before's return, after's
	 * call); the kstats calls are no IPC. */
	bench_put_per_op(line, sizeof line, &len, "ipc", k1.ipc_calls - k0.ipc_calls - 1, ops);
	bench_put_per_op(line, sizeof line, &len, "attach", k1.ica_attaches - k0.ica_attaches, ops);
	bench_put_per_op(line, sizeof line, &len, "detach", k1.ica_detaches - k0.ica_detaches, ops);
	bench_put_per_op(line, sizeof line, &len, "ctxsw", k1.context_switches - k0.context_switches, ops);
	bench_put_per_op(line, sizeof line, &len, "syscalls", k1.syscalls - k0.syscalls, ops);
	bench_put_per_op(line, sizeof line, &len, "irq", irq1 - irq0, ops);
	bench_put_per_op(line, sizeof line, &len, "idle", idle, ops);
	bench_put_per_op(line, sizeof line, &len, "busy", busy[RUNS / 2], EXCHANGES);
	bench_put_per_op(line, sizeof line, &len, "copies", copies1 - copies0, ops);
	line[len < sizeof line - 1 ? len++ : len - 1] = '\n';
	return write(1, line, len) == (ssize_t)len ? 0 : -1;
}

/* ------------------------------------------------ Linux: AF_PACKET */

static int pk_data = -1, pk_control = -1;   /* sockets of 0x88b5 and 0x88b6 */
static struct sockaddr_ll pk_peer;
static uint8_t pk_buf[2048];

/* A number from the first line of file path: 0 or -1. */
static int read_number(const char *path, long long *v)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = fscanf(f, "%lld", v) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

/* eth0's NIC as the figures name it, from the name of its driver. */
static const char *linux_nic(void)
{
	char link[256];
	ssize_t n = readlink("/sys/class/net/eth0/device/driver", link, sizeof link - 1);
	if (n <= 0)
		return NULL;
	link[n] = 0;
	const char *name = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	if (strcmp(name, "virtio_net") == 0)
		return "virtio";
	if (strcmp(name, "8139cp") == 0 || strcmp(name, "8139too") == 0)
		return "rtl8139";   /* QEMU's RTL8139 is a C+: 8139cp drives it */
	return NULL;
}

/* Interrupts of eth0's queues so far (lines of /proc/interrupts naming a
 * virtio-net queue, "-input." or "-output.", or eth0 itself). */
static uint64_t linux_nic_irqs(void)
{
	FILE *f = fopen("/proc/interrupts", "r");
	if (!f)
		return 0;
	char line[512];
	uint64_t sum = 0;
	while (fgets(line, sizeof line, f)) {
		if (!strstr(line, "-input.") && !strstr(line, "-output.") && !strstr(line, "eth0"))
			continue;
		const char *p = strchr(line, ':');
		sum += p ? strtoull(p + 1, NULL, 10) : 0;
	}
	fclose(f);
	return sum;
}

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* A packet socket of EtherType type bound to eth0 (ifindex): fd or -errno. */
static int pk_socket(uint16_t type, int ifindex)
{
	int fd = socket(AF_PACKET, SOCK_DGRAM, htons(type));
	if (fd < 0)
		return -errno;
	struct sockaddr_ll me = { .sll_family = AF_PACKET, .sll_protocol = htons(type),
	                          .sll_ifindex = ifindex };
	if (bind(fd, (struct sockaddr *)&me, sizeof me) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	return fd;
}

static int pk_exchange(uint32_t length)
{
	if (sendto(pk_data, pk_buf, length, 0, (struct sockaddr *)&pk_peer, sizeof pk_peer) !=
	    (ssize_t)length)
		return -1;
	uint8_t ack[64];
	ssize_t r = recv(pk_data, ack, sizeof ack, 0);
	return r >= 1 && ack[0] == ACK_BYTE ? 0 : -1;
}

static int pk_mode_ack(void)
{
	uint8_t cmd[NET_PAYLOAD_MIN] = "mode ack";
	struct sockaddr_ll to = pk_peer;
	to.sll_protocol = htons(ETH_CONTROL);
	if (sendto(pk_control, cmd, sizeof cmd, 0, (struct sockaddr *)&to, sizeof to) < 0)
		return -1;
	char answer[64];
	ssize_t r = recv(pk_control, answer, sizeof answer, 0);
	return r >= 11 && memcmp(answer, "ok mode ack", 11) == 0 ? 0 : -1;
}

/* Measures length L over the packet socket; prints its BENCH line. */
static int pk_measure(uint32_t length)
{
	for (uint32_t i = 0; i < length; i++)
		pk_buf[i] = (uint8_t)(i * 7 + length);
	for (int i = 0; i < WARMUP; i++)
		if (pk_exchange(length) < 0)
			return -1;
	uint64_t tenths[RUNS], busy[RUNS], idle_sum = 0;
	uint64_t irq0 = linux_nic_irqs();
	for (unsigned r = 0; r < RUNS; r++) {
		uint64_t i0 = bench_linux_idle_ns(), n0 = now_ns(), t0 = myrmex_rdtsc();
		for (int i = 0; i < EXCHANGES; i++)
			if (pk_exchange(length) < 0)
				return -1;
		uint64_t t1 = myrmex_rdtsc(), n1 = now_ns(), i1 = bench_linux_idle_ns();
		/* idle nanoseconds in TSC ticks, at the TSC's rate over the run */
		uint64_t idle = n1 > n0 ? (uint64_t)((double)(i1 - i0) * (double)(t1 - t0) /
		                                     (double)(n1 - n0)) : 0;
		idle_sum += idle;
		tenths[r] = ((t1 - t0) * 10 + EXCHANGES / 2) / EXCHANGES;
		busy[r] = t1 - t0 > idle ? t1 - t0 - idle : 0;
	}
	uint64_t irq1 = linux_nic_irqs();
	bench_sort_u64(tenths, RUNS);
	bench_sort_u64(busy, RUNS);
	uint64_t med = tenths[RUNS / 2], ops = (uint64_t)RUNS * EXCHANGES;
	char line[512];
	int w = snprintf(line, sizeof line,
	                 "BENCH eth eth.%s.%u median=%" PRIu64 ".%" PRIu64 " min=%" PRIu64 ".%" PRIu64
	                 " runs=%u bytes=%u",
	                 nic_name, length, med / 10, med % 10, tenths[0] / 10, tenths[0] % 10, RUNS, length);
	size_t len = w > 0 ? (size_t)w : 0;
	bench_put_per_op(line, sizeof line, &len, "irq", irq1 - irq0, ops);
	bench_put_per_op(line, sizeof line, &len, "idle", idle_sum, ops);
	bench_put_per_op(line, sizeof line, &len, "busy", busy[RUNS / 2], EXCHANGES);
	line[len < sizeof line - 1 ? len++ : len - 1] = '\n';
	return write(1, line, len) == (ssize_t)len ? 0 : -1;
}

/* The whole sweep over a Linux packet socket on eth0. */
static int linux_main(uint32_t *lengths, unsigned n)
{
	long long ifindex;
	const char *nic = linux_nic();
	if (!nic || read_number("/sys/class/net/eth0/ifindex", &ifindex) < 0) {
		printf("BENCH-SKIP " PROG " no eth0 of a known NIC (virtio_net, 8139cp)\n");
		return 0;
	}
	nic_name = nic;
	pk_data = pk_socket(ETH_DATA, (int)ifindex);
	pk_control = pk_socket(ETH_CONTROL, (int)ifindex);
	if (pk_data < 0 || pk_control < 0) {
		bench_fail(PROG, "packet socket", pk_data < 0 ? pk_data : pk_control);
		return 1;
	}
	pk_peer = (struct sockaddr_ll){ .sll_family = AF_PACKET, .sll_protocol = htons(ETH_DATA),
	                                .sll_ifindex = (int)ifindex, .sll_halen = 6 };
	for (unsigned i = 0; i < 6; i++)
		pk_peer.sll_addr[i] = (uint8_t)(PEER_MAC >> (8 * i));
	if (pk_mode_ack() < 0) {
		bench_fail(PROG, "the peer did not switch to ack mode", 0);
		return 1;
	}
	for (unsigned i = 0; i < n; i++) {
		if (pk_measure(lengths[i]) < 0) {
			bench_fail(PROG, "exchange failed at length", (long)lengths[i]);
			return 1;
		}
	}
	return 0;
}

/* The frame data lengths measured: 46, 110, ... (64-byte steps) and 1500;
 * 750, the paper's crossover, is 46 + 11 * 64. */
static unsigned sweep(uint32_t lengths[32])
{
	unsigned n = 0;
	for (uint32_t l = NET_PAYLOAD_MIN; l <= NET_PAYLOAD_MAX; l += 64)
		lengths[n++] = l;
	lengths[n++] = NET_PAYLOAD_MAX;
	return n;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		nic_name = strcmp(argv[1], "rtl8139") == 0 ? "rtl8139" : "virtio";
	uint32_t lengths[32];
	unsigned n = sweep(lengths);
	if (!myrmex_is_native())
		return linux_main(lengths, n);
	long c = myrmex_ica_alloc(1), s = myrmex_ica_alloc(1), r = myrmex_ica_alloc(1);
	if (c < 0 || s < 0 || r < 0) {
		bench_fail(PROG, "ica_alloc", c < 0 ? c : s < 0 ? s : r);
		return 1;
	}
	ctl = myrmex_ica_addr((uint32_t)c);
	send_ica = (uint32_t)s;
	recv_ica = (uint32_t)r;
	if (peer_mode_ack() < 0) {
		bench_fail(PROG, "the peer did not switch to ack mode", 0);
		return 1;
	}
	for (unsigned i = 0; i < n; i++) {
		if (measure(lengths[i]) < 0) {
			bench_fail(PROG, "exchange failed at length", (long)lengths[i]);
			return 1;
		}
	}
	return 0;
}
