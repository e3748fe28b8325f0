/*
 * t_console: the console server (servers/console/uart) through the console
 * protocol (include/myrmex/console.h), with its default settings (the
 * terminal requests are t_console_tty's). The test init starts the server
 * with COM1 before each console test and stops it after; this program
 * starts no console itself. Input comes from the host (console_test.h).
 *
 *   t_console write   writes of a line, several lines, nothing, and a whole
 *                     ICA: status = bytes; the data ICA comes back
 *   t_console read    typed input read back cooked: erasing (DEL, BS, Ctrl-U,
 *                     a UTF-8 character), escape sequences and control
 *                     characters dropped, CR and LF ending lines; a line in
 *                     short reads; reads waiting in flight answered in order;
 *                     more reads than the server keeps: -EAGAIN
 *   t_console bad     no data ICA, a length past the ICA, a cancel of nothing,
 *                     unknown opcodes:
 *                     -EINVAL / -ENOSYS with the data ICA back; read of 0
 *                     bytes: 0; the server goes on
 *   t_console stage   the file manager's way: a relay (this program, run as
 *                     "t_console relay") passes writes, reads, an ioctl and a
 *                     poll on to the console as a second stage with direct
 *                     return; the results come straight back from the
 *                     console's frame
 *   t_console file    /dev/console through the file manager (the init runs
 *                     the disk driver and the file manager too): a write and
 *                     a line read with the native file interface
 *   t_console orphan  a child leaves a read waiting and exits; the line
 *                     typed next goes to it (for nobody: the kernel frees
 *                     it), the following one to the parent. Then another
 *                     child leaves a read that no line answers: it is still
 *                     waiting when the init stops the server, whose end
 *                     must free it too (the init's leak check)
 */
#define _GNU_SOURCE
#define TEST_NAME "t_console"
#include "test_check.h"
#include "ipc_test.h"

#include "console_test.h"

#include <fcntl.h>

#define RELAY_COREID 141u
#define RELAY_PASS 1u           /* relay opcode: arg[2] = the console opcode */
#define IN_FLIGHT 3

/* ------------------------------------------------------------ write */

static void test_write(void)
{
	struct call c;
	if (call_init(&c, 1) < 0)
		return;
	static const char line[] = "t_console: a line written through the console server\n";
	CHECK_EQ(console_write(&c, line, sizeof line - 1), (long)(sizeof line - 1));
	check_data_back(&c, "write");
	static const char lines[] = "t_console: two lines,\nt_console: one write\n";
	CHECK_EQ(console_write(&c, lines, sizeof lines - 1), (long)(sizeof lines - 1));
	CHECK_EQ(console_write(&c, "", 0), 0);
	check_data_back(&c, "empty write");

	/* A whole one-page ICA: 32 lines of 128 bytes. */
	char *page = call_bytes(&c);
	for (unsigned i = 0; i < PAGE / 128; i++) {
		char *row = page + i * 128;
		int n = snprintf(row, 128, "t_console: full-page write, line %02u ", i);
		memset(row + n, '.', 127 - (size_t)n);
		row[127] = '\n';
	}
	call_prepare(&c, MYRMEX_COREID_CONSOLE, CONSOLE_WRITE, PAGE, 1);
	CHECK_EQ(call_sync(&c), (long)PAGE);
	check_data_back(&c, "full-page write");
	call_free(&c);
}

/* ------------------------------------------------------------ read */

static void read_cooked(struct call *c)
{
	TYPE("helo\x7flo world\r");
	expect_read(c, 256, "hello world\n", "DEL erases");
	/* Ctrl-U kills "x"; BS on an empty line does nothing; an arrow key
	 * (ESC [ A) and other control characters are dropped; the UTF-8 'é'
	 * goes with one DEL; LF ends the line as CR does. */
	TYPE("x\x15\x08" "ab\x1b[Ac\x01\x02\xc3\xa9\x7f" "d\x08" "e\n");
	expect_read(c, 256, "abce\n", "editing");
	TYPE("caf\xc3\xa9 \x1bOB\x1b[1;5Cok\r");
	expect_read(c, 256, "caf\xc3\xa9 ok\n", "UTF-8 kept, escape sequences dropped");
	/* One line in three reads; then two lines typed at once, read one by one. */
	TYPE("abcdefgh\r");
	expect_read(c, 3, "abc", "short read 1");
	expect_read(c, 3, "def", "short read 2");
	expect_read(c, 100, "gh\n", "short read 3");
	TYPE("first\rsecond\r\r");
	expect_read(c, 100, "first\n", "two lines, first");
	expect_read(c, 100, "second\n", "two lines, second");
	expect_read(c, 100, "\n", "an empty line");
	CHECK_EQ(console_read(c, 0), 0);   /* nothing wanted: at once */
}

