/*
 * t_fs: reading the test image (build/test/fs.img, tools/mkfsimage.py)
 * through the file manager, against the manifest /SUMS it holds.
 *
 *   t_fs read   every file of /SUMS: type and size by fstat and stat, and
 *               its CRC-32 over a whole read, with read sizes that rotate
 *               through 4096, 1000, 65536 and 777 bytes; the 6 MiB file
 *               (direct, indirect and double-indirect blocks) read with
 *               each of them and with 1 MiB reads (more than one trip of
 *               the library's channel), then pread at odd offsets around
 *               the block-map boundaries, lseek, and read_direct, each
 *               compared with the whole read; every directory of /SUMS
 *               listed with readdir (/many through small buffers): each
 *               name exactly once, all of them, with the right d_type.
 *
 * The other file-system tests are t_fs_write, t_fs_errors, t_fs_full and
 * t_fs_corrupt (docs/testing.md).
 */
#define _GNU_SOURCE
#define TEST_NAME "t_fs"
#include "test_check.h"
#include "fs_test.h"
#include "fs_sums.h"

#define SUMS_BYTES (64 * 1024)
#define MAX_SUMS 1024
#define BIG_PATH "/big"
#define BIG_MAX (8u << 20)
#define BLOCK 4096u
#define DIRECT_END (12u * BLOCK)                  /* the first indirect byte */
#define INDIRECT_END (DIRECT_END + 1024u * BLOCK)  /* the first double-indirect byte */

static char sums_text[SUMS_BYTES];
static struct fs_sum sums[MAX_SUMS];
static int nsums;
static uint8_t big[BIG_MAX];
static uint8_t chunk[1 << 20];

/* Reads /SUMS whole and parses it into sums[]. 1 on success. */
static int load_sums(void)
{
	int fd = myrmex_fs_open("/SUMS", O_RDONLY, 0);
	if (fd < 0) {
		test_fail("open(/SUMS): %d", fd);
		return 0;
	}
	struct myrmex_stat st;
	CHECK_EQ(myrmex_fs_fstat(fd, &st), 0);
	long total = 0, n;
	while (total < SUMS_BYTES - 1 &&
	       (n = myrmex_fs_read(fd, sums_text + total, 4096)) > 0)
		total += n;
	myrmex_fs_close(fd);
	if (total != st.st_size || total >= SUMS_BYTES - 1) {
		test_fail("/SUMS: read %ld bytes, fstat says %lld", total, (long long)st.st_size);
		return 0;
	}
	sums_text[total] = '\0';
	for (char *line = sums_text; *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		int r = nsums < MAX_SUMS ? fs_sum_parse(line, &sums[nsums]) : -1;
		if (r < 0) {
			test_fail("/SUMS: cannot parse line %d: %.60s", nsums + 1, line);
			return 0;
		}
		nsums += r;
		line = nl ? nl + 1 : line + strlen(line);
	}
	test_note("/SUMS: %d entries", nsums);
	return nsums > 500;
}

