/*
 * Host unit tests of the ext2 library (servers/fs/ext2), changing images:
 * create, write (large, sparse, triple-indirect), truncate, mkdir, rmdir,
 * link, unlink, rename in all its cases, symlinks, attributes, the
 * file-block map with allocation, and full disks (-ENOSPC for blocks and for
 * inodes). After the changes every case unmounts, requires `e2fsck -fn` to
 * find nothing, and compares file contents with what debugfs reads.
 */
/* unit-sources: servers/fs/ext2/super.c servers/fs/ext2/group.c servers/fs/ext2/inode.c servers/fs/ext2/bmap.c servers/fs/ext2/file.c servers/fs/ext2/dir.c servers/fs/ext2/namei.c servers/fs/ext2/orphan.c */
#define UNIT_SUITE "ext2_write"
#include "unit.h"
#include "test_ext2_util.h"
#include "../../servers/fs/ext2/ext2_disk.h"   /* the orphan tests read inodes and the superblock */

#define ROOT EXT2_ROOT_INO

/* Unmounts, requires a clean e2fsck, mounts read-write again. */
#define FSCK_CYCLE(im, fs)                                                     \
	do {                                                                   \
		CHECK_EQ(ext2_unmount(fs), 0);                                 \
		CHECK_EQ(t_fsck(im), 0);                                       \
		CHECK_EQ(ext2_mount(fs, &(im)->dev, false), 0);                \
	} while (0)

/* An image of the given size with a few files, mounted read-write. */
static int setup(struct t_img *im, struct ext2_fs *fs, const char *size, const char *opts)
{
	if (t_img_begin(im) < 0)
		return -1;
	int bad = t_put_file(im, "hello.txt", "hello\n", 6) | t_put_dir(im, "dir") |
	          t_put_file(im, "dir/inner", "inner\n", 6);
	if (bad || t_img_make(im, size, opts) < 0)
		return -1;
	int rc = ext2_mount(fs, &im->dev, false);
	if (rc < 0)
		printf("  mount: %d (%s)\n", rc, fs->error ? fs->error : "");
	return rc;
}

static uint64_t free_blocks(const struct ext2_fs *fs)
{
	struct ext2_statfs sf;
	ext2_get_statfs(fs, &sf);
	return sf.free_blocks;
}

static uint64_t free_inodes(const struct ext2_fs *fs)
{
	struct ext2_statfs sf;
	ext2_get_statfs(fs, &sf);
	return sf.free_inodes;
}

static uint32_t links_of(struct ext2_fs *fs, uint32_t ino)
{
	struct ext2_stat st;
	return ext2_stat(fs, ino, &st) == 0 ? st.links : 0;
}

/* Writes len pattern bytes (seed) at off in pieces of step bytes. */
static int64_t write_pattern(struct ext2_fs *fs, uint32_t ino, uint32_t seed, uint64_t off,
                             size_t len, size_t step)
{
	static uint8_t buf[1 << 20];
	size_t done = 0;
	while (done < len) {
		size_t n = len - done < step ? len - done : step;
		if (n > sizeof(buf))
			n = sizeof(buf);
		t_fill(buf, seed, off + done, n);
		int64_t w = ext2_write(fs, ino, off + done, buf, n);
		if (w <= 0)
			return done ? (int64_t)done : w;
		done += (size_t)w;
	}
	return (int64_t)done;
}

/* True if bytes [off, off+len) of the file are the pattern (seed). */
static bool has_pattern(struct ext2_fs *fs, uint32_t ino, uint32_t seed, uint64_t off, size_t len)
{
	static uint8_t buf[1 << 20];
	size_t done = 0;
	while (done < len) {
		size_t n = len - done < sizeof(buf) ? len - done : sizeof(buf);
		if (ext2_read(fs, ino, off + done, buf, n) != (int64_t)n ||
		    t_check_pattern(buf, seed, off + done, n) != -1)
			return false;
		done += n;
	}
	return true;
}

/* True if bytes [off, off+len) of the file read as zeros. */
static bool has_zeros(struct ext2_fs *fs, uint32_t ino, uint64_t off, size_t len)
{
	static uint8_t buf[1 << 16];
	size_t done = 0;
	while (done < len) {
		size_t n = len - done < sizeof(buf) ? len - done : sizeof(buf);
		if (ext2_read(fs, ino, off + done, buf, n) != (int64_t)n)
			return false;
		for (size_t i = 0; i < n; i++)
			if (buf[i])
				return false;
		done += n;
	}
	return true;
}

/* True if debugfs reads the file at path as exactly the pattern. */
static bool debugfs_has_pattern(struct t_img *im, const char *path, uint32_t seed, size_t len)
{
	static uint8_t buf[16 << 20];
	long n = t_debugfs_cat(im, path, buf, sizeof(buf));
	return n == (long)len && t_check_pattern(buf, seed, 0, len) == -1;
}

