/*
 * t_inet: TCP and UDP sockets of a POSIX process (docs/net.md, "TCP/IP"),
 * through the kernel's socket calls, the file manager and the TCP/IP
 * server (lwIP) over the Ethernet server and virtio-net, to the host peer
 * tools/inet_peer.py on QEMU's user network (restrict=on: the guest
 * reaches only the forwards, everything stays on this machine):
 *   - TCP to the peer: echo of 1 B to 300 KB, 1 B to 16 MiB from the peer
 *     and to it with the pattern checked, shutdown(SHUT_WR) seen as the end;
 *   - UDP: a datagram from the host to our port 7 (QEMU's restricted
 *     network lets no guest datagram out: the wire's UDP sends are not
 *     tested here, the loopback's are);
 *   - accept: the host connects to our port 80;
 *   - the loopback interface: TCP and UDP to 127.0.0.1, ECONNREFUSED;
 *   - sendmsg and recvmsg (vectors, the source, MSG_TRUNC), the interface
 *     ioctls of ifconfig (SIOCGIFCONF, flags, address, mask, MTU, MAC),
 *   - a listener closed with connections it never accepted (reset),
 *   - names, options, non-blocking connect/recv/accept, poll with a pipe
 *     (an idle wait sleeps until a readiness notice), read/write on
 *     sockets, a socket shared with a forked child, SIGPIPE and EPIPE, a blocking recv interrupted by a signal (EINTR) whose
 *     data then goes to the next recv;
 *   - a host peer that goes away during a transfer (EPIPE or ECONNRESET),
 *     sockets left open by a process that ends (none stays listed in
 *     /proc/net);
 *   - every bad input: families, types, protocols, lengths, pointers
 *     (-EFAULT), calls on descriptors that are no sockets, more sockets
 *     than the server holds; the network works after each.
 */
#define TEST_NAME "t_inet"
#include "test_check.h"
#include "inet_test.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define PEER "10.0.2.100"
#define BAD_PTR 0x1L

static uint8_t big[1 << 20], back[1 << 20];

static uint64_t started_ns;

/* A progress line with the seconds since the start (slow phases show). */
static void phase(const char *what)
{
	uint64_t now = myrmex_now_ns();
	if (!started_ns)
		started_ns = now;
	test_note("%s (at %llu ms)", what, (unsigned long long)((now - started_ns) / 1000000u));
}

static uint8_t pattern_byte(size_t i)
{
	return (uint8_t)((i * 7 + 3) & 0xff);
}

static long sys_connect(int fd, const struct sockaddr_in *a, long len)
{
	return raw3(SYS_connect, fd, (long)a, len);
}

static long send_all(int fd, const void *buf, size_t n)
{
	size_t done = 0;
	while (done < n) {
		long r = myrmex_syscall6(SYS_sendto, fd, (long)((const uint8_t *)buf + done),
		                         (long)(n - done), 0, 0, 0);
		if (r <= 0)
			return r < 0 ? r : -EIO;
		done += (size_t)r;
	}
	return (long)done;
}

static long recv_all(int fd, void *buf, size_t n)
{
	size_t done = 0;
	while (done < n) {
		long r = myrmex_syscall6(SYS_recvfrom, fd, (long)((uint8_t *)buf + done),
		                         (long)(n - done), 0, 0, 0);
		if (r < 0)
			return r;
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (long)done;
}

/* A line from fd (without the newline) into buf: its length or -errno. */
static long recv_line(int fd, char *buf, size_t size)
{
	size_t n = 0;
	while (n + 1 < size) {
		long r = raw3(SYS_read, fd, (long)(buf + n), 1);
		if (r < 0)
			return r;
		if (r == 0 || buf[n] == '\n')
			break;
		n++;
	}
	buf[n] = '\0';
	return (long)n;
}

/* A TCP connection to the peer asking for command: the socket, or -errno. */
static int peer_session(const char *command)
{
	int fd = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return fd;
	struct sockaddr_in a = addr_of(PEER, 7);
	long r = sys_connect(fd, &a, sizeof(a));
	if (r < 0) {
		close(fd);
		return (int)r;
	}
	size_t len = strlen(command);
	if (send_all(fd, command, len) != (long)len) {
		close(fd);
		return -EIO;
	}
	return fd;
}

static void tcp_echo(void)
{
	int fd = peer_session("echo\n");
	CHECK(fd >= 0, "connect to the peer's echo: %d", fd);
	if (fd < 0)
		return;
	static const size_t sizes[] = { 1, 2, 100, 1460, 1461, 5000, 65536, 300000 };
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i];
		for (size_t k = 0; k < n; k++)
			big[k] = (uint8_t)(k * 13 + i);
		memset(back, 0, n);
		/* In pieces, each read back before the next goes: the test never
		 * depends on how much both ends' buffers hold. */
		for (size_t at = 0; at < n;) {
			size_t piece = n - at < 16384 ? n - at : 16384;
			CHECK_EQ(send_all(fd, big + at, piece), (long)piece);
			CHECK_EQ(recv_all(fd, back + at, piece), (long)piece);
			at += piece;
		}
		CHECK(memcmp(big, back, n) == 0, "echo of %zu bytes came back the same", n);
	}
	/* Our end of the stream: the peer's echo ends, then so does its side. */
	CHECK_EQ(raw2(SYS_shutdown, fd, SHUT_WR), 0);
	CHECK_EQ(recv_all(fd, back, 10), 0);
	CHECK_EQ(close(fd), 0);
}

