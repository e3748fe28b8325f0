/*
 * TCP and UDP sockets over the loopback (127.0.0.1), Linux's answers
 * printed for the comparison: bind, names, a second bind, listen, connect,
 * accept and accept4's flags, data both ways, shutdown's end of stream,
 * datagrams with their source, MSG_PEEK and MSG_TRUNC, connected datagram
 * sockets, non-blocking calls, poll, options, a listener closed with a
 * connection it never accepted (reset), SIGPIPE, and the errors of calls
 * on the wrong kind of socket or state. Ports are fixed (nothing else
 * runs); ephemeral ports are compared, never printed.
 */
#include "posix_test.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>

static struct sockaddr_in lo(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
	                         .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	return a;
}

static int port_of(int fd, int peer)
{
	struct sockaddr_in a;
	socklen_t len = sizeof a;
	int r = peer ? getpeername(fd, (struct sockaddr *)&a, &len)
	             : getsockname(fd, (struct sockaddr *)&a, &len);
	return r < 0 ? -1 : ntohs(a.sin_port);
}

static void show_poll(const char *what, int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };
	int r = poll(&p, 1, 2000);
	say("%s: %d ready, in %s out %s hup %s err %s\n", what, r, yes(p.revents & POLLIN),
	    yes(p.revents & POLLOUT), yes(p.revents & POLLHUP), yes(p.revents & POLLERR));
}

static void stream(void)
{
	int l = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = lo(7301);
	int one = 1;
	outcome("setsockopt SO_REUSEADDR", setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one));
	outcome("bind 127.0.0.1:7301", bind(l, (struct sockaddr *)&a, sizeof a));
	say("getsockname port: %d\n", port_of(l, 0));
	outcome("bind again", bind(l, (struct sockaddr *)&a, sizeof a));
	int l2 = socket(AF_INET, SOCK_STREAM, 0);
	outcome("bind a second socket to the port", bind(l2, (struct sockaddr *)&a, sizeof a));
	close(l2);
	outcome("listen", listen(l, 4));
	int v = -1;
	socklen_t vl = sizeof v;
	outcome("getsockopt SO_ACCEPTCONN", getsockopt(l, SOL_SOCKET, SO_ACCEPTCONN, &v, &vl));
	say("SO_ACCEPTCONN: %d\n", v);
	int c = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
	outcome("getpeername before connect", port_of(c, 1));
	outcome("connect", connect(c, (struct sockaddr *)&a, sizeof a));
	outcome("connect again", connect(c, (struct sockaddr *)&a, sizeof a));
	int s = accept4(l, NULL, NULL, SOCK_CLOEXEC);
	outcome("accept4", s);
	say("accepted: FD_CLOEXEC %s\n", yes(fcntl(s, F_GETFD) & FD_CLOEXEC));
	say("ports agree: %s\n", yes(port_of(s, 1) == port_of(c, 0) && port_of(c, 1) == 7301 &&
	                            port_of(s, 0) == 7301));
	outcome("setsockopt TCP_NODELAY", setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one));
	v = -1;
	outcome("getsockopt TCP_NODELAY", getsockopt(c, IPPROTO_TCP, TCP_NODELAY, &v, &vl));
	say("TCP_NODELAY: %d\n", v);
	outcome("getsockopt SO_TYPE", getsockopt(c, SOL_SOCKET, SO_TYPE, &v, &vl));
	say("SO_TYPE: %d\n", v);
	outcome("getsockopt SO_ERROR", getsockopt(c, SOL_SOCKET, SO_ERROR, &v, &vl));
	say("SO_ERROR: %d\n", v);
	show_poll("poll the accepted socket, nothing sent", s, POLLIN | POLLOUT);
	outcome_value("send 5", send(c, "hello", 5, 0));
	show_poll("poll the accepted socket, 5 bytes sent", s, POLLIN);
	char buf[64] = { 0 };
	outcome_value("recv MSG_PEEK", recv(s, buf, 3, MSG_PEEK));
	outcome_value("recv", recv(s, buf, sizeof buf, 0));
	say("received: %.5s\n", buf);
	outcome_value("recv MSG_DONTWAIT, nothing there", recv(s, buf, sizeof buf, MSG_DONTWAIT));
	outcome_value("write back 3", write(s, "abc", 3));
	outcome_value("read 3", read(c, buf, 3));
	outcome("shutdown SHUT_WR", shutdown(c, SHUT_WR));
	outcome_value("recv at the end of the stream", recv(s, buf, sizeof buf, 0));
	outcome("shutdown 7", shutdown(c, 7));
	close(c);
	close(s);
	/* A connection the listener never accepts, then the listener closes. */
	int d = socket(AF_INET, SOCK_STREAM, 0);
	outcome("connect, never accepted", connect(d, (struct sockaddr *)&a, sizeof a));
	close(l);
	outcome_value("recv after the listener closed", recv(d, buf, 1, 0));
	outcome_value("recv again", recv(d, buf, 1, 0));
	close(d);
	int n = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in nobody = lo(7399);
	outcome("connect to a port nobody listens on", connect(n, (struct sockaddr *)&nobody, sizeof nobody));
	close(n);
}