UNIT_TEST(create_write_read)
{
	struct t_img im;
	struct ext2_fs fs;
	char buf[64], longname[300];
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, "32M", NULL), 0)) {
		uint32_t ino, other, file;
		uint64_t inodes = free_inodes(&fs);
		CHECK_EQ(ext2_create(&fs, ROOT, "a.txt", 0644, 1000, 100, &ino), 0);
		CHECK_EQ(free_inodes(&fs), inodes - 1);
		CHECK_EQ(ext2_write(&fs, ino, 0, "hello world", 11), 11);
		CHECK_EQ(ext2_read(&fs, ino, 0, buf, sizeof(buf)), 11);
		CHECK(memcmp(buf, "hello world", 11) == 0);
		CHECK_EQ(ext2_write(&fs, ino, 6, "WORLD!", 6), 6);
		struct ext2_stat st;
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK_EQ(st.mode, EXT2_S_IFREG | 0644);
		CHECK_EQ(st.size, 12);
		CHECK_EQ(st.uid, 1000);
		CHECK_EQ(st.gid, 100);
		CHECK_EQ(st.links, 1);
		CHECK_EQ(st.mtime, T_NOW);
		CHECK_EQ(st.blocks, 8);
		CHECK_EQ(ext2_lookup_path(&fs, "/a.txt", &other), 0);
		CHECK_EQ(other, ino);

		/* Names that cannot be created. */
		CHECK_EQ(ext2_create(&fs, ROOT, "a.txt", 0644, 0, 0, &other), -EEXIST);
		CHECK_EQ(ext2_create(&fs, ROOT, "hello.txt", 0644, 0, 0, &other), -EEXIST);
		CHECK_EQ(ext2_create(&fs, ROOT, ".", 0644, 0, 0, &other), -EEXIST);
		CHECK_EQ(ext2_create(&fs, ROOT, "..", 0644, 0, 0, &other), -EEXIST);
		CHECK_EQ(ext2_create(&fs, ROOT, "", 0644, 0, 0, &other), -ENOENT);
		CHECK_EQ(ext2_create(&fs, ROOT, "a/b", 0644, 0, 0, &other), -EINVAL);
		memset(longname, 'n', 256);
		longname[256] = '\0';
		CHECK_EQ(ext2_create(&fs, ROOT, longname, 0644, 0, 0, &other), -ENAMETOOLONG);
		longname[255] = '\0';
		CHECK_EQ(ext2_create(&fs, ROOT, longname, 0644, 0, 0, &other), 0);
		CHECK_EQ(ext2_lookup_path(&fs, "/hello.txt", &file), 0);
		CHECK_EQ(ext2_create(&fs, file, "x", 0644, 0, 0, &other), -ENOTDIR);
		CHECK_EQ(ext2_write(&fs, ROOT, 0, "x", 1), -EISDIR);
		CHECK_EQ(free_inodes(&fs), inodes - 2);

		/* "Not clean" on disk while mounted; clean after unmount. */
		struct { uint16_t magic, state; } sb;
		CHECK_EQ(t_peek(&im, 1024 + 56, &sb, sizeof(sb)), 0);
		CHECK_EQ(sb.state & 1, 0);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
		CHECK_EQ(t_peek(&im, 1024 + 56, &sb, sizeof(sb)), 0);
		CHECK_EQ(sb.state & 3, 1);
		CHECK_EQ(t_debugfs_cat(&im, "/a.txt", buf, sizeof(buf)), 12);
		CHECK(memcmp(buf, "hello WORLD!", 12) == 0);
	}
	t_img_end(&im);
}

UNIT_TEST(write_large_in_odd_pieces)
{
	struct t_img im;
	struct ext2_fs fs;
	const size_t len = 6 * 1024 * 1024 + 123;
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, "64M", NULL), 0)) {
		uint32_t ino;
		uint64_t before = free_blocks(&fs);
		CHECK_EQ(ext2_create(&fs, ROOT, "big", 0600, 0, 0, &ino), 0);
		CHECK_EQ(write_pattern(&fs, ino, 7, 0, len, 10007), len);
		CHECK(has_pattern(&fs, ino, 7, 0, len));
		/* Data blocks plus one single-indirect block, the double-indirect
		 * block and the single-indirect blocks below it. */
		uint64_t data = (len + 4095) / 4096;
		uint64_t meta = 1 + 1 + (data - 12 - 1024 + 1023) / 1024;
		struct ext2_stat st;
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK_EQ(st.blocks, (data + meta) * 8);
		CHECK_EQ(free_blocks(&fs), before - data - meta);

		/* Overwrite across block boundaries in the middle. */
		CHECK_EQ(write_pattern(&fs, ino, 8, 4096 * 1030 + 17, 3 * 4096, 5000), 3 * 4096);
		CHECK(has_pattern(&fs, ino, 7, 0, 4096 * 1030 + 17));
		CHECK(has_pattern(&fs, ino, 8, 4096 * 1030 + 17, 3 * 4096));
		CHECK(has_pattern(&fs, ino, 7, 4096 * 1033 + 17, len - (4096 * 1033 + 17)));
		CHECK_EQ(write_pattern(&fs, ino, 7, 4096 * 1030 + 17, 3 * 4096, 4096), 3 * 4096);
		CHECK_EQ(free_blocks(&fs), before - data - meta);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
		CHECK(debugfs_has_pattern(&im, "/big", 7, len));
	}
	t_img_end(&im);
}

/* Writes 10 bytes at 5 GiB (triple indirect) and at 100 MiB (double
 * indirect); holes read as zeros; the map agrees with debugfs. */
static void sparse_case(const char *opts)
{
	struct t_img im;
	struct ext2_fs fs;
	char out[128];
	const uint64_t far = 5ull << 30, mid = 100ull << 20;
	if (CHECK_EQ(setup(&im, &fs, "32M", opts), 0)) {
		uint32_t ino;
		uint64_t before = free_blocks(&fs);
		CHECK_EQ(ext2_create(&fs, ROOT, "sparse", 0644, 0, 0, &ino), 0);
		CHECK_EQ(write_pattern(&fs, ino, 9, far, 10, 10), 10);
		CHECK_EQ(write_pattern(&fs, ino, 10, mid, 10, 10), 10);
		struct ext2_stat st;
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK_EQ(st.size, far + 10);
		/* Two data blocks, three indirect blocks for the far one and two
		 * for the middle one. */
		CHECK_EQ(st.blocks, (2 + 3 + 2) * 8);
		CHECK(has_zeros(&fs, ino, 0, 1 << 20));
		CHECK(has_zeros(&fs, ino, mid - 5000, 5000));
		CHECK(has_pattern(&fs, ino, 10, mid, 10));
		CHECK(has_zeros(&fs, ino, mid + 10, 4086));
		CHECK(has_zeros(&fs, ino, far - 4096, 4096));
		CHECK(has_pattern(&fs, ino, 9, far, 10));
		uint64_t disk;
		CHECK_EQ(ext2_file_block(&fs, ino, far / 4096, false, &disk), 0);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
		t_debugfs(&im, out, sizeof(out), "bmap /sparse 1310720");
		CHECK_EQ(disk, strtoull(out, NULL, 10));
		CHECK(disk != 0);
		CHECK_EQ(ext2_mount(&fs, &im.dev, false), 0);
		CHECK_EQ(ext2_truncate(&fs, ino, 0), 0);
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK_EQ(st.blocks, 0);
		CHECK_EQ(free_blocks(&fs), before);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
	}
	t_img_end(&im);
}

UNIT_TEST(sparse_triple_indirect)
{
	T_NEED_TOOLS();
	sparse_case(NULL);
}

UNIT_TEST(sparse_sets_large_file_feature)
{
	T_NEED_TOOLS();
	sparse_case("-O ^large_file");
}

