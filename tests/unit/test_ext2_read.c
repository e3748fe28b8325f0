/*
 * Host unit tests of the ext2 library (servers/fs/ext2), reading: images made
 * by mke2fs -d from a directory this test fills (small files, a 9 MB file
 * that needs double-indirect blocks, a sparse file, a directory of 500
 * entries, symbolic links, nested directories), read back through the
 * library and compared; path resolution and its errors; stat; read-only
 * mounts that refuse every change and write nothing.
 */
/* unit-sources: servers/fs/ext2/super.c servers/fs/ext2/group.c servers/fs/ext2/inode.c servers/fs/ext2/bmap.c servers/fs/ext2/file.c servers/fs/ext2/dir.c servers/fs/ext2/namei.c servers/fs/ext2/orphan.c */
#define UNIT_SUITE "ext2_read"
#include "unit.h"
#include "test_ext2_util.h"

#include <sys/time.h>

#define BIG_SIZE    9000000u
#define SPARSE_AT   (6u << 20)
#define SPARSE_SIZE (8u << 20)
#define MANY        500
#define SLOW_TARGET "a/symbolic/link/target/that/is/much/longer/than/sixty/bytes/so/it/needs/a/block"

static const char hello[] = "Hello, Myrmex!\n";
static bool chowned;

static void many_name(char *out, size_t cap, int i)
{
	snprintf(out, cap, "entry-with-a-longer-name-%03d", i);
}

/* The source tree every read test uses. */
static int populate(struct t_img *im)
{
	static uint8_t buf[BIG_SIZE];
	char name[128], rel[160];
	int bad = 0;
	bad |= t_put_file(im, "hello.txt", hello, sizeof(hello) - 1);
	bad |= t_put_file(im, "empty", "", 0);
	bad |= t_put_file(im, "one", "x", 1);
	t_fill(buf, 2, 0, 4096);
	bad |= t_put_file(im, "exact4k", buf, 4096);
	t_fill(buf, 3, 0, 4097);
	bad |= t_put_file(im, "small", buf, 4097);
	t_fill(buf, 4, 0, BIG_SIZE);
	bad |= t_put_file(im, "big.bin", buf, BIG_SIZE);

	/* A sparse file: 100 bytes at 6 MiB, 8 MiB long. */
	snprintf(rel, sizeof(rel), "%s/sparse", im->src);
	int fd = open(rel, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	t_fill(buf, 5, 0, 100);
	bad |= fd < 0 || pwrite(fd, buf, 100, SPARSE_AT) != 100 || ftruncate(fd, SPARSE_SIZE) != 0;
	if (fd >= 0)
		close(fd);

	bad |= t_put_dir(im, "dir") | t_put_dir(im, "dir/sub") | t_put_dir(im, "dir/sub/deep");
	bad |= t_put_file(im, "dir/sub/deep/file.txt", "deep\n", 5);
	bad |= t_put_dir(im, "many");
	for (int i = 0; i < MANY; i++) {
		many_name(name, sizeof(name), i);
		snprintf(rel, sizeof(rel), "many/%s", name);
		char text[16];
		int n = snprintf(text, sizeof(text), "%d\n", i);
		bad |= t_put_file(im, rel, text, (size_t)n);
	}

	snprintf(rel, sizeof(rel), "%s/link_fast", im->src);
	bad |= symlink("hello.txt", rel);
	snprintf(rel, sizeof(rel), "%s/link_slow", im->src);
	bad |= symlink(SLOW_TARGET, rel);

	bad |= t_put_file(im, "modes", "m", 1);
	snprintf(rel, sizeof(rel), "%s/modes", im->src);
	bad |= chmod(rel, 0640);
	struct timeval tv[2] = { { 1234567000, 0 }, { 1234567890, 0 } };
	bad |= utimes(rel, tv);
	chowned = chown(rel, 1234, 5678) == 0;
	return bad ? -1 : 0;
}

/* Builds the standard image and mounts it. */
static int setup(struct t_img *im, struct ext2_fs *fs, const char *opts, bool ro)
{
	if (t_img_begin(im) < 0 || populate(im) < 0 || t_img_make(im, "64M", opts) < 0)
		return -1;
	int rc = ext2_mount(fs, &im->dev, ro);
	if (rc < 0)
		printf("  mount: %d (%s)\n", rc, fs->error ? fs->error : "");
	return rc;
}

/* Reads a whole file by path into buf; returns its length or -errno. */
static int64_t read_path(struct ext2_fs *fs, const char *path, void *buf, size_t cap)
{
	uint32_t ino;
	int rc = ext2_lookup_path(fs, path, &ino);
	if (rc < 0)
		return rc;
	return ext2_read(fs, ino, 0, buf, cap);
}

/* "Free blocks:" and similar numbers from debugfs stats. */
static long stats_value(struct t_img *im, const char *key)
{
	static char out[65536];
	t_debugfs(im, out, sizeof(out), "stats");
	char *p = strstr(out, key);
	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

UNIT_TEST(mount_geometry)
{
	struct t_img im;
	struct ext2_fs fs;
	struct ext2_statfs sf;
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, NULL, true), 0)) {
		ext2_get_statfs(&fs, &sf);
		CHECK_EQ(sf.block_size, 4096);
		CHECK_EQ(sf.blocks, 16384);
		CHECK_EQ(sf.free_blocks, stats_value(&im, "Free blocks:"));
		CHECK_EQ(sf.free_inodes, stats_value(&im, "Free inodes:"));
		CHECK_EQ(sf.inodes, stats_value(&im, "Inode count:"));
		CHECK_EQ(fs.inode_size, 256);
		CHECK(fs.filetype);
		CHECK(fs.sparse_super);
		CHECK(fs.error == NULL);
		struct ext2_stat st;
		CHECK_EQ(ext2_stat(&fs, EXT2_ROOT_INO, &st), 0);
		CHECK_EQ(st.mode & EXT2_S_IFMT, EXT2_S_IFDIR);
		CHECK_EQ(ext2_unmount(&fs), 0);
		CHECK_EQ(im.writes, 0);
	}
	t_img_end(&im);
}

