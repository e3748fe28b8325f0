/*
 * t_packet: Linux AF_PACKET sockets through the POSIX personality
 * (docs/net.md, "AF_PACKET sockets"), run as a POSIX process with the file
 * manager, the console server, the virtio-net driver and the Ethernet
 * server, the host peer (tools/net_peer.py) echoing frames of type 0x88b5.
 *   - SIOCGIFINDEX and SIOCGIFHWADDR of "eth0";
 *   - SOCK_DGRAM: payloads of several sizes (0 to 1500) to the peer and
 *     back, contents and the sender's sockaddr_ll checked;
 *   - SOCK_RAW: whole frames of several sizes (14 to 1514), our MAC as the
 *     source of each echo;
 *   - poll for POLLIN, MSG_DONTWAIT, MSG_TRUNC, a dup'ed socket;
 *   - two sockets of one type both get each frame; sockets of 20 types in
 *     turn (the file manager's receives per type are called back);
 *   - ETH_P_ALL: a socket that sees every frame, ours going out
 *     (PACKET_OUTGOING) and the echo coming in;
 *   - read, write, send, recv, sendmsg and recvmsg on packet sockets;
 *   - CAP_NET_RAW: a process whose effective uid is not 0 gets EPERM;
 *   - every bad input: family, type, flags, protocol, address lengths and
 *     families, pointers (-EFAULT), a send on an unbound socket (-ENXIO),
 *     oversized frames (-EMSGSIZE), descriptors that are no sockets.
 */
#define TEST_NAME "t_packet"
#include "test_check.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <arpa/inet.h>

#define ETH_DATA 0x88b5        /* the peer echoes these */
#define ETH_P_ALL_ 0x0003
#define BAD_PTR  0x1L
static const uint8_t peer_mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static const uint8_t our_mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };

static uint8_t out[2048], in[2048];

static struct sockaddr_ll peer_addr(void)
{
	struct sockaddr_ll a = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_DATA),
	                         .sll_ifindex = 2, .sll_halen = 6 };
	memcpy(a.sll_addr, peer_mac, 6);
	return a;
}

static long sys_sendto(int fd, const void *buf, size_t len, int flags, const void *addr, long alen)
{
	return myrmex_syscall6(SYS_sendto, fd, (long)buf, (long)len, flags, (long)addr, alen);
}

static long sys_recvfrom(int fd, void *buf, size_t len, int flags, void *addr, void *alen)
{
	return myrmex_syscall6(SYS_recvfrom, fd, (long)buf, (long)len, flags, (long)addr, (long)alen);
}

static void interface(void)
{
	int fd = socket(AF_PACKET, SOCK_DGRAM, 0);
	CHECK(fd >= 0, "socket: %d", errno);
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "eth0");
	CHECK_EQ(raw3(SYS_ioctl, fd, SIOCGIFINDEX, (long)&ifr), 0);
	CHECK_EQ(ifr.ifr_ifindex, 2);
	memset(&ifr.ifr_hwaddr, 0, sizeof(ifr.ifr_hwaddr));
	CHECK_EQ(raw3(SYS_ioctl, fd, SIOCGIFHWADDR, (long)&ifr), 0);
	CHECK_EQ(ifr.ifr_hwaddr.sa_family, 1);
	CHECK(memcmp(ifr.ifr_hwaddr.sa_data, our_mac, 6) == 0, "SIOCGIFHWADDR: the MAC");
	strcpy(ifr.ifr_name, "eth9");
	CHECK_EQ(raw3(SYS_ioctl, fd, SIOCGIFINDEX, (long)&ifr), -ENODEV);
	CHECK_EQ(raw3(SYS_ioctl, fd, SIOCGIFINDEX, BAD_PTR), -EFAULT);
	close(fd);
}

static void fill(uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed * 31 + i * 7 + (i >> 8));
}

