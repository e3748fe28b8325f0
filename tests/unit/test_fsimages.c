/*
 * Host unit tests of the booted file-system tests' images: tools/mkfsimage.py
 * makes them in a scratch folder (as `make test` does in build/test), and the
 * ext2 library (servers/fs/ext2) reads them here, so a mistake in the tools
 * shows before any boot.
 *
 * - fs.img: every file of its manifest /SUMS has the size and CRC-32 listed
 *   there, computed here by tests/kernel/fs_sums.h (the code t_fs runs, so
 *   Python's and C's checksums agree), and every directory the listed
 *   number of entries.
 * - full.img mounts and holds its one file.
 * - corrupt-*.img: each corruption is where tools/mkfsimage.py says and the
 *   library reports it as t_fs_corrupt expects (-EINVAL at mount, which the
 *   file manager turns into -EUCLEAN for every call, or -EUCLEAN from the
 *   operation that meets it), while the intact parts still work.
 *
 * Run from the repository root (make test does): it calls
 * `python3 tools/mkfsimage.py tests <scratch folder>`.
 */
/* unit-sources: servers/fs/ext2/super.c servers/fs/ext2/group.c servers/fs/ext2/inode.c servers/fs/ext2/bmap.c servers/fs/ext2/file.c servers/fs/ext2/dir.c servers/fs/ext2/namei.c servers/fs/ext2/orphan.c */
#define UNIT_SUITE "fsimages"
#include "unit.h"
#include "test_ext2_util.h"
#include "../kernel/fs_sums.h"

#define BAD (-EUCLEAN)
#define READ_PIECE (1u << 20)

static struct t_img im;     /* valid once tried */
static int tried;
static int made = -1;        /* 0 once the images exist in im.dir */

/* Makes the whole set once (the first case that needs it). */
static int images(void)
{
	if (tried)
		return made;
	tried = 1;
	if (access("tools/mkfsimage.py", R_OK) != 0) {
		printf("  tools/mkfsimage.py not found: run from the repository root\n");
		return made;
	}
	if (t_img_begin(&im) == 0 &&
	    t_sh("python3 tools/mkfsimage.py tests %s >%s/mkfsimage.log 2>&1", im.dir, im.dir) == 0)
		made = 0;
	else
		t_sh("cat %s/mkfsimage.log", im.dir);
	return made;
}

/* Opens image `name` of the set as the block device im.dev. */
static int use_image(const char *name)
{
	if (images() != 0)
		return -1;
	snprintf(im.path, sizeof(im.path), "%s/%s", im.dir, name);
	return t_img_open(&im);
}

/* Mounts image `name` read-write; 0 or the mount's error (printed). */
static int mount_image(const char *name, struct ext2_fs *fs)
{
	if (use_image(name) != 0)
		return -1;
	int rc = ext2_mount(fs, &im.dev, false);
	if (rc < 0)
		printf("  mount %s: %d (%s)\n", name, rc, fs->error ? fs->error : "");
	return rc;
}

/* ---- fs.img against its manifest ---- */

static char sums_text[64 * 1024];
static uint8_t piece[READ_PIECE];

static void check_sum(struct ext2_fs *fs, const struct fs_sum *s)
{
	uint32_t ino;
	struct ext2_stat st;
	if (!CHECK_EQ(ext2_lookup_path(fs, s->path, &ino), 0) || !CHECK_EQ(ext2_stat(fs, ino, &st), 0))
		return;
	if (s->kind == 'd') {
		uint64_t pos = 0, entries = 0;
		struct ext2_dirent ent;
		int rc;
		while ((rc = ext2_readdir(fs, ino, &pos, &ent)) == 1)
			entries += strcmp(ent.name, ".") != 0 && strcmp(ent.name, "..") != 0;
		CHECK_EQ(rc, 0);
		if (!CHECK_EQ(entries, s->size))
			printf("  %s: %llu entries\n", s->path, (unsigned long long)entries);
		return;
	}
	CHECK_EQ(st.size, s->size);
	uint32_t crc = 0;
	uint64_t off = 0;
	int64_t n;
	while ((n = ext2_read(fs, ino, off, piece, sizeof(piece))) > 0) {
		crc = fs_crc32(crc, piece, (size_t)n);
		off += (uint64_t)n;
	}
	CHECK_EQ(n, 0);
	CHECK_EQ(off, s->size);
	if (!CHECK_EQ(crc, s->crc))
		printf("  %s: crc %08x\n", s->path, crc);
}

UNIT_TEST(fs_image_matches_its_manifest)
{
	struct ext2_fs fs;
	uint32_t ino;
	T_NEED_TOOLS();
	REQUIRE_EQ(mount_image("fs.img", &fs), 0);
	REQUIRE_EQ(ext2_lookup_path(&fs, "/SUMS", &ino), 0);
	int64_t len = ext2_read(&fs, ino, 0, sums_text, sizeof(sums_text) - 1);
	REQUIRE(len > 0 && len < (int64_t)sizeof(sums_text) - 1);
	sums_text[len] = '\0';
	int entries = 0, files = 0, bigs = 0;
	for (char *line = sums_text; *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		struct fs_sum s;
		int r = fs_sum_parse(line, &s);
		CHECK(r >= 0);
		if (r == 1) {
			check_sum(&fs, &s);
			entries++;
			files += s.kind == 'f';
			bigs += s.kind == 'f' && s.size > (4u << 20) + 48 * 1024;
		}
		line = nl ? nl + 1 : line + strlen(line);
	}
	CHECK(files > 500);                 /* /many alone has 500 */
	CHECK_EQ(bigs, 1);                  /* one file needs double-indirect blocks */
	printf("  /SUMS: %d entries, %d files\n", entries, files);
	CHECK_EQ(ext2_unmount(&fs), 0);
}

