/*
 * Linux packet sockets (AF_PACKET) on eth0, the NIC on QEMU's restricted
 * user network both systems boot with (10.0.2.15; the gateway 10.0.2.2 is
 * QEMU's, which answers ARP): socket, bind and getsockname's sockaddr_ll,
 * SIOCGIFINDEX and SIOCGIFHWADDR, an ARP request for the gateway sent to
 * broadcast and its reply over SOCK_DGRAM and over SOCK_RAW, poll, a
 * socket of ETH_P_ALL seeing our request go out and the reply come in,
 * read/write, sendmsg/recvmsg, the errors, and a process that is not root
 * refused (EPERM). Only what is the same on every run is printed: ARP
 * frames are picked out of whatever else the wire carries.
 */
#include "posix_test.h"

#include <arpa/inet.h>
#include <net/if.h>
#include <netpacket/packet.h>
#include <poll.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>

#define ETH_P_ALL_ 0x0003
#define ETH_P_ARP_ 0x0806
#define BAD_PTR ((void *)1)
#define WAIT_MS 5000
#define TRIES 50             /* frames looked at for the one wanted */

static const uint8_t our_ip[4] = { 10, 0, 2, 15 }, gw_ip[4] = { 10, 0, 2, 2 };
static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
static uint8_t our_mac[6];
static int ifindex;

static void show_mac(const char *what, const uint8_t *m)
{
	say("%s %02x:%02x:%02x:%02x:%02x:%02x\n", what, m[0], m[1], m[2], m[3], m[4], m[5]);
}

static void show_ll(const char *what, const struct sockaddr_ll *a, socklen_t len)
{
	say("%s: length %u family %s protocol %#x ifindex is eth0 %s hatype %u pkttype %u halen %u\n",
	    what, (unsigned)len, a->sll_family == AF_PACKET ? "AF_PACKET" : "other",
	    ntohs(a->sll_protocol), yes(a->sll_ifindex == ifindex), a->sll_hatype, a->sll_pkttype,
	    a->sll_halen);
}

static struct sockaddr_ll ll(uint16_t protocol, int index, const uint8_t *mac)
{
	struct sockaddr_ll a = { .sll_family = AF_PACKET, .sll_protocol = htons(protocol),
	                         .sll_ifindex = index, .sll_halen = mac ? 6 : 0 };
	if (mac)
		memcpy(a.sll_addr, mac, 6);
	return a;
}

/* The 28 bytes of an ARP request for the gateway's address. */
static void arp_request(uint8_t *p)
{
	static const uint8_t head[8] = { 0, 1, 8, 0, 6, 4, 0, 1 };
	memcpy(p, head, 8);
	memcpy(p + 8, our_mac, 6);
	memcpy(p + 14, our_ip, 4);
	memset(p + 18, 0, 6);
	memcpy(p + 24, gw_ip, 4);
}

/* Is p (n bytes, ARP) the gateway's reply to us? A request for it? */
static int is_reply(const uint8_t *p, ssize_t n)
{
	return n >= 28 && p[7] == 2 && memcmp(p + 14, gw_ip, 4) == 0 && memcmp(p + 24, our_ip, 4) == 0;
}
static int is_request(const uint8_t *p, ssize_t n)
{
	return n >= 28 && p[7] == 1 && memcmp(p + 24, gw_ip, 4) == 0;
}

/* Waits for fd to be readable: 1, or 0 after WAIT_MS. */
static int readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return poll(&p, 1, WAIT_MS) == 1 && (p.revents & POLLIN);
}

static int bound_socket(int type, uint16_t protocol)
{
	int fd = socket(AF_PACKET, type, htons(protocol));
	struct sockaddr_ll me = ll(protocol, ifindex, NULL);
	if (fd >= 0 && bind(fd, (struct sockaddr *)&me, sizeof me) < 0)
		say("bind: %s\n", err_name(errno));
	return fd;
}

static void interface(void)
{
	int fd = socket(AF_PACKET, SOCK_DGRAM, 0);
	outcome("socket(AF_PACKET, SOCK_DGRAM, 0)", fd < 0 ? -1 : 0);
	struct ifreq ifr;
	memset(&ifr, 0, sizeof ifr);
	strcpy(ifr.ifr_name, "eth0");
	outcome("SIOCGIFINDEX eth0", ioctl(fd, SIOCGIFINDEX, &ifr));
	ifindex = ifr.ifr_ifindex;
	say("eth0's index is above lo's: %s\n", yes(ifindex > 1));
	outcome("SIOCGIFHWADDR eth0", ioctl(fd, SIOCGIFHWADDR, &ifr));
	say("hardware address family %u\n", ifr.ifr_hwaddr.sa_family);
	memcpy(our_mac, ifr.ifr_hwaddr.sa_data, 6);
	show_mac("eth0's MAC", our_mac);
	strcpy(ifr.ifr_name, "eth9");
	outcome("SIOCGIFINDEX eth9", ioctl(fd, SIOCGIFINDEX, &ifr));
	close(fd);
}