/* Reads waiting at once (callasync): the lines go to them in the order they
 * were made, whatever the order their results are taken in. */
static void read_in_flight(void)
{
	struct call c[IN_FLIGHT];
	int made = 0;
	for (; made < IN_FLIGHT; made++) {
		if (call_init(&c[made], 1) < 0)
			break;
		call_prepare(&c[made], MYRMEX_COREID_CONSOLE, CONSOLE_READ, 64, 1);
		long r = ipc_call_when_ready(c[made].h, 0);
		CHECK_EQ(r, 0);
	}
	static const char *const want[IN_FLIGHT] = { "one\n", "two\n", "three\n" };
	console_barrier();
	TYPE("one\rtwo\rthree\r");
	for (int i = 0; i < made; i++) {
		struct myrmex_delivery d;
		long got = myrmex_get(NULL, &d);
		int which = -1;
		for (int k = 0; k < made; k++)
			if (got == (long)(uintptr_t)c[k].h)
				which = k;
		CHECK(which >= 0 && d.kind == MYRMEX_DELIVERY_RESULT, "in flight: get %ld kind %u", got,
		      d.kind);
		if (which < 0)
			continue;
		const char *text = call_bytes(&c[which]);
		size_t len = strlen(want[which]);
		CHECK(d.status == (int64_t)len && memcmp(text, want[which], len) == 0,
		      "in flight: read %d got %lld \"%.8s\", expected \"%s\"", which,
		      (long long)d.status, text, want[which]);
		CHECK(d.ndata == 1 && d.data[0] == c[which].data, "in flight: read %d: data ICA", which);
	}
	for (int i = 0; i < made; i++)
		call_free(&c[i]);
}

/* CONSOLE_MAX_READERS reads wait; one more is refused; empty lines answer
 * the waiting ones. */
static void read_limit(void)
{
	enum { N = CONSOLE_MAX_READERS + 1 };
	static struct call c[N];
	int made = 0;
	for (; made < N; made++) {
		if (call_init(&c[made], 1) < 0)
			break;
		call_prepare(&c[made], MYRMEX_COREID_CONSOLE, CONSOLE_READ, 8, 1);
		CHECK_EQ(myrmex_callasync(c[made].h), 0);
	}
	console_barrier();   /* every read taken: all but the last waiting */
	int refused = 0, answered = 0;
	char returns[CONSOLE_MAX_READERS + 1];
	memset(returns, '\r', sizeof returns);
	type_input(returns, CONSOLE_MAX_READERS);
	for (int i = 0; i < made; i++) {
		struct myrmex_delivery d;
		long got = myrmex_get(NULL, &d);
		CHECK(got > 0 && d.kind == MYRMEX_DELIVERY_RESULT, "limit: get %ld", got);
		if (d.status == -EAGAIN)
			refused++;
		else if (d.status == 1)
			answered++;
		else
			test_fail("limit: a read gave %lld", (long long)d.status);
	}
	CHECK(refused == 1 && answered == made - 1, "limit: %d refused, %d answered of %d",
	      refused, answered, made);
	for (int i = 0; i < made; i++)
		call_free(&c[i]);
}

static void test_read(void)
{
	struct call c;
	if (call_init(&c, 1) < 0)
		return;
	read_cooked(&c);
	call_free(&c);
	read_in_flight();
	read_limit();
}

/* ------------------------------------------------------------ bad calls */

static void test_bad(void)
{
	struct call c;
	if (call_init(&c, 1) < 0)
		return;
	call_prepare(&c, MYRMEX_COREID_CONSOLE, CONSOLE_WRITE, 4, 0);
	CHECK_EQ(call_sync(&c), -EINVAL);   /* no data ICA */
	call_prepare(&c, MYRMEX_COREID_CONSOLE, CONSOLE_READ, 4, 0);
	CHECK_EQ(call_sync(&c), -EINVAL);
	call_prepare(&c, MYRMEX_COREID_CONSOLE, CONSOLE_WRITE, PAGE + 1, 1);
	CHECK_EQ(call_sync(&c), -EINVAL);   /* longer than the ICA */
	check_data_back(&c, "write past the ICA");
	call_prepare(&c, MYRMEX_COREID_CONSOLE, CONSOLE_READ, UINT64_MAX, 1);
	CHECK_EQ(call_sync(&c), -EINVAL);
	check_data_back(&c, "read past the ICA");
	call_prepare(&c, MYRMEX_COREID_CONSOLE, CONSOLE_CANCEL, 4, 0);
	CHECK_EQ(call_sync(&c), -ESRCH);    /* arg[0] names no waiting read */
	static const uint32_t opcodes[] = { 0, CONSOLE_CANCEL + 1, 99, 0x80000000u, UINT32_MAX };
	for (unsigned i = 0; i < sizeof opcodes / sizeof opcodes[0]; i++) {
		call_prepare(&c, MYRMEX_COREID_CONSOLE, opcodes[i], 4, 1);
		CHECK_EQ(call_sync(&c), -ENOSYS);
		check_data_back(&c, "unknown opcode");
	}
	CHECK_EQ(console_read(&c, 0), 0);
	static const char line[] = "t_console: the console server still writes\n";
	CHECK_EQ(console_write(&c, line, sizeof line - 1), (long)(sizeof line - 1));
	call_free(&c);
}

