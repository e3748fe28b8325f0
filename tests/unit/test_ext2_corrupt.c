/*
 * Host unit tests of the ext2 library (servers/fs/ext2) on corrupt images:
 * one targeted corruption per rule (superblock fields, group descriptors,
 * block numbers in inodes and indirect blocks, indirect loops, directory
 * entries, directory sizes), each of which must give a clean error code and
 * a message, and random corruption of the metadata blocks followed by a
 * whole-tree workload, which must never crash or read out of bounds
 * (the image lives in a heap buffer of exactly its size, under ASan).
 */
/* unit-sources: servers/fs/ext2/super.c servers/fs/ext2/group.c servers/fs/ext2/inode.c servers/fs/ext2/bmap.c servers/fs/ext2/file.c servers/fs/ext2/dir.c servers/fs/ext2/namei.c servers/fs/ext2/orphan.c */
#define UNIT_SUITE "ext2_corrupt"
#include "unit.h"
#include "test_ext2_util.h"

#define BAD (-EUCLEAN)
#define BIG_SIZE (5u << 20)

/* Superblock field offsets (from the ext2 documentation). */
#define SB 1024u
#define SB_INODES_COUNT  (SB + 0)
#define SB_BLOCKS_COUNT  (SB + 4)
#define SB_LOG_BLOCK     (SB + 24)
#define SB_BLOCKS_PER_G  (SB + 32)
#define SB_INODES_PER_G  (SB + 40)
#define SB_MAGIC         (SB + 56)
#define SB_STATE         (SB + 58)
#define SB_REV           (SB + 76)
#define SB_FIRST_INO     (SB + 84)
#define SB_INODE_SIZE    (SB + 88)
#define SB_INCOMPAT      (SB + 96)
#define SB_RO_COMPAT     (SB + 100)
/* Group descriptor fields, group 0 at block 1. */
#define GD(g) (4096u + 32u * (g))
#define GD_BLOCK_BITMAP 0
#define GD_INODE_BITMAP 4
#define GD_INODE_TABLE  8
#define GD_FREE_BLOCKS  12
/* Inode fields. */
#define I_SIZE  4
#define I_BLOCK 40

static int setup(struct t_img *im, const char *size)
{
	static uint8_t big[BIG_SIZE];
	char name[64];
	if (t_img_begin(im) < 0)
		return -1;
	t_fill(big, 1, 0, BIG_SIZE);
	int bad = t_put_file(im, "f", big, 100) | t_put_file(im, "big", big, BIG_SIZE) |
	          t_put_dir(im, "d");
	for (int i = 0; i < 50; i++) {
		snprintf(name, sizeof(name), "d/entry%d", i);
		bad |= t_put_file(im, name, name, strlen(name));
	}
	return bad ? -1 : t_img_make(im, size, NULL);
}

static void poke32(struct t_img *im, uint64_t off, uint32_t v)
{
	CHECK_EQ(t_poke(im, off, &v, 4), 0);
}

static void poke16(struct t_img *im, uint64_t off, uint16_t v)
{
	CHECK_EQ(t_poke(im, off, &v, 2), 0);
}

static uint32_t peek32(struct t_img *im, uint64_t off)
{
	uint32_t v = 0;
	CHECK_EQ(t_peek(im, off, &v, 4), 0);
	return v;
}

/* The number after the n-th (from 0) occurrence of key in a debugfs reply. */
static uint64_t debugfs_number(struct t_img *im, const char *request, const char *key, int n)
{
	static char out[1 << 16];
	t_debugfs(im, out, sizeof(out), request);
	char *p = out;
	for (int i = 0; p && i <= n; i++) {
		p = strstr(p, key);
		if (p)
			p += strlen(key);
	}
	return p ? strtoull(p, NULL, 0) : 0;
}

/* The byte offset of inode path in the image file. */
static uint64_t inode_offset(struct t_img *im, const char *path)
{
	char req[128];
	snprintf(req, sizeof(req), "imap %s", path);
	uint64_t block = debugfs_number(im, req, "located at block ", 0);
	uint64_t off = debugfs_number(im, req, ", offset ", 0);
	CHECK(block != 0);
	return block * 4096 + off;
}

/* The disk block of file block n of path. */
static uint64_t file_block(struct t_img *im, const char *path, unsigned n)
{
	char req[128];
	snprintf(req, sizeof(req), "bmap %s %u", path, n);
	uint64_t b = debugfs_number(im, req, "", 0);
	CHECK(b != 0);
	return b;
}

