/*
 * net.tcp.send.* (suite posix, issue 17; paper 002's figures 9 and 10): the
 * time to send one TCP segment of 256, 512, 768, 1,024 and 1,280 bytes on
 * an open connection, from the program's send call until it returns, to
 * the host peer (tools/inet_peer.py `discard`, at 10.0.2.100:7 through
 * QEMU's restricted user network). The same static binary on Myrmex and on
 * Linux (whose guest loads its NIC driver for this boot).
 *
 *   net.tcp.send.<B>       send() of B bytes from a buffer. Myrmex: the
 *                          kernel copies them into a data ICA, the file
 *                          manager passes the call on, the TCP/IP server
 *                          copies them into lwIP and the frame into a frame
 *                          ICA it sends to the driver asynchronously. Linux:
 *                          copied into an skb; the driver's transmit runs
 *                          within the call.
 *   net.tcp.send.<B>.ica   Myrmex only, paper 002's path: the payload is in
 *                          a data ICA beforehand (after INET_ZC_HEADROOM),
 *                          and INET_SEND with INET_ZEROCOPY goes straight to
 *                          the TCP/IP server, which writes the headers into
 *                          the headroom and has the driver send the frame
 *                          from that ICA: no copy. The call returns once
 *                          the driver has given the frame to the device.
 *   net.tcp.send.busy.<B>[.ica]  the same with a process of the lowest
 *                          priority beside (nice 19), reading and writing a
 *                          32 KB area without end (the paper's co-runner).
 *
 * One line per figure:
 *   BENCH posix <name> median=<ticks> min=<ticks> runs=<sends> busy=<ticks>
 *         syscalls=.. ctxsw=.. ipc=.. attach=.. pgfault=.. tlbinval=..
 *         link_copies=.. zc_frames=..
 * ticks per send call (rdtsc around it; under -icount instructions, plus
 * the clock's jumps while the CPU halted); busy: the median of ticks minus
 * the halted ticks within the call (kstats idle_tsc; on Linux there is no
 * such counter and busy is the median); the counts per send (Myrmex):
 * kernel events within the calls, the TCP/IP server's frame copies (INET_STATS copies_out)
 * and frames sent from a kept ICA (INET_STATS_MORE). The plain path's other
 * two copies (the kernel's copy-in, lwIP's tcp_write) have no counter: they
 * happen on every send (docs/benchmarks.md).
 * Sends are PACE_US apart, so that each one finds the previous segment gone
 * (Linux transmits a segment within the call only then: with one still in
 * the device, TCP small queues leave the new one to a later softirq, and
 * the call measures no more than the copy). In the pauses the co-runner
 * runs.
 * Then the round trips of issue 17 over the wire, to the same peer
 * (`echo`, `sink`, `source`), RUNS runs of a loop each, per operation:
 *   net.tcp.rtt.wire          1 byte to the peer's echo and back
 *   net.tcp.connect.wire      socket, connect, close (the peer ends too)
 *   net.tcp.bulk.tx.wire      per KB: 1 MiB to the peer's sink in 64 KiB writes,
 *                             until its "ok" line
 *   net.tcp.bulk.rx.wire      per KB: 1 MiB from the peer's source
 * with busy= the ticks less the CPU's idle ones in the loop (Myrmex
 * kstats.idle_tsc; Linux /proc/timer_list's idle time at the TSC's rate):
 * the guest waits for the host peer, and only busy counts what it did.
 * UDP has no wire figure: QEMU's restricted user network lets no datagram
 * of the guest out.
 * Without a network (no route, no peer) it says BENCH-SKIP.
 */
#define _GNU_SOURCE
#include "bench.h"
#include "posix.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <myrmex/inet.h>

#define PEER "10.0.2.100"
#define PEER_PORT 7
#define SENDS 201                 /* measured per figure */
#define WARMUP 20
#define BUSY_AREA (32u * 1024u)
#define PACE_US 1000              /* between sends: the last one has left the machine */
#define PAGE 4096u