static void names(void)
{
	int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ARP_));
	struct sockaddr_ll a;
	socklen_t len = sizeof a;
	memset(&a, 0, sizeof a);
	outcome("getsockname, not bound", getsockname(fd, (struct sockaddr *)&a, &len));
	show_ll("  name", &a, len);
	struct sockaddr_ll me = ll(ETH_P_ARP_, ifindex, NULL);
	outcome("bind to eth0, ARP", bind(fd, (struct sockaddr *)&me, sizeof me));
	len = sizeof a;
	memset(&a, 0, sizeof a);
	outcome("getsockname, bound", getsockname(fd, (struct sockaddr *)&a, &len));
	show_ll("  name", &a, len);
	say("  its address is eth0's MAC: %s\n", yes(memcmp(a.sll_addr, our_mac, 6) == 0));
	close(fd);
}

/* An ARP request to broadcast over a datagram socket, the reply back. */
static void arp_dgram(void)
{
	int fd = bound_socket(SOCK_DGRAM, ETH_P_ARP_);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	say("poll before the request: %d\n", poll(&p, 1, 0));
	uint8_t req[28], in[1600];
	arp_request(req);
	struct sockaddr_ll to = ll(ETH_P_ARP_, ifindex, bcast);
	outcome_value("sendto broadcast, 28 bytes", sendto(fd, req, sizeof req, 0,
	                                                   (struct sockaddr *)&to, sizeof to));
	say("poll after it: readable %s\n", yes(readable(fd)));
	for (int i = 0; i < TRIES; i++) {
		struct sockaddr_ll from;
		socklen_t len = sizeof from;
		ssize_t n = recvfrom(fd, in, sizeof in, 0, (struct sockaddr *)&from, &len);
		if (n < 0) {
			say("recvfrom: %s\n", err_name(errno));
			break;
		}
		if (!is_reply(in, n))
			continue;
		say("reply: at least 28 bytes %s, operation %u\n", yes(n >= 28), in[7]);
		show_mac("  the gateway's MAC", in + 8);
		say("  to our MAC: %s\n", yes(memcmp(in + 18, our_mac, 6) == 0));
		show_ll("  from", &from, len);
		say("  from the gateway's MAC: %s\n", yes(memcmp(from.sll_addr, in + 8, 6) == 0));
		break;
	}
	close(fd);
}

/* The same over a raw socket: the whole frame, header included. */
static void arp_raw(void)
{
	int fd = bound_socket(SOCK_RAW, ETH_P_ARP_);
	uint8_t frame[42], in[1600];
	memcpy(frame, bcast, 6);
	memcpy(frame + 6, our_mac, 6);
	frame[12] = 0x08;
	frame[13] = 0x06;
	arp_request(frame + 14);
	outcome_value("write a raw request, 42 bytes", write(fd, frame, sizeof frame));
	for (int i = 0; i < TRIES && readable(fd); i++) {
		ssize_t n = read(fd, in, sizeof in);
		if (n < 14 || !is_reply(in + 14, n - 14))
			continue;
		say("raw reply: at least 42 bytes %s, to our MAC %s, type %02x%02x\n", yes(n >= 42),
		    yes(memcmp(in, our_mac, 6) == 0), in[12], in[13]);
		break;
	}
	close(fd);
}

/* A socket of every type sees our request go out and the reply come in. */
static void all_types(void)
{
	int all = bound_socket(SOCK_RAW, ETH_P_ALL_);
	int fd = bound_socket(SOCK_DGRAM, ETH_P_ARP_);
	uint8_t req[28], in[1600];
	arp_request(req);
	struct sockaddr_ll to = ll(ETH_P_ARP_, ifindex, bcast);
	struct iovec v[2] = { { req, 10 }, { req + 10, 18 } };
	struct msghdr m = { .msg_name = &to, .msg_namelen = sizeof to, .msg_iov = v, .msg_iovlen = 2 };
	outcome_value("sendmsg, two pieces", sendmsg(fd, &m, 0));
	int seen_out = 0, seen_in = 0;
	for (int i = 0; i < TRIES && !(seen_out && seen_in) && readable(all); i++) {
		struct sockaddr_ll from;
		struct iovec w = { in, sizeof in };
		struct msghdr r = { .msg_name = &from, .msg_namelen = sizeof from, .msg_iov = &w,
		                    .msg_iovlen = 1 };
		ssize_t n = recvmsg(all, &r, 0);
		if (n < 42 || in[12] != 0x08 || in[13] != 0x06)
			continue;
		if (!seen_out && is_request(in + 14, n - 14) && from.sll_pkttype == PACKET_OUTGOING) {
			seen_out = 1;
			say("ETH_P_ALL: our request, outgoing, to broadcast %s\n", yes(memcmp(in, bcast, 6) == 0));
			show_ll("  from", &from, r.msg_namelen);
		} else if (!seen_in && is_reply(in + 14, n - 14)) {
			seen_in = 1;
			say("ETH_P_ALL: the reply, seen after our request %s\n", yes(seen_out));
			show_ll("  from", &from, r.msg_namelen);
		}
	}
	say("ETH_P_ALL saw both: %s\n", yes(seen_out && seen_in));
	/* The datagram socket has the reply too, for recvmsg with a short room. */
	for (int i = 0; i < TRIES && readable(fd); i++) {
		uint8_t small[8];
		struct iovec w = { small, sizeof small };
		struct msghdr r = { .msg_iov = &w, .msg_iovlen = 1 };
		ssize_t n = recvmsg(fd, &r, 0);
		if (n == 8 && small[7] == 2) {
			say("recvmsg into 8 bytes: %zd, MSG_TRUNC %s\n", n, yes(r.msg_flags & MSG_TRUNC));
			break;
		}
	}
	close(fd);
	close(all);
}

