/*
 * t_fs_pipe: pipes in the file manager (FS_PIPE and reads and writes on
 * them), in one process. The test registers as the process manager (coreid
 * 5) for FS_FORK and FS_EXIT of tables of pids no process has.
 *
 *   t_fs_pipe basic     the ends: access modes, O_CLOEXEC and O_NONBLOCK,
 *                       fstat (S_IFIFO), -ESPIPE, -EBADF for the wrong
 *                       direction, zero-length calls, lengths past the
 *                       data ICA; non-blocking -EAGAIN (empty, full, an
 *                       atomic write that does not fit) and partial
 *                       writes; -EPIPE with no reader; data then end of
 *                       file once the writer is gone; FIONREAD; 64 pipes
 *                       at most (-ENFILE), all given back by FS_EXIT
 *   t_fs_pipe park      requests parked in the file manager, sent with
 *                       callasync so that they are parked before the next
 *                       call: a read woken by a write; reads answered in
 *                       order, 32 parked per process at most (-EAGAIN);
 *                       end of file when another table's writer goes
 *                       (FS_EXIT) and only when the last dup of a writer is
 *                       closed; a parked write answered -EPIPE, or with the
 *                       bytes it put in, when the reader goes; a 4 KiB
 *                       write waiting whole for room (atomic) while a longer
 *                       one goes in piece by piece and completes; FS_CANCEL
 *                       of a parked read (-EINTR, it takes nothing) and
 *                       write (what it put in stays)
 *
 * Pipes between processes are t_fs_pipe_proc's.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_fs_pipe"
#include "test_check.h"
#include "fs_test.h"
#include "posix_test.h"

#include <sys/ioctl.h>

#define PIPE_SIZE 65536u
#define PARKED_PER_PROCESS 32

static struct chan ch, ch2;
static uint8_t buf[PIPE_SIZE + 4096];

static long fionread(int fd)
{
	int n = -1;
	long rc = fsx(&ch2, FS_IOCTL, (uint64_t)fd, FIONREAD, 0, 0, 0, 0, NULL);
	memcpy(&n, chan_buf(&ch2), sizeof n);
	return rc < 0 ? rc : n;
}


static void fill(int w, uint32_t n, uint32_t seed)
{
	for (uint32_t i = 0; i < n; i++)
		buf[i] = stream_byte(seed, i);
	CHECK_EQ(myrmex_fs_write(w, buf, n), (long)n);
}


/* ------------------------------------------------------------ basic */

