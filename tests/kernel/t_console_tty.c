/*
 * t_console_tty: the console server as a terminal (include/myrmex/console.h):
 * CONSOLE_IOCTL and CONSOLE_POLL, and input under changed termios, reached
 * directly with console requests (as the file manager passes them on). The
 * test init starts the server with COM1 (fresh settings) before each test
 * and stops it after; input comes from the host (console_test.h).
 *
 *   t_console_tty defaults  TCGETS gives Linux's defaults; the window size
 *                           24 x 80, then set and read back; no foreground
 *                           group; FIONREAD and POLL with nothing typed;
 *                           TIOCSCTTY, TIOCNOTTY, TCXONC, TCFLSH accepted;
 *                           TCSETS read back (c_line kept 0), a VEOL
 *                           character ending lines; echo off; TCSETSF and
 *                           TCFLSH discarding a typed line; FIONREAD and
 *                           POLL with a line waiting
 *   t_console_tty raw       raw mode (no ICANON, no ECHO, VMIN 1): single
 *                           bytes, an escape sequence byte by byte and
 *                           whole, editing characters passed through, CR as
 *                           LF; VMIN 0 returns at once; POLL and FIONREAD
 *                           with a byte waiting; back to cooked lines
 *   t_console_tty eof       Ctrl-D at the start of a line: a read of 0 (also
 *                           for a read waiting); inside a line: the line
 *                           without '\n'; reads go on after it
 *   t_console_tty intr      Ctrl-C: waiting reads answered -EINTR, the line
 *                           being typed and the unread input discarded;
 *                           SIGINT to the foreground group set with
 *                           TIOCSPGRP: a child of this test in a group of
 *                           its own (run as "t_console_tty group-child")
 *                           is killed by it. Without process groups in the
 *                           kernel the delivery is not checked (a note says
 *                           so).
 *   t_console_tty quit      the same with Ctrl-\ and SIGQUIT
 *   t_console_tty susp      the same with Ctrl-Z and SIGTSTP, which stops
 *                           the child: wait4 with WUNTRACED reports it
 *                           stopped, SIGCONT continues it (WCONTINUED)
 *   t_console_tty bad       unknown requests -ENOTTY; no data ICA for a
 *                           request moving a structure -EINVAL; bad
 *                           arguments (a negative or null group, TCFLSH and
 *                           TCXONC out of range) -EINVAL / -ESRCH; the data
 *                           ICA back every time; the server goes on
 */
#define _GNU_SOURCE
#define TEST_NAME "t_console_tty"
#include "test_check.h"
#include "ipc_test.h"

#include "console_test.h"

#include <signal.h>
#include <stdbool.h>

#define WAIT_TRIES 30000   /* 1 ms apart: a bound against hanging, not a measure */
#define WNOHANG 1
#define WUNTRACED 2
#define WCONTINUED 8

/* ------------------------------------------------------------ requests */

static int64_t tty_ioctl(struct call *c, uint64_t request, uint64_t value, int with_data)
{
	struct myrmex_frame *f = call_prepare(c, MYRMEX_COREID_CONSOLE, CONSOLE_IOCTL, request,
	                                      with_data);
	f->arg[2] = value;
	return call_sync(c);
}

/* A get request: the structure out of the data ICA (filled with junk first). */
static int64_t tty_get(struct call *c, uint64_t request, void *out, size_t size)
{
	memset(call_bytes(c), 0xa5, PAGE);
	int64_t r = tty_ioctl(c, request, 0, 1);
	memcpy(out, call_bytes(c), size);
	check_data_back(c, "get request");
	return r;
}

static int64_t tty_set(struct call *c, uint64_t request, const void *in, size_t size)
{
	memset(call_bytes(c), 0, PAGE);
	memcpy(call_bytes(c), in, size);
	int64_t r = tty_ioctl(c, request, 0, 1);
	check_data_back(c, "set request");
	return r;
}

static int64_t tty_poll(struct call *c)
{
	call_prepare(c, MYRMEX_COREID_CONSOLE, CONSOLE_POLL, 0, 0);
	return call_sync(c);
}

static int32_t tty_unread(struct call *c)
{
	int32_t n = -1;
	CHECK_EQ(tty_get(c, CONSOLE_FIONREAD, &n, sizeof n), 0);
	return n;
}

static struct console_termios tty_termios(struct call *c)
{
	struct console_termios t;
	memset(&t, 0, sizeof t);
	CHECK_EQ(tty_get(c, CONSOLE_TCGETS, &t, sizeof t), 0);
	return t;
}