/* Mount must fail with err (read-write and read-only alike unless only_rw). */
static void expect_mount_fails(struct t_img *im, int err)
{
	struct ext2_fs fs;
	CHECK_EQ(ext2_mount(&fs, &im->dev, false), err);
	CHECK(fs.error != NULL);
	CHECK_EQ(ext2_mount(&fs, &im->dev, true), err);
	CHECK(fs.error != NULL);
}

/* A fresh image with one 32-bit (or 16-bit) superblock value changed. */
static void super_case(uint32_t off, uint32_t value, int width, int err)
{
	struct t_img im;
	if (CHECK_EQ(setup(&im, "16M"), 0)) {
		if (width == 16)
			poke16(&im, off, (uint16_t)value);
		else
			poke32(&im, off, value);
		expect_mount_fails(&im, err);
	}
	t_img_end(&im);
}

UNIT_TEST(superblock_fields)
{
	T_NEED_TOOLS();
	super_case(SB_MAGIC, 0x1234, 16, -EINVAL);
	super_case(SB_LOG_BLOCK, 0, 32, -EINVAL);          /* 1024-byte blocks */
	super_case(SB_LOG_BLOCK, 40, 32, -EINVAL);
	super_case(SB_INODES_COUNT, 0xffffffff, 32, -EINVAL);
	super_case(SB_INODES_COUNT, 0, 32, -EINVAL);
	super_case(SB_INODES_PER_G, 0, 32, -EINVAL);
	super_case(SB_INODES_PER_G, 0x7fffffff, 32, -EINVAL);
	super_case(SB_BLOCKS_PER_G, 0, 32, -EINVAL);
	super_case(SB_BLOCKS_PER_G, 1, 32, -EINVAL);
	super_case(SB_BLOCKS_COUNT, 0, 32, -EINVAL);
	super_case(SB_BLOCKS_COUNT, 0xffffffff, 32, -EINVAL);   /* past the device */
	super_case(SB_REV, 7, 32, -EINVAL);
	super_case(SB_INODE_SIZE, 100, 16, -EINVAL);
	super_case(SB_INODE_SIZE, 8192, 16, -EINVAL);
	super_case(SB_INODE_SIZE, 0, 16, -EINVAL);
	super_case(SB_FIRST_INO, 0, 32, -EINVAL);
	super_case(SB_FIRST_INO, 0xffffffff, 32, -EINVAL);
	super_case(SB_INCOMPAT, 0x2 | 0x40, 32, -EINVAL);  /* extents */
	super_case(SB_INCOMPAT, 0x2 | 0x4, 32, -EINVAL);   /* needs journal recovery */
}

UNIT_TEST(block_size_1024_image)
{
	struct t_img im;
	struct ext2_fs fs;
	T_NEED_TOOLS();
	if (CHECK_EQ(t_img_begin(&im), 0)) {
		CHECK_EQ(t_sh("%s -q -t ext2 -b 1024 -F %s 8M >/dev/null 2>&1", t_tool("mke2fs"),
		              im.path), 0);
		CHECK_EQ(t_img_open(&im), 0);
		CHECK_EQ(ext2_mount(&fs, &im.dev, true), -EINVAL);
		CHECK_STR(fs.error, "block size is not 4096");
	}
	t_img_end(&im);
}

UNIT_TEST(read_only_compat_features)
{
	struct t_img im;
	struct ext2_fs fs;
	char buf[128];
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, "16M"), 0)) {
		poke32(&im, SB_RO_COMPAT, peek32(&im, SB_RO_COMPAT) | 0x8);   /* huge_file */
		CHECK_EQ(ext2_mount(&fs, &im.dev, false), -EROFS);
		CHECK(fs.error != NULL);
		CHECK_EQ(ext2_mount(&fs, &im.dev, true), 0);
		uint32_t ino;
		CHECK_EQ(ext2_lookup_path(&fs, "/f", &ino), 0);
		CHECK_EQ(ext2_read(&fs, ino, 0, buf, sizeof(buf)), 100);
		CHECK_EQ(t_check_pattern(buf, 1, 0, 100), -1);
		CHECK_EQ(ext2_unmount(&fs), 0);
	}
	t_img_end(&im);
}