static void ends_and_errors(void)
{
	uint64_t out[8];
	int r, w;
	CHECK_EQ(myrmex_fs_call(FS_PIPE, O_DIRECT, 0, 0, NULL, 0, NULL), -EINVAL);
	CHECK_EQ(myrmex_fs_call(FS_PIPE, 1ull << 40, 0, 0, NULL, 0, NULL), -EINVAL);
	if (!new_pipe(0, &r, &w))
		return;
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)r, F_GETFL, 0, NULL, 0, NULL), O_RDONLY);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)w, F_GETFL, 0, NULL, 0, NULL), O_WRONLY);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)w, F_GETFD, 0, NULL, 0, NULL), 0);
	struct myrmex_stat sr, sw;
	CHECK_EQ(myrmex_fs_fstat(r, &sr), 0);
	CHECK_EQ(myrmex_fs_fstat(w, &sw), 0);
	CHECK(sr.st_mode == (0010000u | 0600) && sr.st_ino == sw.st_ino && sr.st_size == 0,
	      "fstat of a pipe: mode %#o, inodes %llu %llu", sr.st_mode, (unsigned long long)sr.st_ino,
	      (unsigned long long)sw.st_ino);
	CHECK_EQ(myrmex_fs_lseek(r, 0, SEEK_SET), -ESPIPE);
	CHECK_EQ(myrmex_fs_pread(r, buf, 4, 0), -ESPIPE);
	CHECK_EQ(myrmex_fs_pwrite(w, "x", 1, 0), -ESPIPE);
	CHECK_EQ(myrmex_fs_read(w, buf, 4), -EBADF);
	CHECK_EQ(myrmex_fs_write(r, "x", 1), -EBADF);
	CHECK_EQ(myrmex_fs_ftruncate(w, 0), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_WRITE, (uint64_t)w, 0, 0, 0, 0, 0, out), 0);
	CHECK_EQ(out[7], FS_KIND_PIPE);
	CHECK_EQ(fsx(&ch, FS_READ, (uint64_t)r, 0, 0, 0, 0, 0, out), 0);   /* 0 bytes: no wait */
	CHECK_EQ(out[7], FS_KIND_PIPE);
	CHECK_EQ(fsx(&ch, FS_READ, (uint64_t)r, CHAN_BYTES + 1, 0, 0, 0, 0, NULL), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_WRITE, (uint64_t)w, CHAN_BYTES + 1, 0, 0, 0, 0, NULL), -EINVAL);
	CHECK_EQ(myrmex_fs_call(FS_WRITE, (uint64_t)w, 4, 0, NULL, 0, NULL), -EINVAL);
	/* Data, then end of file once the writer is gone. */
	CHECK_EQ(myrmex_fs_write(w, "xyz", 3), 3);
	CHECK_EQ(fionread(r), 3);
	CHECK_EQ(myrmex_fs_close(w), 0);
	CHECK_EQ(myrmex_fs_read(r, buf, 2), 2);
	CHECK_EQ(myrmex_fs_read(r, buf + 2, 100), 1);
	CHECK(memcmp(buf, "xyz", 3) == 0, "pipe data: %.3s", buf);
	CHECK_EQ(myrmex_fs_read(r, buf, 100), 0);
	CHECK_EQ(myrmex_fs_close(r), 0);
	/* No reader: -EPIPE, said to be a pipe's. */
	if (!new_pipe(O_CLOEXEC, &r, &w))
		return;
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)r, F_GETFD, 0, NULL, 0, NULL), FD_CLOEXEC);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)w, F_GETFD, 0, NULL, 0, NULL), FD_CLOEXEC);
	CHECK_EQ(myrmex_fs_close(r), 0);
	CHECK_EQ(fsx(&ch, FS_WRITE, (uint64_t)w, 1, 0, 0, 0, 0, out), -EPIPE);
	CHECK_EQ(out[7], FS_KIND_PIPE);
	CHECK_EQ(myrmex_fs_close(w), 0);
}

static void nonblocking(void)
{
	int r, w;
	if (!new_pipe(O_NONBLOCK, &r, &w))
		return;
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)r, F_GETFL, 0, NULL, 0, NULL), O_RDONLY | O_NONBLOCK);
	CHECK_EQ(myrmex_fs_read(r, buf, 10), -EAGAIN);
	fill(w, PIPE_SIZE, 1);
	CHECK_EQ(myrmex_fs_write(w, "x", 1), -EAGAIN);
	CHECK_EQ(myrmex_fs_read(r, buf, 4000), 4000);
	CHECK_EQ(myrmex_fs_write(w, buf, 5000), 4000);   /* longer than PIPE_BUF: what fits */
	CHECK_EQ(myrmex_fs_write(w, buf, 100), -EAGAIN);
	CHECK_EQ(myrmex_fs_read(r, buf, 1000), 1000);
	CHECK_EQ(myrmex_fs_write(w, buf, 2000), -EAGAIN);   /* atomic: all or nothing */
	CHECK_EQ(myrmex_fs_write(w, buf, 4097), 1000);
	CHECK_EQ(fionread(r), PIPE_SIZE);
	/* Blocking again for the reader: it never has to wait here. */
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)r, F_SETFL, 0, NULL, 0, NULL), 0);
	CHECK_EQ(myrmex_fs_read(r, buf, 10), 10);
	CHECK_EQ(myrmex_fs_close(r), 0);
	CHECK_EQ(myrmex_fs_close(w), 0);
}

