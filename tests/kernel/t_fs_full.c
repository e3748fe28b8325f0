/*
 * t_fs_full: a full disk, on the small image build/test/full.img.
 *
 *   t_fs_full full   writes /fill in 64 KiB pieces until the file manager
 *                    answers -ENOSPC or writes short; a further write gives
 *                    -ENOSPC; what was written reads back whole; statfs
 *                    shows (almost) no free block. Unlinking /fill gives
 *                    every block and the inode back (statfs as before), and
 *                    the disk fills again to within a few blocks of the
 *                    first time. Then the file system still works: a new
 *                    file is written and read back, and left on the disk as
 *                    /after.txt for the host's check (tools/fscheck.py:
 *                    /after.txt and /README there, no /fill, e2fsck clean).
 */
#define _GNU_SOURCE
#define TEST_NAME "t_fs_full"
#include "test_check.h"
#include "fs_test.h"
#include "fs_sums.h"

#define PIECE (64u * 1024)
#define MAX_FILL (8u << 20)     /* more than the image holds */
#define MIN_FILL (2u << 20)     /* the 4 MiB image holds more than this */
#define AFTER_TEXT "written after the disk was full\n"
#define BLOCK 4096u

static uint8_t piece[PIECE];
static uint8_t back[PIECE];

static int statfs_now(struct myrmex_statfs *s)
{
	int r = myrmex_fs_statfs(s);
	if (r != 0)
		test_fail("statfs: %d", r);
	return r == 0;
}

/* Fills the disk with /fill: the bytes it holds, or 0 on failure. */
static uint64_t fill(void)
{
	int fd = myrmex_fs_open("/fill", O_CREAT | O_EXCL | O_RDWR, 0644);
	if (fd < 0) {
		test_fail("open(/fill, O_CREAT|O_EXCL): %d", fd);
		return 0;
	}
	uint64_t total = 0;
	long r = 0;
	while (total < MAX_FILL) {
		fs_fill(piece, 7, total, PIECE);
		r = myrmex_fs_write(fd, piece, PIECE);
		if (r > 0)
			total += (uint64_t)r;
		if (r != (long)PIECE)
			break;
	}
	/* The end: -ENOSPC, or a short write followed by -ENOSPC. */
	if (r >= 0 && r < (long)PIECE)
		r = myrmex_fs_write(fd, piece, PIECE);
	CHECK(r == -ENOSPC, "the write at the end of the disk (%llu bytes written): %ld, "
	      "expected -ENOSPC", (unsigned long long)total, r);
	CHECK(total >= MIN_FILL, "only %llu bytes fit on the disk", (unsigned long long)total);
	struct myrmex_stat st;
	CHECK_EQ(myrmex_fs_fstat(fd, &st), 0);
	CHECK_EQ(st.st_size, (long)total);
	/* Everything written is there, up to the last byte. */
	for (uint64_t off = 0; off < total; off += PIECE) {
		size_t n = total - off < PIECE ? (size_t)(total - off) : PIECE;
		long got = myrmex_fs_pread(fd, back, n, off);
		fs_fill(piece, 7, off, n);
		if (got != (long)n || memcmp(back, piece, n) != 0) {
			test_fail("/fill at %llu: pread %ld of %zu, or different bytes",
			          (unsigned long long)off, got, n);
			break;
		}
	}
	CHECK_EQ(myrmex_fs_close(fd), 0);
	return total;
}

static void test_full(void)
{
	struct myrmex_statfs before, full, after;
	if (!fs_ready() || !statfs_now(&before))
		return;
	test_note("before: %llu of %llu blocks free, %llu inodes free",
	          (unsigned long long)before.free_blocks, (unsigned long long)before.blocks,
	          (unsigned long long)before.free_inodes);
	uint64_t first = fill();
	if (statfs_now(&full))
		CHECK(full.free_blocks <= 2, "full, yet %llu blocks free",
		      (unsigned long long)full.free_blocks);
	test_note("the disk took %llu bytes", (unsigned long long)first);

	CHECK_EQ(myrmex_fs_unlink("/fill"), 0);
	fs_expect_absent("/fill");
	if (statfs_now(&after))
		CHECK(after.free_blocks == before.free_blocks &&
		      after.free_inodes == before.free_inodes,
		      "after the unlink %llu blocks and %llu inodes free, before %llu and %llu",
		      (unsigned long long)after.free_blocks, (unsigned long long)after.free_inodes,
		      (unsigned long long)before.free_blocks, (unsigned long long)before.free_inodes);

	/* The freed space is whole again: a second fill takes as much. */
	uint64_t second = fill();
	CHECK(second + 2 * BLOCK >= first && second <= first + 2 * BLOCK,
	      "the second fill took %llu bytes, the first %llu", (unsigned long long)second,
	      (unsigned long long)first);
	CHECK_EQ(myrmex_fs_unlink("/fill"), 0);

	/* And the file system goes on working. */
	CHECK_EQ(myrmex_fs_mkdir("/after", 0755), 0);
	CHECK_EQ(myrmex_fs_rmdir("/after"), 0);
	CHECK_EQ(fs_put_str("/after.txt", AFTER_TEXT), (long)strlen(AFTER_TEXT));
	fs_expect_text("/after.txt", AFTER_TEXT);
	fs_expect_text("/README", "the full-disk test image: t_fs full fills it\n");
	CHECK_EQ(myrmex_fs_sync(), 0);
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: nothing to test");
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "full") == 0)
		test_full();
	else
		test_fail("usage: t_fs_full full");
	return test_exit_code();
}