/* n pattern bytes from the peer ("source n"), checked as they come (no
 * buffer of n bytes: the pattern repeats every 256), then the end. */
static void source_of(size_t n)
{
	char command[48];
	snprintf(command, sizeof command, "source %zu\n", n);
	int fd = peer_session(command);
	CHECK(fd >= 0, "connect for source %zu: %d", n, fd);
	if (fd < 0)
		return;
	size_t got = 0, bad = SIZE_MAX;
	while (got < n) {
		size_t want = n - got < sizeof(back) ? n - got : sizeof(back);
		long r = myrmex_syscall6(SYS_recvfrom, fd, (long)back, (long)want, 0, 0, 0);
		if (r <= 0) {
			CHECK(r == 0 && 0, "source %zu: receive at %zu: %ld", n, got, r);
			break;
		}
		for (long i = 0; i < r && bad == SIZE_MAX; i++)
			if (back[i] != pattern_byte(got + (size_t)i))
				bad = got + (size_t)i;
		got += (size_t)r;
	}
	CHECK_EQ(got, n);
	CHECK(bad == SIZE_MAX, "%zu bytes from the peer: first difference at %zu", n, bad);
	CHECK_EQ(recv_all(fd, back, 1), 0);   /* then the end */
	close(fd);
}

/* n pattern bytes to the peer ("sink n"), sent from one 1 MiB buffer
 * (a multiple of the pattern's period), which checks them. */
static void sink_of(size_t n)
{
	char command[48], want[48];
	snprintf(command, sizeof command, "sink %zu\n", n);
	snprintf(want, sizeof want, "ok %zu", n);
	int fd = peer_session(command);
	CHECK(fd >= 0, "connect for sink %zu: %d", n, fd);
	if (fd < 0)
		return;
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = pattern_byte(i);
	for (size_t sent = 0; sent < n;) {
		size_t k = n - sent < sizeof(big) ? n - sent : sizeof(big);
		long r = send_all(fd, big, k);
		CHECK_EQ(r, (long)k);
		if (r != (long)k)
			break;
		sent += k;
	}
	char line[64];
	CHECK(recv_line(fd, line, sizeof line) > 0 && strcmp(line, want) == 0,
	      "the peer got %zu bytes: %s", n, line);
	close(fd);
}

/* Transfers of 1 B to 16 MiB each way, every byte checked end to end. */
static void tcp_source_sink(void)
{
	static const size_t sizes[] = { 1, 1460, 65537, 1u << 20, 16u << 20 };
	_Static_assert(sizeof(big) % 256 == 0, "the sink's buffer holds whole periods");
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char what[48];
		source_of(sizes[i]);
		snprintf(what, sizeof what, "source %zu: done", sizes[i]);
		phase(what);
		sink_of(sizes[i]);
		snprintf(what, sizeof what, "sink %zu: done", sizes[i]);
		phase(what);
	}
}

static void udp_from_host(void)
{
	int u = (int)raw3(SYS_socket, AF_INET, SOCK_DGRAM, 0);
	CHECK(u >= 0, "udp socket: %d", u);
	struct sockaddr_in me = addr_of("0.0.0.0", 7);
	CHECK_EQ(raw3(SYS_bind, u, (long)&me, sizeof(me)), 0);
	int ctl = peer_session("udp\n");
	CHECK(ctl >= 0, "connect for udp: %d", ctl);
	test_note("udp: waiting for the host's datagram");
	char buf[256];
	struct sockaddr_in from;
	socklen_t alen = sizeof(from);
	guard(20);
	long r = myrmex_syscall6(SYS_recvfrom, u, (long)buf, sizeof(buf), 0, (long)&from, (long)&alen);
	alarm(0);
	CHECK(r > 0, "a datagram from the host: %ld", r);
	if (r > 0) {
		CHECK_EQ(alen, (socklen_t)sizeof(from));
		CHECK_EQ(from.sin_family, AF_INET);
		CHECK_EQ(from.sin_addr.s_addr, inet_addr("10.0.2.2"));   /* QEMU's host alias */
		CHECK(memcmp(buf, "udp-ping", 8) == 0, "the host's datagram");
	}
	if (ctl >= 0 && r > 0) {
		/* QEMU's restricted user network lets no datagram of the guest
		 * out, so the payload goes back over the TCP session. */
		char line[300];
		int n = snprintf(line, sizeof line, "%.*s\n", (int)r, buf);
		CHECK_EQ(send_all(ctl, line, (size_t)n), n);
		CHECK(recv_line(ctl, line, sizeof line) > 0 && strcmp(line, "udp ok") == 0,
		      "the host saw its datagram: %s", line);
	}
	if (ctl >= 0)
		close(ctl);
	close(u);
}