UNIT_TEST(truncate_shrink_and_grow)
{
	struct t_img im;
	struct ext2_fs fs;
	const size_t len = 5 * 1024 * 1024;
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, "64M", NULL), 0)) {
		uint32_t ino, dir;
		struct ext2_stat st;
		uint64_t before = free_blocks(&fs);
		CHECK_EQ(ext2_create(&fs, ROOT, "t", 0644, 0, 0, &ino), 0);
		CHECK_EQ(write_pattern(&fs, ino, 11, 0, len, 1 << 20), len);

		/* Into the single-indirect range: the double-indirect tree goes. */
		const uint64_t cut = 3 * 1024 * 1024 + 100;
		CHECK_EQ(ext2_truncate(&fs, ino, cut), 0);
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK_EQ(st.size, cut);
		CHECK_EQ(st.blocks, (769 + 1) * 8);
		CHECK(has_pattern(&fs, ino, 11, 0, cut));
		/* Growing shows zeros where the old data was. */
		CHECK_EQ(ext2_truncate(&fs, ino, 4 * 1024 * 1024), 0);
		CHECK(has_zeros(&fs, ino, cut, 4 * 1024 * 1024 - cut));
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK_EQ(st.blocks, (769 + 1) * 8);
		FSCK_CYCLE(&im, &fs);

		/* Exactly the direct blocks; then one byte; then nothing. */
		CHECK_EQ(ext2_truncate(&fs, ino, 12 * 4096), 0);
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK_EQ(st.blocks, 12 * 8);
		CHECK(has_pattern(&fs, ino, 11, 0, 12 * 4096));
		CHECK_EQ(ext2_truncate(&fs, ino, 1), 0);
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK_EQ(st.blocks, 8);
		CHECK_EQ(ext2_truncate(&fs, ino, 0), 0);
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK_EQ(st.blocks, 0);
		CHECK_EQ(free_blocks(&fs), before);

		/* Writing past the end leaves a hole; the old tail is zero. */
		CHECK_EQ(ext2_write(&fs, ino, 0, "abc", 3), 3);
		CHECK_EQ(ext2_truncate(&fs, ino, 1), 0);
		CHECK_EQ(ext2_write(&fs, ino, 10, "z", 1), 1);
		char buf[16];
		CHECK_EQ(ext2_read(&fs, ino, 0, buf, sizeof(buf)), 11);
		CHECK(memcmp(buf, "a\0\0\0\0\0\0\0\0\0z", 11) == 0);
		CHECK_EQ(ext2_write(&fs, ino, 20000, "y", 1), 1);
		CHECK(has_zeros(&fs, ino, 11, 20000 - 11));
		CHECK_EQ(ext2_lookup_path(&fs, "/dir", &dir), 0);
		CHECK_EQ(ext2_truncate(&fs, dir, 0), -EISDIR);
		CHECK_EQ(ext2_truncate(&fs, ino, 1ull << 62), -EFBIG);
		CHECK_EQ(ext2_write(&fs, ino, 1ull << 62, "x", 1), -EFBIG);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
		static char whole[20001], want[20001];
		memset(want, 0, sizeof(want));
		want[0] = 'a';
		want[10] = 'z';
		want[20000] = 'y';
		CHECK_EQ(t_debugfs_cat(&im, "/t", whole, sizeof(whole)), sizeof(whole));
		CHECK(memcmp(whole, want, sizeof(want)) == 0);
	}
	t_img_end(&im);
}

UNIT_TEST(mkdir_rmdir)
{
	struct t_img im;
	struct ext2_fs fs;
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, "32M", NULL), 0)) {
		uint32_t d1, d2, f, ino, hello;
		uint64_t inodes = free_inodes(&fs), blocks = free_blocks(&fs);
		uint32_t root_links = links_of(&fs, ROOT);
		CHECK_EQ(ext2_mkdir(&fs, ROOT, "d1", 0750, 5, 6, &d1), 0);
		CHECK_EQ(links_of(&fs, ROOT), root_links + 1);
		CHECK_EQ(links_of(&fs, d1), 2);
		struct ext2_stat st;
		CHECK_EQ(ext2_stat(&fs, d1, &st), 0);
		CHECK_EQ(st.mode, EXT2_S_IFDIR | 0750);
		CHECK_EQ(st.size, 4096);
		CHECK_EQ(ext2_lookup(&fs, d1, ".", 1, &ino), 0);
		CHECK_EQ(ino, d1);
		CHECK_EQ(ext2_lookup(&fs, d1, "..", 2, &ino), 0);
		CHECK_EQ(ino, ROOT);
		CHECK_EQ(ext2_mkdir(&fs, d1, "d2", 0755, 0, 0, &d2), 0);
		CHECK_EQ(links_of(&fs, d1), 3);
		CHECK_EQ(ext2_mkdir(&fs, ROOT, "d1", 0755, 0, 0, &ino), -EEXIST);
		CHECK_EQ(ext2_create(&fs, d2, "f", 0644, 0, 0, &f), 0);
		CHECK_EQ(ext2_lookup_path(&fs, "/d1/d2/f", &ino), 0);
		CHECK_EQ(ino, f);
		FSCK_CYCLE(&im, &fs);

		CHECK_EQ(ext2_rmdir(&fs, ROOT, "d1"), -ENOTEMPTY);
		CHECK_EQ(ext2_rmdir(&fs, d1, "d2"), -ENOTEMPTY);
		CHECK_EQ(ext2_rmdir(&fs, d2, "f"), -ENOTDIR);
		CHECK_EQ(ext2_rmdir(&fs, d2, "."), -EINVAL);
		CHECK_EQ(ext2_rmdir(&fs, d2, ".."), -EINVAL);
		CHECK_EQ(ext2_rmdir(&fs, d2, "none"), -ENOENT);
		CHECK_EQ(ext2_lookup_path(&fs, "/hello.txt", &hello), 0);
		CHECK_EQ(ext2_rmdir(&fs, hello, "x"), -ENOTDIR);
		CHECK_EQ(ext2_unlink(&fs, d2, "f"), 0);
		CHECK_EQ(ext2_rmdir(&fs, d1, "d2"), 0);
		CHECK_EQ(links_of(&fs, d1), 2);
		CHECK_EQ(ext2_lookup_path(&fs, "/d1/d2", &ino), -ENOENT);
		CHECK_EQ(ext2_stat(&fs, d2, &st), -ENOENT);
		CHECK_EQ(ext2_rmdir(&fs, ROOT, "d1"), 0);
		CHECK_EQ(links_of(&fs, ROOT), root_links);
		CHECK_EQ(free_inodes(&fs), inodes);
		CHECK_EQ(free_blocks(&fs), blocks);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
	}
	t_img_end(&im);
}

static void long_name(char *out, size_t cap, int i)
{
	snprintf(out, cap, "a-rather-long-file-name-for-many-blocks-%04d", i);
}