UNIT_TEST(small_files)
{
	struct t_img im;
	struct ext2_fs fs;
	static uint8_t buf[8192], want[8192];
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, NULL, true), 0)) {
		CHECK_EQ(read_path(&fs, "/hello.txt", buf, sizeof(buf)), sizeof(hello) - 1);
		CHECK(memcmp(buf, hello, sizeof(hello) - 1) == 0);
		CHECK_EQ(read_path(&fs, "/empty", buf, sizeof(buf)), 0);
		CHECK_EQ(read_path(&fs, "one", buf, sizeof(buf)), 1);
		CHECK_EQ(buf[0], 'x');
		CHECK_EQ(read_path(&fs, "/exact4k", buf, sizeof(buf)), 4096);
		CHECK_EQ(t_check_pattern(buf, 2, 0, 4096), -1);
		CHECK_EQ(read_path(&fs, "/small", buf, sizeof(buf)), 4097);
		CHECK_EQ(t_check_pattern(buf, 3, 0, 4097), -1);
		CHECK_EQ(read_path(&fs, "/dir/sub/deep/file.txt", buf, sizeof(buf)), 5);
		CHECK(memcmp(buf, "deep\n", 5) == 0);

		/* Reads at odd offsets, past the end, and of zero bytes. */
		uint32_t ino;
		CHECK_EQ(ext2_lookup_path(&fs, "/small", &ino), 0);
		t_fill(want, 3, 0, 4097);
		CHECK_EQ(ext2_read(&fs, ino, 4000, buf, 200), 97);
		CHECK(memcmp(buf, want + 4000, 97) == 0);
		CHECK_EQ(ext2_read(&fs, ino, 4097, buf, 10), 0);
		CHECK_EQ(ext2_read(&fs, ino, 1ull << 40, buf, 10), 0);
		CHECK_EQ(ext2_read(&fs, ino, 5, buf, 0), 0);
		CHECK_EQ(ext2_read(&fs, 0, 0, buf, 10), -EINVAL);
		CHECK_EQ(ext2_read(&fs, fs.inodes_count + 1, 0, buf, 10), -EINVAL);
		CHECK_EQ(ext2_read(&fs, fs.inodes_count, 0, buf, 10), -ENOENT);
	}
	t_img_end(&im);
}