static const unsigned sizes[] = { 256, 512, 768, 1024, 1280 };
static unsigned char buf[2048];
static uint64_t ticks[SENDS], busy[SENDS];

/* ---- the co-runner ---- */

static volatile unsigned char area[BUSY_AREA];

static _Noreturn void co_runner(void)
{
	setpriority(PRIO_PROCESS, 0, 19);
	for (unsigned round = 0;; round++)
		for (unsigned i = 0; i < BUSY_AREA; i += 64)
			area[i] = (unsigned char)(area[i] + round);
}

/* ---- Myrmex's native path to the TCP/IP server ---- */

static struct myrmex_ctl_header *ctl;
static uint32_t data_ica;         /* the payload's ICA (changes at every send) */

/* One call to the TCP/IP server; *back the data ICA the answer carries. */
static long inet_call(uint32_t op, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                      uint32_t data, uint64_t out[8], uint32_t *back)
{
	const uint64_t args[4] = { a0, a1, a2, a3 };
	return myrmex_call(ctl, MYRMEX_COREID_INET, op, args, data, out, back);
}

/* Myrmex: the control ICA of our calls to the TCP/IP server, if we may
 * call it (the benchmark boot's sysinit calls=10); ctl stays NULL else. */
static void native_setup(void)
{
	if (!myrmex_is_native())
		return;
	long c = myrmex_ica_alloc(1);
	if (c < 0)
		return;
	ctl = myrmex_ica_addr((uint32_t)c);
	uint64_t out[8];
	if (inet_call(INET_STATS, 0, 0, 0, 0, 0, out, NULL) < 0)
		ctl = NULL;   /* no right, or no server */
}

/* A connection of our own to the peer, `discard` said: its handle, or -errno. */
static long native_connect(void)
{
	if (!ctl)
		return -EPERM;
	long d = myrmex_ica_alloc(1);
	if (d < 0)
		return d;
	data_ica = (uint32_t)d;
	long h = inet_call(INET_SOCKET, INET_STREAM, 0, 0, 0, 0, NULL, NULL);
	if (h < 0)
		return h;
	long r = inet_call(INET_CONNECT, (uint64_t)h, inet_addr(PEER), PEER_PORT, 0, 0, NULL, NULL);
	if (r == 0)
		r = inet_call(INET_SETOPT, (uint64_t)h, INET_OPT_NODELAY, 1, 0, 0, NULL, NULL);
	if (r == 0) {
		memcpy(myrmex_ica_addr(data_ica), "discard\n", 8);
		uint32_t back = 0;
		r = inet_call(INET_SEND, (uint64_t)h, 0, 8, 0, data_ica, NULL, &back);
		if (back)
			data_ica = back;
		r = r == 8 ? 0 : (r < 0 ? r : -EIO);
	}
	if (r < 0) {
		inet_call(INET_CLOSE, (uint64_t)h, 0, 0, 0, 0, NULL, NULL);
		return r;
	}
	return h;
}

/* One zero-copy send of len bytes, put in the ICA beforehand. */
static long native_send(long h, unsigned len)
{
	uint32_t back = 0;
	long r = inet_call(INET_SEND, (uint64_t)h, INET_ZC_HEADROOM, len, INET_ZEROCOPY, data_ica,
	                   NULL, &back);
	if (back)
		data_ica = back;
	return r;
}

static void fill_payload(unsigned len)
{
	memcpy((uint8_t *)myrmex_ica_addr(data_ica) + INET_ZC_HEADROOM, buf, len);
}

/* The TCP/IP server's copies and zero-copy frames so far (0 without). */
static void server_counts(uint64_t *copies, uint64_t *zc_frames)
{
	uint64_t out[8] = { 0 };
	*copies = *zc_frames = 0;
	if (!ctl)
		return;
	if (inet_call(INET_STATS, 0, 0, 0, 0, 0, out, NULL) == 0)
		*copies = ((const struct inet_stats *)(const void *)out)->copies_out;
	if (inet_call(INET_STATS, INET_STATS_MORE, 0, 0, 0, 0, out, NULL) == 0)
		*zc_frames = ((const struct inet_stats_more *)(const void *)out)->frames;
}