UNIT_TEST(many_entries)
{
	struct t_img im;
	struct ext2_fs fs;
	static bool seen[700];
	char name[64];
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, "32M", NULL), 0)) {
		uint32_t dir, ino;
		struct ext2_stat st;
		struct ext2_dirent ent;
		CHECK_EQ(ext2_mkdir(&fs, ROOT, "m", 0755, 0, 0, &dir), 0);
		int failed = 0;
		for (int i = 0; i < 700; i++) {
			long_name(name, sizeof(name), i);
			failed += ext2_create(&fs, dir, name, 0644, 0, 0, &ino) != 0;
			failed += ext2_write(&fs, ino, 0, name, strlen(name)) != (int64_t)strlen(name);
		}
		CHECK_EQ(failed, 0);
		CHECK_EQ(ext2_stat(&fs, dir, &st), 0);
		uint64_t size = st.size;
		CHECK(size >= 9 * 4096);
		FSCK_CYCLE(&im, &fs);

		/* Remove every other one, then read the rest through lookup. */
		for (int i = 0; i < 700; i += 2) {
			long_name(name, sizeof(name), i);
			failed += ext2_unlink(&fs, dir, name) != 0;
		}
		CHECK_EQ(failed, 0);
		int count = 0;
		uint64_t pos = 0;
		while (ext2_readdir(&fs, dir, &pos, &ent) == 1)
			count++;
		CHECK_EQ(count, 350 + 2);
		for (int i = 0; i < 700; i++) {
			char text[64];
			long_name(name, sizeof(name), i);
			int rc = ext2_lookup(&fs, dir, name, strlen(name), &ino);
			if (i % 2 == 0) {
				failed += rc != -ENOENT;
				continue;
			}
			failed += rc != 0 || ext2_read(&fs, ino, 0, text, sizeof(text)) !=
			                     (int64_t)strlen(name) || memcmp(text, name, strlen(name));
		}
		CHECK_EQ(failed, 0);
		/* New names reuse the freed space: the directory does not grow. */
		for (int i = 0; i < 700; i += 2) {
			long_name(name, sizeof(name), i);
			failed += ext2_create(&fs, dir, name, 0644, 0, 0, &ino) != 0;
		}
		CHECK_EQ(failed, 0);
		CHECK_EQ(ext2_stat(&fs, dir, &st), 0);
		CHECK_EQ(st.size, size);
		FSCK_CYCLE(&im, &fs);

		/* readdir while removing each entry just read: each seen once. */
		memset(seen, 0, sizeof(seen));
		pos = 0;
		int dups = 0, n = 0;
		while (ext2_readdir(&fs, dir, &pos, &ent) == 1) {
			int i;
			if (ent.name[0] == '.')
				continue;
			if (sscanf(ent.name, "a-rather-long-file-name-for-many-blocks-%d", &i) != 1 ||
			    i < 0 || i >= 700)
				continue;
			dups += seen[i];
			seen[i] = true;
			n++;
			failed += ext2_unlink(&fs, dir, ent.name) != 0;
		}
		CHECK_EQ(n, 700);
		CHECK_EQ(dups, 0);
		CHECK_EQ(failed, 0);
		CHECK_EQ(ext2_rmdir(&fs, ROOT, "m"), 0);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
	}
	t_img_end(&im);
}

UNIT_TEST(unlink_and_hard_links)
{
	struct t_img im;
	struct ext2_fs fs;
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, "32M", NULL), 0)) {
		uint32_t f, ino, dir;
		uint64_t inodes = free_inodes(&fs), blocks = free_blocks(&fs);
		CHECK_EQ(ext2_lookup_path(&fs, "/dir", &dir), 0);
		CHECK_EQ(ext2_create(&fs, ROOT, "f", 0644, 0, 0, &f), 0);
		CHECK_EQ(write_pattern(&fs, f, 12, 0, 100000, 100000), 100000);
		CHECK_EQ(ext2_link(&fs, dir, "g", f), 0);
		CHECK_EQ(links_of(&fs, f), 2);
		CHECK_EQ(ext2_link(&fs, dir, "g", f), -EEXIST);
		CHECK_EQ(ext2_link(&fs, ROOT, "dirlink", dir), -EPERM);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unlink(&fs, ROOT, "f"), 0);
		CHECK_EQ(ext2_lookup_path(&fs, "/f", &ino), -ENOENT);
		CHECK_EQ(ext2_lookup_path(&fs, "/dir/g", &ino), 0);
		CHECK_EQ(ino, f);
		CHECK_EQ(links_of(&fs, f), 1);
		CHECK(has_pattern(&fs, f, 12, 0, 100000));
		CHECK_EQ(ext2_unlink(&fs, dir, "g"), 0);
		CHECK_EQ(free_inodes(&fs), inodes);
		CHECK_EQ(free_blocks(&fs), blocks);
		CHECK_EQ(ext2_unlink(&fs, ROOT, "dir"), -EISDIR);
		CHECK_EQ(ext2_unlink(&fs, ROOT, "nothing"), -ENOENT);
		CHECK_EQ(ext2_unlink(&fs, ROOT, "."), -EISDIR);
		CHECK_EQ(ext2_unlink(&fs, dir, "inner"), 0);
		CHECK_EQ(ext2_rmdir(&fs, ROOT, "dir"), 0);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
	}
	t_img_end(&im);
}