UNIT_TEST(big_file_double_indirect)
{
	struct t_img im;
	struct ext2_fs fs;
	static uint8_t buf[BIG_SIZE + 4096];
	char out[256];
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, NULL, true), 0)) {
		uint32_t ino;
		CHECK_EQ(ext2_lookup_path(&fs, "/big.bin", &ino), 0);
		/* All at once, then in odd-sized pieces crossing every boundary. */
		CHECK_EQ(ext2_read(&fs, ino, 0, buf, sizeof(buf)), BIG_SIZE);
		CHECK_EQ(t_check_pattern(buf, 4, 0, BIG_SIZE), -1);
		memset(buf, 0, sizeof(buf));
		uint64_t off = 0;
		int64_t n;
		while ((n = ext2_read(&fs, ino, off, buf + off, 65537)) > 0)
			off += (uint64_t)n;
		CHECK_EQ(n, 0);
		CHECK_EQ(off, BIG_SIZE);
		CHECK_EQ(t_check_pattern(buf, 4, 0, BIG_SIZE), -1);

		/* The block map agrees with debugfs in the direct, indirect and
		 * double-indirect ranges. */
		uint64_t probes[] = { 0, 11, 12, 1035, 1036, 1037, 2100, BIG_SIZE / 4096 };
		for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
			uint64_t disk;
			char req[64];
			CHECK_EQ(ext2_file_block(&fs, ino, probes[i], false, &disk), 0);
			snprintf(req, sizeof(req), "bmap /big.bin %llu", (unsigned long long)probes[i]);
			t_debugfs(&im, out, sizeof(out), req);
			CHECK_EQ(disk, strtoull(out, NULL, 10));
			CHECK(disk != 0);
		}
		uint64_t disk = 1;
		CHECK_EQ(ext2_file_block(&fs, ino, BIG_SIZE / 4096 + 1, false, &disk), 0);
		CHECK_EQ(disk, 0);
		CHECK_EQ(ext2_file_block(&fs, ino, 0, true, &disk), -EROFS);
	}
	t_img_end(&im);
}

UNIT_TEST(sparse_file_reads_zeros)
{
	struct t_img im;
	struct ext2_fs fs;
	static uint8_t buf[SPARSE_SIZE + 100];
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, NULL, true), 0)) {
		memset(buf, 0xaa, sizeof(buf));
		CHECK_EQ(read_path(&fs, "/sparse", buf, sizeof(buf)), SPARSE_SIZE);
		size_t bad = 0;
		for (size_t i = 0; i < SPARSE_SIZE; i++)
			if ((i < SPARSE_AT || i >= SPARSE_AT + 100) && buf[i] != 0)
				bad++;
		CHECK_EQ(bad, 0);
		CHECK_EQ(t_check_pattern(buf + SPARSE_AT, 5, 0, 100), -1);
		struct ext2_stat st;
		uint32_t ino;
		CHECK_EQ(ext2_lookup_path(&fs, "/sparse", &ino), 0);
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK(st.blocks < 64);     /* holes take no space */
		uint64_t disk = 1;
		CHECK_EQ(ext2_file_block(&fs, ino, 5, false, &disk), 0);
		CHECK_EQ(disk, 0);
	}
	t_img_end(&im);
}