/* Typed input arrives when it arrives: waits until a read would not wait
 * (POLLIN), or until FIONREAD says want. */
static void wait_poll_in(struct call *c, const char *what)
{
	for (int i = 0; i < WAIT_TRIES; i++) {
		if (tty_poll(c) & CONSOLE_POLLIN)
			return;
		myrmex_sleep_ns(IPC_MS);
	}
	test_fail("%s: no input came", what);
}

static void wait_unread(struct call *c, int32_t want, const char *what)
{
	int32_t n = -1;
	for (int i = 0; i < WAIT_TRIES; i++) {
		if ((n = tty_unread(c)) == want)
			return;
		myrmex_sleep_ns(IPC_MS);
	}
	test_fail("%s: FIONREAD %d, expected %d", what, n, want);
}

/* A read made with callasync, to be waiting when input is typed. */
static int read_async(struct call *c, uint64_t max)
{
	memset(call_bytes(c), 0, PAGE);
	call_prepare(c, MYRMEX_COREID_CONSOLE, CONSOLE_READ, max, 1);
	long r = ipc_call_when_ready(c->h, 0);
	CHECK_EQ(r, 0);
	return r == 0 ? 0 : -1;
}

/* The result of one of the reads in calls[0..n) that were made with
 * read_async: its index, with *status set; -1 if get failed. */
static int read_result(struct call *calls, int n, int64_t *status)
{
	struct myrmex_delivery d;
	long got = myrmex_get(NULL, &d);
	for (int k = 0; k < n; k++) {
		if (got == (long)(uintptr_t)calls[k].h && d.kind == MYRMEX_DELIVERY_RESULT) {
			*status = d.status;
			CHECK(d.ndata == 1 && d.data[0] == calls[k].data, "read %d: data ICA back", k);
			return k;
		}
	}
	test_fail("get: %ld, kind %u: not one of the reads", got, d.kind);
	return -1;
}

static void set_lflag(struct call *c, uint32_t on, uint32_t off)
{
	struct console_termios t = tty_termios(c);
	t.c_lflag = (t.c_lflag | on) & ~off;
	CHECK_EQ(tty_set(c, CONSOLE_TCSETS, &t, sizeof t), 0);
}

static struct console_termios linux_defaults(void)
{
	struct console_termios t = {
		.c_iflag = CONSOLE_ICRNL | CONSOLE_IXON,
		.c_oflag = CONSOLE_OPOST | CONSOLE_ONLCR,
		.c_cflag = CONSOLE_B38400 | CONSOLE_CS8 | CONSOLE_CREAD | CONSOLE_HUPCL,
		.c_lflag = CONSOLE_ISIG | CONSOLE_ICANON | CONSOLE_ECHO | CONSOLE_ECHOE | CONSOLE_ECHOK |
		           CONSOLE_ECHOCTL | CONSOLE_ECHOKE | CONSOLE_IEXTEN,
		.c_cc = { 3, 0x1c, 0x7f, 0x15, 4, 0, 1, 0, 0x11, 0x13, 0x1a, 0, 0x12, 0x0f, 0x17, 0x16 },
	};
	return t;
}

/* ------------------------------------------------------------ defaults */

