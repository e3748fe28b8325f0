/*
 * t_inet_zc: paper 002's send path (docs/net.md, "The send path without a
 * copy"): a program with the right to call the TCP/IP server makes its own
 * connection to the host peer's echo (tools/inet_peer.py on QEMU's user
 * network) and sends with INET_ZEROCOPY from data ICAs:
 *   - 200 sends of 1..1460 bytes (more than the server's spare ICAs, so
 *     kept ICAs must come back as the peer acknowledges), each answered
 *     with another one-page ICA, and the bytes echoed back equal;
 *   - the frames left from the kept ICAs (INET_STATS_MORE), no frame copy
 *     for a payload of 6 bytes or more;
 *   - the bad inputs: offsets inside the headroom or past the page, length
 *     0 or above the MSS, no data ICA, two pages, a datagram socket, a
 *     socket never connected, a handle that is no socket, our socket used
 *     by another process with the same right (-EBADF); the ICA of a
 *     refused call stays ours and usable;
 *   - a spare ICA that another program's bytes were sent from comes here
 *     wiped; a native program's sockets are closed when it ends.
 * The network works after each.
 */
#define TEST_NAME "t_inet_zc"
#include "test_check.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <myrmex/inet.h>

#define PEER "10.0.2.100"
#define PAGE 4096u
#define MSS 1460u
#define SENDS 200
#define SECRET 0x5a

static struct myrmex_ctl_header *ctl;

/* One call to the TCP/IP server with data ICA `data` (0: none); *back the
 * data ICA its answer carries (may be NULL); out the result words. */
static long call(uint32_t op, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint32_t data,
                 uint32_t *back, uint64_t out[8])
{
	const uint64_t args[4] = { a0, a1, a2, a3 };
	return myrmex_call(ctl, MYRMEX_COREID_INET, op, args, data, out, back);
}

static uint32_t new_ica(unsigned pages)
{
	long h = myrmex_ica_alloc(pages);
	CHECK(h > 0, "ica_alloc(%u): %ld", pages, h);
	return h > 0 ? (uint32_t)h : 0;
}

static struct inet_stats_more zc_stats(void)
{
	uint64_t out[8] = { 0 };
	long r = call(INET_STATS, INET_STATS_MORE, 0, 0, 0, 0, NULL, out);
	CHECK_EQ(r, 0);
	struct inet_stats_more m;
	memcpy(&m, out, sizeof m);
	return m;
}

static uint64_t open_sockets(void)
{
	uint64_t out[8] = { 0 };
	CHECK_EQ(call(INET_STATS, 0, 0, 0, 0, 0, NULL, out), 0);
	return ((const struct inet_stats *)(const void *)out)->sockets;
}

/* A connection of ours to the peer's `command` (a line): its handle. */
static long connect_peer(const char *command, uint32_t scratch)
{
	long h = call(INET_SOCKET, INET_STREAM, 0, 0, 0, 0, NULL, NULL);
	CHECK(h > 0, "INET_SOCKET: %ld", h);
	if (h <= 0)
		return h;
	CHECK_EQ(call(INET_CONNECT, (uint64_t)h, inet_addr(PEER), 7, 0, 0, NULL, NULL), 0);
	CHECK_EQ(call(INET_SETOPT, (uint64_t)h, INET_OPT_NODELAY, 1, 0, 0, NULL, NULL), 0);
	size_t n = strlen(command);
	memcpy(myrmex_ica_addr(scratch), command, n);
	uint32_t back = 0;
	CHECK_EQ(call(INET_SEND, (uint64_t)h, 0, n, 0, scratch, &back, NULL), (long)n);
	CHECK(back == scratch, "a plain send gives its ICA back");
	return h;
}

/* Reads exactly n echoed bytes into to (through the one-page ICA rx). */
static int recv_exact(long h, uint32_t rx, uint8_t *to, size_t n)
{
	size_t got = 0;
	while (got < n) {
		size_t want = n - got < PAGE ? n - got : PAGE;
		long r = call(INET_RECV, (uint64_t)h, want, 0, 0, rx, NULL, NULL);
		if (r <= 0) {
			CHECK(0, "INET_RECV after %zu of %zu bytes: %ld", got, n, r);
			return -1;
		}
		memcpy(to + got, myrmex_ica_addr(rx), (size_t)r);
		got += (size_t)r;
	}
	return 0;
}

static uint8_t want[MSS], echoed[MSS];