/* 64 pipes at most: tables made by FS_FORK hold the first ones. */
static void pipe_limit(void)
{
	int me = my_pid(), made = 0, r, w;
	for (int table = 0; table < 3; table++) {
		for (int i = 0; i < 30 && made < 64; i++, made++)
			if (!new_pipe(0, &r, &w))
				return;
		if (table < 2) {
			CHECK_EQ(myrmex_fs_call(FS_FORK, (uint64_t)me, FAKE_PID + (uint64_t)table, 0, NULL, 0,
			                        NULL), 0);
			for (int fd = 0; fd < 60; fd++)
				CHECK_EQ(myrmex_fs_close(fd), 0);
		}
	}
	CHECK_EQ(made, 64);
	CHECK_EQ(myrmex_fs_call(FS_PIPE, 0, 0, 0, NULL, 0, NULL), -ENFILE);
	CHECK_EQ(myrmex_fs_call(FS_EXIT, FAKE_PID, 0, 0, NULL, 0, NULL), 0);
	CHECK_EQ(myrmex_fs_call(FS_EXIT, FAKE_PID + 1, 0, 0, NULL, 0, NULL), 0);
	for (int fd = 0; fd < 8; fd++)
		CHECK_EQ(myrmex_fs_close(fd), 0);
	/* All given back: 30 can be made again. */
	for (int i = 0; i < 30; i++)
		if (!new_pipe(0, &r, &w))
			return;
	for (int fd = 0; fd < 60; fd++)
		CHECK_EQ(myrmex_fs_close(fd), 0);
}

static void test_basic(void)
{
	ends_and_errors();
	nonblocking();
	pipe_limit();
}

/* ------------------------------------------------------------ park */

static void expect_result(struct chan *c, long want, const char *what)
{
	struct fsreq res = { .with_data = 1 };
	long got = chan_wait(c, &res);
	CHECK(got == want, "%s: %ld, expected %ld", what, got, want);
	CHECK(res.out[7] == FS_KIND_PIPE, "%s: kind %llu", what, (unsigned long long)res.out[7]);
}

static void woken_reads(void)
{
	int r, w;
	struct fsreq req, res = { .with_data = 1 };
	if (!new_pipe(0, &r, &w))
		return;
	send_rw(&ch, FS_READ, r, 100, &req);
	CHECK_EQ(myrmex_fs_write(w, "0123456789", 10), 10);
	expect_result(&ch, 10, "a parked read");
	CHECK(memcmp(chan_buf(&ch), "0123456789", 10) == 0, "parked read: wrong bytes");
	/* Two parked reads, answered in the order they came. */
	struct chan both[2] = { ch, ch2 };
	send_rw(&both[0], FS_READ, r, 3, &req);
	send_rw(&both[1], FS_READ, r, 100, &req);
	CHECK_EQ(myrmex_fs_write(w, "abcde", 5), 5);
	for (int i = 0; i < 2; i++) {
		int which = -1;
		long got = chan_wait_any(both, 2, &which, &res);
		CHECK(which == i && got == (i ? 2 : 3), "parked read %d: channel %d, %ld bytes", i, which, got);
	}
	CHECK(memcmp(chan_buf(&ch), "abc", 3) == 0 && memcmp(chan_buf(&ch2), "de", 2) == 0,
	      "two parked reads: wrong bytes");
	/* A writer left in another table: end of file only when it exits. */
	CHECK_EQ(myrmex_fs_call(FS_FORK, (uint64_t)my_pid(), FAKE_PID, 0, NULL, 0, NULL), 0);
	CHECK_EQ(myrmex_fs_close(w), 0);
	send_rw(&ch, FS_READ, r, 100, &req);
	CHECK_EQ(myrmex_fs_call(FS_EXIT, FAKE_PID, 0, 0, NULL, 0, NULL), 0);
	expect_result(&ch, 0, "a read parked until the writer's FS_EXIT");
	CHECK_EQ(myrmex_fs_read(r, buf, 10), 0);
	CHECK_EQ(myrmex_fs_close(r), 0);
	/* Two descriptors of one writer: closing one is not the end. */
	if (!new_pipe(0, &r, &w))
		return;
	int w2 = (int)myrmex_fs_call(FS_DUP, (uint64_t)w, 0, 0, NULL, 0, NULL);
	send_rw(&ch, FS_READ, r, 100, &req);
	CHECK_EQ(myrmex_fs_close(w), 0);
	CHECK_EQ(myrmex_fs_write(w2, "z", 1), 1);
	expect_result(&ch, 1, "a read parked while a dup of the writer is left");
	send_rw(&ch, FS_READ, r, 100, &req);
	CHECK_EQ(myrmex_fs_close(w2), 0);
	expect_result(&ch, 0, "a read parked until the last writer closes");
	CHECK_EQ(myrmex_fs_close(r), 0);
}

