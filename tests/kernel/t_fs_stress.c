/*
 * t_fs_stress: many processes at the file manager at once (issue 19: its
 * configurations klt and one/split must all give what a serial order
 * would). STRESS_PROCS children each run STRESS_ROUNDS rounds of: a file
 * written in pieces in a private directory, read back, renamed over an
 * older one, truncated and read again; a file written in a shared
 * directory and renamed into a second shared one (across directories),
 * the one from two rounds before unlinked; a file renamed over the one
 * name all children share (`hot`), which must then read back whole as
 * some child's complete file; a directory made and the previous one
 * removed. Every file's bytes say who wrote it in which round and how
 * long it is, so a torn or mixed file is caught. The parent then checks
 * the listings and contents left; the test init's e2fsck of fs.img after
 * the boot checks the disk.
 *
 *   t_fs_stress run           the test (spawns the children, waits)
 *   t_fs_stress child <k>     child k
 */
#define _GNU_SOURCE
#define TEST_NAME "t_fs_stress"
#include "test_check.h"
#include "fs_test.h"
#include "posix_test.h"

#include <stdlib.h>
#include <sys/wait.h>

#define STRESS_PROCS 6
#define STRESS_ROUNDS 30
#define STRESS_MAX 20000u   /* bytes of the largest file */
#define HEADER 16u

static char *const child_envp[] = { "MYRMEX_TEST=1", NULL };
static uint8_t want[STRESS_MAX], got[STRESS_MAX + 1];

/* Content of child k's file of round r, len bytes: a header (magic, k, r,
 * len) and a pattern following from all three. */
static void content(uint8_t *p, unsigned k, unsigned r, unsigned len)
{
	for (unsigned i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 31u + k * 7u + r * 13u);
	p[0] = 'S';
	p[1] = (uint8_t)k;
	p[2] = (uint8_t)r;
	p[3] = (uint8_t)(r >> 8);
	memcpy(p + 4, &len, 4);
}

static unsigned length_of(unsigned k, unsigned r)
{
	return (k * 4099u + r * 1237u) % (STRESS_MAX - HEADER) + HEADER;
}

/* Reads all of path into got: its size, or -errno. */
static long read_all(const char *path)
{
	int fd = myrmex_fs_open(path, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	long total = 0, n;
	while (total <= (long)STRESS_MAX &&
	       (n = myrmex_fs_read(fd, got + total, STRESS_MAX + 1 - (size_t)total)) > 0)
		total += n;
	myrmex_fs_close(fd);
	return n < 0 ? n : total;
}

/* path holds exactly child k's file of round r, cut to len bytes. */
static void expect(const char *path, unsigned k, unsigned r, unsigned full, unsigned len)
{
	content(want, k, r, full);
	long n = read_all(path);
	if (n != (long)len)
		test_fail("%s: %ld bytes, want %u (child %u round %u)", path, n, len, k, r);
	else if (memcmp(got, want, len) != 0)
		test_fail("%s: contents differ (child %u round %u)", path, k, r);
}

/* path holds some child's whole file: the header names which. */
static void expect_whole(const char *path)
{
	long n = read_all(path);
	if (n < (long)HEADER || got[0] != 'S') {
		test_fail("%s: %ld bytes, no header", path, n);
		return;
	}
	unsigned k = got[1], r = got[2] | (unsigned)got[3] << 8, len;
	memcpy(&len, got + 4, 4);
	if (k >= STRESS_PROCS || r >= STRESS_ROUNDS || len != length_of(k, r) || n != (long)len) {
		test_fail("%s: header says child %u round %u, %u bytes; has %ld", path, k, r, len, n);
		return;
	}
	content(want, k, r, len);
	if (memcmp(got, want, len) != 0)
		test_fail("%s: torn (child %u round %u)", path, k, r);
}

/* Writes child k's file of round r to path in pieces of varied sizes. */
static void put(const char *path, unsigned k, unsigned r)
{
	unsigned len = length_of(k, r);
	content(want, k, r, len);
	int fd = myrmex_fs_open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0) {
		test_fail("open(%s): %d", path, fd);
		return;
	}
	for (unsigned off = 0, piece = 1 + (k + r) % 5000; off < len; off += piece) {
		unsigned n = len - off < piece ? len - off : piece;
		long w = (off / piece) % 2 ? myrmex_fs_pwrite(fd, want + off, n, off)
		                           : myrmex_fs_write(fd, want + off, n);
		if (w != (long)n) {
			test_fail("write(%s, %u at %u): %ld", path, n, off, w);
			break;
		}
		if ((off / piece) % 2)
			myrmex_fs_lseek(fd, off + n, SEEK_SET);
	}
	CHECK_EQ(myrmex_fs_close(fd), 0);
}