static void accept_from_host(void)
{
	int l = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
	int one = 1;
	CHECK_EQ(raw5(SYS_setsockopt, l, SOL_SOCKET, SO_REUSEADDR, (long)&one, sizeof(one)), 0);
	struct sockaddr_in me = addr_of("0.0.0.0", 80);
	CHECK_EQ(raw3(SYS_bind, l, (long)&me, sizeof(me)), 0);
	CHECK_EQ(raw2(SYS_listen, l, 4), 0);
	int ctl = peer_session("connect\n");
	CHECK(ctl >= 0, "connect for connect-back: %d", ctl);
	struct sockaddr_in from;
	socklen_t alen = sizeof(from);
	guard(20);
	int c = (int)raw3(SYS_accept, l, (long)&from, (long)&alen);
	alarm(0);
	CHECK(c >= 0, "accept of the host's connection: %d", c);
	if (c >= 0) {
		CHECK_EQ(alen, (socklen_t)sizeof(from));
		CHECK_EQ(from.sin_family, AF_INET);
		char line[128];
		long n = recv_line(c, line, sizeof line);
		CHECK(n > 0, "the host's line: %ld", n);
		strcat(line, "\n");
		CHECK_EQ(send_all(c, line, strlen(line)), (long)strlen(line));
		struct sockaddr_in name;
		socklen_t nlen = sizeof(name);
		CHECK_EQ(raw3(SYS_getsockname, c, (long)&name, (long)&nlen), 0);
		CHECK_EQ(ntohs(name.sin_port), 80);
		CHECK_EQ(name.sin_addr.s_addr, inet_addr("10.0.2.15"));
		close(c);
	}
	if (ctl >= 0) {
		char line[128];
		CHECK(recv_line(ctl, line, sizeof line) > 0 && strcmp(line, "connect ok") == 0,
		      "the host's connection: %s", line);
		close(ctl);
	}
	close(l);
}