static void woken_writes(void)
{
	int r, w;
	struct fsreq req;
	/* Full pipe: a parked write gets -EPIPE when the reader goes. */
	if (!new_pipe(0, &r, &w))
		return;
	fill(w, PIPE_SIZE, 2);
	send_rw(&ch, FS_WRITE, w, 10, &req);
	CHECK_EQ(myrmex_fs_close(r), 0);
	expect_result(&ch, -EPIPE, "a parked write, its reader gone");
	CHECK_EQ(myrmex_fs_close(w), 0);
	/* A long write puts in what fits at once; the reader gone, it says so. */
	if (!new_pipe(0, &r, &w))
		return;
	fill(w, PIPE_SIZE - 4096, 3);
	send_rw(&ch, FS_WRITE, w, 10000, &req);
	CHECK_EQ(fionread(r), PIPE_SIZE);
	CHECK_EQ(myrmex_fs_close(r), 0);
	expect_result(&ch, 4096, "a parked long write, its reader gone");
	CHECK_EQ(myrmex_fs_write(w, "x", 1), -EPIPE);
	CHECK_EQ(myrmex_fs_close(w), 0);
}

/* Reads n bytes of r and checks them against stream seed from byte from. */
static void drain_check(int r, uint32_t n, uint32_t seed, uint32_t from, const char *what)
{
	uint32_t got = 0;
	while (got < n) {
		long k = myrmex_fs_read(r, buf, n - got);
		if (k <= 0) {
			test_fail("%s: read after %u bytes: %ld", what, got, k);
			return;
		}
		for (long i = 0; i < k; i++) {
			if (buf[i] != stream_byte(seed, from + got + (uint32_t)i)) {
				test_fail("%s: byte %u differs", what, got + (uint32_t)i);
				return;
			}
		}
		got += (uint32_t)k;
	}
}

static void atomic_writes(void)
{
	int r, w;
	struct fsreq req;
	if (!new_pipe(0, &r, &w))
		return;
	/* 2 KiB of room: a 4 KiB write waits, whole. */
	fill(w, PIPE_SIZE - 2048, 4);
	for (uint32_t i = 0; i < 4096; i++)
		chan_buf(&ch)[i] = stream_byte(5, i);
	send_rw(&ch, FS_WRITE, w, 4096, &req);
	CHECK_EQ(fionread(r), PIPE_SIZE - 2048);   /* nothing of it went in */
	drain_check(r, 4096, 4, 0, "the first 4 KiB");
	expect_result(&ch, 4096, "an atomic write given room");
	CHECK_EQ(fionread(r), PIPE_SIZE - 2048);
	drain_check(r, PIPE_SIZE - 2048 - 4096, 4, 4096, "the rest of the fill");
	drain_check(r, 4096, 5, 0, "the atomic write");
	/* A 64 KiB write behind 1000 bytes: in piece by piece, then answered. */
	fill(w, 1000, 6);
	for (uint32_t i = 0; i < PIPE_SIZE; i++)
		chan_buf(&ch)[i] = stream_byte(7, i);
	send_rw(&ch, FS_WRITE, w, PIPE_SIZE, &req);
	CHECK_EQ(fionread(r), PIPE_SIZE);
	drain_check(r, 1000, 6, 0, "the 1000 bytes");
	drain_check(r, PIPE_SIZE - 1000, 7, 0, "the long write's first part");
	expect_result(&ch, PIPE_SIZE, "a long write completed");
	drain_check(r, 1000, 7, PIPE_SIZE - 1000, "the long write's end");
	CHECK_EQ(fionread(r), 0);
	CHECK_EQ(myrmex_fs_close(r), 0);
	CHECK_EQ(myrmex_fs_close(w), 0);
}