static void defaults_and_settings(struct call *c)
{
	struct console_termios want = linux_defaults(), t = tty_termios(c);
	CHECK(memcmp(&t, &want, sizeof t) == 0,
	      "TCGETS: iflag %#x oflag %#x cflag %#x lflag %#x line %u cc %02x %02x %02x %02x %02x "
	      "%02x %02x", t.c_iflag, t.c_oflag, t.c_cflag, t.c_lflag, t.c_line, t.c_cc[0], t.c_cc[1],
	      t.c_cc[2], t.c_cc[3], t.c_cc[4], t.c_cc[5], t.c_cc[6]);

	struct console_winsize ws = { 0 }, big = { 50, 132, 0, 0 };
	CHECK_EQ(tty_get(c, CONSOLE_TIOCGWINSZ, &ws, sizeof ws), 0);
	CHECK(ws.ws_row == 24 && ws.ws_col == 80 && ws.ws_xpixel == 0 && ws.ws_ypixel == 0,
	      "TIOCGWINSZ %u x %u (%u, %u)", ws.ws_row, ws.ws_col, ws.ws_xpixel, ws.ws_ypixel);
	CHECK_EQ(tty_set(c, CONSOLE_TIOCSWINSZ, &big, sizeof big), 0);
	CHECK_EQ(tty_get(c, CONSOLE_TIOCGWINSZ, &ws, sizeof ws), 0);
	CHECK(memcmp(&ws, &big, sizeof ws) == 0, "TIOCSWINSZ then TIOCGWINSZ: %u x %u", ws.ws_row,
	      ws.ws_col);

	int32_t group = -1;
	CHECK_EQ(tty_get(c, CONSOLE_TIOCGPGRP, &group, sizeof group), 0);
	CHECK_EQ(group, 0);
	CHECK_EQ(tty_unread(c), 0);
	CHECK_EQ(tty_poll(c), CONSOLE_POLLOUT);
	call_prepare(c, MYRMEX_COREID_CONSOLE, CONSOLE_POLL, 0, 1);   /* a data ICA comes back */
	CHECK_EQ(call_sync(c), CONSOLE_POLLOUT);
	check_data_back(c, "poll");

	CHECK_EQ(tty_ioctl(c, CONSOLE_TIOCSCTTY, 0, 0), 0);
	CHECK_EQ(tty_ioctl(c, CONSOLE_TIOCSCTTY, 1, 1), 0);
	CHECK_EQ(tty_ioctl(c, CONSOLE_TIOCNOTTY, 0, 0), 0);
	for (uint64_t v = CONSOLE_TCOOFF; v <= CONSOLE_TCION; v++)
		CHECK_EQ(tty_ioctl(c, CONSOLE_TCXONC, v, 0), 0);
	for (uint64_t v = CONSOLE_TCIFLUSH; v <= CONSOLE_TCIOFLUSH; v++)
		CHECK_EQ(tty_ioctl(c, CONSOLE_TCFLSH, v, 0), 0);

	/* Settings read back as set, but c_line (the one discipline, N_TTY). */
	t = want;
	t.c_line = 5;
	t.c_cc[CONSOLE_VEOL] = ';';
	t.c_cflag |= 0x1000;   /* a flag with no effect here is kept */
	CHECK_EQ(tty_set(c, CONSOLE_TCSETSW, &t, sizeof t), 0);
	struct console_termios back = tty_termios(c);
	t.c_line = 0;
	CHECK(memcmp(&back, &t, sizeof t) == 0, "TCSETSW then TCGETS: line %u eol %#x cflag %#x",
	      back.c_line, back.c_cc[CONSOLE_VEOL], back.c_cflag);
	TYPE("ls;pwd\r");
	expect_read(c, 100, "ls;", "VEOL ends a line");
	expect_read(c, 100, "pwd\n", "after VEOL");
	CHECK_EQ(tty_set(c, CONSOLE_TCSETS, &want, sizeof want), 0);
}

static void echo_off(struct call *c)
{
	set_lflag(c, 0, CONSOLE_ECHO);
	TYPE("not shown\r");
	expect_read(c, 100, "not shown\n", "echo off");
	set_lflag(c, CONSOLE_ECHO, 0);
}

/* TCSETSF and TCFLSH discard a line waiting; FIONREAD and POLL see it. */
static void discarding(struct call *c)
{
	struct console_termios t = linux_defaults();
	TYPE("gone\r");
	wait_poll_in(c, "TCSETSF");
	CHECK_EQ(tty_unread(c), 5);
	CHECK_EQ(tty_poll(c), CONSOLE_POLLIN | CONSOLE_POLLOUT);
	CHECK_EQ(tty_set(c, CONSOLE_TCSETSF, &t, sizeof t), 0);
	CHECK_EQ(tty_unread(c), 0);
	CHECK_EQ(tty_poll(c), CONSOLE_POLLOUT);
	TYPE("flushed too\r");
	wait_poll_in(c, "TCFLSH");
	CHECK_EQ(tty_unread(c), 12);
	CHECK_EQ(tty_ioctl(c, CONSOLE_TCFLSH, CONSOLE_TCOFLUSH, 0), 0);   /* output only: kept */
	CHECK_EQ(tty_unread(c), 12);
	CHECK_EQ(tty_ioctl(c, CONSOLE_TCFLSH, CONSOLE_TCIFLUSH, 0), 0);
	CHECK_EQ(tty_unread(c), 0);
	TYPE("kept\r");
	expect_read(c, 100, "kept\n", "after the flushes");
}

