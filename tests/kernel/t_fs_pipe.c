/*
 * t_fs_pipe: pipes in the file manager (FS_PIPE and reads and writes on
 * them). The test registers as the process manager (coreid 5) for FS_FORK
 * and FS_EXIT of other processes.
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
 *                       call: a read woken by a write; two reads answered in
 *                       order; end of file when another table's writer goes
 *                       (FS_EXIT) and only when the last dup of a writer is
 *                       closed; a parked write answered -EPIPE, or with the
 *                       bytes it put in, when the reader goes; a 4 KiB
 *                       write waiting whole for room (atomic) while a longer
 *                       one goes in piece by piece and completes; FS_CANCEL
 *                       of a parked read (-EINTR, it takes nothing) and
 *                       write (what it put in stays)
 *   t_fs_pipe transfer  1 MiB from a child process through a pipe, checked
 *                       by CRC-32: the child gets the parent's descriptors
 *                       by FS_FORK (one offset shared with the parent) and
 *                       its current directory; the child, not the process
 *                       manager, is refused FS_FORK, FS_EXEC, FS_EXIT and
 *                       FS_OPEN_AS for another pid (-EPERM)
 *   t_fs_pipe exit      a child's read parked on a pipe, the child killed,
 *                       FS_EXIT sent for it: the read is answered (to
 *                       nobody) and what is written next is still there
 *   t_fs_pipe child-writer <r> <w> <file>, child-reader <r> <signal-w>:
 *                       the children of transfer and exit
 */
#define _GNU_SOURCE
#define TEST_NAME "t_fs_pipe"
#include "test_check.h"
#include "fs_test.h"
#include "fs_sums.h"
#include "posix_test.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#define PIPE_SIZE 65536u
#define TRANSFER_BYTES (1u << 20)
#define TRANSFER_SEED 7u
#define HANDSHAKE_TRIES 30000   /* 1 ms naps while a child waits for FS_FORK */

static struct chan ch, ch2;
static char *const child_envp[] = { "MYRMEX_TEST=1", NULL };
static uint8_t buf[PIPE_SIZE + 4096];

/* A new pipe: 1 with its ends in r and w. */
static int new_pipe(uint64_t flags, int *r, int *w)
{
	uint64_t out[8];
	long rc = myrmex_fs_call(FS_PIPE, flags, 0, 0, NULL, 0, out);
	if (rc != 0) {
		test_fail("FS_PIPE(%#llx): %ld", (unsigned long long)flags, rc);
		return 0;
	}
	*r = (int)out[0];
	*w = (int)out[1];
	return 1;
}

static long fionread(int fd)
{
	int n = -1;
	long rc = fsx(&ch2, FS_IOCTL, (uint64_t)fd, FIONREAD, 0, 0, 0, 0, NULL);
	memcpy(&n, chan_buf(&ch2), sizeof n);
	return rc < 0 ? rc : n;
}