static void errors(void)
{
	uint8_t buf[1600];
	memset(buf, 0, sizeof buf);
	outcome("socket(12345, SOCK_RAW)", socket(12345, SOCK_RAW, 0));
	outcome("socket(AF_PACKET, SOCK_STREAM)", socket(AF_PACKET, SOCK_STREAM, 0));
	int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ARP_));
	struct sockaddr_ll a = ll(ETH_P_ARP_, ifindex, bcast);
	outcome("bind with a short address", bind(fd, (struct sockaddr *)&a, 10));
	a.sll_family = AF_INET;
	outcome("bind with family AF_INET", bind(fd, (struct sockaddr *)&a, sizeof a));
	a = ll(ETH_P_ARP_, 99, NULL);
	outcome("bind to ifindex 99", bind(fd, (struct sockaddr *)&a, sizeof a));
	outcome("bind, bad pointer", syscall(SYS_bind, fd, BAD_PTR, sizeof a));
	outcome("send, not bound", send(fd, buf, 60, 0));
	outcome("write, not bound", write(fd, buf, 60));
	a = ll(ETH_P_ARP_, ifindex, bcast);
	outcome("sendto with a 5-byte address", sendto(fd, buf, 60, 0, (struct sockaddr *)&a, 5));
	a.sll_ifindex = 99;
	outcome("sendto ifindex 99", sendto(fd, buf, 60, 0, (struct sockaddr *)&a, sizeof a));
	a.sll_ifindex = ifindex;
	outcome("sendto, bad address pointer", syscall(SYS_sendto, fd, buf, 60, 0, BAD_PTR, sizeof a));
	outcome("sendto, bad buffer", syscall(SYS_sendto, fd, BAD_PTR, 60, 0, &a, sizeof a));
	outcome("sendto a raw frame of 1515 bytes", sendto(fd, buf, 1515, 0, (struct sockaddr *)&a, sizeof a));
	close(fd);
	fd = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_P_ARP_));
	outcome("sendto a datagram of 1501 bytes", sendto(fd, buf, 1501, 0, (struct sockaddr *)&a, sizeof a));
	struct sockaddr_ll me = ll(ETH_P_ARP_, ifindex, NULL);
	bind(fd, (struct sockaddr *)&me, sizeof me);
	outcome("write on a bound datagram socket (no destination)", write(fd, buf, 28));
	outcome("recvfrom MSG_DONTWAIT, nothing there", recv(fd, buf, sizeof buf, MSG_DONTWAIT));
	close(fd);
}

/* socket(AF_PACKET) needs CAP_NET_RAW: refused for uid 1000 and for an
 * effective uid 1000 alone. */
static void not_root(void)
{
	static const int ids[2][3] = { { 1000, 1000, 1000 }, { 0, 1000, 0 } };
	for (int i = 0; i < 2; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			if (setresuid(ids[i][0], ids[i][1], ids[i][2]) < 0)
				_exit(2);
			say("uids %d/%d/%d:\n", ids[i][0], ids[i][1], ids[i][2]);
			outcome("  socket(AF_PACKET, SOCK_RAW, ETH_P_ALL)", socket(AF_PACKET, SOCK_RAW,
			                                                          htons(ETH_P_ALL_)));
			outcome("  socket(AF_PACKET, SOCK_DGRAM, ETH_P_ARP)", socket(AF_PACKET, SOCK_DGRAM,
			                                                            htons(ETH_P_ARP_)));
			_exit(0);
		}
		int status = -1;
		waitpid(pid, &status, 0);
		say("child exited 0: %s\n", yes(WIFEXITED(status) && WEXITSTATUS(status) == 0));
	}
}

int main(void)
{
	interface();
	names();
	arp_dgram();
	arp_raw();
	all_types();
	errors();
	not_root();
	return 0;
}