UNIT_TEST(directory_of_500)
{
	struct t_img im;
	struct ext2_fs fs;
	static bool seen[MANY];
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, NULL, true), 0)) {
		uint32_t dir;
		struct ext2_stat st;
		REQUIRE_EQ(ext2_lookup_path(&fs, "/many", &dir), 0);
		CHECK_EQ(ext2_stat(&fs, dir, &st), 0);
		CHECK(st.size >= 4 * 4096);   /* several blocks */
		memset(seen, 0, sizeof(seen));
		struct ext2_dirent ent;
		uint64_t pos = 0;
		int entries = 0, dots = 0, dup = 0, strange = 0, rc;
		while ((rc = ext2_readdir(&fs, dir, &pos, &ent)) == 1) {
			entries++;
			int i;
			if (strcmp(ent.name, ".") == 0 || strcmp(ent.name, "..") == 0) {
				dots++;
				CHECK_EQ(ent.type, EXT2_FT_DIR);
			} else if (sscanf(ent.name, "entry-with-a-longer-name-%d", &i) == 1 &&
			           i >= 0 && i < MANY) {
				dup += seen[i];
				seen[i] = true;
				CHECK_EQ(ent.type, EXT2_FT_REG_FILE);
				CHECK_EQ(ent.name_len, strlen(ent.name));
			} else {
				strange++;
			}
		}
		CHECK_EQ(rc, 0);
		CHECK_EQ(entries, MANY + 2);
		CHECK_EQ(dots, 2);
		CHECK_EQ(dup, 0);
		CHECK_EQ(strange, 0);
		CHECK_EQ(ext2_readdir(&fs, dir, &pos, &ent), 0);   /* stays at the end */

		/* Every name is found and holds its number. */
		int wrong = 0;
		for (int i = 0; i < MANY; i++) {
			char name[64], text[16], want[16];
			uint32_t ino;
			many_name(name, sizeof(name), i);
			if (ext2_lookup(&fs, dir, name, strlen(name), &ino) != 0) {
				wrong++;
				continue;
			}
			int64_t n = ext2_read(&fs, ino, 0, text, sizeof(text));
			int wn = snprintf(want, sizeof(want), "%d\n", i);
			wrong += n != wn || memcmp(text, want, (size_t)wn) != 0;
		}
		CHECK_EQ(wrong, 0);
		uint32_t ino;
		CHECK_EQ(ext2_lookup(&fs, dir, "entry-with-a-longer-name-500", 28, &ino), -ENOENT);
		CHECK_EQ(ext2_lookup(&fs, dir, "..", 2, &ino), 0);
		CHECK_EQ(ino, EXT2_ROOT_INO);
	}
	t_img_end(&im);
}

UNIT_TEST(readdir_resumes_at_position)
{
	struct t_img im;
	struct ext2_fs fs;
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, NULL, true), 0)) {
		uint32_t dir;
		struct ext2_dirent a, b;
		REQUIRE_EQ(ext2_lookup_path(&fs, "/many", &dir), 0);
		uint64_t pos = 0;
		for (int i = 0; i < 250; i++)
			REQUIRE_EQ(ext2_readdir(&fs, dir, &pos, &a), 1);
		uint64_t saved = pos;
		CHECK_EQ(ext2_readdir(&fs, dir, &pos, &a), 1);
		CHECK_EQ(ext2_readdir(&fs, dir, &saved, &b), 1);
		CHECK_STR(a.name, b.name);
		CHECK_EQ(pos, saved);
		uint32_t file;
		CHECK_EQ(ext2_lookup_path(&fs, "/hello.txt", &file), 0);
		pos = 0;
		CHECK_EQ(ext2_readdir(&fs, file, &pos, &a), -ENOTDIR);
	}
	t_img_end(&im);
}