/* A fresh image with one field of one group descriptor changed. */
static void group_case(const char *size, uint32_t g, uint32_t field, uint32_t value, int width)
{
	struct t_img im;
	if (CHECK_EQ(setup(&im, size), 0)) {
		if (width == 16)
			poke16(&im, GD(g) + field, (uint16_t)value);
		else
			poke32(&im, GD(g) + field, value);
		expect_mount_fails(&im, -EINVAL);
	}
	t_img_end(&im);
}

UNIT_TEST(group_descriptors)
{
	T_NEED_TOOLS();
	group_case("16M", 0, GD_INODE_TABLE, 4096 + 10, 32);     /* past the end */
	group_case("16M", 0, GD_INODE_TABLE, 4090, 32);          /* runs past the end */
	group_case("16M", 0, GD_INODE_TABLE, 0xffffffff, 32);
	group_case("16M", 0, GD_BLOCK_BITMAP, 0, 32);            /* the superblock */
	group_case("16M", 0, GD_BLOCK_BITMAP, 1, 32);            /* the descriptors */
	group_case("16M", 0, GD_INODE_BITMAP, 4096, 32);
	group_case("16M", 0, GD_FREE_BLOCKS, 60000, 16);
	/* Two groups: group 1's table inside group 0, its bitmap past the end. */
	group_case("200M", 1, GD_INODE_TABLE, 100, 32);
	group_case("200M", 1, GD_BLOCK_BITMAP, 51200, 32);
}

/* Mounts read-write; the case then checks what the corruption gives. */
static int mount_rw(struct t_img *im, struct ext2_fs *fs)
{
	int rc = ext2_mount(fs, &im->dev, false);
	if (rc < 0)
		printf("  mount: %d (%s)\n", rc, fs->error ? fs->error : "");
	return rc;
}

UNIT_TEST(inode_block_out_of_range)
{
	struct t_img im;
	struct ext2_fs fs;
	static uint8_t buf[BIG_SIZE];
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, "16M"), 0)) {
		uint64_t f = inode_offset(&im, "/f");
		uint64_t big = inode_offset(&im, "/big");
		poke32(&im, f + I_BLOCK, 4096 + 5);             /* past the end */
		poke32(&im, big + I_BLOCK + 4 * 3, 1);          /* the descriptor table */
		poke32(&im, big + I_BLOCK + 4 * 5, 0xfffffff0);
		if (CHECK_EQ(mount_rw(&im, &fs), 0)) {
			uint32_t fi, bi;
			CHECK_EQ(ext2_lookup_path(&fs, "/f", &fi), 0);
			CHECK_EQ(ext2_lookup_path(&fs, "/big", &bi), 0);
			fs.error = NULL;
			CHECK_EQ(ext2_read(&fs, fi, 0, buf, 100), BAD);
			CHECK(fs.error != NULL);
			CHECK_EQ(ext2_read(&fs, bi, 0, buf, 3 * 4096), 3 * 4096);   /* before it */
			CHECK_EQ(ext2_read(&fs, bi, 3 * 4096, buf, 4096), BAD);
			CHECK_EQ(ext2_read(&fs, bi, 5 * 4096, buf, 4096), BAD);
			CHECK_EQ(ext2_write(&fs, fi, 0, "x", 1), BAD);
			uint64_t disk;
			CHECK_EQ(ext2_file_block(&fs, bi, 5, false, &disk), BAD);
			CHECK_EQ(ext2_truncate(&fs, fi, 0), BAD);
			CHECK_EQ(ext2_unlink(&fs, EXT2_ROOT_INO, "big"), BAD);
			struct ext2_stat st;
			CHECK_EQ(ext2_stat(&fs, fi, &st), 0);
			CHECK_EQ(ext2_unmount(&fs), 0);
			/* The error is recorded for fsck, which indeed finds it. */
			CHECK_EQ(peek32(&im, SB_MAGIC) >> 16 & 2, 2);
			CHECK(t_fsck_status(&im, false) != 0);
		}
	}
	t_img_end(&im);
}

