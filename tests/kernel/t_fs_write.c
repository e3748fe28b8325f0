/*
 * t_fs_write: changing the test image (build/test/fs.img) through the file
 * manager, and finding the changes again after it was shut down.
 *
 *   t_fs_write write    creates, writes (appends; a file grown past the 12
 *                       direct blocks; a write past the end leaving a
 *                       hole), reads back, renames (in one directory,
 *                       across directories, onto an existing file),
 *                       truncates (shrink, then grow: the tail reads as
 *                       zeros), unlinks (also an open file: it lives on),
 *                       makes and removes directories, nested ones, and a
 *                       directory of 120 entries (two blocks) of which
 *                       half are removed; then checks the final state
 *   t_fs_write persist  run by a new file manager after the write test's
 *                       was shut down: the same final state, read from
 *                       the disk
 *
 * The final state (keep in step with FS_EXPECT in tools/fscheck.py, which
 * checks the image with debugfs after the guest has powered off):
 *   /made                keep.txt big holey trunc sub lots
 *   /made/keep.txt       KEEP_TXT (written, then appended)
 *   /made/big            fs_pattern(1) for BIG_SIZE bytes
 *   /made/holey          zeros up to HOLE_AT, then fs_pattern(2) for 100
 *   /made/trunc          fs_pattern(3) for 5000 bytes, zeros up to 70000
 *   /made/sub            moved.txt a;  /made/sub/a: b;  /made/sub/a/b: leaf.txt
 *   /made/lots           lots_name(i) for even i < LOTS, holding "lots <i>\n"
 *   gone: /made/old.txt /made/new.txt /made/gone.txt /made/tmpdir
 *         /made/sub/a/b/c, the odd lots_name(i)
 */
#define _GNU_SOURCE
#define TEST_NAME "t_fs_write"
#include "test_check.h"
#include "fs_test.h"
#include "fs_sums.h"

#define KEEP_LINE1 "line 1: written by t_fs write\n"
#define KEEP_LINE2 "line 2: appended\n"
#define BIG_SIZE (300u * 1024 + 123)
#define BIG_PIECE 7000u                /* odd-sized writes */
#define HOLE_AT 200000u
#define TRUNC_FIRST 100000u
#define TRUNC_SHORT 5000u
#define TRUNC_LONG 70000u
#define LOTS 120
#define BLOCK 4096u

static uint8_t data[BIG_SIZE];
static uint8_t want[BIG_SIZE];

static void lots_name(char *out, size_t size, int i)
{
	snprintf(out, size, "lots-entry-with-a-longer-name-%03d", i);
}

/* ------------------------------------------------------------ the steps */

static void write_keep(void)
{
	CHECK_EQ(fs_put_str("/made/keep.txt", KEEP_LINE1), (long)strlen(KEEP_LINE1));
	int fd = myrmex_fs_open("/made/keep.txt", O_WRONLY | O_APPEND, 0);
	if (fd < 0) {
		test_fail("open(keep.txt, O_APPEND): %d", fd);
		return;
	}
	/* O_APPEND writes at the end wherever the offset is. */
	CHECK_EQ(myrmex_fs_lseek(fd, 0, SEEK_SET), 0);
	CHECK_EQ(myrmex_fs_write(fd, KEEP_LINE2, strlen(KEEP_LINE2)), (long)strlen(KEEP_LINE2));
	CHECK_EQ(myrmex_fs_close(fd), 0);
	fs_expect_text("/made/keep.txt", KEEP_LINE1 KEEP_LINE2);
}

/* BIG_SIZE bytes in BIG_PIECE writes: past 48 KiB the file needs its
 * indirect block. */