UNIT_TEST(lookup_path_errors)
{
	struct t_img im;
	struct ext2_fs fs;
	static char path[EXT2_PATH_MAX + 16];
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, NULL, true), 0)) {
		uint32_t ino, deep, sub;
		CHECK_EQ(ext2_lookup_path(&fs, "/", &ino), 0);
		CHECK_EQ(ino, EXT2_ROOT_INO);
		CHECK_EQ(ext2_lookup_path(&fs, "/..", &ino), 0);
		CHECK_EQ(ino, EXT2_ROOT_INO);
		CHECK_EQ(ext2_lookup_path(&fs, "/dir/sub/deep/file.txt", &deep), 0);
		CHECK_EQ(ext2_lookup_path(&fs, "dir//sub/./deep/../deep///file.txt", &ino), 0);
		CHECK_EQ(ino, deep);
		CHECK_EQ(ext2_lookup_path(&fs, "/dir/sub/", &sub), 0);
		CHECK_EQ(ext2_lookup_path(&fs, "/dir/sub/deep/..", &ino), 0);
		CHECK_EQ(ino, sub);
		CHECK_EQ(ext2_lookup_path(&fs, "", &ino), -ENOENT);
		CHECK_EQ(ext2_lookup_path(&fs, "/nothing", &ino), -ENOENT);
		CHECK_EQ(ext2_lookup_path(&fs, "/dir/nothing/x", &ino), -ENOENT);
		CHECK_EQ(ext2_lookup_path(&fs, "/hello.txt/x", &ino), -ENOTDIR);
		CHECK_EQ(ext2_lookup_path(&fs, "/hello.txt/", &ino), -ENOTDIR);
		CHECK_EQ(ext2_lookup_path(&fs, "/link_fast/x", &ino), -ENOTDIR);

		/* A 255-byte name is fine (absent); 256 is too long. */
		memset(path, 'a', 256);
		path[0] = '/';
		path[256] = '\0';
		CHECK_EQ(ext2_lookup_path(&fs, path, &ino), -ENOENT);
		path[256] = 'a';
		path[257] = '\0';
		CHECK_EQ(ext2_lookup_path(&fs, path, &ino), -ENAMETOOLONG);
		CHECK_EQ(ext2_lookup(&fs, EXT2_ROOT_INO, path + 1, 256, &ino), -ENAMETOOLONG);

		/* A path of 4095 bytes is resolved; 4096 is too long. */
		for (size_t i = 0; i < EXT2_PATH_MAX + 8; i += 2) {
			path[i] = '.';
			path[i + 1] = '/';
		}
		path[EXT2_PATH_MAX - 1] = '\0';
		CHECK_EQ(ext2_lookup_path(&fs, path, &ino), 0);
		path[EXT2_PATH_MAX - 1] = '.';
		path[EXT2_PATH_MAX] = '\0';
		CHECK_EQ(ext2_lookup_path(&fs, path, &ino), -ENAMETOOLONG);
	}
	t_img_end(&im);
}

UNIT_TEST(stat_fields)
{
	struct t_img im;
	struct ext2_fs fs;
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, NULL, true), 0)) {
		uint32_t ino;
		struct ext2_stat st;
		CHECK_EQ(ext2_lookup_path(&fs, "/modes", &ino), 0);
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK_EQ(st.ino, ino);
		CHECK_EQ(st.mode, EXT2_S_IFREG | 0640);
		CHECK_EQ(st.size, 1);
		CHECK_EQ(st.links, 1);
		CHECK_EQ(st.mtime, 1234567890);
		CHECK_EQ(st.atime, 1234567000);
		CHECK_EQ(st.blocks, 8);
		if (chowned) {
			CHECK_EQ(st.uid, 1234);
			CHECK_EQ(st.gid, 5678);
		}
		CHECK_EQ(ext2_lookup_path(&fs, "/dir", &ino), 0);
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK_EQ(st.mode & EXT2_S_IFMT, EXT2_S_IFDIR);
		CHECK_EQ(st.links, 3);          /* name, ".", sub's ".." */
		CHECK_EQ(ext2_lookup_path(&fs, "/big.bin", &ino), 0);
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK_EQ(st.size, BIG_SIZE);
		CHECK_EQ(ext2_stat(&fs, 0, &st), -EINVAL);
	}
	t_img_end(&im);
}