UNIT_TEST(rename_cases)
{
	struct t_img im;
	struct ext2_fs fs;
	char buf[64];
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, "32M", NULL), 0)) {
		uint32_t r, s, a, c, d, e, empty, ino;
		CHECK_EQ(ext2_mkdir(&fs, ROOT, "r", 0755, 0, 0, &r), 0);
		CHECK_EQ(ext2_mkdir(&fs, ROOT, "s", 0755, 0, 0, &s), 0);
		CHECK_EQ(ext2_create(&fs, r, "a", 0644, 0, 0, &a), 0);
		CHECK_EQ(ext2_write(&fs, a, 0, "content of a", 12), 12);

		/* Same directory, then across directories. */
		CHECK_EQ(ext2_rename(&fs, r, "a", r, "b"), 0);
		CHECK_EQ(ext2_lookup_path(&fs, "/r/a", &ino), -ENOENT);
		CHECK_EQ(ext2_lookup_path(&fs, "/r/b", &ino), 0);
		CHECK_EQ(ino, a);
		CHECK_EQ(ext2_rename(&fs, r, "b", s, "b"), 0);
		CHECK_EQ(ext2_lookup_path(&fs, "/r/b", &ino), -ENOENT);
		CHECK_EQ(ext2_lookup_path(&fs, "/s/b", &ino), 0);
		CHECK_EQ(ino, a);

		/* Replacing a file: the old target's inode is freed. */
		CHECK_EQ(ext2_create(&fs, s, "c", 0644, 0, 0, &c), 0);
		CHECK_EQ(ext2_write(&fs, c, 0, "old", 3), 3);
		uint64_t inodes = free_inodes(&fs);
		CHECK_EQ(ext2_rename(&fs, s, "b", s, "c"), 0);
		CHECK_EQ(free_inodes(&fs), inodes + 1);
		CHECK_EQ(ext2_lookup_path(&fs, "/s/c", &ino), 0);
		CHECK_EQ(ino, a);
		CHECK_EQ(ext2_lookup_path(&fs, "/s/b", &ino), -ENOENT);
		FSCK_CYCLE(&im, &fs);

		/* Moving a directory: its ".." and both parents' link counts. */
		CHECK_EQ(ext2_mkdir(&fs, r, "d", 0755, 0, 0, &d), 0);
		CHECK_EQ(ext2_mkdir(&fs, d, "e", 0755, 0, 0, &e), 0);
		CHECK_EQ(links_of(&fs, r), 3);
		CHECK_EQ(links_of(&fs, s), 2);
		CHECK_EQ(ext2_rename(&fs, r, "d", s, "d"), 0);
		CHECK_EQ(links_of(&fs, r), 2);
		CHECK_EQ(links_of(&fs, s), 3);
		CHECK_EQ(ext2_lookup(&fs, d, "..", 2, &ino), 0);
		CHECK_EQ(ino, s);
		CHECK_EQ(ext2_lookup_path(&fs, "/s/d/e/..", &ino), 0);
		CHECK_EQ(ino, d);

		/* Below itself; kinds that do not match; a non-empty target. */
		CHECK_EQ(ext2_rename(&fs, s, "d", e, "x"), -EINVAL);
		CHECK_EQ(ext2_rename(&fs, s, "d", d, "x"), -EINVAL);
		CHECK_EQ(ext2_rename(&fs, ROOT, "s", e, "s"), -EINVAL);
		CHECK_EQ(ext2_rename(&fs, s, "d", s, "c"), -ENOTDIR);
		CHECK_EQ(ext2_rename(&fs, s, "c", s, "d"), -EISDIR);
		CHECK_EQ(ext2_rename(&fs, ROOT, "r", s, "d"), -ENOTEMPTY);
		CHECK_EQ(ext2_rename(&fs, s, "nothing", s, "x"), -ENOENT);
		CHECK_EQ(ext2_rename(&fs, s, ".", s, "x"), -EINVAL);
		CHECK_EQ(ext2_rename(&fs, s, "c", s, ".."), -EINVAL);

		/* A directory replacing an empty directory elsewhere. */
		CHECK_EQ(ext2_mkdir(&fs, r, "empty", 0755, 0, 0, &empty), 0);
		CHECK_EQ(links_of(&fs, r), 3);
		inodes = free_inodes(&fs);
		CHECK_EQ(ext2_rename(&fs, s, "d", r, "empty"), 0);
		CHECK_EQ(free_inodes(&fs), inodes + 1);
		CHECK_EQ(links_of(&fs, r), 3);
		CHECK_EQ(links_of(&fs, s), 2);
		CHECK_EQ(ext2_lookup_path(&fs, "/r/empty/e", &ino), 0);
		CHECK_EQ(ino, e);
		CHECK_EQ(ext2_lookup_path(&fs, "/r/empty/..", &ino), 0);
		CHECK_EQ(ino, r);

		/* A directory replacing an empty sibling in the same directory. */
		CHECK_EQ(ext2_mkdir(&fs, r, "sib", 0755, 0, 0, &ino), 0);
		CHECK_EQ(ext2_rename(&fs, r, "empty", r, "sib"), 0);
		CHECK_EQ(links_of(&fs, r), 3);

		/* Two names of one inode: nothing happens. */
		CHECK_EQ(ext2_link(&fs, s, "c2", a), 0);
		CHECK_EQ(ext2_rename(&fs, s, "c", s, "c2"), 0);
		CHECK_EQ(ext2_lookup_path(&fs, "/s/c", &ino), 0);
		CHECK_EQ(ext2_lookup_path(&fs, "/s/c2", &ino), 0);
		CHECK_EQ(links_of(&fs, a), 2);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
		CHECK_EQ(t_debugfs_cat(&im, "/s/c", buf, sizeof(buf)), 12);
		CHECK(memcmp(buf, "content of a", 12) == 0);
	}
	t_img_end(&im);
}

UNIT_TEST(symlink_create)
{
	struct t_img im;
	struct ext2_fs fs;
	static char target[EXT2_PATH_MAX + 1], buf[EXT2_PATH_MAX];
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, "32M", NULL), 0)) {
		uint32_t fast, slow, ino;
		CHECK_EQ(ext2_symlink(&fs, ROOT, "fast", "hello.txt", 7, 8, &fast), 0);
		for (unsigned i = 0; i < EXT2_PATH_MAX; i++)
			target[i] = (char)('a' + i % 26);
		target[EXT2_PATH_MAX - 1] = '\0';
		CHECK_EQ(ext2_symlink(&fs, ROOT, "slow", target, 0, 0, &slow), 0);
		target[EXT2_PATH_MAX - 1] = 'x';
		CHECK_EQ(ext2_symlink(&fs, ROOT, "toolong", target, 0, 0, &ino), -ENAMETOOLONG);
		CHECK_EQ(ext2_symlink(&fs, ROOT, "fast", "x", 0, 0, &ino), -EEXIST);
		CHECK_EQ(ext2_symlink(&fs, ROOT, "empty", "", 0, 0, &ino), -ENOENT);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_readlink(&fs, fast, buf, sizeof(buf)), 9);
		CHECK(memcmp(buf, "hello.txt", 9) == 0);
		CHECK_EQ(ext2_readlink(&fs, slow, buf, sizeof(buf)), EXT2_PATH_MAX - 1);
		CHECK(memcmp(buf, target, EXT2_PATH_MAX - 1) == 0);
		struct ext2_stat st;
		CHECK_EQ(ext2_stat(&fs, fast, &st), 0);
		CHECK_EQ(st.mode, EXT2_S_IFLNK | 0777);
		CHECK_EQ(st.uid, 7);
		CHECK_EQ(st.blocks, 0);
		CHECK_EQ(ext2_write(&fs, fast, 0, "x", 1), -EINVAL);
		CHECK_EQ(ext2_unlink(&fs, ROOT, "slow"), 0);
		CHECK_EQ(ext2_unlink(&fs, ROOT, "fast"), 0);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
	}
	t_img_end(&im);
}