/* SENDS zero-copy sends of varied lengths, each echoed back intact. */
static void echo_sends(long h, uint32_t *ica, uint32_t rx)
{
	struct inet_stats_more before = zc_stats();
	unsigned bad = 0, copies_expected = 0;
	for (int i = 0; i < SENDS; i++) {
		unsigned len = 1 + (unsigned)(i * 397) % MSS;
		if (len < 6)
			copies_expected++;   /* a frame under 60 bytes goes padded, by copy */
		for (unsigned k = 0; k < len; k++)
			want[k] = (uint8_t)(k * 13 + i);
		memcpy((uint8_t *)myrmex_ica_addr(*ica) + INET_ZC_HEADROOM, want, len);
		uint32_t back = 0;
		long r = call(INET_SEND, (uint64_t)h, INET_ZC_HEADROOM, len, INET_ZEROCOPY, *ica, &back,
		              NULL);
		if (r != (long)len || back == 0 || back == *ica) {
			CHECK(0, "zero-copy send %d of %u bytes: %ld, ICA %u back for %u", i, len, r, back,
			      *ica);
			return;
		}
		*ica = back;   /* the server kept ours; this one is ours now */
		if (recv_exact(h, rx, echoed, len))
			return;
		bad += memcmp(want, echoed, len) != 0;
	}
	CHECK(bad == 0, "%u of %d echoes differ", bad, SENDS);
	struct inet_stats_more after = zc_stats();
	CHECK(after.sends - before.sends == SENDS, "INET_STATS_MORE sends: %llu",
	      (unsigned long long)(after.sends - before.sends));
	CHECK(after.frames - before.frames >= SENDS - copies_expected,
	      "frames from kept ICAs: %llu of %d", (unsigned long long)(after.frames - before.frames),
	      SENDS);
	CHECK(after.released > before.released, "kept ICAs came back to the pool");
}

static void bad_inputs(long h, uint32_t *ica)
{
	uint32_t two = new_ica(2);
	long udp = call(INET_SOCKET, INET_DGRAM, 0, 0, 0, 0, NULL, NULL);
	long idle = call(INET_SOCKET, INET_STREAM, 0, 0, 0, 0, NULL, NULL);
	CHECK(udp > 0 && idle > 0, "sockets: %ld %ld", udp, idle);
	uint64_t zc = INET_ZEROCOPY, hr = INET_ZC_HEADROOM;
	uint32_t back = 0;
	CHECK_EQ(call(INET_SEND, h, hr - 1, 100, zc, *ica, &back, NULL), -EINVAL);
	CHECK(back == *ica, "a refused send gives the ICA back");
	CHECK_EQ(call(INET_SEND, h, 0, 100, zc, *ica, NULL, NULL), -EINVAL);
	CHECK_EQ(call(INET_SEND, h, PAGE - 10, 100, zc, *ica, NULL, NULL), -EINVAL);
	CHECK_EQ(call(INET_SEND, h, PAGE + hr, 1, zc, *ica, NULL, NULL), -EINVAL);
	CHECK_EQ(call(INET_SEND, h, hr, 0, zc, *ica, NULL, NULL), -EINVAL);
	CHECK_EQ(call(INET_SEND, h, hr, ~0ull, zc, *ica, NULL, NULL), -EINVAL);
	CHECK_EQ(call(INET_SEND, h, hr, MSS + 1, zc, *ica, NULL, NULL), -EMSGSIZE);
	CHECK_EQ(call(INET_SEND, h, hr, 100, zc, 0, NULL, NULL), -EINVAL);
	CHECK_EQ(call(INET_SEND, h, hr, 100, zc, two, NULL, NULL), -EINVAL);
	CHECK_EQ(call(INET_SEND, udp, hr, 100, zc, *ica, NULL, NULL), -EOPNOTSUPP);
	CHECK_EQ(call(INET_SEND, idle, hr, 100, zc, *ica, NULL, NULL), -EPIPE);
	CHECK_EQ(call(INET_SEND, 0, hr, 100, zc, *ica, NULL, NULL), -EBADF);
	CHECK_EQ(call(INET_SEND, ~0ull, hr, 100, zc, *ica, NULL, NULL), -EBADF);
	/* A socket of ours named by another process with the same right (a
	 * forked child): not its socket. */
	pid_t child = fork();
	if (child == 0) {
		ctl = myrmex_ica_addr(new_ica(1));
		uint32_t own = new_ica(1);
		long a = call(INET_SEND, (uint64_t)h, hr, 100, zc, own, NULL, NULL);
		long b = call(INET_CLOSE, (uint64_t)h, 0, 0, 0, 0, NULL, NULL);
		_exit(a == -EBADF && b == -EBADF ? 0 : 1);
	}
	int status = -1;
	waitpid(child, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "another process used our socket: status %#x", status);
	/* The ICA of all those refused calls is still ours. */
	memset(myrmex_ica_addr(*ica), 0x11, PAGE);
	CHECK_EQ(call(INET_CLOSE, (uint64_t)udp, 0, 0, 0, 0, NULL, NULL), 0);
	CHECK_EQ(call(INET_CLOSE, (uint64_t)idle, 0, 0, 0, 0, NULL, NULL), 0);
	CHECK_EQ(myrmex_ica_free(two), 0);
}