/* ------------------------------------------------------------ stage */

/* The relay (run as "t_console relay"): registers RELAY_COREID and passes
 * every request on to the console as the next stage, with direct return,
 * as the file manager does for /dev/console. */
static int relay(void)
{
	long r = myrmex_registserver(RELAY_COREID);
	if (r < 0) {
		test_fail("relay: registserver: %ld", r);
		return 1;
	}
	for (;;) {
		struct myrmex_delivery d;
		long got = myrmex_get(NULL, &d);
		if (got <= 0 || d.kind != MYRMEX_DELIVERY_REQUEST)
			continue;
		struct myrmex_ctl_header *h = (struct myrmex_ctl_header *)(uintptr_t)d.control;
		struct myrmex_frame *mine = (struct myrmex_frame *)(uintptr_t)(d.control + d.frame);
		uint64_t length = mine->arg[1], opcode = mine->arg[2];
		struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_CONSOLE, (uint32_t)opcode);
		if (f) {
			f->arg[0] = 7;   /* the file manager's descriptor: the console ignores it */
			f->arg[1] = length;
			f->ndata = d.ndata;
			for (uint32_t i = 0; i < d.ndata && i < MYRMEX_FRAME_DATA; i++)
				f->data[i] = d.data[i];
			h->flags |= MYRMEX_CTL_DIRECT_RETURN;
			if (myrmex_callasync(h) == 0)
				continue;
			h->currentp = d.frame;
		}
		mine->status = -EIO;
		mine->ndata = d.ndata;
		for (uint32_t i = 0; i < d.ndata && i < MYRMEX_FRAME_DATA; i++)
			mine->data[i] = d.data[i];
		myrmex_ret(h);
	}
}

static int64_t relay_call(struct call *c, uint32_t console_op, uint64_t length)
{
	call_prepare(c, RELAY_COREID, RELAY_PASS, length, 1);
	myrmex_ctl_top(c->h)->arg[2] = console_op;
	return call_sync(c);
}

/* The result came from the console's frame, the second one (32 + 112). */
static void check_direct(const struct call *c, const char *what)
{
	struct myrmex_frame *res = myrmex_ctl_result(c->h);
	CHECK(c->h->resultp == 144 && c->h->currentp == 0 && res &&
	      res->target == MYRMEX_COREID_CONSOLE,
	      "%s: resultp %u currentp %u target %u", what, c->h->resultp, c->h->currentp,
	      res ? res->target : 0);
	check_data_back(c, what);
}

static void test_stage(void)
{
	char *argv[] = { "t_console", "relay", NULL };
	long pid = myrmex_spawn_flags("t_console", argv, (char **)ipc_envp, -1, MYRMEX_SPAWN_SERVER);
	CHECK(pid > 0, "spawn the relay: %ld", pid);
	struct call c;
	if (pid <= 0 || call_init(&c, 1) < 0)
		return;
	static const char line[] = "t_console: written through a relay, returned directly\n";
	memcpy(call_bytes(&c), line, sizeof line - 1);
	CHECK_EQ(relay_call(&c, CONSOLE_WRITE, sizeof line - 1), (long)(sizeof line - 1));
	check_direct(&c, "write through the relay");

	TYPE("through two stages\r");
	memset(call_bytes(&c), 0, PAGE);
	int64_t got = relay_call(&c, CONSOLE_READ, 100);
	CHECK(got == 19 && memcmp(call_bytes(&c), "through two stages\n", 19) == 0,
	      "read through the relay: %lld \"%.19s\"", (long long)got, call_bytes(&c));
	check_direct(&c, "read through the relay");

	/* The terminal requests too, as the file manager passes them on. */
	memset(call_bytes(&c), 0, PAGE);
	CHECK_EQ(relay_call(&c, CONSOLE_IOCTL, CONSOLE_TCGETS), 0);
	check_direct(&c, "TCGETS through the relay");
	struct console_termios t;
	memcpy(&t, call_bytes(&c), sizeof t);
	CHECK(t.c_lflag & CONSOLE_ICANON, "TCGETS through the relay: lflag %#x", t.c_lflag);
	CHECK_EQ(relay_call(&c, CONSOLE_POLL, 0), CONSOLE_POLLOUT);
	check_direct(&c, "poll through the relay");

	CHECK_EQ(relay_call(&c, CONSOLE_WRITE, PAGE * 2), -EINVAL);
	check_direct(&c, "bad length through the relay");
	CHECK_EQ(relay_call(&c, 42, 1), -ENOSYS);
	check_direct(&c, "bad opcode through the relay");
	call_free(&c);
	ipc_stop(pid);
}