static void dgram_echo(void)
{
	int fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, htons(ETH_DATA));
	CHECK(fd >= 0, "socket dgram: %d", errno);
	struct sockaddr_ll me = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_DATA),
	                          .sll_ifindex = 2 };
	CHECK_EQ(raw3(SYS_bind, fd, (long)&me, sizeof(me)), 0);
	static const size_t sizes[] = { 46, 0, 1, 45, 47, 100, 500, 999, 1000, 1499, 1500 };
	struct sockaddr_ll to = peer_addr();
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i];
		fill(out, n, i);
		CHECK_EQ(sys_sendto(fd, out, n, 0, &to, sizeof(to)), (long)n);
		struct sockaddr_ll from;
		socklen_t alen = sizeof(from);
		memset(&from, 0, sizeof(from));
		memset(in, 0xee, sizeof(in));
		long r = sys_recvfrom(fd, in, sizeof(in), 0, &from, &alen);
		CHECK_EQ(r, (long)n);
		CHECK(r == (long)n && memcmp(in, out, n) == 0, "dgram %zu: the payload came back", n);
		CHECK_EQ(alen, (socklen_t)sizeof(from));
		CHECK_EQ(from.sll_family, AF_PACKET);
		CHECK_EQ(from.sll_protocol, htons(ETH_DATA));
		CHECK_EQ(from.sll_ifindex, 2);
		CHECK_EQ(from.sll_halen, 6);
		CHECK_EQ(from.sll_hatype, 1);
		CHECK(memcmp(from.sll_addr, peer_mac, 6) == 0, "dgram %zu: from the peer", n);
	}
	/* A too short buffer: the rest is cut off, MSG_TRUNC gives the
	 * whole length. */
	fill(out, 300, 9);
	CHECK_EQ(sys_sendto(fd, out, 300, 0, &to, sizeof(to)), 300);
	CHECK_EQ(sys_recvfrom(fd, in, 10, MSG_TRUNC, NULL, NULL), 300);
	CHECK(memcmp(in, out, 10) == 0, "truncated: the first bytes");
	/* poll: nothing waits; then the echo makes it readable. */
	struct pollfd p = { .fd = fd, .events = POLLIN };
	CHECK_EQ(poll(&p, 1, 0), 0);
	/* An idle wait sleeps until the file manager's readiness notice: over
	 * 500 ms it asks once or twice, not every 10 ms (50 times; the
	 * background is a few IPCs per 100 ms). */
	struct myrmex_kstats k0, k1;
	myrmex_kstats(&k0);
	CHECK_EQ(poll(&p, 1, 500), 0);
	myrmex_kstats(&k1);
	CHECK(k1.ipc_calls - k0.ipc_calls < 25, "an idle 500 ms poll on a packet socket made %llu IPCs",
	      (unsigned long long)(k1.ipc_calls - k0.ipc_calls));
	CHECK_EQ(sys_recvfrom(fd, in, sizeof(in), MSG_DONTWAIT, NULL, NULL), -EAGAIN);
	CHECK_EQ(sys_sendto(fd, out, 64, 0, &to, sizeof(to)), 64);
	CHECK_EQ(poll(&p, 1, 10000), 1);
	CHECK(p.revents & POLLIN, "poll: POLLIN (revents %#x)", p.revents);
	CHECK_EQ(sys_recvfrom(fd, in, sizeof(in), MSG_DONTWAIT, NULL, NULL), 64);
	/* A duplicate is the same socket; it lives on after the first closes. */
	int fd2 = dup(fd);
	CHECK(fd2 >= 0, "dup: %d", errno);
	close(fd);
	CHECK_EQ(sys_sendto(fd2, out, 80, 0, &to, sizeof(to)), 80);
	CHECK_EQ(sys_recvfrom(fd2, in, sizeof(in), 0, NULL, NULL), 80);
	CHECK_EQ(raw2(SYS_fcntl, fd2, F_GETFD), 0);   /* close-on-exec is per descriptor */
	close(fd2);
}

