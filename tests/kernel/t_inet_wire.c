/*
 * t_inet_wire: bad input from the wire to the TCP/IP server (issue 17). The
 * server runs on the NIC joined to the host peer (tools/net_peer.py over a
 * socket netdev on 127.0.0.1; testinit flag WIRE: 10.0.3.15/24), which
 * plays 10.0.3.1. Through a packet socket (the peer's control EtherType)
 * the test asks it for `ipfuzz`: ROUNDS rounds of malformed IPv4, TCP, UDP,
 * ICMP and fragments and a SYN flood on FLOOD_PORT (tools/net_ipfuzz.py),
 * each followed by a ping, a SYN to LIVE_PORT and a UDP datagram to
 * UDP_PORT that must be answered; a forked child echoes the datagrams. The
 * TCP/IP server must be the same process at the end (no crash, no restart).
 */
#define TEST_NAME "t_inet_wire"
#include "test_check.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netpacket/packet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <myrmex/inet.h>

#define ETH_CONTROL 0x88b6
#define GUEST_IP "10.0.3.15"
#define FLOOD_PORT 10
#define LIVE_PORT 11
#define UDP_PORT 9
#define ROUNDS 3
#define MALFORMED 600
#define FLOOD 300
#define GUARD_S 100   /* under the test init's 120 s, so a hang reports itself */

static const uint8_t peer_mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };

static void guard(int sig)
{
	(void)sig;
	test_fail("no answer within %d s", GUARD_S);
	_exit(test_exit_code() ? test_exit_code() : 1);
}

#define HELLO "ipfuzz-hello"

/* The child: echoes the peer's ROUNDS hello datagrams on UDP_PORT to their
 * sender; other datagrams (a malformed one lwIP found well-formed enough)
 * are passed over. */
static _Noreturn void udp_echo(int fd)
{
	for (int i = 0; i < ROUNDS;) {
		char buf[256];
		struct sockaddr_in from;
		socklen_t len = sizeof from;
		ssize_t n = recvfrom(fd, buf, sizeof buf, 0, (void *)&from, &len);
		if (n <= 0)
			_exit(2);
		if ((size_t)n < sizeof HELLO - 1 || memcmp(buf, HELLO, sizeof HELLO - 1))
			continue;
		if (sendto(fd, buf, (size_t)n, 0, (void *)&from, len) != n)
			_exit(3);
		i++;
	}
	_exit(0);
}

static int listener(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	CHECK(fd >= 0 && bind(fd, (void *)&a, sizeof a) == 0 && listen(fd, 4) == 0,
	      "listener on %d: %d", port, -errno);
	return fd;
}

/* One `ipfuzz` round: the peer's answer line into answer. */
static int ask_peer(int ctl, int round, char *answer, size_t size)
{
	char cmd[128];
	int n = snprintf(cmd, sizeof cmd, "ipfuzz %d %d %d %s %d %d %d", round + 1, MALFORMED,
	                 FLOOD, GUEST_IP, FLOOD_PORT, LIVE_PORT, UDP_PORT);
	char frame[128] = { 0 };
	memcpy(frame, cmd, (size_t)n);
	struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_CONTROL),
	                          .sll_ifindex = (int)if_nametoindex("eth0"), .sll_halen = 6 };
	memcpy(to.sll_addr, peer_mac, 6);
	if (sendto(ctl, frame, 64, 0, (void *)&to, sizeof to) != 64) {
		test_fail("sendto the peer: %d", -errno);
		return -1;
	}
	for (;;) {
		ssize_t r = recv(ctl, answer, size - 1, 0);
		if (r < 0) {
			test_fail("recv from the peer: %d", -errno);
			return -1;
		}
		answer[r] = 0;
		if (strncmp(answer, "ok ipfuzz", 9) == 0 || strncmp(answer, "bad", 3) == 0)
			return 0;
	}
}

int main(void)
{
	test_console_for_messages();
	signal(SIGALRM, guard);
	alarm(GUARD_S);
	long server = myrmex_server_pid(MYRMEX_COREID_INET);
	CHECK(server > 0, "the TCP/IP server runs: %ld", server);
	int udp = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in me = { .sin_family = AF_INET, .sin_port = htons(UDP_PORT) };
	CHECK(udp >= 0 && bind(udp, (void *)&me, sizeof me) == 0, "udp bind: %d", -errno);
	pid_t child = fork();
	if (child == 0)
		udp_echo(udp);
	int flooded = listener(FLOOD_PORT), live = listener(LIVE_PORT);
	int ctl = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_CONTROL));
	CHECK(ctl >= 0, "packet socket: %d", -errno);
	for (int round = 0; round < ROUNDS && ctl >= 0; round++) {
		char answer[128];
		if (ask_peer(ctl, round, answer, sizeof answer))
			break;
		test_note("round %d: %s", round + 1, answer);
		CHECK(strstr(answer, " live") != NULL, "round %d: %s", round + 1, answer);
	}
	int status = -1;
	waitpid(child, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the UDP echo child: %#x", status);
	CHECK(myrmex_server_pid(MYRMEX_COREID_INET) == server,
	      "the TCP/IP server is the one that started (%ld, now %ld)", server,
	      myrmex_server_pid(MYRMEX_COREID_INET));
	close(flooded);
	close(live);
	close(udp);
	if (ctl >= 0)
		close(ctl);
	return test_exit_code();
}