/* A child sends SECRET bytes from its ICAs and ends without closing. */
static void secret_child(void)
{
	ctl = myrmex_ica_addr(new_ica(1));   /* the parent's ICAs are not ours */
	uint32_t scratch = new_ica(1), rx = new_ica(1), ica = new_ica(1);
	long h = connect_peer("discard\n", scratch);
	for (int i = 0; i < 40 && h > 0; i++) {
		memset((uint8_t *)myrmex_ica_addr(ica), SECRET, PAGE);
		uint32_t back = 0;
		if (call(INET_SEND, (uint64_t)h, INET_ZC_HEADROOM, 1000, INET_ZEROCOPY, ica, &back,
		         NULL) != 1000 || !back)
			_exit(3);
		ica = back;
	}
	(void)rx;
	_exit(h > 0 ? 0 : 2);   /* its socket stays open: the server closes it */
}

/* The spare ICAs a child's bytes went from come to us wiped, and the
 * child's socket is gone once it ended. */
static void other_owner(long h, uint32_t *ica, uint32_t rx)
{
	uint64_t sockets = open_sockets();
	pid_t child = fork();
	if (child == 0)
		secret_child();
	int status = -1;
	waitpid(child, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child: status %#x", status);
	for (int tries = 0; tries < 200 && open_sockets() > sockets; tries++)
		myrmex_sleep_ns(10 * 1000 * 1000);
	CHECK(open_sockets() == sockets, "the ended child's socket was closed: %llu open, %llu before",
	      (unsigned long long)open_sockets(), (unsigned long long)sockets);
	myrmex_sleep_ns(300 * 1000 * 1000);   /* its segments acknowledged, its ICAs spare again */
	uint8_t secret[64];
	memset(secret, SECRET, sizeof secret);
	unsigned seen = 0;
	for (int i = 0; i < 40; i++) {
		const uint8_t *p = myrmex_ica_addr(*ica);
		seen += memcmp(p + INET_ZC_HEADROOM, secret, sizeof secret) == 0;
		memset((uint8_t *)myrmex_ica_addr(*ica) + INET_ZC_HEADROOM, 'x', 8);
		uint32_t back = 0;
		if (call(INET_SEND, (uint64_t)h, INET_ZC_HEADROOM, 8, INET_ZEROCOPY, *ica, &back, NULL) != 8)
			break;
		*ica = back;
		if (recv_exact(h, rx, echoed, 8))
			break;
	}
	CHECK(seen == 0, "%u spare ICAs came with another program's bytes", seen);
}

int main(void)
{
	test_console_for_messages();
	long c = myrmex_ica_alloc(1);
	CHECK(c > 0, "control ICA: %ld", c);
	if (c <= 0)
		return test_exit_code();
	ctl = myrmex_ica_addr((uint32_t)c);
	for (int i = 0; i < 10000 && myrmex_server_pid(MYRMEX_COREID_INET) < 0; i++)
		myrmex_sleep_ns(1000 * 1000);
	uint32_t scratch = new_ica(1), rx = new_ica(1), ica = new_ica(1);
	long h = connect_peer("echo\n", scratch);
	if (h <= 0)
		return test_exit_code();
	test_note("echo through kept ICAs");
	echo_sends(h, &ica, rx);
	test_note("bad inputs");
	bad_inputs(h, &ica);
	echo_sends(h, &ica, rx);   /* still works */
	test_note("another owner's spare ICAs, a native program's sockets at its end");
	other_owner(h, &ica, rx);
	echo_sends(h, &ica, rx);
	CHECK_EQ(call(INET_CLOSE, (uint64_t)h, 0, 0, 0, 0, NULL, NULL), 0);
	return test_exit_code();
}