UNIT_TEST(indirect_loops_and_ranges)
{
	struct t_img im;
	struct ext2_fs fs;
	static uint8_t buf[BIG_SIZE];
	T_NEED_TOOLS();
	if (CHECK_EQ(setup(&im, "16M"), 0)) {
		uint64_t ind = debugfs_number(&im, "stat /big", "(IND):", 0);
		uint64_t dind = debugfs_number(&im, "stat /big", "(DIND):", 0);
		uint64_t ind2 = debugfs_number(&im, "stat /big", "(IND):", 1);
		REQUIRE(ind && dind && ind2);
		poke32(&im, ind * 4096 + 4 * 0, (uint32_t)ind);      /* points to itself */
		poke32(&im, ind * 4096 + 4 * 7, 0xfffffff0);         /* out of range */
		poke32(&im, dind * 4096 + 4 * 1, (uint32_t)dind);    /* DIND to itself */
		poke32(&im, ind2 * 4096 + 4 * 9, (uint32_t)dind);    /* IND to its parent */
		if (CHECK_EQ(mount_rw(&im, &fs), 0)) {
			uint32_t bi;
			CHECK_EQ(ext2_lookup_path(&fs, "/big", &bi), 0);
			CHECK_EQ(ext2_read(&fs, bi, 0, buf, 12 * 4096), 12 * 4096);
			CHECK_EQ(t_check_pattern(buf, 1, 0, 12 * 4096), -1);
			CHECK_EQ(ext2_read(&fs, bi, 12 * 4096, buf, 4096), BAD);
			CHECK_EQ(ext2_read(&fs, bi, 13 * 4096, buf, 4096), 4096);
			CHECK_EQ(ext2_read(&fs, bi, 19 * 4096, buf, 4096), BAD);
			CHECK_EQ(ext2_read(&fs, bi, 1036ull * 4096, buf, 4096), 4096);
			CHECK_EQ(t_check_pattern(buf, 1, 1036ull * 4096, 4096), -1);
			CHECK_EQ(ext2_read(&fs, bi, 1045ull * 4096, buf, 4096), BAD);
			uint64_t disk;
			CHECK_EQ(ext2_file_block(&fs, bi, 1036 + 1024, false, &disk), BAD);
			CHECK_EQ(ext2_file_block(&fs, bi, 1036 + 1024, true, &disk), BAD);
			/* A whole read stops at the first bad block with what it has. */
			CHECK_EQ(ext2_read(&fs, bi, 0, buf, BIG_SIZE), 12 * 4096);
			CHECK_EQ(ext2_write(&fs, bi, 12 * 4096 + 5, "x", 1), BAD);
			CHECK_EQ(ext2_truncate(&fs, bi, 0), BAD);
			CHECK_EQ(ext2_unmount(&fs), 0);
		}
	}
	t_img_end(&im);
}

/* The offset in the image of entry number n (from 0) of directory block b,
 * found by walking rec_len independently of the library. */
static uint64_t dir_entry(struct t_img *im, uint64_t b, int n)
{
	uint32_t off = 0;
	for (int i = 0; i < n; i++) {
		uint16_t rec = 0;
		t_peek(im, b * 4096 + off + 4, &rec, 2);
		off += rec;
	}
	return b * 4096 + off;
}

/* Corrupts one field of the 5th entry of /d and checks that using /d fails. */
static void dirent_case(uint32_t field, uint32_t value, int width)
{
	struct t_img im;
	struct ext2_fs fs;
	if (CHECK_EQ(setup(&im, "16M"), 0)) {
		uint64_t e = dir_entry(&im, file_block(&im, "/d", 0), 4);
		if (width == 8) {
			uint8_t v = (uint8_t)value;
			CHECK_EQ(t_poke(&im, e + field, &v, 1), 0);
		} else if (width == 16) {
			poke16(&im, e + field, (uint16_t)value);
		} else {
			poke32(&im, e + field, value);
		}
		if (CHECK_EQ(mount_rw(&im, &fs), 0)) {
			uint32_t d, ino;
			struct ext2_dirent ent;
			CHECK_EQ(ext2_lookup_path(&fs, "/d", &d), 0);
			fs.error = NULL;
			CHECK_EQ(ext2_lookup(&fs, d, "missing", 7, &ino), BAD);
			CHECK(fs.error != NULL);
			CHECK_EQ(ext2_lookup_path(&fs, "/d/missing", &ino), BAD);
			CHECK_EQ(ext2_create(&fs, d, "new", 0644, 0, 0, &ino), BAD);
			CHECK_EQ(ext2_unlink(&fs, d, "missing"), BAD);
			CHECK_EQ(ext2_rmdir(&fs, EXT2_ROOT_INO, "d"), BAD);
			int rc;
			uint64_t pos = 0;
			while ((rc = ext2_readdir(&fs, d, &pos, &ent)) == 1)
				;
			CHECK_EQ(rc, BAD);
			CHECK_EQ(ext2_unmount(&fs), 0);
		}
	}
	t_img_end(&im);
}

