/*
 * Socket options, MSG_WAITALL and raw ICMP sockets over the loopback,
 * Linux's answers printed for the comparison: SO_RCVTIMEO and SO_SNDTIMEO
 * (a timed-out call: EAGAIN, or what it had), SO_LINGER with no time (a
 * reset on close), MSG_WAITALL (with the end and with a timeout), IP_TTL,
 * IP_TOS, TCP_KEEPIDLE/INTVL/CNT, TCP_MAXSEG before a connection, SO_PROTOCOL, SO_DOMAIN, SO_REUSEPORT;
 * a raw ICMP socket pinging 127.0.0.1 (root), ping sockets (Linux's
 * default ping_group_range allows nobody: EACCES), a raw socket refused to
 * a user; and the bad values of each. Ports are fixed (nothing else runs).
 */
#include "posix_test.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip_icmp.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>

static struct sockaddr_in lo(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
	                         .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	return a;
}

/* A connected pair over the loopback on port: *c the client, *s the
 * accepted end. 0 or -1. */
static int pair(int port, int *c, int *s)
{
	int l = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = lo(port);
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &(int){ 1 }, sizeof(int));
	if (bind(l, (struct sockaddr *)&a, sizeof a) || listen(l, 1))
		return -1;
	*c = socket(AF_INET, SOCK_STREAM, 0);
	if (connect(*c, (struct sockaddr *)&a, sizeof a))
		return -1;
	*s = accept(l, NULL, NULL);
	close(l);
	return *s < 0 ? -1 : 0;
}

static void show_int(const char *what, int fd, int level, int name)
{
	int v = -1;
	socklen_t len = sizeof v;
	if (getsockopt(fd, level, name, &v, &len) < 0)
		say("%s: error %s\n", what, err_name(errno));
	else
		say("%s: %d (length %u)\n", what, v, (unsigned)len);
}

static void show_timeo(const char *what, int fd, int name)
{
	struct timeval tv = { -1, -1 };
	socklen_t len = sizeof tv;
	if (getsockopt(fd, SOL_SOCKET, name, &tv, &len) < 0)
		say("%s: error %s\n", what, err_name(errno));
	else
		say("%s: %ld s %ld us (length %u)\n", what, (long)tv.tv_sec, (long)tv.tv_usec, (unsigned)len);
}

static void show_linger(const char *what, int fd)
{
	struct linger l = { -1, -1 };
	socklen_t len = sizeof l;
	if (getsockopt(fd, SOL_SOCKET, SO_LINGER, &l, &len) < 0)
		say("%s: error %s\n", what, err_name(errno));
	else
		say("%s: onoff %d linger %d\n", what, l.l_onoff, l.l_linger);
}

static void timeouts(void)
{
	int c, s;
	if (pair(7401, &c, &s)) {
		say("timeouts: no connection\n");
		return;
	}
	show_timeo("SO_RCVTIMEO at first", s, SO_RCVTIMEO);
	struct timeval tv = { 0, 200000 };
	outcome("set SO_RCVTIMEO 0.2 s", setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv));
	show_timeo("SO_RCVTIMEO", s, SO_RCVTIMEO);
	char buf[256];
	outcome_value("recv, nothing comes", recv(s, buf, sizeof buf, 0));
	outcome_value("read, nothing comes", read(s, buf, sizeof buf));
	outcome_value("send 5", send(c, "hello", 5, 0));
	outcome_value("recv with the timeout, bytes there", recv(s, buf, sizeof buf, 0));
	tv = (struct timeval){ 1, 500000 };
	outcome("set SO_SNDTIMEO 1.5 s", setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv));
	show_timeo("SO_SNDTIMEO", c, SO_SNDTIMEO);
	/* Nobody reads: a big send takes what fits and returns it when its
	 * time is up; the next finds no room and fails. */
	tv = (struct timeval){ 0, 300000 };
	setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	size_t n = 8u << 20;
	char *big = calloc(1, n);
	long r = big ? send(c, big, n, 0) : -1;
	say("send 8 MiB, nobody reads: %s\n", r > 0 && (size_t)r < n ? "part of it" : r < 0 ? err_name(errno) : "all");
	r = big ? send(c, big, n, 0) : -1;
	say("send again: %s\n", r < 0 ? err_name(errno) : "sent");
	free(big);
	/* The bad values. */
	struct timeval bad = { 1, 1000000 };
	outcome("SO_RCVTIMEO with 1000000 us", setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &bad, sizeof bad));
	outcome("SO_RCVTIMEO with a short length", setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, 8));
	outcome("SO_RCVTIMEO from a bad pointer", setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, (void *)1, sizeof tv));
	struct timeval small = { -1, -1 };
	socklen_t len = 8;
	outcome("get SO_RCVTIMEO into 8 bytes", getsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &small, &len));
	say("8 bytes: %ld s, length %u\n", (long)small.tv_sec, (unsigned)len);
	tv = (struct timeval){ 0, 0 };
	outcome("set SO_RCVTIMEO 0 (none)", setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv));
	show_timeo("SO_RCVTIMEO", s, SO_RCVTIMEO);
	close(c);
	close(s);
	/* accept's time is the listener's SO_RCVTIMEO. */
	int l = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = lo(7402);
	bind(l, (struct sockaddr *)&a, sizeof a);
	listen(l, 1);
	tv = (struct timeval){ 0, 200000 };
	setsockopt(l, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	outcome("accept, nobody connects", accept(l, NULL, NULL));
	close(l);
}