/* ---- measuring ---- */

struct path {
	bool ica;                     /* the zero-copy path, else send() */
	int fd;                       /* send(): the socket */
	long handle;                  /* the zero-copy path: our own connection */
};

static long send_one(const struct path *p, unsigned len)
{
	if (p->ica)
		return native_send(p->handle, len);
	ssize_t n = send(p->fd, buf, len, 0);
	return n < 0 ? -errno : n;
}

/* Sends SENDS segments of len bytes (after a warm-up) and prints the line. */
static int measure(const char *name, const struct path *p, unsigned len)
{
	for (int i = 0; i < WARMUP; i++) {
		if (p->ica)
			fill_payload(len);
		if (send_one(p, len) != (long)len) {
			bench_fail(name, "warm-up send", send_one(p, len));
			return -1;
		}
	}
	bool native = myrmex_is_native();
	struct myrmex_kstats a, b;
	/* Kernel events within the calls only (not in the pauses between). */
	uint64_t sys = 0, ctxsw = 0, ipc = 0, attach = 0, pgfault = 0, tlbinval = 0;
	uint64_t copies0, zc0, copies1, zc1;
	server_counts(&copies0, &zc0);
	for (int i = 0; i < SENDS; i++) {
		if (p->ica)
			fill_payload(len);
		usleep(PACE_US);
		if (native)
			myrmex_kstats(&a);
		uint64_t t0 = myrmex_rdtsc();
		long r = send_one(p, len);
		uint64_t t1 = myrmex_rdtsc();
		if (native)
			myrmex_kstats(&b);
		if (r != (long)len) {
			bench_fail(name, "send", r);
			return -1;
		}
		uint64_t idle = native ? b.idle_tsc - a.idle_tsc : 0;
		ticks[i] = t1 - t0;
		busy[i] = ticks[i] > idle ? ticks[i] - idle : 0;
		if (native) {
			sys += b.syscalls - a.syscalls - 1;   /* less the second kstats call */
			ctxsw += b.context_switches - a.context_switches;
			ipc += b.ipc_calls - a.ipc_calls;
			attach += b.ica_attaches - a.ica_attaches;
			pgfault += b.page_faults - a.page_faults;
			tlbinval += b.tlb_invalidations - a.tlb_invalidations;
		}
	}
	server_counts(&copies1, &zc1);
	bench_sort_u64(ticks, SENDS);
	bench_sort_u64(busy, SENDS);
	char line[512];
	size_t n = (size_t)snprintf(line, sizeof line,
	                            "BENCH posix %s median=%llu min=%llu runs=%d busy=%llu", name,
	                            (unsigned long long)ticks[SENDS / 2],
	                            (unsigned long long)ticks[0], SENDS,
	                            (unsigned long long)busy[SENDS / 2]);
	if (native) {
		bench_put_per_op(line, sizeof line, &n, "syscalls", sys, SENDS);
		bench_put_per_op(line, sizeof line, &n, "ctxsw", ctxsw, SENDS);
		bench_put_per_op(line, sizeof line, &n, "ipc", ipc, SENDS);
		bench_put_per_op(line, sizeof line, &n, "attach", attach, SENDS);
		bench_put_per_op(line, sizeof line, &n, "pgfault", pgfault, SENDS);
		bench_put_per_op(line, sizeof line, &n, "tlbinval", tlbinval, SENDS);
		bench_put_per_op(line, sizeof line, &n, "link_copies", copies1 - copies0, SENDS);
		bench_put_per_op(line, sizeof line, &n, "zc_frames", zc1 - zc0, SENDS);
	}
	if (n + 1 < sizeof line) {
		line[n++] = '\n';
		line[n] = 0;
	}
	fwrite(line, 1, n, stdout);
	fflush(stdout);
	return 0;
}