/* FS_CANCEL: a parked call given up by its thread takes nothing more. */
static void cancelled(void)
{
	int r, w;
	struct fsreq req;
	if (!new_pipe(0, &r, &w))
		return;
	send_rw(&ch, FS_READ, r, 100, &req);
	CHECK_EQ(fsx(&ch2, FS_CANCEL, ch.ctl, 0, 0, 0, 0, 0, NULL), 0);
	expect_result(&ch, -EINTR, "a cancelled read");
	CHECK_EQ(fsx(&ch2, FS_CANCEL, ch.ctl, 0, 0, 0, 0, 0, NULL), 0);   /* nothing parked now */
	CHECK_EQ(fsx(&ch2, FS_CANCEL, 1ull << 40, 0, 0, 0, 0, 0, NULL), 0);
	CHECK_EQ(myrmex_fs_write(w, "data", 4), 4);
	CHECK_EQ(myrmex_fs_read(r, buf, 100), 4);   /* all of it is still here */
	/* A cancelled write keeps what it had put in. */
	fill(w, PIPE_SIZE - 100, 8);
	send_rw(&ch, FS_WRITE, w, 5000, &req);
	CHECK_EQ(fsx(&ch2, FS_CANCEL, ch.ctl, 0, 0, 0, 0, 0, NULL), 0);
	expect_result(&ch, -EINTR, "a cancelled write");
	CHECK_EQ(fionread(r), PIPE_SIZE);
	drain_check(r, PIPE_SIZE - 100, 8, 0, "the bytes before a cancelled write");
	CHECK_EQ(fionread(r), 100);
	CHECK_EQ(myrmex_fs_close(r), 0);
	CHECK_EQ(myrmex_fs_close(w), 0);
}

/* 32 reads parked at once per process: the 33rd is refused; the 32 get a
 * byte each, in the order they came. */
static void parked_limit(void)
{
	static struct chan many[PARKED_PER_PROCESS + 1];
	int r, w, which = -1;
	struct fsreq req, res = { .with_data = 1 };
	if (!new_pipe(0, &r, &w))
		return;
	for (int i = 0; i <= PARKED_PER_PROCESS; i++) {
		if (!chan_open_pages(&many[i], 1))
			return;
		send_rw(&many[i], FS_READ, r, 1, &req);
	}
	long got = chan_wait_any(many, PARKED_PER_PROCESS + 1, &which, &res);
	CHECK(which == PARKED_PER_PROCESS && got == -EAGAIN, "read %d parked: channel %d, %ld",
	      PARKED_PER_PROCESS + 1, which, got);
	for (int i = 0; i < PARKED_PER_PROCESS; i++)
		buf[i] = (uint8_t)('A' + i);
	CHECK_EQ(myrmex_fs_write(w, buf, PARKED_PER_PROCESS), PARKED_PER_PROCESS);
	for (int i = 0; i < PARKED_PER_PROCESS; i++) {
		got = chan_wait_any(many, PARKED_PER_PROCESS + 1, &which, &res);
		CHECK(which == i && got == 1 && chan_buf(&many[i])[0] == 'A' + i,
		      "parked read %d: answered on channel %d with %ld", i, which, got);
	}
	CHECK_EQ(myrmex_fs_close(r), 0);
	CHECK_EQ(myrmex_fs_close(w), 0);
}

static void test_park(void)
{
	woken_reads();
	parked_limit();
	woken_writes();
	atomic_writes();
	cancelled();
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: nothing to test");
		return 0;
	}
	const char *mode = argc > 1 ? argv[1] : "";
	if (!fs_ready() || !chan_open(&ch) || !chan_open(&ch2) || !become_pm())
		return test_exit_code();
	if (strcmp(mode, "basic") == 0)
		test_basic();
	else if (strcmp(mode, "park") == 0)
		test_park();
	else
		test_fail("usage: t_fs_pipe basic|park");
	return test_exit_code();
}
