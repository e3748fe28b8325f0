/*
 * net.* (suite posix, issue 17): TCP and UDP over the loopback interface
 * (127.0.0.1) between this process and a forked child, the same static
 * binary on Myrmex (lwIP in the TCP/IP server, reached through the file
 * manager) and on Linux (its own stack):
 *   net.udp.rtt       a 1-byte datagram to the child and its answer back
 *   net.tcp.rtt       a 1-byte round trip on an open connection (TCP_NODELAY)
 *   net.tcp.connect   connect, accept and both closes, per connection
 *   net.tcp.bulk.tx   per KB: 1 MiB sent to the child in 64 KiB writes,
 *                     until the child has read it all (a 1-byte answer)
 *   net.tcp.bulk.rx   per KB: 1 MiB from the child, read in 64 KiB reads
 * Without AF_INET (no TCP/IP server running) it says BENCH-SKIP.
 */
#define _GNU_SOURCE
#include "bench.h"
#include "posix.h"

#include <arpa/inet.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define BULK_BYTES (1u << 20)
#define CHUNK      (64u * 1024u)
#define PORT_UDP_A 7101
#define PORT_UDP_B 7102
#define PORT_TCP   7103
#define PORT_CONN  7104

static unsigned char buf[CHUNK];

static struct sockaddr_in local(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
	                         .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	return a;
}

static int full_read(int fd, void *p, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, (char *)p + got, n - got);
		if (r <= 0)
			return -1;
		got += (size_t)r;
	}
	return 0;
}

static int full_write(int fd, const void *p, size_t n)
{
	size_t put = 0;
	while (put < n) {
		ssize_t r = write(fd, (const char *)p + put, n - put);
		if (r <= 0)
			return -1;
		put += (size_t)r;
	}
	return 0;
}

/* ---- UDP round trips: two connected datagram sockets ---- */

struct pair {
	int fd;
	uint64_t bad;
};

static void rtt_body(void *ctx, uint64_t iters)
{
	struct pair *p = ctx;
	p->bad += posix_ping(p->fd, p->fd, iters);
}

static int udp_rtt(void)
{
	const char *name = "net.udp.rtt";
	int a = socket(AF_INET, SOCK_DGRAM, 0), b = socket(AF_INET, SOCK_DGRAM, 0);
	if (a < 0 || b < 0) {
		posix_skip(name, "socket(AF_INET)", errno);
		return 0;
	}
	struct sockaddr_in pa = local(PORT_UDP_A), pb = local(PORT_UDP_B);
	if (bind(a, (void *)&pa, sizeof pa) || bind(b, (void *)&pb, sizeof pb) ||
	    connect(a, (void *)&pb, sizeof pb) || connect(b, (void *)&pa, sizeof pa)) {
		bench_fail(name, "bind/connect", -errno);
		return -1;
	}
	pid_t child = fork();
	if (child < 0) {
		bench_fail(name, "fork", -errno);
		return -1;
	}
	if (child == 0) {
		close(a);
		for (;;) {   /* the pong, until the zero-length datagram that ends it */
			unsigned char c;
			ssize_t n = read(b, &c, 1);
			if (n == 0)
				_exit(0);
			if (n < 0)
				_exit(1);
			c++;
			if (write(b, &c, 1) != 1)
				_exit(1);
		}
	}
	close(b);
	static struct pair p;
	p.fd = a;
	const struct bench bb = { .suite = "posix", .name = name, .runs = 21, .iters = 100,
	                          .ops_per_iter = 1, .body = rtt_body, .ctx = &p };
	int ret = bench_run(&bb);
	if (write(a, buf, 0) != 0)   /* the end */
		ret = -1;
	close(a);
	return posix_pong_end(name, child, p.bad, ret);
}

/* ---- TCP: one connection to a forked child ---- */

/* A connected pair: *mine and, in the child, *theirs. */
static int tcp_pair(const char *name, int port, int *mine, int *theirs)
{
	int l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0) {
		posix_skip(name, "socket(AF_INET)", errno);
		return 1;
	}
	int one = 1;
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	struct sockaddr_in a = local(port);
	if (bind(l, (void *)&a, sizeof a) || listen(l, 1)) {
		bench_fail(name, "bind/listen", -errno);
		return -1;
	}
	int c = socket(AF_INET, SOCK_STREAM, 0);
	if (c < 0 || connect(c, (void *)&a, sizeof a)) {
		bench_fail(name, "connect", -errno);
		return -1;
	}
	int s = accept(l, NULL, NULL);
	close(l);
	if (s < 0) {
		bench_fail(name, "accept", -errno);
		return -1;
	}
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	*mine = c;
	*theirs = s;
	return 0;
}

static int tcp_rtt(void)
{
	const char *name = "net.tcp.rtt";
	int mine, theirs;
	int r = tcp_pair(name, PORT_TCP, &mine, &theirs);
	if (r)
		return r > 0 ? 0 : -1;
	pid_t child = fork();
	if (child < 0) {
		bench_fail(name, "fork", -errno);
		return -1;
	}
	if (child == 0) {
		close(mine);
		posix_pong(theirs, theirs);
	}
	close(theirs);
	static struct pair p;
	p.fd = mine;
	const struct bench b = { .suite = "posix", .name = name, .runs = 21, .iters = 100,
	                         .ops_per_iter = 1, .body = rtt_body, .ctx = &p };
	int ret = bench_run(&b);
	close(mine);
	return posix_pong_end(name, child, p.bad, ret);
}