static int run_sizes(const struct path *p, bool with_busy)
{
	int ret = 0;
	for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		char name[64];
		snprintf(name, sizeof name, "net.tcp.send.%s%u%s", with_busy ? "busy." : "", sizes[i],
		         p->ica ? ".ica" : "");
		if (measure(name, p, sizes[i]))
			ret = -1;
	}
	return ret;
}

/* The measurements of one path, alone and with the co-runner. */
static int run_path(const struct path *p)
{
	int ret = run_sizes(p, false);
	pid_t child = fork();
	if (child < 0) {
		bench_fail("net.tcp.send", "fork", -errno);
		return -1;
	}
	if (child == 0)
		co_runner();
	if (run_sizes(p, true))
		ret = -1;
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	return ret;
}

/* ---- round trips over the wire ---- */

#define RUNS 11
#define RTT_ITERS 50
#define CONNECT_ITERS 10
#define BULK_BYTES (1u << 20)
#define BULK_CHUNK 65536u

static unsigned char bulk[BULK_CHUNK];

/* A connection to the peer with its command line said: the socket, or -1. */
static int peer_open(const char *line)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(PEER_PORT) };
	to.sin_addr.s_addr = inet_addr(PEER);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	size_t n = strlen(line);
	if (connect(fd, (void *)&to, sizeof to) || send(fd, line, n, 0) != (ssize_t)n) {
		close(fd);
		return -1;
	}
	return fd;
}