static void waitall(void)
{
	int c, s;
	if (pair(7403, &c, &s)) {
		say("waitall: no connection\n");
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		char piece[1000];
		memset(piece, 'w', sizeof piece);
		for (int i = 0; i < 3; i++) {
			if (send(c, piece, sizeof piece, 0) != (long)sizeof piece)
				_exit(1);
			usleep(50000);
		}
		usleep(100000);
		send(c, piece, 100, 0);
		_exit(0);
	}
	static char buf[4000];
	outcome_value("recv 3000 MSG_WAITALL, sent in 3 pieces", recv(s, buf, 3000, MSG_WAITALL));
	struct timeval tv = { 0, 300000 };
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	int status;
	waitpid(pid, &status, 0);
	outcome_value("recv 200 MSG_WAITALL, 100 there, timed out", recv(s, buf, 200, MSG_WAITALL));
	outcome_value("send 50 then close", send(c, buf, 50, 0));
	close(c);
	outcome_value("recv 200 MSG_WAITALL, 50 then the end", recv(s, buf, 200, MSG_WAITALL));
	close(s);
}

static void linger(void)
{
	int c, s;
	if (pair(7404, &c, &s)) {
		say("linger: no connection\n");
		return;
	}
	show_linger("SO_LINGER at first", c);
	struct linger on = { 1, 0 };
	outcome("SO_LINGER with a short length", setsockopt(c, SOL_SOCKET, SO_LINGER, &on, 4));
	outcome("set SO_LINGER on, 0 s", setsockopt(c, SOL_SOCKET, SO_LINGER, &on, sizeof on));
	show_linger("SO_LINGER", c);
	struct linger off = { 0, 7 };
	outcome("set SO_LINGER off, 7 s", setsockopt(c, SOL_SOCKET, SO_LINGER, &off, sizeof off));
	show_linger("SO_LINGER", c);
	outcome("set SO_LINGER on, 0 s again", setsockopt(c, SOL_SOCKET, SO_LINGER, &on, sizeof on));
	close(c);   /* a reset */
	char b;
	struct timeval tv = { 2, 0 };
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	outcome_value("recv after the peer's close with linger 0", recv(s, &b, 1, 0));
	outcome_value("recv again", recv(s, &b, 1, 0));
	close(s);
}