static void loopback(void)
{
	/* UDP to ourselves. */
	int a = (int)raw3(SYS_socket, AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	int b = (int)raw3(SYS_socket, AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in pa = addr_of("127.0.0.1", 4000), pb = addr_of("127.0.0.1", 4001);
	CHECK_EQ(raw3(SYS_bind, a, (long)&pa, sizeof(pa)), 0);
	CHECK_EQ(raw3(SYS_bind, b, (long)&pb, sizeof(pb)), 0);
	CHECK_EQ(raw3(SYS_bind, b, (long)&pb, sizeof(pb)), -EINVAL);   /* bound already */
	CHECK_EQ(myrmex_syscall6(SYS_sendto, a, (long)"hello", 5, 0, (long)&pb, sizeof(pb)), 5);
	char buf[64];
	struct sockaddr_in from;
	socklen_t alen = sizeof(from);
	CHECK_EQ(myrmex_syscall6(SYS_recvfrom, b, (long)buf, 2, MSG_PEEK, 0, 0), 2);
	CHECK_EQ(myrmex_syscall6(SYS_recvfrom, b, (long)buf, sizeof(buf), 0, (long)&from, (long)&alen), 5);
	CHECK(memcmp(buf, "hello", 5) == 0, "loopback datagram");
	CHECK_EQ(ntohs(from.sin_port), 4000);
	CHECK_EQ(from.sin_addr.s_addr, htonl(INADDR_LOOPBACK));
	CHECK_EQ(myrmex_syscall6(SYS_recvfrom, b, (long)buf, sizeof(buf), MSG_DONTWAIT, 0, 0), -EAGAIN);
	/* connect, then send/recv without addresses. */
	CHECK_EQ(sys_connect(a, &pb, sizeof(pb)), 0);
	CHECK_EQ(raw3(SYS_write, a, (long)"again", 5), 5);
	CHECK_EQ(raw3(SYS_read, b, (long)buf, sizeof(buf)), 5);
	/* sendmsg and recvmsg: a vector gathered into one datagram and
	 * scattered back, the source named, a short vector truncating it. */
	char p1[3] = "abc", p2[4] = "defg", r1[2], r2[16];
	struct iovec sv[2] = { { p1, 3 }, { p2, 4 } };
	struct msghdr sm = { .msg_name = &pb, .msg_namelen = sizeof(pb), .msg_iov = sv, .msg_iovlen = 2 };
	CHECK_EQ(raw3(SYS_sendmsg, a, (long)&sm, 0), 7);
	struct iovec rv[2] = { { r1, 2 }, { r2, sizeof(r2) } };
	struct sockaddr_in src;
	struct msghdr rm = { .msg_name = &src, .msg_namelen = sizeof(src), .msg_iov = rv, .msg_iovlen = 2 };
	CHECK_EQ(raw3(SYS_recvmsg, b, (long)&rm, 0), 7);
	CHECK(memcmp(r1, "ab", 2) == 0 && memcmp(r2, "cdefg", 5) == 0, "recvmsg scattered the datagram");
	CHECK_EQ(rm.msg_namelen, (socklen_t)sizeof(src));
	CHECK_EQ(ntohs(src.sin_port), 4000);
	CHECK_EQ(rm.msg_flags, 0);
	CHECK_EQ(raw3(SYS_sendmsg, a, (long)&sm, 0), 7);
	struct iovec shortv = { r1, 2 };
	struct msghdr tm = { .msg_iov = &shortv, .msg_iovlen = 1 };
	CHECK_EQ(raw3(SYS_recvmsg, b, (long)&tm, 0), 2);
	CHECK_EQ(tm.msg_flags, MSG_TRUNC);
	CHECK_EQ(raw3(SYS_sendmsg, a, BAD_PTR, 0), -EFAULT);
	struct iovec badv = { (void *)BAD_PTR, 10 };
	struct msghdr bm = { .msg_name = &pb, .msg_namelen = sizeof(pb), .msg_iov = &badv, .msg_iovlen = 1 };
	CHECK_EQ(raw3(SYS_sendmsg, a, (long)&bm, 0), -EFAULT);
	bm.msg_iovlen = 5000;
	CHECK_EQ(raw3(SYS_sendmsg, a, (long)&bm, 0), -EINVAL);
	close(a);
	close(b);

	/* TCP to ourselves: listen, connect, accept, both ways. */
	int l = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, IPPROTO_TCP);
	struct sockaddr_in pl = addr_of("127.0.0.1", 5000);
	CHECK_EQ(raw3(SYS_bind, l, (long)&pl, sizeof(pl)), 0);
	CHECK_EQ(raw2(SYS_listen, l, 2), 0);
	int c = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
	CHECK_EQ(sys_connect(c, &pl, sizeof(pl)), 0);
	CHECK_EQ(sys_connect(c, &pl, sizeof(pl)), -EISCONN);
	int s = (int)raw4(SYS_accept4, l, 0, 0, SOCK_CLOEXEC);
	CHECK(s >= 0, "loopback accept: %d", s);
	CHECK_EQ(raw3(SYS_fcntl, s, F_GETFD, 0), FD_CLOEXEC);
	CHECK_EQ(send_all(c, "ping", 4), 4);
	CHECK_EQ(recv_all(s, buf, 4), 4);
	CHECK_EQ(send_all(s, "pong!", 5), 5);
	CHECK_EQ(recv_all(c, buf, 5), 5);
	CHECK(memcmp(buf, "pong!", 5) == 0, "loopback stream");
	struct sockaddr_in peer;
	socklen_t plen = sizeof(peer);
	CHECK_EQ(raw3(SYS_getpeername, s, (long)&peer, (long)&plen), 0);
	CHECK_EQ(peer.sin_addr.s_addr, htonl(INADDR_LOOPBACK));
	int v = -1;
	socklen_t vlen = sizeof(v);
	CHECK_EQ(raw5(SYS_getsockopt, c, SOL_SOCKET, SO_TYPE, (long)&v, (long)&vlen), 0);
	CHECK_EQ(v, SOCK_STREAM);
	CHECK_EQ(raw5(SYS_getsockopt, l, SOL_SOCKET, SO_ACCEPTCONN, (long)&v, (long)&vlen), 0);
	CHECK_EQ(v, 1);
	int one = 1;
	CHECK_EQ(raw5(SYS_setsockopt, c, IPPROTO_TCP, TCP_NODELAY, (long)&one, sizeof(one)), 0);
	CHECK_EQ(raw5(SYS_getsockopt, c, IPPROTO_TCP, TCP_NODELAY, (long)&v, (long)&vlen), 0);
	CHECK_EQ(v, 1);
	/* Poll: a pipe and the socket; the socket becomes readable. */
	int p[2];
	CHECK_EQ(pipe(p), 0);
	struct pollfd pf[2] = { { .fd = p[0], .events = POLLIN }, { .fd = s, .events = POLLIN } };
	CHECK_EQ(poll(pf, 2, 0), 0);
	CHECK_EQ(send_all(c, "x", 1), 1);
	CHECK_EQ(poll(pf, 2, 5000), 1);
	CHECK_EQ(pf[1].revents & POLLIN, POLLIN);
	CHECK_EQ(recv_all(s, buf, 1), 1);
	/* An idle wait sleeps until the TCP/IP server's readiness notice: over
	 * 300 ms it asks the file manager once or twice, not every 10 ms (each
	 * asking is two IPCs, FS_POLL and INET_POLL; the rest of the system's
	 * background is a few per 100 ms). Then data wakes it. */
	struct myrmex_kstats k0, k1;
	myrmex_kstats(&k0);
	CHECK_EQ(poll(pf, 2, 300), 0);
	myrmex_kstats(&k1);
	CHECK(k1.ipc_calls - k0.ipc_calls < 25, "an idle 300 ms poll on a socket made %llu IPCs",
	      (unsigned long long)(k1.ipc_calls - k0.ipc_calls));
	pid_t writer = fork();
	if (writer == 0) {
		usleep(100 * 1000);
		_exit(send_all(c, "y", 1) == 1 ? 0 : 1);
	}
	CHECK_EQ(poll(pf, 2, -1), 1);
	CHECK_EQ(pf[1].revents & POLLIN, POLLIN);
	CHECK_EQ(recv_all(s, buf, 1), 1);
	int wstatus = -1;
	waitpid(writer, &wstatus, 0);
	CHECK_EQ(wstatus, 0);
	close(p[0]);
	close(p[1]);
	/* Non-blocking: nothing to read, nothing to accept. */
	CHECK_EQ(raw3(SYS_fcntl, s, F_SETFL, O_NONBLOCK), 0);
	CHECK_EQ(raw3(SYS_read, s, (long)buf, sizeof(buf)), -EAGAIN);
	CHECK_EQ(raw3(SYS_fcntl, l, F_SETFL, O_NONBLOCK), 0);
	CHECK_EQ(raw3(SYS_accept, l, 0, 0), -EAGAIN);
	/* The other end closes: the end of the stream, then EPIPE for sends. */
	close(c);
	CHECK_EQ(raw3(SYS_fcntl, s, F_SETFL, 0), 0);
	CHECK_EQ(recv_all(s, buf, 1), 0);
	signal(SIGPIPE, SIG_IGN);
	long r = 0;
	for (int i = 0; i < 50 && r >= 0; i++)
		r = myrmex_syscall6(SYS_sendto, s, (long)"z", 1, 0, 0, 0);
	CHECK_ONE_OF(r, -EPIPE, -ECONNRESET);
	signal(SIGPIPE, SIG_DFL);
	close(s);
	close(l);

	/* Nobody listens: refused. */
	int d = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in nobody = addr_of("127.0.0.1", 5999);
	CHECK_EQ(sys_connect(d, &nobody, sizeof(nobody)), -ECONNREFUSED);
	close(d);
}

/* 1 MiB through the loopback in 64 KiB writes to a forked reader, which
 * checks the pattern and answers one byte; then the other way. */
static void loopback_bulk(void)
{
	int l = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in pl = addr_of("127.0.0.1", 5003);
	CHECK_EQ(raw3(SYS_bind, l, (long)&pl, sizeof(pl)), 0);
	CHECK_EQ(raw2(SYS_listen, l, 2), 0);
	int c = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
	CHECK_EQ(sys_connect(c, &pl, sizeof(pl)), 0);
	int s = (int)raw3(SYS_accept, l, 0, 0);
	close(l);
	const size_t n = sizeof(big);
	for (size_t i = 0; i < n; i++)
		big[i] = pattern_byte(i);
	pid_t pid = fork();
	if (pid == 0) {
		close(c);
		if (recv_all(s, back, n) != (long)n || memcmp(back, big, n) != 0)
			_exit(1);
		if (send_all(s, "k", 1) != 1)
			_exit(2);
		_exit(send_all(s, big, n) == (long)n ? 0 : 3);
	}
	close(s);
	for (size_t at = 0; at < n; at += 65536)
		CHECK_EQ(send_all(c, big + at, 65536), 65536);
	char k = 0;
	CHECK_EQ(recv_all(c, &k, 1), 1);
	memset(back, 0, n);
	CHECK_EQ(recv_all(c, back, n), (long)n);
	CHECK(memcmp(back, big, n) == 0, "1 MiB back through the loopback");
	int status = -1;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the reader: %#x", status);
	close(c);
}

/* A listener closed with connections it never accepted: they are reset
 * (as Linux does); the clients' receive says so once, then the end. */
static void listener_closed(void)
{
	int l = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in pl = addr_of("127.0.0.1", 5004);
	CHECK_EQ(raw3(SYS_bind, l, (long)&pl, sizeof(pl)), 0);
	CHECK_EQ(raw2(SYS_listen, l, 4), 0);
	int c[3];
	for (int i = 0; i < 3; i++) {
		c[i] = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
		CHECK_EQ(sys_connect(c[i], &pl, sizeof(pl)), 0);
	}
	CHECK_EQ(close(l), 0);
	char b;
	for (int i = 0; i < 3; i++) {
		guard(10);
		CHECK_EQ(raw3(SYS_read, c[i], (long)&b, 1), -ECONNRESET);
		CHECK_EQ(raw3(SYS_read, c[i], (long)&b, 1), 0);
		alarm(0);
		close(c[i]);
	}
}

/* A child writes on the connection its parent made; SIGPIPE kills a
 * writer on a dead connection. */
static void fork_and_sigpipe(void)
{
	int l = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in pl = addr_of("127.0.0.1", 5001);
	CHECK_EQ(raw3(SYS_bind, l, (long)&pl, sizeof(pl)), 0);
	CHECK_EQ(raw2(SYS_listen, l, 2), 0);
	int c = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
	CHECK_EQ(sys_connect(c, &pl, sizeof(pl)), 0);
	int s = (int)raw3(SYS_accept, l, 0, 0);
	CHECK(s >= 0, "accept: %d", s);
	pid_t pid = fork();
	if (pid == 0) {
		_exit(send_all(c, "from the child", 14) == 14 ? 0 : 1);
	}
	int status = -1;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child wrote: %#x", status);
	char buf[32];
	CHECK_EQ(recv_all(s, buf, 14), 14);
	CHECK(memcmp(buf, "from the child", 14) == 0, "the child's bytes");
	close(s);   /* the connection ends; the writer below gets SIGPIPE */
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 100; i++)
			myrmex_syscall6(SYS_sendto, c, (long)"zz", 2, 0, 0, 0);
		_exit(3);
	}
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE, "killed by SIGPIPE: %#x", status);
	/* MSG_NOSIGNAL: the error without the signal. */
	CHECK_ONE_OF(myrmex_syscall6(SYS_sendto, c, (long)"z", 1, MSG_NOSIGNAL, 0, 0), -EPIPE,
	             -ECONNRESET);
	close(c);
	close(l);
}

