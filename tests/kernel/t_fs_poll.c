/*
 * t_fs_poll: FS_POLL, and the console's descriptors through the file
 * manager (the test image fs.img is mounted; nothing on it changes).
 *
 *   t_fs_poll poll      files, /dev/null, both ends of a pipe as it fills,
 *                       loses its writer or its reader; POLLNVAL for bad
 *                       descriptors, negative ones skipped; a count that
 *                       does not fit the data ICA, or no data ICA, -EINVAL
 *   t_fs_poll console   (with the console server) /dev/console and
 *                       /dev/tty: writes and the result's FS_KIND_CONSOLE;
 *                       ioctls passed on to the console server (TCGETS,
 *                       TIOCGWINSZ, FIONREAD, an unknown one -ENOTTY) and
 *                       FIOCLEX kept here; fstat (5:1), -ESPIPE; poll says
 *                       POLLOUT only until a line is typed, then POLLIN; a
 *                       non-blocking read -EAGAIN before, the line after
 */
#define _GNU_SOURCE
#define TEST_NAME "t_fs_poll"
#include "test_check.h"
#include "ipc_test.h"
#include "console_test.h"
#include "fs_test.h"
#include "posix_test.h"

#include <poll.h>
#include <sys/ioctl.h>
#include <myrmex/console.h>

#define HELLO "/text/hello.txt"
#define READY_TRIES 30000   /* 1 ms naps while typed input arrives */

static struct chan ch;

struct pfd {
	int32_t fd;
	int16_t events, revents;
};

/* FS_POLL of n records: the count, with revents back in p. */
static long do_poll(struct pfd *p, unsigned n)
{
	memcpy(chan_buf(&ch), p, n * sizeof *p);
	long r = fsx(&ch, FS_POLL, n, 0, 0, 0, 0, 0, NULL);
	memcpy(p, chan_buf(&ch), n * sizeof *p);
	return r;
}

static void test_files_and_pipes(void)
{
	uint64_t out[8];
	int file = myrmex_fs_open(HELLO, O_RDONLY, 0), null = myrmex_fs_open("/dev/null", O_WRONLY, 0);
	if (!CHECK_EQ(myrmex_fs_call(FS_PIPE, 0, 0, 0, NULL, 0, out), 0))
		return;
	int r = (int)out[0], w = (int)out[1];
	const short all = POLLIN | POLLOUT;
	struct pfd p[6] = {
		{ file, all, 0 }, { null, POLLOUT, 0 }, { r, POLLIN, 0 }, { w, POLLOUT, 0 },
		{ -1, all, 0 }, { 63, all, 0 },
	};
	CHECK_EQ(do_poll(p, 6), 4);
	CHECK_EQ(p[0].revents, all);
	CHECK_EQ(p[1].revents, POLLOUT);
	CHECK_EQ(p[2].revents, 0);   /* empty, with a writer */
	CHECK_EQ(p[3].revents, POLLOUT);
	CHECK_EQ(p[4].revents, 0);   /* negative: ignored */
	CHECK_EQ(p[5].revents, POLLNVAL);
	/* Data in: readable; the writer gone: POLLHUP too. */
	CHECK_EQ(myrmex_fs_write(w, "abc", 3), 3);
	CHECK_EQ(do_poll(p, 4), 4);
	CHECK_EQ(p[2].revents, POLLIN);
	/* Full (less than PIPE_BUF of room): not writable. */
	static uint8_t fill[65536 - 3 - 100];   /* 100 bytes of room left */
	CHECK_EQ(myrmex_fs_write(w, fill, sizeof fill), (long)sizeof fill);
	CHECK_EQ(do_poll(p, 4), 3);
	CHECK_EQ(p[3].revents, 0);
	int w2 = (int)myrmex_fs_call(FS_DUP, (uint64_t)w, 0, 0, NULL, 0, NULL);
	CHECK_EQ(myrmex_fs_close(w), 0);
	CHECK_EQ(do_poll(p, 3), 3);   /* a dup of the writer is left */
	CHECK_EQ(p[2].revents, POLLIN);
	CHECK_EQ(myrmex_fs_close(w2), 0);
	p[2].events = POLLIN;
	CHECK_EQ(do_poll(p, 3), 3);
	CHECK_EQ(p[2].revents, POLLIN | POLLHUP);
	/* The reader gone: the writer sees POLLERR. */
	CHECK_EQ(myrmex_fs_call(FS_PIPE, 0, 0, 0, NULL, 0, out), 0);
	CHECK_EQ(myrmex_fs_close((int)out[0]), 0);
	CHECK_EQ(myrmex_fs_close(r), 0);
	struct pfd q = { (int)out[1], POLLOUT, 0 };
	CHECK_EQ(do_poll(&q, 1), 1);
	CHECK_EQ(q.revents, POLLOUT | POLLERR);
	CHECK_EQ(myrmex_fs_close((int)out[1]), 0);
	q = (struct pfd){ (int)out[1], POLLOUT, 0 };   /* closed now */
	CHECK_EQ(do_poll(&q, 1), 1);
	CHECK_EQ(q.revents, POLLNVAL);
	/* Counts the data ICA cannot hold, or no data ICA at all. */
	CHECK_EQ(fsx(&ch, FS_POLL, CHAN_BYTES / 8 + 1, 0, 0, 0, 0, 0, NULL), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_POLL, 1ull << 61, 0, 0, 0, 0, 0, NULL), -EINVAL);
	CHECK_EQ(myrmex_fs_call(FS_POLL, 1, 0, 0, NULL, 0, NULL), -EINVAL);
	CHECK_EQ(myrmex_fs_call(FS_POLL, 513, 0, 0, "", 1, NULL), -EINVAL);   /* one page */
	CHECK_EQ(fsx(&ch, FS_POLL, 0, 0, 0, 0, 0, 0, NULL), 0);
	myrmex_fs_close(file);
	myrmex_fs_close(null);
}


