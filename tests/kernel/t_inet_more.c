/*
 * t_inet_more: what the socket conformance program (tests/posix/sockopts.c)
 * cannot show against Linux's loopback, on QEMU's user network (docs/net.md,
 * "TCP/IP"):
 *   - "all": a raw ICMP socket pings QEMU's gateway 10.0.2.2 (a reply from
 *     it); a connect to a listener whose queue is full ends with
 *     EINPROGRESS at SO_SNDTIMEO; a MSG_WAITALL receive taken away by a signal loses no
 *     byte; /proc/net (route, dev, tcp, udp, raw, the directory, through
 *     /proc/self/net too) shows our sockets and routes; the routing ioctls
 *     (SIOCADDRT, SIOCDELRT) on the default route; every bad input of the
 *     raw sockets, the new options and the routing ioctls; the network
 *     works after each.
 *   - "dhcp": the TCP/IP server was started with `tcpip dhcp`; QEMU's DHCP
 *     server offers 10.0.2.15/24 (and, on the restricted network, no
 *     router): the interface ioctls and /proc/net/route show them once
 *     lwIP has its lease; a default route added by SIOCADDRT shows, and a
 *     ping of the gateway is answered.
 */
#define TEST_NAME "t_inet_more"
#include "test_check.h"
#include "inet_test.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <net/route.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#define BAD_PTR 0x1L
#define GATEWAY "10.0.2.2"

static uint16_t checksum(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint32_t sum = 0;
	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((uint16_t)~sum);
}

/* One echo request to ip on a raw socket; whether its reply came (from ip,
 * our id and sequence, our payload). Every wait is bounded by SO_RCVTIMEO. */
static bool ping_once(const char *ip, uint16_t seq)
{
	int r = (int)raw3(SYS_socket, AF_INET, SOCK_RAW, IPPROTO_ICMP);
	CHECK(r >= 0, "raw ICMP socket: %d", r);
	if (r < 0)
		return false;
	struct timeval tv = { 3, 0 };
	CHECK_EQ(raw5(SYS_setsockopt, r, SOL_SOCKET, SO_RCVTIMEO, (long)&tv, sizeof(tv)), 0);
	uint8_t req[40] = { 0 };
	struct icmphdr *h = (struct icmphdr *)req;
	h->type = ICMP_ECHO;
	h->un.echo.id = htons(0x6d79);
	h->un.echo.sequence = htons(seq);
	memcpy(req + sizeof(*h), "myrmex ping payload", 19);
	h->checksum = checksum(req, sizeof(req));
	struct sockaddr_in to = addr_of(ip, 0);
	CHECK_EQ(myrmex_syscall6(SYS_sendto, r, (long)req, sizeof(req), 0, (long)&to, sizeof(to)),
	         (long)sizeof(req));
	bool got = false;
	for (int i = 0; i < 8 && !got; i++) {
		uint8_t in[256];
		struct sockaddr_in from;
		socklen_t fl = sizeof(from);
		long n = myrmex_syscall6(SYS_recvfrom, r, (long)in, sizeof(in), 0, (long)&from, (long)&fl);
		if (n < 0) {
			CHECK(0, "ping %s: recvfrom %ld", ip, n);
			break;
		}
		const struct iphdr *iph = (const struct iphdr *)in;
		size_t hl = (size_t)iph->ihl * 4;
		const struct icmphdr *e = (const struct icmphdr *)(in + hl);
		if ((size_t)n < hl + sizeof(req) || e->type != ICMP_ECHOREPLY || e->un.echo.id != htons(0x6d79) ||
		    e->un.echo.sequence != htons(seq))
			continue;
		got = true;
		CHECK_EQ(iph->protocol, IPPROTO_ICMP);
		CHECK_EQ(from.sin_addr.s_addr, to.sin_addr.s_addr);
		CHECK(memcmp(in + hl + sizeof(*h), req + sizeof(*h), sizeof(req) - sizeof(*h)) == 0,
		      "the reply carries our payload");
	}
	close(r);
	return got;
}