UNIT_TEST(symlinks)
{
	struct t_img im;
	struct ext2_fs fs;
	char buf[256];
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, NULL, true), 0)) {
		uint32_t ino;
		struct ext2_stat st;
		CHECK_EQ(ext2_lookup_path(&fs, "/link_fast", &ino), 0);
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK_EQ(st.mode & EXT2_S_IFMT, EXT2_S_IFLNK);
		CHECK_EQ(ext2_readlink(&fs, ino, buf, sizeof(buf)), 9);
		CHECK(memcmp(buf, "hello.txt", 9) == 0);
		CHECK_EQ(ext2_read(&fs, ino, 0, buf, sizeof(buf)), 9);
		CHECK_EQ(ext2_readlink(&fs, ino, buf, 4), 9);   /* truncated copy */
		CHECK_EQ(ext2_lookup_path(&fs, "/link_slow", &ino), 0);
		CHECK_EQ(ext2_readlink(&fs, ino, buf, sizeof(buf)), strlen(SLOW_TARGET));
		CHECK(memcmp(buf, SLOW_TARGET, strlen(SLOW_TARGET)) == 0);
		CHECK_EQ(ext2_lookup_path(&fs, "/hello.txt", &ino), 0);
		CHECK_EQ(ext2_readlink(&fs, ino, buf, sizeof(buf)), -EINVAL);
	}
	t_img_end(&im);
}

UNIT_TEST(small_inodes_and_read_write_mount)
{
	struct t_img im;
	struct ext2_fs fs;
	static uint8_t buf[BIG_SIZE];
	T_NEED_TOOLS();
	/* 128-byte inodes; mounted read-write, changing nothing but the state. */
	if (CHECK_EQ(setup(&im, &fs, "-I 128", false), 0)) {
		CHECK_EQ(fs.inode_size, 128);
		CHECK_EQ(read_path(&fs, "/big.bin", buf, sizeof(buf)), BIG_SIZE);
		CHECK_EQ(t_check_pattern(buf, 4, 0, BIG_SIZE), -1);
		CHECK_EQ(read_path(&fs, "/many/entry-with-a-longer-name-499", buf, 16), 4);
		CHECK_EQ(ext2_unmount(&fs), 0);
		CHECK_EQ(t_fsck(&im), 0);
		CHECK_EQ(ext2_mount(&fs, &im.dev, false), 0);
		CHECK_EQ(read_path(&fs, "/hello.txt", buf, 100), sizeof(hello) - 1);
		CHECK_EQ(ext2_unmount(&fs), 0);
	}
	t_img_end(&im);
}

UNIT_TEST(read_only_refuses_writes)
{
	struct t_img im;
	struct ext2_fs fs;
	static uint8_t before[64 << 20], after[64 << 20];
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, NULL, true), 0)) {
		REQUIRE_EQ(t_peek(&im, 0, before, sizeof(before)), 0);
		uint32_t ino, dir, newino;
		struct ext2_stat st = { .mode = 0600 };
		uint64_t disk;
		REQUIRE_EQ(ext2_lookup_path(&fs, "/hello.txt", &ino), 0);
		REQUIRE_EQ(ext2_lookup_path(&fs, "/dir", &dir), 0);
		CHECK_EQ(ext2_write(&fs, ino, 0, "x", 1), -EROFS);
		CHECK_EQ(ext2_truncate(&fs, ino, 0), -EROFS);
		CHECK_EQ(ext2_file_block(&fs, ino, 3, true, &disk), -EROFS);
		CHECK_EQ(ext2_create(&fs, dir, "new", 0644, 0, 0, &newino), -EROFS);
		CHECK_EQ(ext2_mkdir(&fs, dir, "newdir", 0755, 0, 0, &newino), -EROFS);
		CHECK_EQ(ext2_symlink(&fs, dir, "sl", "x", 0, 0, &newino), -EROFS);
		CHECK_EQ(ext2_link(&fs, dir, "hl", ino), -EROFS);
		CHECK_EQ(ext2_unlink(&fs, EXT2_ROOT_INO, "hello.txt"), -EROFS);
		CHECK_EQ(ext2_rmdir(&fs, dir, "sub"), -EROFS);
		CHECK_EQ(ext2_rename(&fs, EXT2_ROOT_INO, "hello.txt", dir, "h"), -EROFS);
		CHECK_EQ(ext2_set_attr(&fs, ino, EXT2_ATTR_MODE, &st), -EROFS);
		CHECK_EQ(ext2_unmount(&fs), 0);
		CHECK_EQ(im.writes, 0);
		REQUIRE_EQ(t_peek(&im, 0, after, sizeof(after)), 0);
		CHECK(memcmp(before, after, sizeof(before)) == 0);
	}
	t_img_end(&im);
}