UNIT_TEST(directory_entries)
{
	T_NEED_TOOLS();
	dirent_case(4, 0, 16);            /* rec_len 0 */
	dirent_case(4, 8, 16);            /* rec_len below the minimum */
	dirent_case(4, 13, 16);           /* rec_len not a multiple of 4 */
	dirent_case(4, 4096, 16);         /* past the block */
	dirent_case(4, 0xfffc, 16);
	dirent_case(6, 200, 8);           /* name_len beyond rec_len - 8 */
	dirent_case(0, 0x7fffffff, 32);   /* inode beyond the inode count */
}

UNIT_TEST(directory_sizes_and_holes)
{
	struct t_img im;
	struct ext2_fs fs;
	T_NEED_TOOLS();
	for (int variant = 0; variant < 3; variant++) {
		if (!CHECK_EQ(setup(&im, "16M"), 0)) {
			t_img_end(&im);
			continue;
		}
		uint64_t d = inode_offset(&im, "/d");
		if (variant == 0)
			poke32(&im, d + I_SIZE, 4095);        /* not whole blocks */
		else if (variant == 1)
			poke32(&im, d + I_BLOCK, 0);          /* a hole */
		else
			poke32(&im, d + I_SIZE, 1u << 30);    /* far past its blocks */
		if (CHECK_EQ(mount_rw(&im, &fs), 0)) {
			uint32_t dino, ino;
			struct ext2_dirent ent;
			uint64_t pos = 0;
			CHECK_EQ(ext2_lookup_path(&fs, "/d", &dino), 0);
			CHECK_EQ(ext2_lookup(&fs, dino, "missing", 7, &ino), BAD);
			CHECK_EQ(ext2_create(&fs, dino, "new", 0644, 0, 0, &ino), BAD);
			int rc;
			while ((rc = ext2_readdir(&fs, dino, &pos, &ent)) == 1)
				;
			CHECK_EQ(rc, BAD);
			CHECK_EQ(ext2_unmount(&fs), 0);
		}
		t_img_end(&im);
	}
}

/* ---- random corruption ---- */

struct mem_dev {
	uint8_t *data;
	uint64_t nblocks;
};

static int mem_read(void *ctx, uint64_t b, void *buf)
{
	struct mem_dev *m = ctx;
	if (b >= m->nblocks)
		return -EIO;
	memcpy(buf, m->data + b * 4096, 4096);
	return 0;
}

static int mem_write(void *ctx, uint64_t b, const void *buf)
{
	struct mem_dev *m = ctx;
	if (b >= m->nblocks)
		return -EIO;
	memcpy(m->data + b * 4096, buf, 4096);
	return 0;
}

static uint64_t rng_state;

static uint32_t rng(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng_state >> 33);
}

/* Visits the tree under dir: stat, read, readlink everything (bounded). */
static void walk(struct ext2_fs *fs, uint32_t dir, int depth, int *budget)
{
	static uint8_t buf[1 << 16];
	struct ext2_dirent ent;
	uint64_t pos = 0;
	while (*budget > 0 && ext2_readdir(fs, dir, &pos, &ent) == 1) {
		struct ext2_stat st;
		(*budget)--;
		if (strcmp(ent.name, ".") == 0 || strcmp(ent.name, "..") == 0)
			continue;
		if (ext2_stat(fs, ent.ino, &st) < 0)
			continue;
		uint64_t off = 0;
		int64_t n;
		while ((n = ext2_read(fs, ent.ino, off, buf, sizeof(buf))) > 0 && off < (8u << 20))
			off += (uint64_t)n;
		ext2_readlink(fs, ent.ino, (char *)buf, sizeof(buf));
		if ((st.mode & EXT2_S_IFMT) == EXT2_S_IFDIR && depth < 6)
			walk(fs, ent.ino, depth + 1, budget);
	}
}