/* A blocking recv taken away by a signal: EINTR, and what arrives later
 * goes to the next recv, not to the call that left. */
static void interrupted_recv(void)
{
	int l = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in pl = addr_of("127.0.0.1", 5002);
	CHECK_EQ(raw3(SYS_bind, l, (long)&pl, sizeof(pl)), 0);
	CHECK_EQ(raw2(SYS_listen, l, 2), 0);
	int c = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
	CHECK_EQ(sys_connect(c, &pl, sizeof(pl)), 0);
	int s = (int)raw3(SYS_accept, l, 0, 0);
	char buf[16];
	guard(1);
	CHECK_EQ(raw3(SYS_read, s, (long)buf, sizeof(buf)), -EINTR);
	CHECK_EQ(send_all(c, "late", 4), 4);
	guard(10);
	CHECK_EQ(raw3(SYS_read, s, (long)buf, sizeof(buf)), 4);
	alarm(0);
	CHECK(memcmp(buf, "late", 4) == 0, "the bytes went to the next read");
	close(c);
	close(s);
	close(l);
}

/* The interface ioctls busybox's ifconfig makes: the list, then each
 * interface's flags, address, mask, MTU and hardware address. */
static void interfaces(void)
{
	int fd = (int)raw3(SYS_socket, AF_INET, SOCK_DGRAM, 0);
	struct ifconf ic = { .ifc_len = 0, .ifc_buf = NULL };
	CHECK_EQ(raw3(SYS_ioctl, fd, SIOCGIFCONF, (long)&ic), 0);
	CHECK_EQ(ic.ifc_len, 2 * (int)sizeof(struct ifreq));
	struct ifreq reqs[4];
	ic.ifc_len = sizeof(reqs);
	ic.ifc_req = reqs;
	CHECK_EQ(raw3(SYS_ioctl, fd, SIOCGIFCONF, (long)&ic), 0);
	CHECK_EQ(ic.ifc_len, 2 * (int)sizeof(struct ifreq));
	CHECK(strcmp(reqs[0].ifr_name, "lo") == 0 && strcmp(reqs[1].ifr_name, "eth0") == 0,
	      "the interfaces: %s %s", reqs[0].ifr_name, reqs[1].ifr_name);
	struct ifreq r;
	memset(&r, 0, sizeof(r));
	strcpy(r.ifr_name, "eth0");
	CHECK_EQ(raw3(SYS_ioctl, fd, SIOCGIFADDR, (long)&r), 0);
	CHECK_EQ(((struct sockaddr_in *)&r.ifr_addr)->sin_addr.s_addr, inet_addr("10.0.2.15"));
	CHECK_EQ(raw3(SYS_ioctl, fd, SIOCGIFNETMASK, (long)&r), 0);
	CHECK_EQ(((struct sockaddr_in *)&r.ifr_netmask)->sin_addr.s_addr, inet_addr("255.255.255.0"));
	CHECK_EQ(raw3(SYS_ioctl, fd, SIOCGIFFLAGS, (long)&r), 0);
	CHECK_EQ(r.ifr_flags & (IFF_UP | IFF_RUNNING), IFF_UP | IFF_RUNNING);
	CHECK_EQ(raw3(SYS_ioctl, fd, SIOCGIFMTU, (long)&r), 0);
	CHECK_EQ(r.ifr_mtu, 1500);
	CHECK_EQ(raw3(SYS_ioctl, fd, SIOCGIFHWADDR, (long)&r), 0);
	static const uint8_t mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x58 };
	CHECK(memcmp(r.ifr_hwaddr.sa_data, mac, 6) == 0, "eth0's MAC");
	strcpy(r.ifr_name, "lo");
	CHECK_EQ(raw3(SYS_ioctl, fd, SIOCGIFFLAGS, (long)&r), 0);
	CHECK(r.ifr_flags & IFF_LOOPBACK, "lo is the loopback");
	strcpy(r.ifr_name, "eth7");
	CHECK_EQ(raw3(SYS_ioctl, fd, SIOCGIFADDR, (long)&r), -ENODEV);
	CHECK_EQ(raw3(SYS_ioctl, fd, SIOCGIFADDR, BAD_PTR), -EFAULT);
	ic.ifc_buf = (void *)BAD_PTR;
	ic.ifc_len = 80;
	CHECK_EQ(raw3(SYS_ioctl, fd, SIOCGIFCONF, (long)&ic), -EFAULT);
	ic.ifc_len = -1;
	CHECK_EQ(raw3(SYS_ioctl, fd, SIOCGIFCONF, (long)&ic), -EINVAL);
	close(fd);
}