static void raw_sockets(void)
{
	CHECK(ping_once(GATEWAY, 1), "QEMU's gateway answers the echo request");
	CHECK(ping_once("127.0.0.1", 2), "the loopback answers the echo request");
	CHECK_EQ(raw3(SYS_socket, AF_INET, SOCK_RAW, 0), -EPROTONOSUPPORT);
	CHECK_EQ(raw3(SYS_socket, AF_INET, SOCK_RAW, IPPROTO_RAW), -EPROTONOSUPPORT);
	CHECK_EQ(raw3(SYS_socket, AF_INET, SOCK_RAW, 300), -EPROTONOSUPPORT);
	CHECK_EQ(raw3(SYS_socket, AF_INET, SOCK_DGRAM, IPPROTO_ICMP), -EACCES);
	int r = (int)raw3(SYS_socket, AF_INET, SOCK_RAW | SOCK_NONBLOCK, IPPROTO_ICMP);
	CHECK(r >= 0, "raw socket: %d", r);
	struct sockaddr_in gw = addr_of(GATEWAY, 0);
	static uint8_t big[70000];
	CHECK_EQ(myrmex_syscall6(SYS_sendto, r, (long)"12345678", 8, 0, 0, 0), -EDESTADDRREQ);
	CHECK_EQ(myrmex_syscall6(SYS_sendto, r, (long)big, sizeof(big), 0, (long)&gw, sizeof(gw)), -EMSGSIZE);
	CHECK_EQ(myrmex_syscall6(SYS_sendto, r, BAD_PTR, 8, 0, (long)&gw, sizeof(gw)), -EFAULT);
	CHECK_EQ(myrmex_syscall6(SYS_sendto, r, (long)"12345678", 8, 0, (long)&gw, 4), -EINVAL);
	CHECK_EQ(myrmex_syscall6(SYS_recvfrom, r, (long)big, 100, 0, 0, 0), -EAGAIN);
	CHECK_EQ(raw2(SYS_listen, r, 1), -EOPNOTSUPP);
	CHECK_EQ(raw3(SYS_accept, r, 0, 0), -EOPNOTSUPP);
	struct sockaddr_in far = addr_of("192.0.2.1", 0);
	CHECK_EQ(raw3(SYS_bind, r, (long)&far, sizeof(far)), -EADDRNOTAVAIL);
	CHECK_EQ(raw3(SYS_connect, r, (long)&gw, sizeof(gw)), 0);
	int v = -1;
	socklen_t vl = sizeof(v);
	CHECK_EQ(raw5(SYS_getsockopt, r, SOL_SOCKET, SO_TYPE, (long)&v, (long)&vl), 0);
	CHECK_EQ(v, SOCK_RAW);
	close(r);
	/* A user may not open one (Linux: CAP_NET_RAW). */
	pid_t pid = fork();
	if (pid == 0) {
		if (raw1(SYS_setuid, 1000) < 0)
			_exit(2);
		_exit(raw3(SYS_socket, AF_INET, SOCK_RAW, IPPROTO_ICMP) == -EPERM ? 0 : 1);
	}
	int status = -1;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a user's raw socket: EPERM (%#x)", status);
}