/* Changes that touch every part of the library. */
static void churn(struct ext2_fs *fs)
{
	static uint8_t buf[3 * 4096 + 7];
	uint32_t ino, d, big;
	memset(buf, 0x5a, sizeof(buf));
	if (ext2_create(fs, EXT2_ROOT_INO, "new", 0644, 0, 0, &ino) == 0) {
		ext2_write(fs, ino, 4000, buf, sizeof(buf));
		ext2_write(fs, ino, 70000, buf, 10);
	}
	ext2_mkdir(fs, EXT2_ROOT_INO, "nd", 0755, 0, 0, &d);
	ext2_rename(fs, EXT2_ROOT_INO, "f", EXT2_ROOT_INO, "nd");
	ext2_rename(fs, EXT2_ROOT_INO, "d", EXT2_ROOT_INO, "nd");
	if (ext2_lookup_path(fs, "/big", &big) == 0) {
		ext2_truncate(fs, big, 1000000);
		ext2_write(fs, big, 2000000, buf, sizeof(buf));
	}
	if (ext2_lookup_path(fs, "/nd", &d) == 0) {
		ext2_unlink(fs, d, "entry7");
		ext2_symlink(fs, d, "sl", "target", 0, 0, &ino);
		ext2_rename(fs, d, "entry8", EXT2_ROOT_INO, "e8");
	}
	ext2_unlink(fs, EXT2_ROOT_INO, "big");
	ext2_unlink(fs, EXT2_ROOT_INO, "new");
	ext2_rmdir(fs, EXT2_ROOT_INO, "nd");
}

UNIT_TEST(random_corruption)
{
	struct t_img im;
	T_NEED_TOOLS();
	REQUIRE_EQ(setup(&im, "16M"), 0);
	/* The metadata worth corrupting: superblock, descriptors, bitmaps, the
	 * used part of the inode table, directory blocks, indirect blocks. */
	uint64_t it = debugfs_number(&im, "stats", "inode table at ", 0);
	uint64_t targets[] = {
		0, 1,
		debugfs_number(&im, "stats", "block bitmap at ", 0),
		debugfs_number(&im, "stats", "inode bitmap at ", 0),
		it, it + 1,
		file_block(&im, "/", 0), file_block(&im, "/d", 0),
		debugfs_number(&im, "stat /big", "(IND):", 0),
		debugfs_number(&im, "stat /big", "(DIND):", 0),
		debugfs_number(&im, "stat /big", "(IND):", 1),
	};
	struct stat st;
	REQUIRE_EQ(fstat(im.fd, &st), 0);
	uint64_t size = (uint64_t)st.st_size;
	uint8_t *pristine = malloc(size), *data = malloc(size);
	REQUIRE(pristine && data);
	REQUIRE_EQ(t_peek(&im, 0, pristine, size), 0);

	struct mem_dev m = { data, size / 4096 };
	struct ext2_blockdev dev = { .ctx = &m, .nblocks = m.nblocks, .read = mem_read,
	                             .write = mem_write, .now = t_clock };
	int mounted = 0, errors = 0;
	/* EXT2_FUZZ_ITERS and EXT2_FUZZ_SEED make longer runs by hand. */
	const char *env = getenv("EXT2_FUZZ_ITERS");
	int iters = env ? atoi(env) : 400;
	env = getenv("EXT2_FUZZ_SEED");
	rng_state = env ? strtoull(env, NULL, 0) : 12345;
	for (int iter = 0; iter < iters; iter++) {
		memcpy(data, pristine, size);
		int flips = 1 + (int)(rng() % 8);
		for (int i = 0; i < flips; i++) {
			uint64_t b = targets[rng() % (sizeof(targets) / sizeof(targets[0]))];
			uint32_t off = rng() % 4096;
			if (b == 0)
				off = 1024 + rng() % 256;     /* the superblock's used part */
			else if (b == it || b == it + 1)
				off = rng() % 4096;
			uint8_t v = (uint8_t)rng();
			data[b * 4096 + off] = rng() % 2 ? v : (uint8_t)(data[b * 4096 + off] ^ (1u << (v % 8)));
		}
		struct ext2_fs fs;
		bool rw = iter % 2;
		if (ext2_mount(&fs, &dev, !rw) < 0) {
			errors++;
			continue;
		}
		mounted++;
		int budget = 2000;
		walk(&fs, EXT2_ROOT_INO, 0, &budget);
		if (rw) {
			churn(&fs);
			budget = 2000;
			walk(&fs, EXT2_ROOT_INO, 0, &budget);
		}
		if (fs.error)
			errors++;
		ext2_unmount(&fs);
	}
	printf("  random corruption: %d mounted, %d with errors found\n", mounted, errors);
	CHECK(mounted > iters / 8);
	CHECK(errors > iters / 8);
	free(pristine);
	free(data);
	t_img_end(&im);
}