/* ------------------------------------------------------------ file */

static void test_file(void)
{
	console_barrier();   /* the console server is up: the file manager would say -ENXIO */
	CHECK_EQ(myrmex_fs_wait(10000), 0);
	int fd = myrmex_fs_open("/dev/console", O_RDWR, 0);
	CHECK(fd >= 0, "open /dev/console: %d", fd);
	if (fd < 0)
		return;
	static const char line[] = "t_console: written to /dev/console through the file manager\n";
	CHECK_EQ(myrmex_fs_write(fd, line, sizeof line - 1), (long)(sizeof line - 1));
	TYPE("read through the file manager\r");
	char buf[256];
	static const char want[] = "read through the file manager\n";
	long n = myrmex_fs_read(fd, buf, sizeof buf);
	CHECK(n == (long)sizeof want - 1 && memcmp(buf, want, sizeof want - 1) == 0,
	      "read /dev/console: %ld \"%.*s\"", n, n > 0 && n < 200 ? (int)n : 0, buf);
	CHECK_EQ(myrmex_fs_close(fd), 0);
}

/* ------------------------------------------------------------ orphan */

/* As "t_console orphan-child": makes a read wait, then exits at once. */
static int orphan_child(void)
{
	struct call c;
	if (call_init(&c, 1) < 0)
		return 1;
	call_prepare(&c, MYRMEX_COREID_CONSOLE, CONSOLE_READ, 64, 1);
	return ipc_call_when_ready(c.h, 0) == 0 ? 0 : 1;
}

static void test_orphan(void)
{
	struct call c;
	if (call_init(&c, 1) < 0)
		return;
	CHECK_EQ(console_write(&c, "", 0), 0);   /* the server is up */
	struct myrmex_kstats before;
	myrmex_kstats(&before);
	char *argv[] = { "t_console", "orphan-child", NULL };
	long pid = myrmex_spawn_flags("t_console", argv, (char **)ipc_envp, -1, 0);
	CHECK(pid > 0, "spawn the child: %ld", pid);
	if (pid > 0) {
		int status = ipc_reap(pid);
		CHECK(status == 0, "the child's read was not made (status %#x)", status);
	}
	console_barrier();   /* the child's read waits at the server */
	TYPE("for the child that left\rfor the parent\r");
	expect_read(&c, 100, "for the parent\n", "after the orphan");
	/* The orphan's control and data ICAs went with its result. */
	uint64_t live = test_wait_ica_live(before.ica_live);
	CHECK(live == before.ica_live, "ica_live %llu, %llu before the orphan",
	      (unsigned long long)live, (unsigned long long)before.ica_live);
	call_free(&c);
	pid = myrmex_spawn_flags("t_console", argv, (char **)ipc_envp, -1, 0);
	CHECK(pid > 0, "spawn the second child: %ld", pid);
	if (pid > 0)
		CHECK(ipc_reap(pid) == 0, "the second child's read was not made");
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	const char *mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "relay") == 0)
		return relay();
	if (strcmp(mode, "orphan-child") == 0)
		return orphan_child();
	if (strcmp(mode, "write") == 0)
		test_write();
	else if (strcmp(mode, "read") == 0)
		test_read();
	else if (strcmp(mode, "bad") == 0)
		test_bad();
	else if (strcmp(mode, "stage") == 0)
		test_stage();
	else if (strcmp(mode, "orphan") == 0)
		test_orphan();
	else if (strcmp(mode, "file") == 0)
		test_file();
	else
		test_fail("unknown mode \"%s\"", mode);
	return test_exit_code();
}