/* Sends an asynchronous FS_READ or FS_WRITE of len bytes on channel c. */
static void send_rw(struct chan *c, uint32_t opcode, int fd, uint64_t len, struct fsreq *r)
{
	memset(r, 0, sizeof *r);
	r->a[0] = (uint64_t)fd;
	r->a[1] = len;
	r->with_data = 1;
	long rc = chan_send(c, opcode, r);
	if (rc != 0)
		test_fail("callasync(opcode %u): %ld", opcode, rc);
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

static void test_park(void)
{
	woken_reads();
	woken_writes();
	atomic_writes();
	cancelled();
}

/* ------------------------------------------------------------ transfer */

static long spawn_child(const char *mode, int a, int b, int c)
{
	char sa[16], sb[16], sc[16];
	snprintf(sa, sizeof sa, "%d", a);
	snprintf(sb, sizeof sb, "%d", b);
	snprintf(sc, sizeof sc, "%d", c);
	char *argv[] = { "t_fs_pipe", (char *)mode, sa, sb, sc, NULL };
	long pid = myrmex_spawn("t_fs_pipe", argv, child_envp, -1);
	if (pid <= 0)
		test_fail("spawn(t_fs_pipe %s): %ld", mode, pid);
	else
		CHECK_EQ(myrmex_fs_call(FS_FORK, (uint64_t)my_pid(), (uint64_t)pid, 0, NULL, 0, NULL), 0);
	return pid;
}

static void test_transfer(void)
{
	static const size_t sizes[] = { 65536, 1, 3000, 4096, 100000, 777 };
	CHECK_EQ(fsp(&ch, FS_CHDIR, "/nest", 0, 0, 0), 0);
	int file = myrmex_fs_open("/text/hello.txt", O_RDONLY, 0), r, w;
	if (!new_pipe(0, &r, &w))
		return;
	long pid = spawn_child("child-writer", r, w, file);
	CHECK_EQ(myrmex_fs_close(w), 0);
	uint32_t crc = 0, want = 0;
	uint64_t total = 0;
	long n;
	for (unsigned i = 0; (n = myrmex_fs_read(r, buf, sizes[i % 6])) > 0; i++) {
		crc = fs_crc32(crc, buf, (size_t)n);
		total += (uint64_t)n;
	}
	CHECK_EQ(n, 0);
	for (uint32_t i = 0; i < TRANSFER_BYTES; i += sizeof buf) {
		for (uint32_t k = 0; k < sizeof buf && i + k < TRANSFER_BYTES; k++)
			buf[k] = stream_byte(TRANSFER_SEED, i + k);
		uint32_t len = TRANSFER_BYTES - i < sizeof buf ? TRANSFER_BYTES - i : sizeof buf;
		want = fs_crc32(want, buf, len);
	}
	CHECK(total == TRANSFER_BYTES && crc == want, "1 MiB through a pipe: %llu bytes, crc %08x, expected %08x",
	      (unsigned long long)total, crc, want);
	if (pid > 0) {
		int status = wait_child(pid);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the writer: status %#x", status);
	}
	/* The child read 6 bytes of the shared description. */
	char text[8] = "";
	CHECK_EQ(myrmex_fs_read(file, text, 4), 4);
	CHECK(memcmp(text, "from", 4) == 0, "the shared offset: read \"%.4s\"", text);
	CHECK_EQ(myrmex_fs_close(file), 0);
	CHECK_EQ(myrmex_fs_close(r), 0);
	CHECK_EQ(fsp(&ch, FS_CHDIR, "/", 0, 0, 0), 0);
}

/* A child: waits until FS_FORK gave it descriptor fd. */
static int wait_for_fd(int fd)
{
	struct myrmex_stat st;
	for (int i = 0; i < HANDSHAKE_TRIES; i++) {
		if (myrmex_fs_fstat(fd, &st) == 0)
			return 1;
		myrmex_sleep_ns(1000000);
	}
	test_fail("child: descriptor %d never came", fd);
	return 0;
}

static void child_writer(int r, int w, int file)
{
	static const size_t sizes[] = { 1, 4096, 65536, 1000, 100000, 4097 };
	static uint8_t data[TRANSFER_BYTES];
	int parent = (int)raw0(SYS_getppid);
	if (!wait_for_fd(w))
		return;
	CHECK_EQ(myrmex_fs_close(r), 0);
	long len = fsx(&ch, FS_GETCWD, 4096, 0, 0, 0, 0, 0, NULL);
	CHECK(len == 6 && strcmp((char *)chan_buf(&ch), "/nest") == 0, "child: getcwd %ld \"%s\"", len,
	      len > 0 ? (char *)chan_buf(&ch) : "");
	char text[8] = "";
	CHECK_EQ(myrmex_fs_read(file, text, 6), 6);
	/* Not the process manager: another process's calls are refused. */
	CHECK_EQ(myrmex_fs_call(FS_FORK, (uint64_t)parent, FAKE_PID, 0, NULL, 0, NULL), -EPERM);
	CHECK_EQ(myrmex_fs_call(FS_FORK, (uint64_t)my_pid(), FAKE_PID, 0, NULL, 0, NULL), -EPERM);
	CHECK_EQ(myrmex_fs_call(FS_EXEC, (uint64_t)parent, 0, 0, NULL, 0, NULL), -EPERM);
	CHECK_EQ(myrmex_fs_call(FS_EXEC, (uint64_t)my_pid(), 0, 0, NULL, 0, NULL), -EPERM);
	CHECK_EQ(myrmex_fs_call(FS_EXIT, (uint64_t)parent, 0, 0, NULL, 0, NULL), -EPERM);
	strcpy((char *)chan_buf(&ch), "/text/hello.txt");
	CHECK_EQ(fsx(&ch, FS_OPEN_AS, O_RDONLY, 0, 0, 0, 0, (uint64_t)parent, NULL), -EPERM);
	for (uint32_t i = 0; i < TRANSFER_BYTES; i++)
		data[i] = stream_byte(TRANSFER_SEED, i);
	for (uint32_t done = 0, i = 0; done < TRANSFER_BYTES; i++) {
		size_t n = TRANSFER_BYTES - done < sizes[i % 6] ? TRANSFER_BYTES - done : sizes[i % 6];
		long put = myrmex_fs_write(w, data + done, n);
		if (put != (long)n) {
			test_fail("child: write of %zu at %u: %ld", n, done, put);
			break;
		}
		done += (uint32_t)n;
	}
	/* Its own end: everything closed, so the parent sees the end of file. */
	CHECK_EQ(myrmex_fs_call(FS_EXIT, (uint64_t)my_pid(), 0, 0, NULL, 0, NULL), 0);
	struct myrmex_stat st;
	CHECK_EQ(myrmex_fs_fstat(w, &st), -EBADF);
}

/* ------------------------------------------------------------ exit */

static void test_exit(void)
{
	int r, w, sr, sw;
	if (!new_pipe(0, &r, &w) || !new_pipe(0, &sr, &sw))
		return;
	long pid = spawn_child("child-reader", r, sw, 0);
	if (pid <= 0)
		return;
	/* Its read is parked once its signal byte is here. */
	CHECK_EQ(myrmex_fs_read(sr, buf, 1), 1);
	CHECK_EQ(raw2(SYS_kill, pid, SIGKILL), 0);
	int status = wait_child(pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the reader: status %#x", status);
	CHECK_EQ(myrmex_fs_call(FS_EXIT, (uint64_t)pid, 0, 0, NULL, 0, NULL), 0);
	/* Nobody took what comes next. */
	CHECK_EQ(myrmex_fs_write(w, "after", 5), 5);
	CHECK_EQ(myrmex_fs_read(r, buf, 100), 5);
	CHECK(memcmp(buf, "after", 5) == 0, "after the reader's end: %.5s", buf);
	int fds[] = { r, w, sr, sw };
	for (int i = 0; i < 4; i++)
		CHECK_EQ(myrmex_fs_close(fds[i]), 0);
}

static void child_reader(int r, int sw)
{
	struct fsreq req;
	if (!wait_for_fd(sw))
		return;
	send_rw(&ch, FS_READ, r, 100, &req);   /* parked: the parent holds the writer */
	CHECK_EQ(myrmex_fs_write(sw, "p", 1), 1);
	struct fsreq res = { .with_data = 1 };
	long got = chan_wait(&ch, &res);   /* the parent kills us first */
	test_fail("child: the parked read came back: %ld", got);
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: nothing to test");
		return 0;
	}
	const char *mode = argc > 1 ? argv[1] : "";
	if (!fs_ready() || !chan_open(&ch) || !chan_open(&ch2))
		return test_exit_code();
	int child = strncmp(mode, "child-", 6) == 0;
	if (!child && !become_pm())
		return test_exit_code();
	if (strcmp(mode, "basic") == 0)
		test_basic();
	else if (strcmp(mode, "park") == 0)
		test_park();
	else if (strcmp(mode, "transfer") == 0)
		test_transfer();
	else if (strcmp(mode, "exit") == 0)
		test_exit();
	else if (strcmp(mode, "child-writer") == 0 && argc == 5)
		child_writer(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	else if (strcmp(mode, "child-reader") == 0 && argc >= 4)
		child_reader(atoi(argv[2]), atoi(argv[3]));
	else
		test_fail("usage: t_fs_pipe basic|park|transfer|exit");
	return test_exit_code();
}