static void write_big(void)
{
	fs_fill(data, 1, 0, BIG_SIZE);
	int fd = myrmex_fs_open("/made/big", O_CREAT | O_RDWR | O_EXCL, 0644);
	if (fd < 0) {
		test_fail("open(/made/big, O_CREAT|O_EXCL): %d", fd);
		return;
	}
	for (uint32_t off = 0; off < BIG_SIZE; off += BIG_PIECE) {
		uint32_t n = BIG_SIZE - off < BIG_PIECE ? BIG_SIZE - off : BIG_PIECE;
		long r = myrmex_fs_write(fd, data + off, n);
		if (r != (long)n) {
			test_fail("write(/made/big, %u at %u): %ld", n, off, r);
			break;
		}
	}
	struct myrmex_stat st;
	CHECK_EQ(myrmex_fs_fstat(fd, &st), 0);
	uint64_t data_blocks = (BIG_SIZE + BLOCK - 1) / BLOCK;
	CHECK(st.st_size == BIG_SIZE && (uint64_t)st.st_blocks >= (data_blocks + 1) * 8,
	      "fstat(/made/big): size %lld, %lld sectors; expected %u and at least %llu",
	      (long long)st.st_size, (long long)st.st_blocks, BIG_SIZE,
	      (unsigned long long)(data_blocks + 1) * 8);
	/* Read back through the same descriptor, from the start. */
	CHECK_EQ(myrmex_fs_lseek(fd, 0, SEEK_SET), 0);
	memset(want, 0, sizeof want);
	CHECK_EQ(myrmex_fs_read(fd, want, BIG_SIZE), (long)BIG_SIZE);
	CHECK(memcmp(want, data, BIG_SIZE) == 0, "/made/big read back differs");
	CHECK_EQ(myrmex_fs_close(fd), 0);
	fs_expect_file("/made/big", data, BIG_SIZE);
}

/* One write far past the end: the blocks between are a hole that reads as
 * zeros and takes no space. */
static void write_holey(void)
{
	uint8_t tail[100];
	fs_fill(tail, 2, HOLE_AT, sizeof tail);
	int fd = myrmex_fs_open("/made/holey", O_CREAT | O_RDWR, 0644);
	if (fd < 0) {
		test_fail("open(/made/holey): %d", fd);
		return;
	}
	CHECK_EQ(myrmex_fs_pwrite(fd, tail, sizeof tail, HOLE_AT), (long)sizeof tail);
	struct myrmex_stat st;
	CHECK_EQ(myrmex_fs_fstat(fd, &st), 0);
	CHECK(st.st_size == HOLE_AT + sizeof tail && st.st_blocks <= 3 * 8,
	      "fstat(/made/holey): size %lld, %lld sectors: expected %zu, a hole before",
	      (long long)st.st_size, (long long)st.st_blocks, HOLE_AT + sizeof tail);
	CHECK_EQ(myrmex_fs_close(fd), 0);
	memset(want, 0, HOLE_AT);
	memcpy(want + HOLE_AT, tail, sizeof tail);
	fs_expect_file("/made/holey", want, HOLE_AT + sizeof tail);
}

/* Shrinking drops the tail; growing again must read zeros there, also in
 * the block that was cut in the middle. */
static void write_trunc(void)
{
	fs_fill(data, 3, 0, TRUNC_FIRST);
	CHECK_EQ(fs_put("/made/trunc", data, TRUNC_FIRST), (long)TRUNC_FIRST);
	int fd = myrmex_fs_open("/made/trunc", O_RDWR, 0);
	if (fd < 0) {
		test_fail("open(/made/trunc, O_RDWR): %d", fd);
		return;
	}
	struct myrmex_stat st;
	CHECK_EQ(myrmex_fs_ftruncate(fd, TRUNC_SHORT), 0);
	CHECK_EQ(myrmex_fs_fstat(fd, &st), 0);
	CHECK_EQ(st.st_size, TRUNC_SHORT);
	CHECK_EQ(myrmex_fs_pread(fd, want, TRUNC_FIRST, 0), (long)TRUNC_SHORT);
	CHECK_EQ(myrmex_fs_ftruncate(fd, TRUNC_LONG), 0);
	CHECK_EQ(myrmex_fs_fstat(fd, &st), 0);
	CHECK_EQ(st.st_size, TRUNC_LONG);
	CHECK_EQ(myrmex_fs_close(fd), 0);
	memset(want, 0, TRUNC_LONG);
	memcpy(want, data, TRUNC_SHORT);
	fs_expect_file("/made/trunc", want, TRUNC_LONG);
}

static void renames(void)
{
	fs_put_str("/made/old.txt", "renamed twice\n");
	CHECK_EQ(myrmex_fs_rename("/made/old.txt", "/made/new.txt"), 0);
	fs_expect_absent("/made/old.txt");
	fs_expect_text("/made/new.txt", "renamed twice\n");
	CHECK_EQ(myrmex_fs_rename("/made/new.txt", "/made/sub/moved.txt"), 0);
	fs_expect_absent("/made/new.txt");
	fs_expect_text("/made/sub/moved.txt", "renamed twice\n");
	/* Onto an existing name: it is replaced. */
	fs_put_str("/made/tmp1", "the replacement\n");
	fs_put_str("/made/tmp2", "replaced\n");
	CHECK_EQ(myrmex_fs_rename("/made/tmp1", "/made/tmp2"), 0);
	fs_expect_absent("/made/tmp1");
	fs_expect_text("/made/tmp2", "the replacement\n");
	CHECK_EQ(myrmex_fs_unlink("/made/tmp2"), 0);
	fs_expect_absent("/made/tmp2");
}