/* ------------------------------------------------------------ console */

/* A write through the file manager until the console server is there. */
static int console_up(int fd)
{
	for (int i = 0; i < READY_TRIES; i++) {
		long r = fsx(&ch, FS_WRITE, (uint64_t)fd, 0, 0, 0, 0, 0, NULL);
		if (r != -ENXIO)
			return CHECK_EQ(r, 0) == 0;
		myrmex_sleep_ns(1000000);
	}
	test_fail("the console server never answered");
	return 0;
}

static long ioctl_call(int fd, uint64_t request, uint64_t arg)
{
	return fsx(&ch, FS_IOCTL, (uint64_t)fd, request, arg, 0, 0, 0, NULL);
}

static void console_ioctls(int fd)
{
	struct console_termios t;
	CHECK_EQ(ioctl_call(fd, CONSOLE_TCGETS, 0), 0);
	memcpy(&t, chan_buf(&ch), sizeof t);
	CHECK((t.c_lflag & (CONSOLE_ICANON | CONSOLE_ECHO)) == (CONSOLE_ICANON | CONSOLE_ECHO),
	      "TCGETS through the file manager: c_lflag %#x", t.c_lflag);
	struct console_winsize ws;
	CHECK_EQ(ioctl_call(fd, CONSOLE_TIOCGWINSZ, 0), 0);
	memcpy(&ws, chan_buf(&ch), sizeof ws);
	CHECK(ws.ws_row == 24 && ws.ws_col == 80, "TIOCGWINSZ: %u x %u", ws.ws_row, ws.ws_col);
	CHECK_EQ(ioctl_call(fd, CONSOLE_FIONREAD, 0), 0);
	int n = -1;
	memcpy(&n, chan_buf(&ch), sizeof n);
	CHECK_EQ(n, 0);
	CHECK_EQ(ioctl_call(fd, 0x5429 /* TIOCGSID */, 0), -ENOTTY);
	CHECK_EQ(ioctl_call(fd, FIOCLEX, 0), 0);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)fd, F_GETFD, 0, NULL, 0, NULL), FD_CLOEXEC);
}

static void test_console(void)
{
	uint64_t out[8];
	int fd = myrmex_fs_open("/dev/console", O_RDWR, 0);
	if (!CHECK_EQ(fd >= 0, 1) || !console_up(fd))
		return;
	static const char line[] = "t_fs_poll: written through the file manager\n";
	memcpy(chan_buf(&ch), line, sizeof line - 1);
	CHECK_EQ(fsx(&ch, FS_WRITE, (uint64_t)fd, sizeof line - 1, 0, 0, 0, 0, out), (long)sizeof line - 1);
	CHECK_EQ(out[7], FS_KIND_CONSOLE);
	console_ioctls(fd);
	struct myrmex_stat st;
	CHECK_EQ(myrmex_fs_fstat(fd, &st), 0);
	CHECK(st.st_mode == (0020000u | 0600) && st.st_rdev == 0x501, "fstat(/dev/console): %#o %#llx",
	      st.st_mode, (unsigned long long)st.st_rdev);
	CHECK_EQ(myrmex_fs_lseek(fd, 0, SEEK_SET), -ESPIPE);
	CHECK_EQ(myrmex_fs_pread(fd, chan_buf(&ch), 4, 0), -ESPIPE);
	/* Nothing typed: writable, not readable; a non-blocking read says so. */
	int tty = myrmex_fs_open("/dev/tty", O_RDONLY | O_NONBLOCK, 0);
	struct pfd p[2] = { { fd, POLLIN | POLLOUT, 0 }, { tty, POLLIN, 0 } };
	CHECK_EQ(do_poll(p, 2), 1);
	CHECK_EQ(p[0].revents, POLLOUT);
	CHECK_EQ(p[1].revents, 0);
	CHECK_EQ(fsx(&ch, FS_READ, (uint64_t)tty, 100, 0, 0, 0, 0, out), -EAGAIN);
	CHECK_EQ(out[7], FS_KIND_CONSOLE);
	/* A line typed: readable, and the non-blocking read takes it. */
	TYPE("typed for poll\r");
	int tries = 0;
	while (do_poll(p + 1, 1) == 0 && tries++ < READY_TRIES)
		myrmex_sleep_ns(1000000);
	CHECK_EQ(p[1].revents, POLLIN);
	long r = fsx(&ch, FS_READ, (uint64_t)tty, 100, 0, 0, 0, 0, out);
	CHECK(r == 15 && memcmp(chan_buf(&ch), "typed for poll\n", 15) == 0, "the typed line: %ld", r);
	CHECK_EQ(myrmex_fs_close(tty), 0);
	CHECK_EQ(myrmex_fs_close(fd), 0);
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: nothing to test");
		return 0;
	}
	const char *mode = argc > 1 ? argv[1] : "";
	if (!fs_ready() || !chan_open(&ch))
		return test_exit_code();
	if (strcmp(mode, "poll") == 0)
		test_files_and_pipes();
	else if (strcmp(mode, "console") == 0)
		test_console();
	else
		test_fail("usage: t_fs_poll poll|console");
	return test_exit_code();
}