static void datagrams(void)
{
	int a = socket(AF_INET, SOCK_DGRAM, 0), b = socket(AF_INET, SOCK_DGRAM, IPPROTO_UDP);
	struct sockaddr_in pa = lo(7311), pb = lo(7312);
	outcome("udp bind a", bind(a, (struct sockaddr *)&pa, sizeof pa));
	outcome("udp bind b", bind(b, (struct sockaddr *)&pb, sizeof pb));
	outcome_value("sendto without an address", send(a, "x", 1, 0));
	outcome_value("sendto b", sendto(a, "datagram", 8, 0, (struct sockaddr *)&pb, sizeof pb));
	show_poll("poll b", b, POLLIN | POLLOUT);
	char buf[64] = { 0 };
	struct sockaddr_in from;
	socklen_t fl = sizeof from;
	outcome_value("recvfrom MSG_PEEK", recvfrom(b, buf, 4, MSG_PEEK, (struct sockaddr *)&from, &fl));
	fl = sizeof from;
	outcome_value("recvfrom", recvfrom(b, buf, sizeof buf, 0, (struct sockaddr *)&from, &fl));
	say("from port %d, address %s, length %u\n", ntohs(from.sin_port),
	    from.sin_addr.s_addr == htonl(INADDR_LOOPBACK) ? "127.0.0.1" : "other", (unsigned)fl);
	outcome_value("sendto b again", sendto(a, "0123456789", 10, 0, (struct sockaddr *)&pb, sizeof pb));
	struct iovec iov = { buf, 4 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	outcome_value("recvmsg into 4 bytes", recvmsg(b, &m, 0));
	say("MSG_TRUNC: %s\n", yes(m.msg_flags & MSG_TRUNC));
	outcome("connect a to b", connect(a, (struct sockaddr *)&pb, sizeof pb));
	say("a's peer port: %d\n", port_of(a, 1));
	outcome_value("send on the connected socket", send(a, "abc", 3, 0));
	outcome_value("read it", read(b, buf, sizeof buf));
	outcome_value("recv MSG_DONTWAIT, nothing there", recv(b, buf, sizeof buf, MSG_DONTWAIT));
	outcome("listen on a datagram socket", listen(a, 1));
	outcome("TCP_NODELAY on a datagram socket", setsockopt(a, IPPROTO_TCP, TCP_NODELAY, &(int){ 1 }, sizeof(int)));
	close(a);
	close(b);
}

static void errors(void)
{
	outcome("socket SOCK_STREAM with IPPROTO_UDP", socket(AF_INET, SOCK_STREAM, IPPROTO_UDP));
	outcome("socket SOCK_DGRAM with IPPROTO_TCP", socket(AF_INET, SOCK_DGRAM, IPPROTO_TCP));
	int t = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = lo(7321);
	outcome("bind with a short length", bind(t, (struct sockaddr *)&a, 8));
	struct sockaddr_in far = { .sin_family = AF_INET, .sin_port = htons(7321) };
	inet_pton(AF_INET, "192.0.2.1", &far.sin_addr);
	outcome("bind to an address not ours", bind(t, (struct sockaddr *)&far, sizeof far));
	outcome("accept on a socket not listening", accept(t, NULL, NULL));
	outcome("accept4 with bad flags", accept4(t, NULL, NULL, 0x1234));
	char b;
	outcome("read on an unconnected stream", read(t, &b, 1));
	signal(SIGPIPE, SIG_IGN);
	outcome("write on an unconnected stream", write(t, "x", 1));
	signal(SIGPIPE, SIG_DFL);
	outcome("shutdown an unconnected stream", shutdown(t, SHUT_RD));
	outcome("setsockopt an unknown option", setsockopt(t, SOL_SOCKET, 12345, &(int){ 1 }, sizeof(int)));
	outcome("setsockopt with a short length", setsockopt(t, SOL_SOCKET, SO_REUSEADDR, &(int){ 1 }, 2));
	int p[2];
	if (pipe(p) == 0) {
		outcome("listen on a pipe", listen(p[0], 1));
		outcome("getsockname of a pipe", port_of(p[0], 0));
		close(p[0]);
		close(p[1]);
	}
	outcome("listen on a closed descriptor", listen(999, 1));
	close(t);
}

/* The writer on a connection whose other end is gone is killed by SIGPIPE. */
static void sigpipe(void)
{
	int l = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = lo(7331);
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &(int){ 1 }, sizeof(int));
	if (bind(l, (struct sockaddr *)&a, sizeof a) || listen(l, 1))
		return;
	int c = socket(AF_INET, SOCK_STREAM, 0);
	connect(c, (struct sockaddr *)&a, sizeof a);
	int s = accept(l, NULL, NULL);
	close(s);
	close(l);
	pid_t pid = fork();
	if (pid == 0) {
		for (int i = 0; i < 100; i++) {
			if (write(c, "zz", 2) < 0)
				_exit(2);
			usleep(10000);
		}
		_exit(3);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	say("writer: %s\n", WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE ? "killed by SIGPIPE"
	                    : "not killed by SIGPIPE");
	errno = 0;
	long r = send(c, "z", 1, MSG_NOSIGNAL);
	say("send MSG_NOSIGNAL: %s\n", r < 0 && (errno == EPIPE || errno == ECONNRESET) ? "EPIPE or ECONNRESET" : "sent");
	close(c);
}

int main(void)
{
	stream();
	datagrams();
	errors();
	sigpipe();
	return 0;
}