static void unlinks(void)
{
	/* lseek past the end, then write: a hole of 10000 bytes. */
	int fd = myrmex_fs_open("/made/gone.txt", O_CREAT | O_RDWR, 0644);
	if (fd < 0) {
		test_fail("open(/made/gone.txt): %d", fd);
		return;
	}
	CHECK_EQ(myrmex_fs_lseek(fd, 10000, SEEK_SET), 10000);
	CHECK_EQ(myrmex_fs_write(fd, "z", 1), 1);
	struct myrmex_stat st;
	CHECK_EQ(myrmex_fs_fstat(fd, &st), 0);
	CHECK_EQ(st.st_size, 10001);
	uint8_t head[16] = { 1 };
	CHECK_EQ(myrmex_fs_pread(fd, head, sizeof head, 0), (long)sizeof head);
	CHECK(head[0] == 0 && head[15] == 0, "the hole of /made/gone.txt is not zero");
	/* Unlinked while open: the file lives on (no link) until the close. */
	CHECK_EQ(myrmex_fs_unlink("/made/gone.txt"), 0);
	CHECK_EQ(myrmex_fs_pread(fd, head, sizeof head, 0), (long)sizeof head);
	CHECK_EQ(myrmex_fs_fstat(fd, &st), 0);
	CHECK_EQ(st.st_nlink, 0);
	CHECK_EQ(st.st_size, 10001);
	CHECK_EQ(myrmex_fs_close(fd), 0);
	fs_expect_absent("/made/gone.txt");
	CHECK_EQ(myrmex_fs_open("/made/gone.txt", O_RDONLY, 0), -ENOENT);
	CHECK_EQ(myrmex_fs_unlink("/made/gone.txt"), -ENOENT);
}

static void directories(void)
{
	CHECK_EQ(myrmex_fs_mkdir("/made/tmpdir", 0755), 0);
	fs_expect_dir_exists("/made/tmpdir");
	CHECK_EQ(myrmex_fs_rmdir("/made/tmpdir"), 0);
	fs_expect_absent("/made/tmpdir");

	CHECK_EQ(myrmex_fs_mkdir("/made/sub/a", 0755), 0);
	CHECK_EQ(myrmex_fs_mkdir("/made/sub/a/b", 0755), 0);
	CHECK_EQ(myrmex_fs_mkdir("/made/sub/a/b/c", 0755), 0);
	fs_put_str("/made/sub/a/b/c/x.txt", "short-lived\n");
	CHECK_EQ(myrmex_fs_rmdir("/made/sub/a/b/c"), -ENOTEMPTY);
	CHECK_EQ(myrmex_fs_rmdir("/made/sub/a"), -ENOTEMPTY);
	CHECK_EQ(myrmex_fs_unlink("/made/sub/a/b/c/x.txt"), 0);
	CHECK_EQ(myrmex_fs_rmdir("/made/sub/a/b/c"), 0);
	fs_put_str("/made/sub/a/b/leaf.txt", "a leaf two levels down\n");
	struct myrmex_stat st;
	CHECK_EQ(myrmex_fs_stat("/made/sub/a", &st), 0);
	CHECK_EQ(st.st_nlink, 3);     /* ., its entry in sub, b's .. */
}

/* LOTS entries with long names (two directory blocks), then every odd one
 * removed. */
static void lots(void)
{
	char path[128], name[64], text[32];
	CHECK_EQ(myrmex_fs_mkdir("/made/lots", 0755), 0);
	for (int i = 0; i < LOTS; i++) {
		lots_name(name, sizeof name, i);
		snprintf(path, sizeof path, "/made/lots/%s", name);
		snprintf(text, sizeof text, "lots %d\n", i);
		fs_put_str(path, text);
	}
	struct myrmex_stat st;
	CHECK_EQ(myrmex_fs_stat("/made/lots", &st), 0);
	CHECK(st.st_size >= 2 * BLOCK, "/made/lots: %lld bytes, expected two blocks or more",
	      (long long)st.st_size);
	for (int i = 1; i < LOTS; i += 2) {
		lots_name(name, sizeof name, i);
		snprintf(path, sizeof path, "/made/lots/%s", name);
		CHECK_EQ(myrmex_fs_unlink(path), 0);
	}
}