static void test_defaults(void)
{
	struct call c;
	if (call_init(&c, 1) < 0)
		return;
	defaults_and_settings(&c);
	echo_off(&c);
	discarding(&c);
	call_free(&c);
}

/* ------------------------------------------------------------ raw */

/* Reads (at most max each) until want's len bytes came; each read gives
 * at least one. */
static void expect_bytes(struct call *c, uint64_t max, const char *want, size_t len,
                         const char *what)
{
	char got[64];
	size_t have = 0;
	while (have < len) {
		int64_t n = console_read(c, max);
		if (n <= 0 || have + (size_t)n > len) {
			test_fail("%s: read %lld after %zu of %zu bytes", what, (long long)n, have, len);
			return;
		}
		memcpy(got + have, call_bytes(c), (size_t)n);
		have += (size_t)n;
	}
	CHECK(memcmp(got, want, len) == 0, "%s: other bytes", what);
}

static void test_raw(void)
{
	struct call c;
	if (call_init(&c, 1) < 0)
		return;
	struct console_termios raw = tty_termios(&c);
	raw.c_lflag &= ~(CONSOLE_ICANON | CONSOLE_ECHO);
	raw.c_cc[CONSOLE_VMIN] = 1;
	raw.c_cc[CONSOLE_VTIME] = 0;
	CHECK_EQ(tty_set(&c, CONSOLE_TCSETS, &raw, sizeof raw), 0);
	struct console_termios back = tty_termios(&c);
	CHECK(memcmp(&back, &raw, sizeof raw) == 0, "raw settings read back: lflag %#x",
	      back.c_lflag);

	TYPE("a");
	expect_read(&c, 100, "a", "one byte");
	TYPE("\x1b[A");   /* the up arrow, byte by byte */
	expect_read(&c, 1, "\x1b", "ESC");
	expect_read(&c, 1, "[", "[");
	expect_read(&c, 1, "A", "A");
	TYPE("\x1b[B");
	expect_bytes(&c, 16, "\x1b[B", 3, "down arrow");
	TYPE("\x7f\x08\x15\x17\x04" "x");   /* no editing, no end of file */
	expect_bytes(&c, 16, "\x7f\x08\x15\x17\x04" "x", 6, "editing characters");
	TYPE("\r");
	expect_read(&c, 16, "\n", "CR as LF (ICRNL)");

	raw.c_cc[CONSOLE_VMIN] = 0;
	CHECK_EQ(tty_set(&c, CONSOLE_TCSETS, &raw, sizeof raw), 0);
	CHECK_EQ(tty_poll(&c), CONSOLE_POLLOUT);
	CHECK_EQ(console_read(&c, 16), 0);   /* VMIN 0: at once, nothing */
	TYPE("z");
	wait_poll_in(&c, "VMIN 0");
	CHECK_EQ(tty_unread(&c), 1);
	expect_read(&c, 16, "z", "VMIN 0 with a byte");

	struct console_termios cooked = linux_defaults();
	CHECK_EQ(tty_set(&c, CONSOLE_TCSETSW, &cooked, sizeof cooked), 0);
	TYPE("x\x7fline\r");
	expect_read(&c, 100, "line\n", "cooked again");
	call_free(&c);
}

/* ------------------------------------------------------------ eof */

static void test_eof(void)
{
	struct call c;
	if (call_init(&c, 1) < 0)
		return;
	TYPE("\x04");
	CHECK_EQ(console_read(&c, 100), 0);
	TYPE("abc\x04");
	expect_read(&c, 100, "abc", "Ctrl-D inside a line");
	test_write_all(1, "\n", 1);   /* the echo "abc" left the cursor there */
	TYPE("de\x04\x04" "f\r");
	expect_read(&c, 100, "de", "Ctrl-D, then");
	CHECK_EQ(console_read(&c, 100), 0);
	expect_read(&c, 100, "f\n", "a line after the end of file");

	struct call waiting;
	if (call_init(&waiting, 1) == 0) {
		if (read_async(&waiting, 64) == 0) {
			console_barrier();
			TYPE("\x04");
			int64_t status = -1;
			CHECK_EQ(read_result(&waiting, 1, &status), 0);
			CHECK_EQ(status, 0);
		}
		call_free(&waiting);
	}
	TYPE("more\r");
	expect_read(&c, 100, "more\n", "reads go on");
	call_free(&c);
}

/* ------------------------------------------------------------ signals */

/* As "t_console_tty group-child": a process group of its own, then waits
 * to be killed. */