static void raw_echo(void)
{
	int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_DATA));
	CHECK(fd >= 0, "socket raw: %d", errno);
	struct sockaddr_ll me = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_DATA),
	                          .sll_ifindex = 2 };
	CHECK_EQ(raw3(SYS_bind, fd, (long)&me, sizeof(me)), 0);
	static const size_t sizes[] = { 60, 14, 15, 59, 61, 200, 1000, 1513, 1514 };
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i];
		fill(out, n, 100 + i);
		memcpy(out, peer_mac, 6);
		memcpy(out + 6, our_mac, 6);
		out[12] = ETH_DATA >> 8;
		out[13] = ETH_DATA & 0xff;
		CHECK_EQ(sys_sendto(fd, out, n, 0, NULL, 0), (long)n);
		long r = sys_recvfrom(fd, in, sizeof(in), 0, NULL, NULL);
		CHECK_EQ(r, (long)n);
		CHECK(r == (long)n && memcmp(in, our_mac, 6) == 0 && memcmp(in + 6, peer_mac, 6) == 0 &&
		      memcmp(in + 12, out + 12, n - 12) == 0, "raw %zu: the frame came back swapped", n);
	}
	close(fd);
}

/* Two sockets of one type each get every frame; sockets of many types in
 * turn (more than the file manager's receives at the Ethernet server: each
 * is called back when the last socket of its type closes). */
static void fanout_and_types(void)
{
	int d = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_DATA));
	int r = socket(AF_PACKET, SOCK_RAW, htons(ETH_DATA));
	CHECK(d >= 0 && r >= 0, "sockets: %d %d", d, r);
	struct sockaddr_ll to = peer_addr();
	fill(out, 120, 77);
	CHECK_EQ(sys_sendto(d, out, 120, 0, &to, sizeof(to)), 120);
	CHECK_EQ(sys_recvfrom(d, in, sizeof(in), 0, NULL, NULL), 120);
	CHECK(memcmp(in, out, 120) == 0, "fan-out: the datagram socket's copy");
	CHECK_EQ(sys_recvfrom(r, in, sizeof(in), 0, NULL, NULL), 134);
	CHECK(memcmp(in + 14, out, 120) == 0, "fan-out: the raw socket's copy");
	close(d);
	close(r);
	for (int i = 0; i < 20; i++) {
		int fd = socket(AF_PACKET, SOCK_DGRAM, htons(0x9000 + i));
		CHECK(fd >= 0, "socket of type %#x: %d", 0x9000 + i, errno);
		CHECK_EQ(sys_recvfrom(fd, in, sizeof(in), MSG_DONTWAIT, NULL, NULL), -EAGAIN);
		close(fd);
	}
}

