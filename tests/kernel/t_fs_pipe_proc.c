/*
 * t_fs_pipe_proc: pipes between processes through the file manager. The
 * test registers as the process manager (coreid 5): it gives a child it
 * spawns its descriptors with FS_FORK, and ends a child's files with
 * FS_EXIT, as the process manager and the kernel do for POSIX processes.
 *
 *   t_fs_pipe_proc transfer  1 MiB from a child process through a pipe,
 *                       checked by CRC-32: the child gets the parent's
 *                       descriptors by FS_FORK (one offset shared with the
 *                       parent) and its current directory; the child, not
 *                       the process manager, is refused FS_FORK, FS_EXEC,
 *                       FS_EXIT and FS_OPEN_AS for another pid (-EPERM)
 *   t_fs_pipe_proc exit      a child's read parked on a pipe, the child
 *                       killed, FS_EXIT sent for it: the read is answered
 *                       (to nobody) and what is written next is still there
 *   t_fs_pipe_proc child-writer <r> <w> <file>, child-reader <r> <signal-w>:
 *                       the children of transfer and exit
 */
#define _GNU_SOURCE
#define TEST_NAME "t_fs_pipe_proc"
#include "test_check.h"
#include "fs_test.h"
#include "fs_sums.h"
#include "posix_test.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

#define TRANSFER_BYTES (1u << 20)
#define TRANSFER_SEED 7u
#define HANDSHAKE_TRIES 30000   /* 1 ms naps while a child waits for FS_FORK */

static struct chan ch;
static char *const child_envp[] = { "MYRMEX_TEST=1", NULL };
static uint8_t buf[65536 + 4096];

/* ------------------------------------------------------------ transfer */

static long spawn_child(const char *mode, int a, int b, int c)
{
	char sa[16], sb[16], sc[16];
	snprintf(sa, sizeof sa, "%d", a);
	snprintf(sb, sizeof sb, "%d", b);
	snprintf(sc, sizeof sc, "%d", c);
	char *argv[] = { "t_fs_pipe_proc", (char *)mode, sa, sb, sc, NULL };
	long pid = myrmex_spawn("t_fs_pipe_proc", argv, child_envp, -1);
	if (pid <= 0)
		test_fail("spawn(t_fs_pipe_proc %s): %ld", mode, pid);
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
	if (!fs_ready() || !chan_open(&ch))
		return test_exit_code();
	int child = strncmp(mode, "child-", 6) == 0;
	if (!child && !become_pm())
		return test_exit_code();
	if (strcmp(mode, "transfer") == 0)
		test_transfer();
	else if (strcmp(mode, "exit") == 0)
		test_exit();
	else if (strcmp(mode, "child-writer") == 0 && argc == 5)
		child_writer(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	else if (strcmp(mode, "child-reader") == 0 && argc >= 4)
		child_reader(atoi(argv[2]), atoi(argv[3]));
	else
		test_fail("usage: t_fs_pipe_proc transfer|exit");
	return test_exit_code();
}