static void option_inputs(void)
{
	int t = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
	int u = (int)raw3(SYS_socket, AF_INET, SOCK_DGRAM, 0);
	struct timeval tv = { 0, 1000000 };
	CHECK_EQ(raw5(SYS_setsockopt, t, SOL_SOCKET, SO_RCVTIMEO, (long)&tv, sizeof(tv)), -EDOM);
	tv.tv_usec = -1;
	CHECK_EQ(raw5(SYS_setsockopt, t, SOL_SOCKET, SO_SNDTIMEO, (long)&tv, sizeof(tv)), -EDOM);
	CHECK_EQ(raw5(SYS_setsockopt, t, SOL_SOCKET, SO_RCVTIMEO, (long)&tv, 8), -EINVAL);
	CHECK_EQ(raw5(SYS_setsockopt, t, SOL_SOCKET, SO_RCVTIMEO, BAD_PTR, sizeof(tv)), -EFAULT);
	socklen_t len = sizeof(tv);
	CHECK_EQ(raw5(SYS_getsockopt, t, SOL_SOCKET, SO_RCVTIMEO, BAD_PTR, (long)&len), -EFAULT);
	len = (socklen_t)-1;
	CHECK_EQ(raw5(SYS_getsockopt, t, SOL_SOCKET, SO_RCVTIMEO, (long)&tv, (long)&len), -EINVAL);
	CHECK_EQ(raw5(SYS_getsockopt, t, SOL_SOCKET, SO_RCVTIMEO, (long)&tv, BAD_PTR), -EFAULT);
	/* A negative time: at once (EAGAIN at the next tick, not for ever). */
	tv = (struct timeval){ -1, 0 };
	CHECK_EQ(raw5(SYS_setsockopt, u, SOL_SOCKET, SO_RCVTIMEO, (long)&tv, sizeof(tv)), 0);
	struct sockaddr_in lo = addr_of("127.0.0.1", 6101);
	CHECK_EQ(raw3(SYS_bind, u, (long)&lo, sizeof(lo)), 0);
	char b[8];
	CHECK_EQ(raw3(SYS_read, u, (long)b, sizeof(b)), -EAGAIN);
	struct linger l = { 1, 0 };
	CHECK_EQ(raw5(SYS_setsockopt, t, SOL_SOCKET, SO_LINGER, (long)&l, 4), -EINVAL);
	CHECK_EQ(raw5(SYS_setsockopt, t, SOL_SOCKET, SO_LINGER, BAD_PTR, sizeof(l)), -EFAULT);
	int v = 0;
	CHECK_EQ(raw5(SYS_setsockopt, t, IPPROTO_IP, IP_TTL, (long)&v, sizeof(v)), -EINVAL);
	v = 256;
	CHECK_EQ(raw5(SYS_setsockopt, t, IPPROTO_IP, IP_TTL, (long)&v, sizeof(v)), -EINVAL);
	v = 87;
	CHECK_EQ(raw5(SYS_setsockopt, t, IPPROTO_TCP, TCP_MAXSEG, (long)&v, sizeof(v)), -EINVAL);
	v = 32768;
	CHECK_EQ(raw5(SYS_setsockopt, t, IPPROTO_TCP, TCP_MAXSEG, (long)&v, sizeof(v)), -EINVAL);
	v = 1000;
	CHECK_EQ(raw5(SYS_setsockopt, u, IPPROTO_TCP, TCP_MAXSEG, (long)&v, sizeof(v)), -ENOPROTOOPT);
	len = sizeof(v);
	CHECK_EQ(raw5(SYS_getsockopt, u, IPPROTO_TCP, TCP_MAXSEG, (long)&v, (long)&len), -EOPNOTSUPP);
	CHECK_EQ(raw5(SYS_setsockopt, t, SOL_SOCKET, SO_PROTOCOL, (long)&v, sizeof(v)), -ENOPROTOOPT);
	CHECK_EQ(raw5(SYS_setsockopt, t, SOL_SOCKET, SO_DOMAIN, (long)&v, sizeof(v)), -ENOPROTOOPT);
	close(t);
	close(u);
}

/* SO_SNDTIMEO bounds connect: to a listener whose queue is full (lwIP
 * drops the SYN, as Linux does) the call ends with EINPROGRESS, as Linux. */
static void connect_timeout(void)
{
	int l = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in pl = addr_of("127.0.0.1", 6103);
	CHECK_EQ(raw3(SYS_bind, l, (long)&pl, sizeof(pl)), 0);
	CHECK_EQ(raw2(SYS_listen, l, 1), 0);
	int c[4];
	long r[4];
	int timed_out = 0;
	guard(30);
	for (int i = 0; i < 4; i++) {
		c[i] = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
		struct timeval tv = { 0, 300000 };
		CHECK_EQ(raw5(SYS_setsockopt, c[i], SOL_SOCKET, SO_SNDTIMEO, (long)&tv, sizeof(tv)), 0);
		r[i] = raw3(SYS_connect, c[i], (long)&pl, sizeof(pl));
		if (r[i] == -EINPROGRESS)
			timed_out++;
		else
			CHECK_EQ(r[i], 0);
	}
	alarm(0);
	CHECK(timed_out > 0, "a connect to a full queue timed out");
	for (int i = 0; i < 4; i++)
		close(c[i]);
	close(l);
}