static void ip_and_tcp(void)
{
	int t = socket(AF_INET, SOCK_STREAM, 0), u = socket(AF_INET, SOCK_DGRAM, 0);
	show_int("IP_TTL", t, IPPROTO_IP, IP_TTL);
	outcome("IP_TTL 10", setsockopt(t, IPPROTO_IP, IP_TTL, &(int){ 10 }, sizeof(int)));
	show_int("IP_TTL", t, IPPROTO_IP, IP_TTL);
	outcome("IP_TTL 0", setsockopt(t, IPPROTO_IP, IP_TTL, &(int){ 0 }, sizeof(int)));
	outcome("IP_TTL 256", setsockopt(t, IPPROTO_IP, IP_TTL, &(int){ 256 }, sizeof(int)));
	outcome("IP_TTL -1 (the default)", setsockopt(t, IPPROTO_IP, IP_TTL, &(int){ -1 }, sizeof(int)));
	show_int("IP_TTL", t, IPPROTO_IP, IP_TTL);
	outcome("IP_TTL 32 on udp", setsockopt(u, IPPROTO_IP, IP_TTL, &(int){ 32 }, sizeof(int)));
	show_int("IP_TTL on udp", u, IPPROTO_IP, IP_TTL);
	show_int("TCP_MAXSEG before connect", t, IPPROTO_TCP, TCP_MAXSEG);
	outcome("TCP_MAXSEG 1000", setsockopt(t, IPPROTO_TCP, TCP_MAXSEG, &(int){ 1000 }, sizeof(int)));
	show_int("TCP_MAXSEG", t, IPPROTO_TCP, TCP_MAXSEG);
	outcome("TCP_MAXSEG 50", setsockopt(t, IPPROTO_TCP, TCP_MAXSEG, &(int){ 50 }, sizeof(int)));
	show_int("TCP_MAXSEG on udp", u, IPPROTO_TCP, TCP_MAXSEG);
	show_int("TCP_NODELAY on udp", u, IPPROTO_TCP, TCP_NODELAY);
	outcome("set TCP_MAXSEG on udp", setsockopt(u, IPPROTO_TCP, TCP_MAXSEG, &(int){ 1000 }, sizeof(int)));
	show_int("IP_TOS", t, IPPROTO_IP, IP_TOS);
	outcome("IP_TOS 0x13 on tcp", setsockopt(t, IPPROTO_IP, IP_TOS, &(int){ 0x13 }, sizeof(int)));
	show_int("IP_TOS on tcp", t, IPPROTO_IP, IP_TOS);
	outcome("IP_TOS 0x13 on udp", setsockopt(u, IPPROTO_IP, IP_TOS, &(int){ 0x13 }, sizeof(int)));
	show_int("IP_TOS on udp", u, IPPROTO_IP, IP_TOS);
	show_int("TCP_KEEPIDLE", t, IPPROTO_TCP, TCP_KEEPIDLE);
	show_int("TCP_KEEPINTVL", t, IPPROTO_TCP, TCP_KEEPINTVL);
	show_int("TCP_KEEPCNT", t, IPPROTO_TCP, TCP_KEEPCNT);
	outcome("TCP_KEEPIDLE 60", setsockopt(t, IPPROTO_TCP, TCP_KEEPIDLE, &(int){ 60 }, sizeof(int)));
	outcome("TCP_KEEPINTVL 10", setsockopt(t, IPPROTO_TCP, TCP_KEEPINTVL, &(int){ 10 }, sizeof(int)));
	outcome("TCP_KEEPCNT 3", setsockopt(t, IPPROTO_TCP, TCP_KEEPCNT, &(int){ 3 }, sizeof(int)));
	show_int("TCP_KEEPIDLE", t, IPPROTO_TCP, TCP_KEEPIDLE);
	show_int("TCP_KEEPINTVL", t, IPPROTO_TCP, TCP_KEEPINTVL);
	show_int("TCP_KEEPCNT", t, IPPROTO_TCP, TCP_KEEPCNT);
	outcome("TCP_KEEPIDLE 0", setsockopt(t, IPPROTO_TCP, TCP_KEEPIDLE, &(int){ 0 }, sizeof(int)));
	outcome("TCP_KEEPIDLE 32768", setsockopt(t, IPPROTO_TCP, TCP_KEEPIDLE, &(int){ 32768 }, sizeof(int)));
	outcome("TCP_KEEPCNT 128", setsockopt(t, IPPROTO_TCP, TCP_KEEPCNT, &(int){ 128 }, sizeof(int)));
	outcome("TCP_KEEPCNT on udp", setsockopt(u, IPPROTO_TCP, TCP_KEEPCNT, &(int){ 3 }, sizeof(int)));
	show_int("SO_PROTOCOL tcp", t, SOL_SOCKET, SO_PROTOCOL);
	show_int("SO_PROTOCOL udp", u, SOL_SOCKET, SO_PROTOCOL);
	show_int("SO_DOMAIN", t, SOL_SOCKET, SO_DOMAIN);
	outcome("set SO_PROTOCOL", setsockopt(t, SOL_SOCKET, SO_PROTOCOL, &(int){ 1 }, sizeof(int)));
	show_int("SO_REUSEPORT", t, SOL_SOCKET, SO_REUSEPORT);
	outcome("SO_REUSEPORT 1", setsockopt(t, SOL_SOCKET, SO_REUSEPORT, &(int){ 1 }, sizeof(int)));
	show_int("SO_REUSEPORT", t, SOL_SOCKET, SO_REUSEPORT);
	show_int("SO_BROADCAST on udp", u, SOL_SOCKET, SO_BROADCAST);
	outcome("SO_BROADCAST 1 on udp", setsockopt(u, SOL_SOCKET, SO_BROADCAST, &(int){ 1 }, sizeof(int)));
	show_int("SO_BROADCAST on udp", u, SOL_SOCKET, SO_BROADCAST);
	/* A connected socket's MSS differs by the loopback's MTU: only > 0. */
	int c, s;
	if (pair(7405, &c, &s) == 0) {
		int v = 0;
		socklen_t len = sizeof v;
		getsockopt(c, IPPROTO_TCP, TCP_MAXSEG, &v, &len);
		say("TCP_MAXSEG connected: positive %s\n", yes(v > 0));
		close(c);
		close(s);
	}
	close(t);
	close(u);
}

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