static void bad_inputs(void)
{
	CHECK_EQ(raw3(SYS_socket, 12345, SOCK_RAW, 0), -EAFNOSUPPORT);
	CHECK_EQ(raw3(SYS_socket, AF_PACKET, SOCK_STREAM, 0), -ESOCKTNOSUPPORT);
	CHECK_EQ(raw3(SYS_socket, AF_PACKET, SOCK_RAW | 0x100000, 0), -EINVAL);
	/* 802.3 protocol numbers are not offered (Linux takes any: EXCEPTIONS) */
	CHECK_EQ(raw3(SYS_socket, AF_PACKET, SOCK_RAW, htons(5)), -EPROTONOSUPPORT);
	int fd = socket(AF_PACKET, SOCK_RAW, 0);
	CHECK(fd >= 0, "socket: %d", errno);
	struct sockaddr_ll a = peer_addr();
	/* bind: length, family, pointer, interface */
	CHECK_EQ(raw3(SYS_bind, fd, (long)&a, 10), -EINVAL);
	CHECK_EQ(raw3(SYS_bind, fd, (long)&a, 1000), -EINVAL);
	CHECK_EQ(raw3(SYS_bind, fd, BAD_PTR, sizeof(a)), -EFAULT);
	a.sll_family = AF_INET;
	CHECK_EQ(raw3(SYS_bind, fd, (long)&a, sizeof(a)), -EINVAL);
	a.sll_family = AF_PACKET;
	a.sll_ifindex = 7;
	CHECK_EQ(raw3(SYS_bind, fd, (long)&a, sizeof(a)), -ENODEV);
	/* send on an unbound socket without an address */
	fill(out, 60, 1);
	CHECK_EQ(sys_sendto(fd, out, 60, 0, NULL, 0), -ENXIO);
	/* sendto: address length, bad pointers, oversized */
	a = peer_addr();
	CHECK_EQ(sys_sendto(fd, out, 60, 0, &a, 5), -EINVAL);
	CHECK_EQ(sys_sendto(fd, out, 60, 0, (void *)BAD_PTR, sizeof(a)), -EFAULT);
	CHECK_EQ(sys_sendto(fd, (void *)BAD_PTR, 60, 0, &a, sizeof(a)), -EFAULT);
	CHECK_EQ(sys_sendto(fd, out, 1515, 0, &a, sizeof(a)), -EMSGSIZE);
	close(fd);
	fd = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_DATA));
	CHECK(fd >= 0, "socket: %d", errno);
	CHECK_EQ(sys_sendto(fd, out, 1501, 0, &a, sizeof(a)), -EMSGSIZE);
	/* A bad buffer is found when a frame is copied to it (as on Linux,
	 * which then has taken the frame). */
	CHECK_EQ(sys_sendto(fd, out, 60, 0, &a, sizeof(a)), 60);
	CHECK_EQ(sys_recvfrom(fd, (void *)BAD_PTR, 100, 0, NULL, NULL), -EFAULT);
	/* Linux looks at the length's pointer after the receive: -EAGAIN
	 * there when nothing waits; the kernel here checks it first. */
	CHECK_ONE_OF(sys_recvfrom(fd, in, 100, MSG_DONTWAIT, &a, (void *)BAD_PTR), -EFAULT, -EAGAIN);
	close(fd);
	/* descriptors that are not sockets, or not open */
	CHECK_EQ(raw3(SYS_bind, 1, (long)&a, sizeof(a)), -ENOTSOCK);
	CHECK_EQ(sys_sendto(1, out, 60, 0, &a, sizeof(a)), -ENOTSOCK);
	CHECK_EQ(sys_recvfrom(1, in, 60, MSG_DONTWAIT, NULL, NULL), -ENOTSOCK);
	CHECK_EQ(raw3(SYS_bind, 40, (long)&a, sizeof(a)), -EBADF);
	CHECK_EQ(sys_sendto(40, out, 60, 0, &a, sizeof(a)), -EBADF);
}

/* ETH_P_ALL: our own frame going out, then its echo coming in. */
static void all_frames(void)
{
	int all = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL_));
	int d = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_DATA));
	CHECK(all >= 0 && d >= 0, "sockets: %d %d", all, d);
	struct sockaddr_ll me = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL_),
	                          .sll_ifindex = 2 };
	CHECK_EQ(raw3(SYS_bind, all, (long)&me, sizeof(me)), 0);
	struct sockaddr_ll to = peer_addr();
	fill(out, 100, 55);
	CHECK_EQ(sys_sendto(d, out, 100, 0, &to, sizeof(to)), 100);
	CHECK_EQ(sys_recvfrom(d, in, sizeof(in), 0, NULL, NULL), 100);
	static const uint8_t pkttype[2] = { PACKET_OUTGOING, PACKET_HOST };
	for (int i = 0; i < 2; i++) {
		struct sockaddr_ll from;
		socklen_t alen = sizeof(from);
		memset(&from, 0, sizeof(from));
		CHECK_EQ(sys_recvfrom(all, in, sizeof(in), 0, &from, &alen), 114);
		CHECK_EQ(from.sll_pkttype, pkttype[i]);
		CHECK_EQ(from.sll_protocol, htons(ETH_DATA));
		CHECK(memcmp(in, i ? our_mac : peer_mac, 6) == 0, "ETH_P_ALL frame %d: destination", i);
		CHECK(memcmp(from.sll_addr, i ? peer_mac : our_mac, 6) == 0, "ETH_P_ALL frame %d: source", i);
		CHECK(memcmp(in + 14, out, 100) == 0, "ETH_P_ALL frame %d: payload", i);
	}
	CHECK_EQ(sys_recvfrom(all, in, sizeof(in), MSG_DONTWAIT, NULL, NULL), -EAGAIN);
	close(d);
	close(all);
}