__attribute__((noreturn)) static void group_child(void)
{
	raw2(SYS_setpgid, 0, 0);
	for (;;)
		myrmex_sleep_ns(1000 * IPC_MS);
}

/* wait4 of the child with options, waiting at most WAIT_TRIES ms: its wait
 * status, or -1 if nothing came (then it is killed). */
static int wait_within(long pid, long options)
{
	int status = 0;
	for (int i = 0; i < WAIT_TRIES; i++) {
		long r = raw4(SYS_wait4, pid, (long)&status, WNOHANG | options, 0);
		if (r == pid)
			return status;
		if (r != 0) {
			test_fail("wait4(%ld): %ld", pid, r);
			return -1;
		}
		myrmex_sleep_ns(IPC_MS);
	}
	ipc_stop(pid);
	return -1;
}

/* Reaps the child, waiting at most WAIT_TRIES ms; -1 if it is still alive
 * (then it is killed). */
static int reap_within(long pid)
{
	return wait_within(pid, 0);
}

/* Two reads waiting and a line being typed: key answers both with -EINTR
 * and discards the line. */
static void interrupts_reads(const char *key, const char *what)
{
	struct call r[2];
	int made = 0;
	for (; made < 2; made++)
		if (call_init(&r[made], 1) < 0 || read_async(&r[made], 64) < 0)
			break;
	console_barrier();
	char typed[16];
	size_t n = (size_t)snprintf(typed, sizeof typed, "partial%s", key);
	type_input(typed, n);
	for (int i = 0; i < made; i++) {
		int64_t status = 0;
		int k = read_result(r, made, &status);
		CHECK(k >= 0 && status == -EINTR, "%s: read %d gave %lld", what, k, (long long)status);
	}
	for (int i = 0; i < made; i++)
		call_free(&r[i]);
	struct call c;
	if (call_init(&c, 1) < 0)
		return;
	TYPE("next\r");
	expect_read(&c, 100, "next\n", "the line before the signal character is gone");
	/* Unread input goes too: "unread\n" waits for nobody when key comes;
	 * FIONREAD reaches 6 only with "after\n" alone. */
	n = (size_t)snprintf(typed, sizeof typed, "unread\r%safter\r", key);
	type_input(typed, n);
	wait_unread(&c, 6, what);
	expect_read(&c, 100, "after\n", "the unread line is gone");
	call_free(&c);
}

/* key sends sig to the foreground group: a child in a group of its own.
 * SIGTSTP stops it; the test continues it, then kills it. */
static void signals_group(const char *key, int sig)
{
	bool groups = raw1(SYS_getpgid, 0) != -ENOSYS;
	char *argv[] = { "t_console_tty", "group-child", NULL };
	long pid = myrmex_spawn_flags("t_console_tty", argv, (char **)ipc_envp, -1, 0);
	CHECK(pid > 0, "spawn the child: %ld", pid);
	struct call c;
	if (pid <= 0 || call_init(&c, 1) < 0)
		return;
	for (int i = 0; groups && raw1(SYS_getpgid, pid) != pid; i++) {
		if (i == WAIT_TRIES) {
			test_fail("the child's group did not become %ld", pid);
			break;
		}
		myrmex_sleep_ns(IPC_MS);
	}
	int32_t group = (int32_t)pid, back = 0;
	CHECK_EQ(tty_set(&c, CONSOLE_TIOCSPGRP, &group, sizeof group), 0);
	CHECK_EQ(tty_get(&c, CONSOLE_TIOCGPGRP, &back, sizeof back), 0);
	CHECK_EQ(back, group);

	if (read_async(&c, 64) == 0) {
		console_barrier();
		type_input(key, strlen(key));
		int64_t status = 0;
		read_result(&c, 1, &status);
		CHECK_EQ(status, -EINTR);
		test_write_all(1, "\n", 1);   /* the key's echo ("^C") ends no line */
	}
	if (groups && sig == SIGTSTP) {
		int status = wait_within(pid, WUNTRACED);
		CHECK_EQ(status, 0x7f | (SIGTSTP << 8));
		CHECK_EQ(raw2(SYS_kill, pid, SIGCONT), 0);
		status = wait_within(pid, WCONTINUED);
		CHECK_EQ(status, 0xffff);
		CHECK_EQ(raw2(SYS_kill, pid, SIGKILL), 0);
		sig = SIGKILL;
	}
	if (groups) {
		int status = reap_within(pid);
		CHECK(status >= 0 && (status & 0x7f) == sig, "the child's wait status %#x, expected "
		      "killed by signal %d", status, sig);
	} else {
		test_note("no process groups in the kernel yet: delivery of signal %d not checked", sig);
		ipc_stop(pid);
	}
	call_free(&c);
}