static void bad_inputs(void)
{
	CHECK_EQ(raw3(SYS_socket, AF_INET6, SOCK_STREAM, 0), -EAFNOSUPPORT);
	CHECK_EQ(raw3(SYS_socket, AF_INET, SOCK_STREAM, IPPROTO_UDP), -EPROTONOSUPPORT);
	CHECK_EQ(raw3(SYS_socket, AF_INET, SOCK_DGRAM, IPPROTO_TCP), -EPROTONOSUPPORT);
	CHECK_EQ(raw3(SYS_socket, AF_INET, SOCK_SEQPACKET, 0), -ESOCKTNOSUPPORT);
	CHECK_EQ(raw3(SYS_socket, AF_INET, SOCK_STREAM | 0x100, 0), -EINVAL);
	int t = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
	int u = (int)raw3(SYS_socket, AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in a = addr_of("0.0.0.0", 6000);
	CHECK_EQ(raw3(SYS_bind, t, (long)&a, 8), -EINVAL);
	CHECK_EQ(raw3(SYS_bind, t, (long)&a, -1), -EINVAL);
	CHECK_EQ(raw3(SYS_bind, t, BAD_PTR, sizeof(a)), -EFAULT);
	struct sockaddr_in far = addr_of("192.0.2.1", 6000);
	CHECK_EQ(raw3(SYS_bind, t, (long)&far, sizeof(far)), -EADDRNOTAVAIL);
	CHECK_EQ(sys_connect(t, (void *)BAD_PTR, sizeof(a)), -EFAULT);
	CHECK_EQ(sys_connect(t, &a, 4), -EINVAL);
	CHECK_EQ(raw2(SYS_listen, u, 1), -EOPNOTSUPP);
	CHECK_EQ(raw3(SYS_accept, t, 0, 0), -EINVAL);   /* not listening */
	CHECK_EQ(raw4(SYS_accept4, t, 0, 0, 0x1234), -EINVAL);
	CHECK_EQ(raw3(SYS_read, t, (long)back, 10), -ENOTCONN);
	signal(SIGPIPE, SIG_IGN);
	CHECK_EQ(raw3(SYS_write, t, (long)"x", 1), -EPIPE);
	signal(SIGPIPE, SIG_DFL);
	CHECK_EQ(raw2(SYS_shutdown, t, 7), -EINVAL);
	CHECK_EQ(raw2(SYS_shutdown, t, SHUT_RD), -ENOTCONN);
	struct sockaddr_in n;
	socklen_t nlen = sizeof(n);
	CHECK_EQ(raw3(SYS_getpeername, t, (long)&n, (long)&nlen), -ENOTCONN);
	CHECK_EQ(raw3(SYS_getsockname, t, BAD_PTR, (long)&nlen), -EFAULT);
	nlen = (socklen_t)-1;
	CHECK_EQ(raw3(SYS_getsockname, t, (long)&n, (long)&nlen), -EINVAL);
	int v = 1;
	CHECK_EQ(raw5(SYS_setsockopt, t, SOL_SOCKET, 12345, (long)&v, sizeof(v)), -ENOPROTOOPT);
	CHECK_EQ(raw5(SYS_setsockopt, t, SOL_SOCKET, SO_REUSEADDR, (long)&v, 2), -EINVAL);
	CHECK_EQ(raw5(SYS_setsockopt, t, SOL_SOCKET, SO_REUSEADDR, BAD_PTR, sizeof(v)), -EFAULT);
	socklen_t vlen = sizeof(v);
	CHECK_EQ(raw5(SYS_getsockopt, t, SOL_SOCKET, SO_ERROR, BAD_PTR, (long)&vlen), -EFAULT);
	CHECK_EQ(raw5(SYS_setsockopt, u, IPPROTO_TCP, TCP_NODELAY, (long)&v, sizeof(v)), -ENOPROTOOPT);
	CHECK_EQ(myrmex_syscall6(SYS_sendto, u, (long)"x", 1, 0, 0, 0), -EDESTADDRREQ);
	CHECK_EQ(myrmex_syscall6(SYS_sendto, u, BAD_PTR, 10, 0, (long)&a, sizeof(a)), -EFAULT);
	CHECK_EQ(myrmex_syscall6(SYS_sendto, u, (long)big, 70000, 0, (long)&a, sizeof(a)), -EMSGSIZE);
	/* A datagram waiting, a bad buffer: EFAULT (nothing waiting: EAGAIN
	 * first, as Linux). */
	CHECK_EQ(myrmex_syscall6(SYS_recvfrom, u, BAD_PTR, 10, MSG_DONTWAIT, 0, 0), -EAGAIN);
	struct sockaddr_in lo = addr_of("127.0.0.1", 6001);
	CHECK_EQ(raw3(SYS_bind, u, (long)&lo, sizeof(lo)), 0);
	CHECK_EQ(myrmex_syscall6(SYS_sendto, u, (long)"y", 1, 0, (long)&lo, sizeof(lo)), 1);
	CHECK_EQ(myrmex_syscall6(SYS_recvfrom, u, BAD_PTR, 10, 0, 0, 0), -EFAULT);
	/* Socket calls on what is no socket. */
	int p[2];
	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(raw2(SYS_listen, p[0], 1), -ENOTSOCK);
	CHECK_EQ(sys_connect(p[0], &a, sizeof(a)), -ENOTSOCK);
	CHECK_EQ(raw2(SYS_listen, 999, 1), -EBADF);
	close(p[0]);
	close(p[1]);
	close(t);
	close(u);
	/* More sockets than the server holds: an error, none lost after. */
	int fds[80];
	int made = 0;
	long last = 0;
	for (int i = 0; i < 80; i++) {
		last = raw3(SYS_socket, AF_INET, SOCK_DGRAM, 0);
		if (last < 0)
			break;
		fds[made++] = (int)last;
	}
	CHECK(last < 0, "the server's table ran out after %d sockets", made);
	CHECK_ONE_OF(last, -ENFILE, -EMFILE, -ENOBUFS);
	for (int i = 0; i < made; i++)
		close(fds[i]);
}

/* A peer that goes away in the middle: the host's sink takes 1000 bytes,
 * answers and closes; our writes then end with EPIPE or ECONNRESET (not a
 * hang: the alarm bounds it), and the socket closes cleanly. */
static void peer_vanishes(void)
{
	int fd = peer_session("sink 1000\n");
	CHECK(fd >= 0, "sink session: %d", fd);
	if (fd < 0)
		return;
	signal(SIGPIPE, SIG_IGN);
	guard(60);
	long r = 0;
	size_t sent = 0;
	for (int i = 0; i < 4096 && r >= 0; i++) {
		r = raw3(SYS_write, fd, (long)big, 65536);
		if (r > 0)
			sent += (size_t)r;
	}
	alarm(0);
	signal(SIGPIPE, SIG_DFL);
	CHECK_ONE_OF(r, -EPIPE, -ECONNRESET);
	CHECK(sent >= 1000, "only %zu bytes went before the peer left", sent);
	CHECK_EQ(close(fd), 0);
}

/* The lines of /proc/net/tcp and udp naming port 7300 (hex 1C84) at
 * either end: the sockets of exit_leaks_nothing's child; -1 unreadable. */
static int proc_net_port_7300(void)
{
	static const char *const files[] = { "/proc/net/tcp", "/proc/net/udp" };
	int lines = 0;
	for (unsigned i = 0; i < 2; i++) {
		int fd = open(files[i], O_RDONLY);
		if (fd < 0)
			return -1;
		static char text[16384];
		ssize_t n = read(fd, text, sizeof text - 1);
		close(fd);
		text[n > 0 ? n : 0] = 0;
		for (const char *p = text; (p = strstr(p, ":1C84")); p++)
			lines++;
	}
	return lines;
}

/* Sockets a process leaves open go when it ends: none leaks. */
static void exit_leaks_nothing(void)
{
	CHECK_EQ(proc_net_port_7300(), 0);
	int ready[2], go[2];
	CHECK(pipe(ready) == 0 && pipe(go) == 0, "pipes");
	pid_t child = fork();
	if (child == 0) {
		int l = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
		struct sockaddr_in a = addr_of("127.0.0.1", 7300);
		if (l < 0 || raw3(SYS_bind, l, (long)&a, sizeof a) || raw2(SYS_listen, l, 4))
			_exit(2);
		int c = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
		int u = (int)raw3(SYS_socket, AF_INET, SOCK_DGRAM, 0);
		if (c < 0 || u < 0 || sys_connect(c, &a, sizeof a))
			_exit(3);
		char b = 0;
		if (write(ready[1], &b, 1) != 1 || read(go[0], &b, 1) != 1)
			_exit(4);
		_exit(0);   /* three sockets and an accepted connection left open */
	}
	char b = 0;
	CHECK_EQ(read(ready[0], &b, 1), 1);
	int open_now = proc_net_port_7300();
	CHECK(open_now >= 3, "the child's listener and connection listed: %d lines", open_now);
	CHECK_EQ(write(go[1], &b, 1), 1);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	int status = -1;
	waitpid(child, &status, 0);
	CHECK_EQ(status, 0);
	int after = -1;
	for (int i = 0; i < 100 && (after = proc_net_port_7300()) != 0; i++)
		usleep(20 * 1000);   /* closing connections pass through their states */
	CHECK(after == 0, "%d sockets of the ended child still listed", after);
}

int main(void)
{
	test_console_for_messages();
	phase("bad inputs");
	bad_inputs();
	phase("interfaces");
	interfaces();
	phase("loopback");
	loopback();
	phase("loopback bulk");
	loopback_bulk();
	phase("tcp echo");
	tcp_echo();
	phase("tcp source and sink");
	tcp_source_sink();
	phase("udp from the host");
	udp_from_host();
	phase("accept from the host");
	accept_from_host();
	phase("listener closed");
	listener_closed();
	phase("fork and SIGPIPE");
	fork_and_sigpipe();
	phase("interrupted recv");
	interrupted_recv();
	phase("a peer that vanishes");
	peer_vanishes();
	phase("sockets of an ended process");
	exit_leaks_nothing();
	tcp_echo();   /* the network still works after all of it */
	phase("done");
	return test_exit_code();
}