/* ------------------------------------------------------------ final state */

static void check_final_state(void)
{
	static const char *const made[] = { "keep.txt", "big", "holey", "trunc", "sub", "lots" };
	static const char *const sub[] = { "moved.txt", "a" };
	static const char *const a[] = { "b" };
	static const char *const b[] = { "leaf.txt" };
	fs_expect_listing("/made", made, 6);
	fs_expect_listing("/made/sub", sub, 2);
	fs_expect_listing("/made/sub/a", a, 1);
	fs_expect_listing("/made/sub/a/b", b, 1);

	static char names[LOTS / 2][64];
	static const char *list[LOTS / 2];
	for (int i = 0; i < LOTS / 2; i++) {
		lots_name(names[i], sizeof names[i], 2 * i);
		list[i] = names[i];
		char path[128], text[32];
		snprintf(path, sizeof path, "/made/lots/%.63s", names[i]);
		snprintf(text, sizeof text, "lots %d\n", 2 * i);
		fs_expect_text(path, text);
	}
	fs_expect_listing("/made/lots", list, LOTS / 2);

	fs_expect_text("/made/keep.txt", KEEP_LINE1 KEEP_LINE2);
	fs_fill(data, 1, 0, BIG_SIZE);
	fs_expect_file("/made/big", data, BIG_SIZE);
	memset(want, 0, HOLE_AT);
	fs_fill(want + HOLE_AT, 2, HOLE_AT, 100);
	fs_expect_file("/made/holey", want, HOLE_AT + 100);
	memset(want, 0, TRUNC_LONG);
	fs_fill(want, 3, 0, TRUNC_SHORT);
	fs_expect_file("/made/trunc", want, TRUNC_LONG);
	fs_expect_text("/made/sub/moved.txt", "renamed twice\n");
	fs_expect_text("/made/sub/a/b/leaf.txt", "a leaf two levels down\n");
	static const char *const gone[] = {
		"/made/old.txt", "/made/new.txt", "/made/gone.txt", "/made/tmpdir",
		"/made/sub/a/b/c", "/made/tmp1", "/made/tmp2",
		"/made/lots/lots-entry-with-a-longer-name-001",
	};
	for (size_t i = 0; i < sizeof gone / sizeof gone[0]; i++)
		fs_expect_absent(gone[i]);
	struct myrmex_stat st;
	CHECK_EQ(myrmex_fs_stat("/made", &st), 0);
	CHECK_EQ(st.st_nlink, 4);      /* ., its entry in /, sub's and lots' .. */
	/* What was on the image before is untouched. */
	fs_expect_text("/text/hello.txt", "hello from the Myrmex test image\n");
}

/* A file unlinked while open and left open at the exit: the file manager
 * frees it at the last close (when it learns we are gone) or at FS_SHUTDOWN,
 * so e2fsck afterwards finds neither the inode nor its blocks in use. */
static void leave_orphan(void)
{
	static char block[20000];
	memset(block, 'o', sizeof block);
	int fd = myrmex_fs_open("/made/orphan.txt", O_CREAT | O_RDWR, 0644);
	CHECK(fd >= 0, "open(/made/orphan.txt): %d", fd);
	if (fd < 0)
		return;
	CHECK_EQ(myrmex_fs_write(fd, block, sizeof block), (long)sizeof block);
	CHECK_EQ(myrmex_fs_unlink("/made/orphan.txt"), 0);
	CHECK_EQ(myrmex_fs_pread(fd, block, 16, 100), 16);
	fs_expect_absent("/made/orphan.txt");
	/* not closed */
}

static void test_write(void)
{
	if (!fs_ready())
		return;
	fs_expect_absent("/made");
	CHECK_EQ(myrmex_fs_mkdir("/made", 0755), 0);
	CHECK_EQ(myrmex_fs_mkdir("/made/sub", 0755), 0);
	write_keep();
	write_big();
	write_holey();
	write_trunc();
	renames();
	unlinks();
	directories();
	lots();
	CHECK_EQ(myrmex_fs_sync(), 0);
	check_final_state();
	leave_orphan();
}

static void test_persist(void)
{
	if (fs_ready())
		check_final_state();
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: nothing to test");
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "write") == 0)
		test_write();
	else if (argc > 1 && strcmp(argv[1], "persist") == 0)
		test_persist();
	else
		test_fail("usage: t_fs_write write|persist");
	return test_exit_code();
}