static void child(unsigned k)
{
	char a[96], b[96];
	snprintf(a, sizeof a, "/stress/p%u", k);
	CHECK_EQ(myrmex_fs_mkdir(a, 0755), 0);
	for (unsigned r = 0; r < STRESS_ROUNDS && test_exit_code() == 0; r++) {
		unsigned len = length_of(k, r);
		/* Private: written, read, renamed over, truncated, read. */
		snprintf(a, sizeof a, "/stress/p%u/f%u", k, r % 3);
		snprintf(b, sizeof b, "/stress/p%u/g%u", k, r % 3);
		put(a, k, r);
		expect(a, k, r, len, len);
		CHECK_EQ(myrmex_fs_rename(a, b), 0);
		int fd = myrmex_fs_open(b, O_RDWR, 0);
		CHECK_EQ(myrmex_fs_ftruncate(fd, len / 2), 0);
		struct myrmex_stat st;
		CHECK_EQ(myrmex_fs_fstat(fd, &st), 0);
		CHECK_EQ((long)st.st_size, (long)(len / 2));
		myrmex_fs_close(fd);
		expect(b, k, r, len, len / 2);
		/* Shared: written in one directory, renamed into the other. */
		snprintf(a, sizeof a, "/stress/shared/t%u-%u", k, r);
		snprintf(b, sizeof b, "/stress/shared2/t%u-%u", k, r);
		put(a, k, r);
		CHECK_EQ(myrmex_fs_rename(a, b), 0);
		expect(b, k, r, len, len);
		if (r >= 2) {
			snprintf(b, sizeof b, "/stress/shared2/t%u-%u", k, r - 2);
			CHECK_EQ(myrmex_fs_unlink(b), 0);
		}
		/* The one name all share: whole files only. */
		snprintf(a, sizeof a, "/stress/shared/h%u", k);
		put(a, k, r);
		CHECK_EQ(myrmex_fs_rename(a, "/stress/shared/hot"), 0);
		expect_whole("/stress/shared/hot");
		/* Directories come and go beside the files. */
		snprintf(a, sizeof a, "/stress/shared/d%u-%u", k, r);
		CHECK_EQ(myrmex_fs_mkdir(a, 0755), 0);
		if (r >= 1) {
			snprintf(a, sizeof a, "/stress/shared/d%u-%u", k, r - 1);
			CHECK_EQ(myrmex_fs_rmdir(a), 0);
		}
	}
}

/* What the children left. */
static void check_end(void)
{
	static const char *names[3 * STRESS_PROCS + 1];
	static char text[3 * STRESS_PROCS][24];
	unsigned last = STRESS_ROUNDS - 1;
	for (unsigned k = 0; k < STRESS_PROCS; k++) {
		char p[64];
		for (unsigned r = last - 2; r <= last; r++) {
			snprintf(p, sizeof p, "/stress/p%u/g%u", k, r % 3);
			expect(p, k, r, length_of(k, r), length_of(k, r) / 2);
		}
		snprintf(p, sizeof p, "/stress/p%u", k);
		const char *g[] = { "g0", "g1", "g2" };
		fs_expect_listing(p, g, 3);
		snprintf(text[2 * k], sizeof text[0], "t%u-%u", k, last - 1);
		snprintf(text[2 * k + 1], sizeof text[0], "t%u-%u", k, last);
		names[2 * k] = text[2 * k];
		names[2 * k + 1] = text[2 * k + 1];
		for (unsigned r = last - 1; r <= last; r++) {
			snprintf(p, sizeof p, "/stress/shared2/t%u-%u", k, r);
			expect(p, k, r, length_of(k, r), length_of(k, r));
		}
	}
	fs_expect_listing("/stress/shared2", names, 2 * STRESS_PROCS);
	for (unsigned k = 0; k < STRESS_PROCS; k++) {
		snprintf(text[k], sizeof text[0], "d%u-%u", k, last);
		names[k] = text[k];
	}
	names[STRESS_PROCS] = "hot";
	fs_expect_listing("/stress/shared", names, STRESS_PROCS + 1);
	expect_whole("/stress/shared/hot");
}

static void run(void)
{
	CHECK_EQ(myrmex_fs_mkdir("/stress", 0755), 0);
	CHECK_EQ(myrmex_fs_mkdir("/stress/shared", 0755), 0);
	CHECK_EQ(myrmex_fs_mkdir("/stress/shared2", 0755), 0);
	long pids[STRESS_PROCS];
	for (unsigned k = 0; k < STRESS_PROCS; k++) {
		char arg[8];
		snprintf(arg, sizeof arg, "%u", k);
		char *argv[] = { "t_fs_stress", "child", arg, NULL };
		pids[k] = myrmex_spawn("t_fs_stress", argv, child_envp, -1);
		if (pids[k] <= 0)
			test_fail("spawn(child %u): %ld", k, pids[k]);
	}
	for (unsigned k = 0; k < STRESS_PROCS; k++) {
		if (pids[k] <= 0)
			continue;
		int status = wait_child(pids[k]);
		if (status != 0)
			test_fail("child %u: status %#x", k, status);
	}
	if (test_exit_code() == 0)
		check_end();
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: nothing to test");
		return 0;
	}
	if (!fs_ready())
		return test_exit_code();
	if (argc == 2 && strcmp(argv[1], "run") == 0)
		run();
	else if (argc == 3 && strcmp(argv[1], "child") == 0)
		child((unsigned)atoi(argv[2]));
	else
		test_fail("usage: t_fs_stress run | child <k>");
	return test_exit_code();
}