/* ------------------------------------------------------------ bad */

static void test_bad(void)
{
	struct call c;
	if (call_init(&c, 1) < 0)
		return;
	static const uint64_t unknown[] = { 0, 0x5400, 0x5429 /* TIOCGSID */, 0x5421 /* FIONBIO */,
	                                    0x100005401ull, UINT64_MAX };
	for (unsigned i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
		CHECK_EQ(tty_ioctl(&c, unknown[i], 0, 1), -ENOTTY);
		check_data_back(&c, "unknown request");
		CHECK_EQ(tty_ioctl(&c, unknown[i], 0, 0), -ENOTTY);
	}
	static const uint64_t structured[] = { CONSOLE_TCGETS, CONSOLE_TCSETS, CONSOLE_TCSETSW,
	                                       CONSOLE_TCSETSF, CONSOLE_TIOCGWINSZ, CONSOLE_TIOCSWINSZ,
	                                       CONSOLE_TIOCGPGRP, CONSOLE_TIOCSPGRP, CONSOLE_FIONREAD };
	for (unsigned i = 0; i < sizeof structured / sizeof structured[0]; i++)
		CHECK_EQ(tty_ioctl(&c, structured[i], 0, 0), -EINVAL);   /* no data ICA */

	static const int32_t bad_groups[] = { -1, -2, INT32_MIN };
	for (unsigned i = 0; i < sizeof bad_groups / sizeof bad_groups[0]; i++)
		CHECK_EQ(tty_set(&c, CONSOLE_TIOCSPGRP, &bad_groups[i], sizeof(int32_t)), -EINVAL);
	int32_t zero = 0, nobody = 1 << 30, group = -1;
	CHECK_EQ(tty_set(&c, CONSOLE_TIOCSPGRP, &zero, sizeof zero), -ESRCH);
	bool groups = raw1(SYS_getpgid, 0) != -ENOSYS;
	CHECK_EQ(tty_set(&c, CONSOLE_TIOCSPGRP, &nobody, sizeof nobody), groups ? -ESRCH : 0);
	if (groups) {
		CHECK_EQ(tty_get(&c, CONSOLE_TIOCGPGRP, &group, sizeof group), 0);
		CHECK_EQ(group, 0);   /* refusals changed nothing */
	}

	static const uint64_t bad_values[] = { 4, 5, 1ull << 32, UINT64_MAX };
	CHECK_EQ(tty_ioctl(&c, CONSOLE_TCFLSH, 3, 0), -EINVAL);
	for (unsigned i = 0; i < sizeof bad_values / sizeof bad_values[0]; i++) {
		CHECK_EQ(tty_ioctl(&c, CONSOLE_TCFLSH, bad_values[i], 0), -EINVAL);
		CHECK_EQ(tty_ioctl(&c, CONSOLE_TCXONC, bad_values[i], 0), -EINVAL);
	}

	/* Still the defaults, and the server goes on. */
	struct console_termios want = linux_defaults(), t = tty_termios(&c);
	CHECK(memcmp(&t, &want, sizeof t) == 0, "settings changed by refused requests");
	static const char line[] = "t_console_tty: the console server still writes\n";
	CHECK_EQ(console_write(&c, line, sizeof line - 1), (long)(sizeof line - 1));
	call_free(&c);
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	const char *mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "group-child") == 0)
		group_child();
	if (strcmp(mode, "defaults") == 0)
		test_defaults();
	else if (strcmp(mode, "raw") == 0)
		test_raw();
	else if (strcmp(mode, "eof") == 0)
		test_eof();
	else if (strcmp(mode, "intr") == 0) {
		interrupts_reads("\x03", "Ctrl-C");
		signals_group("\x03", SIGINT);
	} else if (strcmp(mode, "quit") == 0) {
		interrupts_reads("\x1c", "Ctrl-\\");
		signals_group("\x1c", SIGQUIT);
	} else if (strcmp(mode, "susp") == 0) {
		interrupts_reads("\x1a", "Ctrl-Z");
		signals_group("\x1a", SIGTSTP);
	} else if (strcmp(mode, "bad") == 0)
		test_bad();
	else
		test_fail("unknown mode \"%s\"", mode);
	return test_exit_code();
}