static void raw_icmp(void)
{
	outcome("raw socket, protocol 0", socket(AF_INET, SOCK_RAW, 0));
	outcome("ping socket (SOCK_DGRAM, IPPROTO_ICMP)", socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP));
	int r = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	outcome("raw ICMP socket", r);
	if (r < 0)
		return;
	show_int("SO_TYPE raw", r, SOL_SOCKET, SO_TYPE);
	show_int("SO_PROTOCOL raw", r, SOL_SOCKET, SO_PROTOCOL);
	uint8_t req[64] = { 0 };
	struct icmphdr *h = (struct icmphdr *)req;
	h->type = ICMP_ECHO;
	h->un.echo.id = htons(0x4d59);
	h->un.echo.sequence = htons(1);
	for (size_t i = sizeof *h; i < sizeof req; i++)
		req[i] = (uint8_t)i;
	h->checksum = checksum(req, sizeof req);
	outcome_value("send without an address", send(r, req, sizeof req, 0));
	struct sockaddr_in to = lo(0);
	outcome_value("sendto 127.0.0.1 an echo request", sendto(r, req, sizeof req, 0,
	                                                         (struct sockaddr *)&to, sizeof to));
	struct timeval tv = { 2, 0 };
	setsockopt(r, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	/* Every ICMP packet comes: our own request (the loopback's), then the
	 * reply. */
	int replies = 0;
	for (int i = 0; i < 4 && !replies; i++) {
		uint8_t in[256];
		struct sockaddr_in from;
		socklen_t fl = sizeof from;
		long n = recvfrom(r, in, sizeof in, 0, (struct sockaddr *)&from, &fl);
		if (n < 0) {
			say("recvfrom: error %s\n", err_name(errno));
			break;
		}
		const struct iphdr *ip = (const struct iphdr *)in;
		size_t hl = (size_t)ip->ihl * 4;
		const struct icmphdr *e = (const struct icmphdr *)(in + hl);
		if ((size_t)n < hl + sizeof req || e->type != ICMP_ECHOREPLY)
			continue;
		replies++;
		say("reply: length %ld, header %zu, protocol %d, from %s, id %s, seq %d, data %s, ttl %d\n",
		    n, hl, ip->protocol, from.sin_addr.s_addr == htonl(INADDR_LOOPBACK) ? "127.0.0.1" : "other",
		    yes(e->un.echo.id == htons(0x4d59)), ntohs(e->un.echo.sequence),
		    memcmp(in + hl + sizeof *h, req + sizeof *h, sizeof req - sizeof *h) == 0 ? "same" : "differs",
		    ip->ttl);
	}
	static uint8_t huge[70000];
	outcome_value("sendto 70000 bytes", sendto(r, huge, sizeof huge, 0, (struct sockaddr *)&to, sizeof to));
	outcome_value("sendto from a bad pointer", sendto(r, (void *)1, 64, 0, (struct sockaddr *)&to, sizeof to));
	close(r);
	/* A user may not. */
	pid_t pid = fork();
	if (pid == 0) {
		if (setuid(1000) < 0)
			_exit(2);
		int u = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
		_exit(u < 0 && errno == EPERM ? 0 : 1);
	}
	int status = -1;
	waitpid(pid, &status, 0);
	say("raw socket as a user: %s\n", WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "EPERM" : "other");
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	timeouts();
	waitall();
	linger();
	ip_and_tcp();
	raw_icmp();
	return 0;
}