UNIT_TEST(set_attributes)
{
	struct t_img im;
	struct ext2_fs fs;
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, "32M", NULL), 0)) {
		uint32_t ino;
		struct ext2_stat st = { .mode = 0100600, .uid = 70000, .gid = 42, .atime = 111,
		                        .mtime = 222 };
		CHECK_EQ(ext2_lookup_path(&fs, "/hello.txt", &ino), 0);
		CHECK_EQ(ext2_set_attr(&fs, ino, EXT2_ATTR_MODE | EXT2_ATTR_UID | EXT2_ATTR_GID |
		                                 EXT2_ATTR_ATIME | EXT2_ATTR_MTIME, &st), 0);
		FSCK_CYCLE(&im, &fs);
		memset(&st, 0, sizeof(st));
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK_EQ(st.mode, EXT2_S_IFREG | 0600);
		CHECK_EQ(st.uid, 70000);
		CHECK_EQ(st.gid, 42);
		CHECK_EQ(st.atime, 111);
		CHECK_EQ(st.mtime, 222);
		CHECK_EQ(st.ctime, T_NOW);
		st.mode = EXT2_S_IFDIR | 0755;   /* the type never changes */
		CHECK_EQ(ext2_set_attr(&fs, ino, EXT2_ATTR_MODE, &st), 0);
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK_EQ(st.mode, EXT2_S_IFREG | 0755);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
	}
	t_img_end(&im);
}

/* Times to the nanosecond in the *_extra words of 256-byte inodes, with
 * the epoch bit for a time past 2^31-1 (as Linux's ext4 driver reads it),
 * and nanoseconds out of range refused before anything changes. */
UNIT_TEST(set_times_nsec)
{
	struct t_img im;
	struct ext2_fs fs;
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, "32M", NULL), 0)) {
		uint32_t ino;
		struct ext2_stat st = { .atime = 1000000000u, .atime_nsec = 123456789u,
		                        .mtime = 3000000000u, .mtime_nsec = 5u };
		CHECK_EQ(ext2_lookup_path(&fs, "/hello.txt", &ino), 0);
		CHECK_EQ(ext2_set_attr(&fs, ino, EXT2_ATTR_ATIME | EXT2_ATTR_MTIME, &st), 0);
		FSCK_CYCLE(&im, &fs);
		memset(&st, 0, sizeof(st));
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK_EQ(st.atime, 1000000000u);
		CHECK_EQ(st.atime_nsec, 123456789u);
		CHECK_EQ(st.mtime, 3000000000u);
		CHECK_EQ(st.mtime_nsec, 5u);
		CHECK_EQ(st.ctime, T_NOW);
		CHECK_EQ(st.ctime_nsec, 0u);
		st.atime_nsec = 1000000000u;
		CHECK_EQ(ext2_set_attr(&fs, ino, EXT2_ATTR_ATIME, &st), -EINVAL);
		CHECK_EQ(ext2_stat(&fs, ino, &st), 0);
		CHECK_EQ(st.atime_nsec, 123456789u);   /* unchanged */
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
	}
	t_img_end(&im);
}

UNIT_TEST(file_block_allocation)
{
	struct t_img im;
	struct ext2_fs fs;
	uint8_t block[4096];
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, "32M", NULL), 0)) {
		uint32_t ino, dir;
		uint64_t disk, again;
		CHECK_EQ(ext2_create(&fs, ROOT, "omf", 0644, 0, 0, &ino), 0);
		CHECK_EQ(ext2_file_block(&fs, ino, 20, false, &disk), 0);
		CHECK_EQ(disk, 0);
		CHECK_EQ(ext2_file_block(&fs, ino, 20, true, &disk), 0);
		CHECK(disk != 0);
		CHECK_EQ(ext2_file_block(&fs, ino, 20, true, &again), 0);
		CHECK_EQ(again, disk);
		CHECK_EQ(t_peek(&im, disk * 4096, block, sizeof(block)), 0);
		size_t nonzero = 0;
		for (size_t i = 0; i < sizeof(block); i++)
			nonzero += block[i] != 0;
		CHECK_EQ(nonzero, 0);
		/* The caller writes the block directly and then sets the size. */
		t_fill(block, 13, 20 * 4096, sizeof(block));
		CHECK_EQ(t_poke(&im, disk * 4096, block, sizeof(block)), 0);
		CHECK_EQ(ext2_truncate(&fs, ino, 21 * 4096), 0);
		CHECK(has_zeros(&fs, ino, 0, 20 * 4096));
		CHECK(has_pattern(&fs, ino, 13, 20 * 4096, 4096));
		CHECK_EQ(ext2_lookup_path(&fs, "/dir", &dir), 0);
		CHECK_EQ(ext2_file_block(&fs, dir, 0, false, &disk), 0);
		CHECK(disk != 0);
		CHECK_EQ(ext2_file_block(&fs, dir, 5, true, &disk), -EISDIR);
		CHECK_EQ(ext2_file_block(&fs, ino, 1ull << 40, true, &disk), -EFBIG);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
	}
	t_img_end(&im);
}

UNIT_TEST(disk_full_blocks)
{
	struct t_img im;
	struct ext2_fs fs;
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, "8M", NULL), 0)) {
		uint32_t f, g, ino;
		uint64_t blocks = free_blocks(&fs), inodes = free_inodes(&fs);
		CHECK_EQ(ext2_create(&fs, ROOT, "fill", 0644, 0, 0, &f), 0);
		int64_t w = write_pattern(&fs, f, 14, 0, 16 << 20, 1 << 20);
		CHECK(w > 0 && w < (16 << 20));
		CHECK_EQ(free_blocks(&fs), 0);
		CHECK_EQ(ext2_write(&fs, f, (uint64_t)w, "x", 1), -ENOSPC);
		struct ext2_stat st;
		CHECK_EQ(ext2_stat(&fs, f, &st), 0);
		CHECK_EQ(st.size, (uint64_t)w);
		CHECK(has_pattern(&fs, f, 14, 0, (size_t)w));

		/* Nothing that needs a block can be made; the inode goes back. */
		CHECK_EQ(ext2_create(&fs, ROOT, "g", 0644, 0, 0, &g), 0);
		CHECK_EQ(ext2_write(&fs, g, 0, "y", 1), -ENOSPC);
		CHECK_EQ(ext2_mkdir(&fs, ROOT, "newdir", 0755, 0, 0, &ino), -ENOSPC);
		CHECK_EQ(ext2_lookup_path(&fs, "/newdir", &ino), -ENOENT);
		CHECK_EQ(free_inodes(&fs), inodes - 2);
		char target[200];
		memset(target, 't', sizeof(target) - 1);
		target[sizeof(target) - 1] = '\0';
		CHECK_EQ(ext2_symlink(&fs, ROOT, "sl", target, 0, 0, &ino), -ENOSPC);
		CHECK_EQ(ext2_lookup_path(&fs, "/sl", &ino), -ENOENT);
		/* Empty files until the root directory needs another block. */
		int rc = 0, made = 0;
		char name[64];
		while (rc == 0 && made < 1000) {
			snprintf(name, sizeof(name), "empty-file-with-a-long-name-%04d", made);
			rc = ext2_create(&fs, ROOT, name, 0644, 0, 0, &ino);
			made += rc == 0;
		}
		CHECK_EQ(rc, -ENOSPC);
		CHECK_EQ(free_inodes(&fs), inodes - 2 - (uint64_t)made);
		FSCK_CYCLE(&im, &fs);

		/* Freeing gives everything back. */
		rc = 0;
		CHECK_EQ(ext2_unlink(&fs, ROOT, "fill"), 0);
		CHECK_EQ(ext2_unlink(&fs, ROOT, "g"), 0);
		for (int i = 0; i < made; i++) {
			snprintf(name, sizeof(name), "empty-file-with-a-long-name-%04d", i);
			rc |= ext2_unlink(&fs, ROOT, name);
		}
		CHECK_EQ(rc, 0);
		CHECK_EQ(free_blocks(&fs), blocks);
		CHECK_EQ(free_inodes(&fs), inodes);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
	}
	t_img_end(&im);
}