struct conn {
	int listener;
	struct sockaddr_in at;
	uint64_t bad;
};

static void connect_body(void *ctx, uint64_t iters)
{
	struct conn *k = ctx;
	for (uint64_t i = 0; i < iters; i++) {
		int c = socket(AF_INET, SOCK_STREAM, 0);
		if (c < 0 || connect(c, (void *)&k->at, sizeof k->at)) {
			k->bad++;
			if (c >= 0)
				close(c);
			continue;
		}
		int s = accept(k->listener, NULL, NULL);
		if (s < 0)
			k->bad++;
		else
			close(s);
		close(c);
	}
}

static int tcp_connect(void)
{
	const char *name = "net.tcp.connect";
	static struct conn k;
	k.listener = socket(AF_INET, SOCK_STREAM, 0);
	if (k.listener < 0) {
		posix_skip(name, "socket(AF_INET)", errno);
		return 0;
	}
	int one = 1;
	setsockopt(k.listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	k.at = local(PORT_CONN);
	if (bind(k.listener, (void *)&k.at, sizeof k.at) || listen(k.listener, 8)) {
		bench_fail(name, "bind/listen", -errno);
		return -1;
	}
	const struct bench b = { .suite = "posix", .name = name, .runs = 11, .iters = 10,
	                         .ops_per_iter = 1, .body = connect_body, .ctx = &k };
	int ret = bench_run(&b);
	close(k.listener);
	if (k.bad) {
		bench_fail(name, "failed connections", (long)k.bad);
		ret = -1;
	}
	return ret;
}

struct bulk {
	int fd;
	bool tx;
	uint64_t bad;
};

static void bulk_body(void *ctx, uint64_t iters)
{
	struct bulk *k = ctx;
	for (uint64_t i = 0; i < iters; i++) {
		unsigned char c = 0;
		if (k->tx) {
			for (unsigned put = 0; put < BULK_BYTES; put += CHUNK)
				if (full_write(k->fd, buf, CHUNK))
					k->bad++;
			if (full_read(k->fd, &c, 1))
				k->bad++;
		} else {
			if (full_write(k->fd, &c, 1))
				k->bad++;
			for (unsigned got = 0; got < BULK_BYTES; got += CHUNK)
				if (full_read(k->fd, buf, CHUNK))
					k->bad++;
		}
	}
}

/* The child's side of the bulk figures: 'r' -> reads 1 MiB and answers
 * one byte; 's' -> sends 1 MiB; end of file -> exits. */
static _Noreturn void bulk_child(int fd)
{
	static unsigned char cbuf[CHUNK];
	for (;;) {
		unsigned char cmd;
		ssize_t n = read(fd, &cmd, 1);
		if (n == 0)
			_exit(0);
		if (n < 0)
			_exit(1);
		if (cmd == 'r') {
			for (unsigned got = 0; got < BULK_BYTES; got += CHUNK)
				if (full_read(fd, cbuf, CHUNK))
					_exit(1);
			if (full_write(fd, &cmd, 1))
				_exit(1);
		} else {
			for (unsigned put = 0; put < BULK_BYTES; put += CHUNK)
				if (full_write(fd, cbuf, CHUNK))
					_exit(1);
		}
	}
}

static void tx_body(void *ctx, uint64_t iters)
{
	struct bulk *k = ctx;
	for (uint64_t i = 0; i < iters; i++) {
		unsigned char cmd = 'r';
		if (full_write(k->fd, &cmd, 1))
			k->bad++;
		bulk_body(ctx, 1);
	}
}

static void rx_body(void *ctx, uint64_t iters)
{
	struct bulk *k = ctx;
	for (uint64_t i = 0; i < iters; i++) {
		unsigned char cmd = 's';
		if (full_write(k->fd, &cmd, 1))
			k->bad++;
		for (unsigned got = 0; got < BULK_BYTES; got += CHUNK)
			if (full_read(k->fd, buf, CHUNK))
				k->bad++;
	}
}

static int tcp_bulk(void)
{
	int mine, theirs;
	int r = tcp_pair("net.tcp.bulk.tx", PORT_TCP + 10, &mine, &theirs);
	if (r)
		return r > 0 ? 0 : -1;
	pid_t child = fork();
	if (child < 0) {
		bench_fail("net.tcp.bulk.tx", "fork", -errno);
		return -1;
	}
	if (child == 0) {
		close(mine);
		bulk_child(theirs);
	}
	close(theirs);
	static struct bulk k;
	k.fd = mine;
	k.tx = true;
	/* Per KB: ops_per_iter is the KiB one round moves. */
	const struct bench tx = { .suite = "posix", .name = "net.tcp.bulk.tx", .runs = 7,
	                          .iters = 2, .ops_per_iter = BULK_BYTES / 1024,
	                          .body = tx_body, .ctx = &k };
	const struct bench rx = { .suite = "posix", .name = "net.tcp.bulk.rx", .runs = 7,
	                          .iters = 2, .ops_per_iter = BULK_BYTES / 1024,
	                          .body = rx_body, .ctx = &k };
	int ret = bench_run(&tx);
	if (bench_run(&rx))
		ret = -1;
	close(mine);
	return posix_pong_end("net.tcp.bulk", child, k.bad, ret);
}

int main(void)
{
	int ret = 0;
	if (udp_rtt())
		ret = 1;
	if (tcp_rtt())
		ret = 1;
	if (tcp_connect())
		ret = 1;
	if (tcp_bulk())
		ret = 1;
	return ret;
}