/* The entry of path (binary search: /SUMS is sorted by path), or NULL. */
static struct fs_sum *find_sum(const char *path)
{
	int lo = 0, hi = nsums - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		int c = strcmp(sums[mid].path, path);
		if (c == 0)
			return &sums[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

/* Reads file s with reads of `size` bytes and checks its size and CRC;
 * with keep, the bytes also go to big[]. */
static void check_file(const struct fs_sum *s, size_t size, int keep)
{
	int fd = myrmex_fs_open(s->path, O_RDONLY, 0);
	if (fd < 0) {
		test_fail("open(%s): %d", s->path, fd);
		return;
	}
	struct myrmex_stat st;
	int r = myrmex_fs_fstat(fd, &st);
	if (r != 0 || !FS_IS_REG(st.st_mode) || st.st_size != (int64_t)s->size)
		test_fail("fstat(%s): %d, mode %#o, size %lld, expected a file of %llu", s->path, r,
		          st.st_mode, (long long)st.st_size, (unsigned long long)s->size);
	uint32_t crc = 0;
	uint64_t total = 0;
	long n;
	while ((n = myrmex_fs_read(fd, chunk, size)) > 0) {
		crc = fs_crc32(crc, chunk, (size_t)n);
		if (keep && total + (uint64_t)n <= BIG_MAX)
			memcpy(big + total, chunk, (size_t)n);
		total += (uint64_t)n;
		if (total > s->size)
			break;
	}
	if (n < 0)
		test_fail("read(%s, %zu) after %llu bytes: %ld", s->path, size,
		          (unsigned long long)total, n);
	else if (total != s->size || crc != s->crc)
		test_fail("%s read in %zu-byte pieces: %llu bytes, crc %08x; expected %llu, %08x",
		          s->path, size, (unsigned long long)total, crc,
		          (unsigned long long)s->size, s->crc);
	CHECK_EQ(myrmex_fs_close(fd), 0);
}

/* pread of len bytes at off must match big[] (the file is `size` long). */
static void check_pread(int fd, uint64_t off, size_t len, uint64_t size)
{
	memset(chunk, 0xee, len);
	long n = myrmex_fs_pread(fd, chunk, len, off);
	long want = off >= size ? 0 : (long)(size - off < len ? size - off : len);
	if (n != want) {
		test_fail("pread(%s, %zu, at %llu): %ld, expected %ld", BIG_PATH, len,
		          (unsigned long long)off, n, want);
		return;
	}
	if (n > 0 && memcmp(chunk, big + off, (size_t)n) != 0)
		test_fail("pread(%s, %zu, at %llu): the bytes differ from a whole read", BIG_PATH,
		          len, (unsigned long long)off);
}

static void check_big(void)
{
	const struct fs_sum *s = find_sum(BIG_PATH);
	if (!s || s->size > BIG_MAX || s->size < INDIRECT_END + BLOCK) {
		test_fail("%s: not in /SUMS or not past the indirect blocks", BIG_PATH);
		return;
	}
	static const size_t sizes[] = { 4096, 1000, 1 << 20, 65536 };
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
		check_file(s, sizes[i], sizes[i] == 65536);   /* the last one kept */

	int fd = myrmex_fs_open(BIG_PATH, O_RDONLY, 0);
	if (fd < 0) {
		test_fail("open(%s): %d", BIG_PATH, fd);
		return;
	}
	uint64_t size = s->size;
	static const struct { uint64_t off; size_t len; } preads[] = {
		{ 1, 1 }, { 4095, 2 }, { 4097, 4090 }, { DIRECT_END - 1, 3 },
		{ DIRECT_END - 7, 70001 }, { INDIRECT_END - 1, 2 }, { INDIRECT_END - 5000, 12289 },
		{ 3333333, 65536 }, { 5 * BLOCK + 17, 300000 },
	};
	for (size_t i = 0; i < sizeof preads / sizeof preads[0]; i++)
		check_pread(fd, preads[i].off, preads[i].len, size);
	check_pread(fd, size - 7, 100, size);       /* short at the end */
	check_pread(fd, size, 10, size);            /* at the end: 0 */
	check_pread(fd, size + 12345, 10, size);    /* past it: 0 */

	/* The descriptor's offset: pread left it at 0; lseek moves it. */
	CHECK_EQ(myrmex_fs_lseek(fd, 0, SEEK_CUR), 0);
	CHECK_EQ(myrmex_fs_lseek(fd, -10, SEEK_END), (long)(size - 10));
	uint8_t tail[32];
	if (CHECK_EQ(myrmex_fs_read(fd, tail, sizeof tail), 10) == 10)
		CHECK(memcmp(tail, big + size - 10, 10) == 0, "the last 10 bytes after lseek differ");
	CHECK_EQ(myrmex_fs_lseek(fd, INDIRECT_END - 3, SEEK_SET), (long)(INDIRECT_END - 3));
	CHECK_EQ(myrmex_fs_lseek(fd, 2, SEEK_CUR), (long)(INDIRECT_END - 1));
	const void *direct = NULL;
	long n = myrmex_fs_read_direct(fd, 5000, &direct);
	if (CHECK_EQ(n, 5000) == 5000 && direct)
		CHECK(memcmp(direct, big + INDIRECT_END - 1, 5000) == 0,
		      "read_direct across the double-indirect boundary differs");
	CHECK_EQ(myrmex_fs_lseek(fd, 0, SEEK_CUR), (long)(INDIRECT_END - 1 + 5000));
	CHECK_EQ(myrmex_fs_close(fd), 0);
}

/* ------------------------------------------------------------ listings */

struct listing {
	const char *dir;
	long count;
};

/* In the root, besides what /SUMS lists: the manifest, mke2fs's folder and
 * the symbolic links of t_fs_posix. */
static const char *const root_extras[] = { "SUMS", "lost+found", "links" };
#define ROOT_EXTRAS 3

/* One entry of a listed directory: known to /SUMS, once, the right type. */
static void listed(const char *name, unsigned type, void *ctx)
{
	struct listing *l = ctx;
	char path[600];
	int root = strcmp(l->dir, "/") == 0;
	snprintf(path, sizeof path, "%s/%s", root ? "" : l->dir, name);
	struct fs_sum *s = find_sum(path);
	l->count++;
	for (int i = 0; root && !s && i < ROOT_EXTRAS; i++)
		if (strcmp(name, root_extras[i]) == 0)
			return;
	if (!s) {
		test_fail("readdir(%s): %s is not in /SUMS", l->dir, name);
		return;
	}
	if (s->seen++)
		test_fail("readdir(%s): %s listed twice", l->dir, name);
	unsigned want = s->kind == 'd' ? DT_DIR : DT_REG;
	if (type != want)
		test_fail("readdir(%s): %s has d_type %u, expected %u", l->dir, name, type, want);
}

/* Lists the root and every directory of /SUMS; then every entry must have
 * been seen exactly once. */
static void check_dirs(void)
{
	struct listing top = { "/", 0 };
	long in_root = ROOT_EXTRAS;
	for (int i = 0; i < nsums; i++)
		in_root += strchr(sums[i].path + 1, '/') == NULL;
	long count = fs_list("/", 4096, listed, &top);
	if (count >= 0 && count != in_root)
		test_fail("readdir(/): %ld entries, expected %ld", count, in_root);
	for (int i = 0; i < nsums; i++) {
		if (sums[i].kind != 'd')
			continue;
		struct listing l = { sums[i].path, 0 };
		/* /many through small buffers: many readdir calls, each going on
		 * where the last stopped. */
		size_t bufsize = strcmp(sums[i].path, "/many") == 0 ? 200 : 4096;
		long count = fs_list(sums[i].path, bufsize, listed, &l);
		if (count >= 0 && (uint64_t)count != sums[i].size)
			test_fail("readdir(%s): %ld entries, expected %llu", sums[i].path, count,
			          (unsigned long long)sums[i].size);
	}
	for (int i = 0; i < nsums; i++)
		if (sums[i].seen != 1)
			test_fail("%s: seen %d times in its directory's listing", sums[i].path,
			          sums[i].seen);
}

/* stat of every entry of /SUMS: kind, size, links. */
static void check_stats(void)
{
	for (int i = 0; i < nsums; i++) {
		struct myrmex_stat st;
		int r = myrmex_fs_stat(sums[i].path, &st);
		if (r != 0) {
			test_fail("stat(%s): %d", sums[i].path, r);
			continue;
		}
		if (sums[i].kind == 'd')
			CHECK(FS_IS_DIR(st.st_mode) && st.st_nlink >= 2, "stat(%s): mode %#o, links %llu",
			      sums[i].path, st.st_mode, (unsigned long long)st.st_nlink);
		else
			CHECK(FS_IS_REG(st.st_mode) && st.st_size == (int64_t)sums[i].size &&
			      st.st_nlink == 1, "stat(%s): mode %#o, size %lld, links %llu",
			      sums[i].path, st.st_mode, (long long)st.st_size,
			      (unsigned long long)st.st_nlink);
	}
	struct myrmex_stat root;
	CHECK_EQ(myrmex_fs_stat("/", &root), 0);
	CHECK(FS_IS_DIR(root.st_mode) && root.st_ino == 2, "stat(/): mode %#o, inode %llu",
	      root.st_mode, (unsigned long long)root.st_ino);
}

static void test_read(void)
{
	if (!fs_ready() || !load_sums())
		return;
	static const size_t sizes[] = { 4096, 1000, 65536, 777 };
	int files = 0;
	for (int i = 0; i < nsums; i++)
		if (sums[i].kind == 'f')
			check_file(&sums[i], sizes[files++ % 4], 0);
	check_big();
	check_stats();
	check_dirs();
	test_note("%d files and their directories checked", files);
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: nothing to test");
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "read") == 0) {
		test_read();
		return test_exit_code();
	}
	test_fail("usage: t_fs read");
	return 1;
}
