/*
 * t_fs_corrupt: the file manager on corrupt disks (build/test/corrupt-*.img,
 * made by tools/mkfsimage.py from one small valid image; its CORRUPTIONS
 * table says which bytes each changes). Each mode runs on its own image;
 * every corruption found must give -EUCLEAN (the ext2 library's "structure
 * needs cleaning"), and the file manager must answer the next call.
 *
 *   t_fs_corrupt magic    s_magic wrong: nothing mounts; every call gets
 *                         -EUCLEAN (FS_STATS, which needs no file system,
 *                         still answers)
 *   t_fs_corrupt count    s_blocks_count four times the disk: the same
 *   t_fs_corrupt inode    /baddir's first block and /badfile's second block
 *                         lie past the end of the file system; /zeromode's
 *                         inode has mode 0 but is linked. stat of /baddir
 *                         works (the inode is fine), looking into it or
 *                         listing it gives -EUCLEAN; /badfile's first block
 *                         reads, its second gives -EUCLEAN; /zeromode looks
 *                         like a free inode, so stat says -ENOENT (as the
 *                         library documents) and unlink -EUCLEAN
 *   t_fs_corrupt dirent   /d1's block has an entry whose rec_len is not a
 *                         multiple of 4, /d2's one that runs past the block:
 *                         any lookup, listing or change in them -EUCLEAN
 * In every mode the intact parts (/ok.txt, the root) keep working.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_fs_corrupt"
#include "test_check.h"
#include "fs_test.h"

#define OK_TEXT "this file is intact\n"

/* The file manager still answers, and the intact file reads. */
static void still_working(void)
{
	uint64_t counters[8];
	CHECK_EQ(myrmex_fs_stats(counters), 0);
	fs_expect_text("/ok.txt", OK_TEXT);
	fs_expect_dir_exists("/");
}

/* Nothing is mounted: every call that needs the file system -EUCLEAN. */
static void test_unmountable(void)
{
	struct myrmex_stat st;
	struct myrmex_statfs sf;
	uint8_t buf[64];
	CHECK_EQ(myrmex_fs_stat("/", &st), -EUCLEAN);
	CHECK_EQ(myrmex_fs_open("/ok.txt", O_RDONLY, 0), -EUCLEAN);
	CHECK_EQ(myrmex_fs_open("/new", O_CREAT | O_WRONLY, 0644), -EUCLEAN);
	CHECK_EQ(myrmex_fs_mkdir("/d", 0755), -EUCLEAN);
	CHECK_EQ(myrmex_fs_unlink("/ok.txt"), -EUCLEAN);
	CHECK_EQ(myrmex_fs_statfs(&sf), -EUCLEAN);
	CHECK_EQ(myrmex_fs_read(0, buf, sizeof buf), -EUCLEAN);
	CHECK_EQ(myrmex_fs_sync(), -EUCLEAN);
	/* Still there, still saying the same. */
	uint64_t counters[8];
	CHECK_EQ(myrmex_fs_stats(counters), 0);
	CHECK(counters[FS_STAT_REQUESTS] >= 8, "FS_STATS: %llu requests served",
	      (unsigned long long)counters[FS_STAT_REQUESTS]);
	CHECK_EQ(myrmex_fs_stat("/ok.txt", &st), -EUCLEAN);
}