/* A MSG_WAITALL receive taken away by a signal: EINTR, and the bytes it
 * waited with go to the next receive. */
static void waitall_interrupted(void)
{
	int l = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in pl = addr_of("127.0.0.1", 6102);
	CHECK_EQ(raw3(SYS_bind, l, (long)&pl, sizeof(pl)), 0);
	CHECK_EQ(raw2(SYS_listen, l, 1), 0);
	int c = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
	CHECK_EQ(raw3(SYS_connect, c, (long)&pl, sizeof(pl)), 0);
	int s = (int)raw3(SYS_accept, l, 0, 0);
	CHECK_EQ(myrmex_syscall6(SYS_sendto, c, (long)"0123456789", 10, 0, 0, 0), 10);
	char buf[32];
	guard(1);
	CHECK_EQ(myrmex_syscall6(SYS_recvfrom, s, (long)buf, 20, MSG_WAITALL, 0, 0), -EINTR);
	alarm(0);
	CHECK_EQ(myrmex_syscall6(SYS_recvfrom, s, (long)buf, 20, MSG_DONTWAIT, 0, 0), 10);
	CHECK(memcmp(buf, "0123456789", 10) == 0, "the bytes stayed for the next receive");
	close(c);
	close(s);
	close(l);
}

/* The contents of a /proc file (at most size - 1 bytes): its length or -errno. */
static long read_file(const char *path, char *buf, size_t size)
{
	long fd = raw3(SYS_open, (long)path, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	size_t n = 0;
	for (;;) {
		long r = raw3(SYS_read, fd, (long)(buf + n), (long)(size - 1 - n));
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	close((int)fd);
	return (long)n;
}

static void proc_net(void)
{
	static char text[24000];
	int u = (int)raw3(SYS_socket, AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in any = addr_of("0.0.0.0", 4321);
	CHECK_EQ(raw3(SYS_bind, u, (long)&any, sizeof(any)), 0);
	int l = (int)raw3(SYS_socket, AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in pl = addr_of("127.0.0.1", 5005);
	CHECK_EQ(raw3(SYS_bind, l, (long)&pl, sizeof(pl)), 0);
	CHECK_EQ(raw2(SYS_listen, l, 1), 0);
	int r = (int)raw3(SYS_socket, AF_INET, SOCK_RAW, IPPROTO_ICMP);
	CHECK(read_file("/proc/net/udp", text, sizeof(text)) > 0 &&
	      strstr(text, "00000000:10E1 00000000:0000 07") != NULL, "/proc/net/udp: %.300s", text);
	CHECK(read_file("/proc/net/tcp", text, sizeof(text)) > 0 &&
	      strstr(text, "0100007F:138D 00000000:0000 0A") != NULL, "/proc/net/tcp: %.300s", text);
	CHECK(read_file("/proc/net/raw", text, sizeof(text)) > 0 &&
	      strstr(text, "00000000:0001 00000000:0000 07") != NULL, "/proc/net/raw: %.300s", text);
	CHECK(read_file("/proc/net/route", text, sizeof(text)) > 0 &&
	      strstr(text, "eth0\t00000000\t0202000A\t0003") != NULL &&
	      strstr(text, "eth0\t0002000A\t00000000\t0001") != NULL, "/proc/net/route: %.300s", text);
	CHECK(read_file("/proc/self/net/route", text, sizeof(text)) > 0 &&
	      strstr(text, "0202000A") != NULL, "/proc/self/net/route: %.300s", text);
	CHECK(read_file("/proc/net/dev", text, sizeof(text)) > 0 && strstr(text, "  eth0: ") &&
	      strstr(text, "    lo: "), "/proc/net/dev: %.300s", text);
	CHECK(read_file("/proc/net/tcp6", text, sizeof(text)) > 0 && strstr(text, "local_address"),
	      "/proc/net/tcp6: %.300s", text);
	CHECK_EQ(read_file("/proc/net/nothing", text, sizeof(text)), -ENOENT);
	CHECK_EQ(read_file("/proc/net/route/x", text, sizeof(text)), -ENOENT);
	long fd = raw3(SYS_open, (long)"/proc/net/route", O_RDWR, 0);
	CHECK(fd >= 0, "open /proc/net/route for writing: %ld", fd);
	if (fd >= 0) {
		CHECK_EQ(raw3(SYS_write, fd, (long)"x", 1), -EIO);
		close((int)fd);
	}
	fd = raw3(SYS_open, (long)"/proc/net", O_RDONLY | O_DIRECTORY, 0);
	CHECK(fd >= 0, "open /proc/net: %ld", fd);
	if (fd >= 0) {
		long n = raw3(SYS_getdents64, fd, (long)text, sizeof(text));
		CHECK(n > 0, "the listing of /proc/net: %ld", n);
		bool route = false;
		for (long at = 0; at < n;) {
			const char *name = text + at + 19;   /* d_name in struct linux_dirent64 */
			route |= strcmp(name, "route") == 0;
			at += *(const uint16_t *)(text + at + 16);
		}
		CHECK(route, "route is listed in /proc/net");
		close((int)fd);
	}
	close(u);
	close(l);
	close(r);
}

/* A struct rtentry for the default route (gw NULL: none). */
static void default_route(struct rtentry *rt, const char *gw)
{
	memset(rt, 0, sizeof(*rt));
	struct sockaddr_in any = addr_of("0.0.0.0", 0);
	memcpy(&rt->rt_dst, &any, sizeof(any));
	memcpy(&rt->rt_genmask, &any, sizeof(any));
	rt->rt_flags = RTF_UP;
	if (gw) {
		struct sockaddr_in g = addr_of(gw, 0);
		memcpy(&rt->rt_gateway, &g, sizeof(g));
		rt->rt_flags |= RTF_GATEWAY;
	}
}

static void routes(void)
{
	int s = (int)raw3(SYS_socket, AF_INET, SOCK_DGRAM, 0);
	struct rtentry rt;
	default_route(&rt, GATEWAY);
	CHECK_EQ(raw3(SYS_ioctl, s, SIOCADDRT, (long)&rt), -EEXIST);
	CHECK_EQ(raw3(SYS_ioctl, s, SIOCADDRT, BAD_PTR), -EFAULT);
	int p[2];
	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(raw3(SYS_ioctl, p[0], SIOCADDRT, (long)&rt), -ENOTTY);
	close(p[0]);
	close(p[1]);
	struct rtentry bad = rt;
	bad.rt_dst.sa_family = AF_INET6;
	CHECK_EQ(raw3(SYS_ioctl, s, SIOCADDRT, (long)&bad), -EAFNOSUPPORT);
	bad = rt;   /* a destination with bits outside its mask */
	struct sockaddr_in host = addr_of("10.0.2.7", 0);
	memcpy(&bad.rt_dst, &host, sizeof(host));
	CHECK_EQ(raw3(SYS_ioctl, s, SIOCADDRT, (long)&bad), -EINVAL);
	bad.rt_flags |= RTF_HOST;   /* a host route: not built */
	CHECK_EQ(raw3(SYS_ioctl, s, SIOCADDRT, (long)&bad), -EINVAL);
	CHECK_EQ(raw3(SYS_ioctl, s, SIOCDELRT, (long)&bad), -ESRCH);
	struct rtentry net;   /* eth0's own network: there, and there to stay */
	memset(&net, 0, sizeof(net));
	struct sockaddr_in n = addr_of("10.0.2.0", 0), m = addr_of("255.255.255.0", 0);
	memcpy(&net.rt_dst, &n, sizeof(n));
	memcpy(&net.rt_genmask, &m, sizeof(m));
	net.rt_flags = RTF_UP;
	CHECK_EQ(raw3(SYS_ioctl, s, SIOCADDRT, (long)&net), -EEXIST);
	CHECK_EQ(raw3(SYS_ioctl, s, SIOCDELRT, (long)&net), -EINVAL);
	/* A user may not (Linux: CAP_NET_ADMIN). */
	pid_t pid = fork();
	if (pid == 0) {
		if (raw1(SYS_setuid, 1000) < 0)
			_exit(2);
		_exit(raw3(SYS_ioctl, s, SIOCDELRT, (long)&rt) == -EPERM ? 0 : 1);
	}
	int status = -1;
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "a user's SIOCDELRT: EPERM (%#x)", status);
	/* Away and back. */
	CHECK_EQ(raw3(SYS_ioctl, s, SIOCDELRT, (long)&rt), 0);
	CHECK_EQ(raw3(SYS_ioctl, s, SIOCDELRT, (long)&rt), -ESRCH);
	static char text[4096];
	CHECK(read_file("/proc/net/route", text, sizeof(text)) > 0 && strstr(text, "0202000A") == NULL,
	      "no default route: %.300s", text);
	struct rtentry off;
	default_route(&off, "192.168.9.1");
	CHECK_EQ(raw3(SYS_ioctl, s, SIOCADDRT, (long)&off), -ENETUNREACH);
	default_route(&off, NULL);
	CHECK_EQ(raw3(SYS_ioctl, s, SIOCADDRT, (long)&off), -EINVAL);
	CHECK_EQ(raw3(SYS_ioctl, s, SIOCADDRT, (long)&rt), 0);
	CHECK(read_file("/proc/net/route", text, sizeof(text)) > 0 && strstr(text, "0202000A") != NULL,
	      "the default route again: %.300s", text);
	close(s);
	CHECK(ping_once(GATEWAY, 3), "the gateway answers after the routes' changes");
}

/* The interface's address, mask and the default route, once lwIP has its
 * lease (asked again every 100 ms; the guard ends a hang). */
static void dhcp(void)
{
	int s = (int)raw3(SYS_socket, AF_INET, SOCK_DGRAM, 0);
	struct ifreq r;
	struct sockaddr_in *sin = (struct sockaddr_in *)&r.ifr_addr;
	guard(60);
	for (;;) {
		memset(&r, 0, sizeof(r));
		strcpy(r.ifr_name, "eth0");
		long rc = raw3(SYS_ioctl, s, SIOCGIFADDR, (long)&r);
		if (rc < 0 || sin->sin_addr.s_addr != 0)
			break;
		struct timespec ts = { 0, 100000000 };
		if (raw2(SYS_nanosleep, (long)&ts, 0) == -EINTR)
			break;
	}
	alarm(0);
	CHECK_EQ(sin->sin_addr.s_addr, inet_addr("10.0.2.15"));
	CHECK_EQ(raw3(SYS_ioctl, s, SIOCGIFNETMASK, (long)&r), 0);
	CHECK_EQ(((struct sockaddr_in *)&r.ifr_netmask)->sin_addr.s_addr, inet_addr("255.255.255.0"));
	CHECK_EQ(raw3(SYS_ioctl, s, SIOCGIFBRDADDR, (long)&r), 0);
	CHECK_EQ(((struct sockaddr_in *)&r.ifr_broadaddr)->sin_addr.s_addr, inet_addr("10.0.2.255"));
	/* QEMU's restricted network offers no router (slirp's bootp leaves it
	 * out with restrict=on): eth0's network, no default route until one
	 * is added. */
	static char text[4096];
	CHECK(read_file("/proc/net/route", text, sizeof(text)) > 0 &&
	      strstr(text, "eth0\t0002000A\t00000000\t0001\t0\t0\t0\t00FFFFFF") != NULL &&
	      strstr(text, "eth0\t00000000") == NULL, "the leased network: %.200s", text + 128);
	struct rtentry rt;
	default_route(&rt, GATEWAY);
	CHECK_EQ(raw3(SYS_ioctl, s, SIOCADDRT, (long)&rt), 0);
	CHECK(read_file("/proc/net/route", text, sizeof(text)) > 0 &&
	      strstr(text, "eth0\t00000000\t0202000A\t0003") != NULL, "the default route: %.200s", text + 128);
	close(s);
	CHECK(ping_once(GATEWAY, 4), "the gateway answers the leased address");
}

int main(int argc, char **argv)
{
	test_console_for_messages();
	if (argc > 1 && strcmp(argv[1], "dhcp") == 0) {
		dhcp();
		return test_exit_code();
	}
	test_note("raw sockets");
	raw_sockets();
	test_note("option inputs");
	option_inputs();
	test_note("connect timeout");
	connect_timeout();
	test_note("waitall interrupted");
	waitall_interrupted();
	test_note("/proc/net");
	proc_net();
	test_note("routes");
	routes();
	return test_exit_code();
}