UNIT_TEST(full_image)
{
	struct ext2_fs fs;
	uint32_t ino;
	T_NEED_TOOLS();
	REQUIRE_EQ(mount_image("full.img", &fs), 0);
	CHECK_EQ(ext2_lookup_path(&fs, "/README", &ino), 0);
	CHECK_EQ(ext2_lookup_path(&fs, "/fill", &ino), -ENOENT);
	struct ext2_statfs s;
	ext2_get_statfs(&fs, &s);
	CHECK(s.free_blocks * 4096 > (3u << 20));   /* t_fs_full expects more than 2 MiB */
	CHECK_EQ(ext2_unmount(&fs), 0);
}

/* ---- the corrupt images ---- */

UNIT_TEST(corrupt_superblocks_refuse_to_mount)
{
	static const char *const names[] = { "corrupt-magic.img", "corrupt-count.img" };
	T_NEED_TOOLS();
	for (int i = 0; i < 2; i++) {
		struct ext2_fs fs;
		if (!CHECK_EQ(use_image(names[i]), 0))
			continue;
		CHECK_EQ(ext2_mount(&fs, &im.dev, false), -EINVAL);
		CHECK(fs.error != NULL);
		CHECK_EQ(ext2_mount(&fs, &im.dev, true), -EINVAL);
	}
}

/* What stays intact in every corrupt image. */
static void intact_parts(struct ext2_fs *fs)
{
	static const char ok[] = "this file is intact\n";
	char buf[64];
	uint32_t ino;
	struct ext2_stat st;
	CHECK_EQ(ext2_lookup_path(fs, "/ok.txt", &ino), 0);
	CHECK_EQ(ext2_read(fs, ino, 0, buf, sizeof(buf)), (int64_t)strlen(ok));
	CHECK(memcmp(buf, ok, strlen(ok)) == 0);
	CHECK_EQ(ext2_stat(fs, EXT2_ROOT_INO, &st), 0);
}

UNIT_TEST(corrupt_inodes)
{
	struct ext2_fs fs;
	uint32_t ino, dir, file;
	struct ext2_dirent ent;
	uint8_t buf[4096];
	T_NEED_TOOLS();
	REQUIRE_EQ(mount_image("corrupt-inode.img", &fs), 0);
	intact_parts(&fs);
	/* /baddir: its inode reads, its only block is past the end. */
	REQUIRE_EQ(ext2_lookup_path(&fs, "/baddir", &dir), 0);
	CHECK_EQ(ext2_lookup_path(&fs, "/baddir/f0", &ino), BAD);
	uint64_t pos = 0;
	CHECK_EQ(ext2_readdir(&fs, dir, &pos, &ent), BAD);
	CHECK_EQ(ext2_mkdir(&fs, dir, "new", 0755, 0, 0, &ino), BAD);
	/* /badfile: block 1 is past the end, blocks 0 and 2 are fine. */
	REQUIRE_EQ(ext2_lookup_path(&fs, "/badfile", &file), 0);
	CHECK_EQ(ext2_read(&fs, file, 0, buf, 4096), 4096);
	CHECK_EQ(ext2_read(&fs, file, 4096, buf, 4096), BAD);
	CHECK_EQ(ext2_read(&fs, file, 8192, buf, 4096), 4096);
	/* /zeromode: a linked inode of mode 0 looks free to a lookup; removing
	 * its name finds the contradiction. */
	CHECK_EQ(ext2_lookup_path(&fs, "/zeromode", &ino), -ENOENT);
	CHECK_EQ(ext2_unlink(&fs, EXT2_ROOT_INO, "zeromode"), BAD);
	intact_parts(&fs);
	CHECK_EQ(ext2_unmount(&fs), 0);
}

UNIT_TEST(corrupt_directory_entries)
{
	static const char *const dirs[] = { "/d1", "/d2" };
	static const char *const names[] = { "d1", "d2" };
	struct ext2_fs fs;
	uint32_t ino, dir;
	struct ext2_dirent ent;
	char path[32];
	T_NEED_TOOLS();
	REQUIRE_EQ(mount_image("corrupt-dirent.img", &fs), 0);
	for (int i = 0; i < 2; i++) {
		if (!CHECK_EQ(ext2_lookup_path(&fs, dirs[i], &dir), 0))
			continue;
		snprintf(path, sizeof(path), "%s/e00", dirs[i]);
		CHECK_EQ(ext2_lookup_path(&fs, path, &ino), BAD);
		uint64_t pos = 0;
		int rc;
		while ((rc = ext2_readdir(&fs, dir, &pos, &ent)) == 1)
			;
		CHECK_EQ(rc, BAD);
		CHECK_EQ(ext2_create(&fs, dir, "new", 0644, 0, 0, &ino), BAD);
		CHECK_EQ(ext2_rmdir(&fs, EXT2_ROOT_INO, names[i]), BAD);
		intact_parts(&fs);
	}
	CHECK_EQ(ext2_unmount(&fs), 0);
}

/* Last: removes the scratch folder. */
UNIT_TEST(cleanup)
{
	if (tried)
		t_img_end(&im);
}