UNIT_TEST(disk_full_inodes)
{
	struct t_img im;
	struct ext2_fs fs;
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, "8M", "-N 32"), 0)) {
		uint64_t inodes = free_inodes(&fs);
		uint32_t ino;
		int rc = 0, made = 0;
		char name[32];
		while (rc == 0 && made < 10000) {
			snprintf(name, sizeof(name), "f%d", made);
			rc = made % 3 ? ext2_create(&fs, ROOT, name, 0644, 0, 0, &ino)
			              : ext2_mkdir(&fs, ROOT, name, 0755, 0, 0, &ino);
			made += rc == 0;
		}
		CHECK_EQ(rc, -ENOSPC);
		CHECK_EQ((uint64_t)made, inodes);
		CHECK_EQ(free_inodes(&fs), 0);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
	}
	t_img_end(&im);
}

/* Changes to what mke2fs -d made: a 9 MB file, a directory of 500. */
UNIT_TEST(change_populated_image)
{
	struct t_img im;
	struct ext2_fs fs;
	static uint8_t big[9000000];
	char name[64];
	T_NEED_TOOLS();
	REQUIRE_EQ(t_img_begin(&im), 0);
	t_fill(big, 15, 0, sizeof(big));
	int bad = t_put_file(&im, "big", big, sizeof(big)) | t_put_dir(&im, "many");
	for (int i = 0; i < 500; i++) {
		snprintf(name, sizeof(name), "many/file-%d", i);
		bad |= t_put_file(&im, name, name, strlen(name));
	}
	CHECK_EQ(bad, 0);
	if (CHECK_EQ(t_img_make(&im, "64M", NULL), 0) &&
	    CHECK_EQ(ext2_mount(&fs, &im.dev, false), 0)) {
		uint32_t f, dir;
		CHECK_EQ(ext2_lookup_path(&fs, "/big", &f), 0);
		CHECK_EQ(ext2_truncate(&fs, f, 5000000), 0);
		CHECK_EQ(write_pattern(&fs, f, 15, 5000000, 1000000, 77777), 1000000);
		CHECK_EQ(ext2_lookup_path(&fs, "/many", &dir), 0);
		int failed = 0;
		for (int i = 0; i < 500; i += 2) {
			snprintf(name, sizeof(name), "file-%d", i);
			failed += ext2_unlink(&fs, dir, name) != 0;
		}
		CHECK_EQ(failed, 0);
		CHECK_EQ(ext2_rename(&fs, dir, "file-1", ROOT, "moved"), 0);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_rmdir(&fs, ROOT, "many"), -ENOTEMPTY);
		CHECK_EQ(ext2_unmount(&fs), 0);
		CHECK(debugfs_has_pattern(&im, "/big", 15, 6000000));
		char buf[64];
		CHECK_EQ(t_debugfs_cat(&im, "/moved", buf, sizeof(buf)), 11);
		CHECK(memcmp(buf, "many/file-1", 11) == 0);
	}
	t_img_end(&im);
}

/* Four groups of 16 MiB (backups in groups 0, 1 and 3): a 40 MB file spans
 * three of them; new directories spread over the groups. */
UNIT_TEST(several_groups)
{
	struct t_img im;
	struct ext2_fs fs;
	static uint8_t whole[48 << 20];
	const size_t len = 40 * 1000 * 1000;
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, "64M", "-g 4096"), 0)) {
		CHECK_EQ(fs.groups, 4);
		uint32_t f, d, spread = 0;
		CHECK_EQ(ext2_create(&fs, ROOT, "span", 0644, 0, 0, &f), 0);
		CHECK_EQ(write_pattern(&fs, f, 16, 0, len, 1 << 20), len);
		char name[16];
		for (int i = 0; i < 8; i++) {
			snprintf(name, sizeof(name), "d%d", i);
			CHECK_EQ(ext2_mkdir(&fs, ROOT, name, 0755, 0, 0, &d), 0);
			spread |= 1u << ((d - 1) / fs.inodes_per_group);
			CHECK_EQ(ext2_create(&fs, d, "x", 0644, 0, 0, &f), 0);
			CHECK_EQ(write_pattern(&fs, f, 17, 0, 10000, 10000), 10000);
		}
		CHECK(spread != 1);   /* not all in group 0 */
		uint64_t disk;
		CHECK_EQ(ext2_lookup_path(&fs, "/span", &f), 0);
		CHECK_EQ(ext2_file_block(&fs, f, len / 4096 - 1, false, &disk), 0);
		CHECK(disk >= 8192);  /* reached group 2 */
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
		CHECK_EQ(t_debugfs_cat(&im, "/span", whole, sizeof(whole)), len);
		CHECK_EQ(t_check_pattern(whole, 16, 0, len), -1);
		CHECK_EQ(ext2_mount(&fs, &im.dev, false), 0);
		CHECK_EQ(ext2_unlink(&fs, ROOT, "span"), 0);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
	}
	t_img_end(&im);
}