static int read_full(int fd, void *p, size_t n)
{
	for (size_t got = 0; got < n;) {
		ssize_t r = read(fd, (char *)p + got, n - got);
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

struct wire {
	int fd;
};

/* One operation of each figure, `iters` times: 0 or -1. */
static int op_rtt(struct wire *w, unsigned iters)
{
	for (unsigned i = 0; i < iters; i++) {
		unsigned char c = (unsigned char)i, back;
		if (send(w->fd, &c, 1, 0) != 1 || read_full(w->fd, &back, 1) || back != c)
			return -1;
	}
	return 0;
}

static int op_connect(struct wire *w, unsigned iters)
{
	(void)w;
	for (unsigned i = 0; i < iters; i++) {
		int fd = peer_open("");
		if (fd < 0)
			return -1;
		close(fd);
	}
	return 0;
}

static int op_bulk_tx(struct wire *w, unsigned iters)
{
	(void)w;
	for (unsigned i = 0; i < iters; i++) {
		char line[32];
		snprintf(line, sizeof line, "sink %u\n", BULK_BYTES);
		int fd = peer_open(line);
		if (fd < 0)
			return -1;
		for (uint32_t sent = 0; sent < BULK_BYTES; sent += BULK_CHUNK) {
			for (unsigned k = 0; k < BULK_CHUNK; k++)
				bulk[k] = (unsigned char)((sent + k) * 7 + 3);
			if (send(fd, bulk, BULK_CHUNK, 0) != (ssize_t)BULK_CHUNK) {
				close(fd);
				return -1;
			}
		}
		char ok[32] = { 0 };
		ssize_t r = read(fd, ok, sizeof ok - 1);
		close(fd);
		if (r < 3 || strncmp(ok, "ok ", 3))
			return -1;
	}
	return 0;
}

static int op_bulk_rx(struct wire *w, unsigned iters)
{
	(void)w;
	for (unsigned i = 0; i < iters; i++) {
		char line[32];
		snprintf(line, sizeof line, "source %u\n", BULK_BYTES);
		int fd = peer_open(line);
		if (fd < 0)
			return -1;
		int bad = read_full(fd, bulk, BULK_CHUNK) ? -1 : 0;
		for (uint32_t got = BULK_CHUNK; !bad && got < BULK_BYTES; got += BULK_CHUNK)
			bad = read_full(fd, bulk, BULK_CHUNK);
		close(fd);
		if (bad)
			return -1;
	}
	return 0;
}

static uint64_t idle_now(bool native)
{
	if (!native)
		return bench_linux_idle_ns();
	struct myrmex_kstats k;
	myrmex_kstats(&k);
	return k.idle_tsc;
}

static uint64_t mono_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* RUNS runs of op(iters); each figure per `per` units (operations, or KB). */
static int measure_wire(const char *name, int (*op)(struct wire *, unsigned), struct wire *w,
                        unsigned iters, uint64_t per)
{
	bool native = myrmex_is_native();
	if (op(w, 1)) {
		bench_fail(name, "warm-up", -errno);
		return -1;
	}
	uint64_t all[RUNS], busy[RUNS];
	for (unsigned r = 0; r < RUNS; r++) {
		uint64_t i0 = idle_now(native), n0 = mono_ns(), t0 = myrmex_rdtsc();
		if (op(w, iters)) {
			bench_fail(name, "operation", -errno);
			return -1;
		}
		uint64_t t1 = myrmex_rdtsc(), n1 = mono_ns(), i1 = idle_now(native);
		/* Linux's idle is nanoseconds: at the TSC's rate over the run. */
		uint64_t idle = native ? i1 - i0
		              : n1 > n0 ? (uint64_t)((double)(i1 - i0) * (double)(t1 - t0) /
		                                     (double)(n1 - n0)) : 0;
		all[r] = (t1 - t0) / per;
		busy[r] = (t1 - t0 > idle ? t1 - t0 - idle : 0) / per;
	}
	bench_sort_u64(all, RUNS);
	bench_sort_u64(busy, RUNS);
	printf("BENCH posix %s median=%llu min=%llu runs=%d busy=%llu\n", name,
	       (unsigned long long)all[RUNS / 2], (unsigned long long)all[0], RUNS,
	       (unsigned long long)busy[RUNS / 2]);
	fflush(stdout);
	return 0;
}

static int run_wire(void)
{
	struct wire w = { .fd = peer_open("echo\n") };
	if (w.fd < 0) {
		posix_skip("net.tcp.rtt.wire", "connect to the host peer", errno);
		return 0;
	}
	int ret = measure_wire("net.tcp.rtt.wire", op_rtt, &w, RTT_ITERS, RTT_ITERS);
	close(w.fd);
	if (measure_wire("net.tcp.connect.wire", op_connect, &w, CONNECT_ITERS, CONNECT_ITERS))
		ret = -1;
	if (measure_wire("net.tcp.bulk.tx.wire", op_bulk_tx, &w, 1, BULK_BYTES / 1024))
		ret = -1;
	if (measure_wire("net.tcp.bulk.rx.wire", op_bulk_rx, &w, 1, BULK_BYTES / 1024))
		ret = -1;
	return ret;
}

int main(void)
{
	for (unsigned i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(i * 7 + 3);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0) {
		posix_skip("net.tcp.send", "socket(AF_INET)", errno);
		return 0;
	}
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(PEER_PORT) };
	to.sin_addr.s_addr = inet_addr(PEER);
	if (connect(fd, (void *)&to, sizeof to)) {
		posix_skip("net.tcp.send", "connect to the host peer", errno);
		return 0;
	}
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (send(fd, "discard\n", 8, 0) != 8) {
		bench_fail("net.tcp.send", "discard", -errno);
		return 1;
	}
	native_setup();
	struct path plain = { .ica = false, .fd = fd };
	int ret = run_path(&plain);
	close(fd);
	if (run_wire())
		ret = -1;
	if (!myrmex_is_native())
		return ret ? 1 : 0;
	struct path zc = { .ica = true, .fd = -1 };
	zc.handle = native_connect();
	if (zc.handle < 0) {
		posix_skip("net.tcp.send.ica", "a connection of our own at the TCP/IP server",
		           (int)-zc.handle);
		return ret ? 1 : 0;
	}
	if (run_path(&zc))
		ret = -1;
	inet_call(INET_CLOSE, (uint64_t)zc.handle, 0, 0, 0, 0, NULL, NULL);
	return ret ? 1 : 0;
}