/* A frame from us to the peer of n bytes (header included), seeded. */
static void raw_frame(size_t n, unsigned seed)
{
	fill(out, n, seed);
	memcpy(out, peer_mac, 6);
	memcpy(out + 6, our_mac, 6);
	out[12] = ETH_DATA >> 8;
	out[13] = ETH_DATA & 0xff;
}

/* read, write, send and recv on a bound raw socket (a datagram socket has
 * no destination without an address: -EINVAL, as Linux's header fails);
 * sendmsg and recvmsg on a datagram socket. */
static void io_calls(void)
{
	int raw = socket(AF_PACKET, SOCK_RAW, htons(ETH_DATA));
	CHECK(raw >= 0, "socket: %d", errno);
	struct sockaddr_ll me = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_DATA),
	                          .sll_ifindex = 2 };
	/* unbound: no device to write to, as sendto without an address */
	raw_frame(70, 3);
	CHECK_EQ(raw3(SYS_write, raw, (long)out, 70), -ENXIO);
	CHECK_EQ(raw3(SYS_bind, raw, (long)&me, sizeof(me)), 0);
	CHECK_EQ(raw3(SYS_write, raw, (long)out, 70), 70);
	memset(in, 0, sizeof(in));
	CHECK_EQ(raw3(SYS_read, raw, (long)in, sizeof(in)), 70);
	CHECK(memcmp(in, our_mac, 6) == 0 && memcmp(in + 12, out + 12, 58) == 0,
	      "write/read: the frame came back");
	/* small ones (inline-sized) too, and a short read cuts the frame */
	raw_frame(20, 4);
	CHECK_EQ(raw3(SYS_write, raw, (long)out, 20), 20);
	CHECK_EQ(raw3(SYS_read, raw, (long)in, 4), 4);
	CHECK(memcmp(in, our_mac, 4) == 0, "short read: the first bytes");
	CHECK_EQ(raw3(SYS_write, raw, (long)out, 10), -EINVAL);   /* shorter than a header */
	CHECK_EQ(raw3(SYS_write, raw, (long)out, 1515), -EMSGSIZE);
	CHECK_EQ(raw3(SYS_write, raw, BAD_PTR, 70), -EFAULT);
	CHECK_EQ(raw4(SYS_pwrite64, raw, (long)out, 70, 0), -ESPIPE);
	CHECK_EQ(raw4(SYS_pread64, raw, (long)in, 70, 0), -ESPIPE);
	/* send and recv */
	raw_frame(90, 5);
	CHECK_EQ(raw4(SYS_sendto, raw, (long)out, 90, 0), 90);
	CHECK_EQ(raw4(SYS_recvfrom, raw, (long)in, sizeof(in), 0), 90);
	CHECK(memcmp(in + 12, out + 12, 78) == 0, "send/recv: the frame came back");
	close(raw);
	/* A datagram socket (made after the raw one went: it would get a copy
	 * of each of its echoes). */
	int fd = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_DATA));
	CHECK(fd >= 0, "socket: %d", errno);
	CHECK_EQ(raw3(SYS_bind, fd, (long)&me, sizeof(me)), 0);
	CHECK_EQ(raw3(SYS_write, fd, (long)out, 70), -EINVAL);
	CHECK_EQ(raw4(SYS_sendto, fd, (long)out, 70, 0), -EINVAL);
	/* sendmsg with an address and two pieces; recvmsg with the address */
	struct sockaddr_ll to = peer_addr();
	fill(out, 150, 5);
	struct iovec v[2] = { { out, 50 }, { out + 50, 100 } };
	struct msghdr m = { .msg_name = &to, .msg_namelen = sizeof(to), .msg_iov = v, .msg_iovlen = 2 };
	CHECK_EQ(raw3(SYS_sendmsg, fd, (long)&m, 0), 150);
	struct sockaddr_ll from;
	memset(&from, 0, sizeof(from));
	memset(in, 0, sizeof(in));
	struct iovec w[2] = { { in, 30 }, { in + 30, 1000 } };
	struct msghdr r = { .msg_name = &from, .msg_namelen = sizeof(from), .msg_iov = w, .msg_iovlen = 2 };
	CHECK_EQ(raw3(SYS_recvmsg, fd, (long)&r, 0), 150);
	CHECK(memcmp(in, out, 150) == 0, "sendmsg/recvmsg: the payload came back");
	CHECK_EQ(r.msg_namelen, (socklen_t)sizeof(from));
	CHECK_EQ(from.sll_family, AF_PACKET);
	CHECK_EQ(from.sll_protocol, htons(ETH_DATA));
	CHECK(memcmp(from.sll_addr, peer_mac, 6) == 0, "recvmsg: from the peer");
	CHECK_EQ(r.msg_flags, 0);
	/* recvmsg into too little room: MSG_TRUNC in msg_flags */
	CHECK_EQ(raw3(SYS_sendmsg, fd, (long)&m, 0), 150);
	struct iovec small = { in, 20 };
	struct msghdr t = { .msg_iov = &small, .msg_iovlen = 1 };
	CHECK_EQ(raw3(SYS_recvmsg, fd, (long)&t, 0), 20);
	CHECK_EQ(t.msg_flags, MSG_TRUNC);
	/* sendmsg's bad inputs: a short address, a bad one, oversized */
	m.msg_namelen = 5;
	CHECK_EQ(raw3(SYS_sendmsg, fd, (long)&m, 0), -EINVAL);
	m.msg_namelen = sizeof(to);
	m.msg_name = (void *)BAD_PTR;
	CHECK_EQ(raw3(SYS_sendmsg, fd, (long)&m, 0), -EFAULT);
	m.msg_name = &to;
	struct iovec big = { out, 1501 };
	m.msg_iov = &big;
	m.msg_iovlen = 1;
	CHECK_EQ(raw3(SYS_sendmsg, fd, (long)&m, 0), -EMSGSIZE);
	CHECK_EQ(raw3(SYS_sendmsg, fd, BAD_PTR, 0), -EFAULT);
	CHECK_EQ(raw3(SYS_recvmsg, fd, BAD_PTR, 0), -EFAULT);
	close(fd);
}