/* Revision 0: 128-byte inodes, no file types in directory entries. */
UNIT_TEST(revision_0)
{
	struct t_img im;
	struct ext2_fs fs;
	char buf[16];
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, "16M", "-r 0"), 0)) {
		CHECK(!fs.filetype);
		uint32_t d, f;
		CHECK_EQ(ext2_mkdir(&fs, ROOT, "dir2", 0755, 0, 0, &d), 0);
		CHECK_EQ(ext2_create(&fs, d, "f", 0644, 0, 0, &f), 0);
		CHECK_EQ(ext2_write(&fs, f, 0, "rev0", 4), 4);
		CHECK_EQ(ext2_rename(&fs, d, "f", ROOT, "g"), 0);
		CHECK_EQ(ext2_write(&fs, f, 1u << 31, "x", 1), -EFBIG);
		struct ext2_dirent ent;
		uint64_t pos = 0;
		CHECK_EQ(ext2_readdir(&fs, ROOT, &pos, &ent), 1);
		CHECK_EQ(ent.type, EXT2_FT_UNKNOWN);
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
		CHECK_EQ(t_debugfs_cat(&im, "/g", buf, sizeof(buf)), 4);
		CHECK(memcmp(buf, "rev0", 4) == 0);
	}
	t_img_end(&im);
}

/* The orphan list: files whose last link goes while open (keep says so). */
static uint32_t kept_lo, kept_hi;   /* inodes kept open: kept_lo..kept_hi */

static bool keep_range(struct ext2_fs *fs, uint32_t ino)
{
	(void)fs;
	return ino >= kept_lo && ino <= kept_hi;
}

static uint32_t dtime_of(struct ext2_fs *fs, uint32_t ino)
{
	struct ext2_inode in;
	return ext2_read_inode(fs, ino, &in) == 0 ? in.i_dtime : 0xffffffffu;
}

/* Three files unlinked or renamed over while open are chained from
 * s_last_orphan through i_dtime; the last close of the middle one mends the
 * chain; a "crash" (mounting again without unmounting) frees the rest, blocks
 * and inodes back, and e2fsck finds the disk clean. A linked-again orphan is
 * refused (-ENOENT). */
UNIT_TEST(orphan_list)
{
	struct t_img im;
	struct ext2_fs fs;
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, "16M", NULL), 0)) {
		uint64_t blocks0 = free_blocks(&fs), inodes0 = free_inodes(&fs);
		uint32_t a, b, c, d;
		CHECK_EQ(ext2_create(&fs, ROOT, "a", 0644, 0, 0, &a), 0);
		CHECK_EQ(ext2_create(&fs, ROOT, "b", 0644, 0, 0, &b), 0);
		CHECK_EQ(ext2_create(&fs, ROOT, "c", 0644, 0, 0, &c), 0);
		CHECK_EQ(ext2_create(&fs, ROOT, "d", 0644, 0, 0, &d), 0);
		CHECK_EQ(write_pattern(&fs, a, 21, 0, 100000, 4096), 100000);
		CHECK_EQ(write_pattern(&fs, b, 22, 0, 60000, 4096), 60000);
		CHECK_EQ(write_pattern(&fs, c, 23, 0, 5000000, 65536), 5000000);
		kept_lo = a;
		kept_hi = c;
		fs.keep = keep_range;
		CHECK_EQ(ext2_unlink(&fs, ROOT, "a"), 0);
		CHECK_EQ(ext2_unlink(&fs, ROOT, "b"), 0);
		CHECK_EQ(ext2_rename(&fs, ROOT, "d", ROOT, "c"), 0);
		CHECK_EQ(ext2_sb(&fs)->s_last_orphan, c);
		CHECK_EQ(dtime_of(&fs, c), b);
		CHECK_EQ(dtime_of(&fs, b), a);
		CHECK_EQ(dtime_of(&fs, a), 0);
		CHECK_EQ(links_of(&fs, b), 0);   /* an orphan still stats */
		CHECK(has_pattern(&fs, b, 22, 0, 60000));
		CHECK_EQ(ext2_link(&fs, ROOT, "again", b), -ENOENT);
		/* The last close of b: off the list, freed. */
		kept_lo = kept_hi = 0;
		CHECK_EQ(ext2_release(&fs, b), 0);
		CHECK_EQ(dtime_of(&fs, c), a);
		CHECK_EQ(ext2_sb(&fs)->s_last_orphan, c);
		/* The crash: a and c still open, nothing unmounted. */
		CHECK_EQ(ext2_mount(&fs, &im.dev, false), 0);
		CHECK(fs.error == NULL);
		CHECK_EQ(ext2_sb(&fs)->s_last_orphan, 0);
		CHECK_EQ(free_blocks(&fs), blocks0);
		CHECK_EQ(free_inodes(&fs), inodes0 - 1);   /* d, now named c */
		FSCK_CYCLE(&im, &fs);
		CHECK_EQ(ext2_unmount(&fs), 0);
	}
	t_img_end(&im);
}

/* A damaged list does not stop the mount nor loop: a head beyond the
 * inodes, and an orphan whose dtime names itself. Each marks the file
 * system with errors (for e2fsck) and empties the list. */
UNIT_TEST(orphan_list_damaged)
{
	struct t_img im;
	struct ext2_fs fs;
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, &fs, "16M", NULL), 0)) {
		uint32_t bad = fs.inodes_count + 5;
		CHECK_EQ(ext2_unmount(&fs), 0);
		CHECK_EQ(t_poke(&im, 1024 + 232, &bad, sizeof(bad)), 0);
		CHECK_EQ(ext2_mount(&fs, &im.dev, false), 0);
		CHECK(fs.error != NULL);
		CHECK_EQ(ext2_sb(&fs)->s_last_orphan, 0);
		CHECK(ext2_sb(&fs)->s_state & EXT2_ERROR_FS);
		CHECK_EQ(ext2_unmount(&fs), 0);
	}
	t_img_end(&im);
	if (CHECK_EQ(setup(&im, &fs, "16M", NULL), 0)) {
		uint32_t a;
		CHECK_EQ(ext2_create(&fs, ROOT, "a", 0644, 0, 0, &a), 0);
		CHECK_EQ(write_pattern(&fs, a, 24, 0, 20000, 4096), 20000);
		kept_lo = kept_hi = a;
		fs.keep = keep_range;
		CHECK_EQ(ext2_unlink(&fs, ROOT, "a"), 0);
		struct ext2_inode in;
		CHECK_EQ(ext2_read_inode(&fs, a, &in), 0);
		in.i_dtime = a;   /* a loop of one */
		CHECK_EQ(ext2_write_inode(&fs, a, &in), 0);
		CHECK_EQ(ext2_mount(&fs, &im.dev, false), 0);
		CHECK(fs.error != NULL);
		CHECK_EQ(ext2_sb(&fs)->s_last_orphan, 0);
		CHECK_EQ(ext2_unmount(&fs), 0);
		kept_lo = kept_hi = 0;
	}
	t_img_end(&im);
}