static void test_inode(void)
{
	struct myrmex_stat st;
	uint8_t buf[4096];
	still_working();

	/* A directory whose block lies past the end. */
	fs_expect_dir_exists("/baddir");
	CHECK_EQ(myrmex_fs_stat("/baddir/f0", &st), -EUCLEAN);
	CHECK_EQ(myrmex_fs_open("/baddir/f0", O_RDONLY, 0), -EUCLEAN);
	CHECK_EQ(myrmex_fs_mkdir("/baddir/new", 0755), -EUCLEAN);
	CHECK_EQ(myrmex_fs_open("/baddir/new", O_CREAT | O_WRONLY, 0644), -EUCLEAN);
	int fd = myrmex_fs_open("/baddir", O_RDONLY | O_DIRECTORY, 0);
	CHECK(fd >= 0, "open(/baddir): %d", fd);
	if (fd >= 0) {
		CHECK_EQ(myrmex_fs_readdir(fd, buf, sizeof buf), -EUCLEAN);
		CHECK_EQ(myrmex_fs_close(fd), 0);
	}
	CHECK_EQ(myrmex_fs_rmdir("/baddir"), -EUCLEAN);
	still_working();

	/* A file whose second block lies past the end. */
	fd = myrmex_fs_open("/badfile", O_RDONLY, 0);
	CHECK(fd >= 0, "open(/badfile): %d", fd);
	if (fd >= 0) {
		CHECK_EQ(myrmex_fs_fstat(fd, &st), 0);
		CHECK_EQ(st.st_size, 3 * 4096);
		CHECK_EQ(myrmex_fs_pread(fd, buf, 4096, 0), 4096);
		CHECK_EQ(myrmex_fs_pread(fd, buf, 4096, 4096), -EUCLEAN);
		CHECK_EQ(myrmex_fs_pread(fd, buf, 10, 4096 + 100), -EUCLEAN);
		CHECK_EQ(myrmex_fs_pread(fd, buf, 4096, 8192), 4096);   /* the third is fine */
		CHECK_EQ(myrmex_fs_close(fd), 0);
	}
	fd = myrmex_fs_open("/badfile", O_WRONLY, 0);
	if (fd >= 0) {
		CHECK_EQ(myrmex_fs_pwrite(fd, "x", 1, 5000), -EUCLEAN);
		CHECK_EQ(myrmex_fs_close(fd), 0);
	}
	still_working();

	/* A linked inode with mode 0. */
	CHECK_EQ(myrmex_fs_stat("/zeromode", &st), -ENOENT);
	CHECK_EQ(myrmex_fs_open("/zeromode", O_RDONLY, 0), -ENOENT);
	CHECK_EQ(myrmex_fs_unlink("/zeromode"), -EUCLEAN);
	CHECK_EQ(myrmex_fs_rename("/zeromode", "/renamed"), -EUCLEAN);
	still_working();
}

static void test_dirent(void)
{
	static const char *const dirs[] = { "/d1", "/d2" };
	struct myrmex_stat st;
	uint8_t buf[4096];
	char path[64];
	still_working();
	for (int i = 0; i < 2; i++) {
		fs_expect_dir_exists(dirs[i]);
		snprintf(path, sizeof path, "%s/e00", dirs[i]);
		CHECK_EQ(myrmex_fs_stat(path, &st), -EUCLEAN);
		CHECK_EQ(myrmex_fs_open(path, O_RDONLY, 0), -EUCLEAN);
		CHECK_EQ(myrmex_fs_unlink(path), -EUCLEAN);
		snprintf(path, sizeof path, "%s/new", dirs[i]);
		CHECK_EQ(myrmex_fs_open(path, O_CREAT | O_WRONLY, 0644), -EUCLEAN);
		CHECK_EQ(myrmex_fs_mkdir(path, 0755), -EUCLEAN);
		int fd = myrmex_fs_open(dirs[i], O_RDONLY | O_DIRECTORY, 0);
		CHECK(fd >= 0, "open(%s): %d", dirs[i], fd);
		if (fd >= 0) {
			CHECK_EQ(myrmex_fs_readdir(fd, buf, sizeof buf), -EUCLEAN);
			CHECK_EQ(myrmex_fs_close(fd), 0);
		}
		CHECK_EQ(myrmex_fs_rmdir(dirs[i]), -EUCLEAN);
		still_working();
	}
	/* The root's listing is intact. */
	static const char *const root[] = {
		"lost+found", "ok.txt", "d1", "d2", "baddir", "badfile", "zeromode",
	};
	fs_expect_listing("/", root, 7);
}

static const struct {
	const char *mode;
	void (*run)(void);
} modes[] = {
	{ "magic", test_unmountable }, { "count", test_unmountable },
	{ "inode", test_inode }, { "dirent", test_dirent },
};

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: nothing to test");
		return 0;
	}
	for (size_t i = 0; argc > 1 && i < sizeof modes / sizeof modes[0]; i++) {
		if (strcmp(argv[1], modes[i].mode) == 0) {
			if (fs_ready())
				modes[i].run();
			return test_exit_code();
		}
	}
	test_fail("usage: t_fs_corrupt magic|count|inode|dirent");
	return 1;
}