/* Only a process whose effective uid is 0 may open a packet socket: the
 * effective uid is given away and taken back (the saved uid stays 0). */
static void not_root(void)
{
	static const long ids[2][3] = { { 1000, 1000, 0 }, { 0, 1000, 0 } };
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(raw3(SYS_setresuid, ids[i][0], ids[i][1], ids[i][2]), 0);
		CHECK_EQ(raw3(SYS_socket, AF_PACKET, SOCK_DGRAM, htons(ETH_DATA)), -EPERM);
		CHECK_EQ(raw3(SYS_socket, AF_PACKET, SOCK_RAW, 0), -EPERM);
		CHECK_EQ(raw3(SYS_socket, 12345, SOCK_RAW, 0), -EAFNOSUPPORT);   /* the family first */
		CHECK_EQ(raw3(SYS_setresuid, -1, 0, -1), 0);
		CHECK_EQ(raw3(SYS_setresuid, 0, 0, 0), 0);
	}
	int fd = socket(AF_PACKET, SOCK_RAW, 0);
	CHECK(fd >= 0, "root again: socket %d", errno);
	close(fd);
}

int main(void)
{
	test_console_for_messages();
	interface();
	bad_inputs();
	not_root();
	dgram_echo();
	raw_echo();
	fanout_and_types();
	all_frames();
	io_calls();
	dgram_echo();   /* the network's type still works after them */
	return test_exit_code();
}
