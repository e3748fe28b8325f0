/*
 * t_omf: the On-Memory File (include/myrmex/omf.h, docs/fmap.md), run as a
 * POSIX process with the file manager on fs.img and the console server:
 *   - readblock of 1, 8 and 32 blocks maps what read() returns, with no page
 *     fault afterwards; readbyte reads through a window of blocks without a
 *     request per read;
 *   - a store through a writable mapping is what read() returns, here and
 *     in another process; two processes mapping one block see each other's
 *     stores; a read-only descriptor maps read-only (a store: SIGSEGV);
 *   - past the end: -ENXIO on a read-only descriptor; zero-filled blocks on
 *     a writable one, and syncblock's flg extends the size; the blocks that
 *     no syncblock covered are freed when the mapping goes; the bytes after
 *     the end in the last block read as zeros;
 *   - close leaves the mapping, munmap (whole or part) removes it, the exit
 *     of a mapping process leaves the data right, truncation revokes the
 *     pages from the new end (SIGBUS);
 *   - bad inputs of readblock and syncblock; a program sending FS_MAP,
 *     FS_PAGEIN, FS_UNMAP or FS_SYNCMAP itself gets -EPERM, even with the
 *     frame's reserved word set to the kernel's origin;
 *   - data stored and synced survives FS_DROP_CACHE; at the end the file
 *     manager holds no map and no page.
 * Mode "dma": a page handed out while its chunk is at the disk driver (a
 * neighbour being read into it for another process) maps all the same.
 * Other processes are this program spawned again in a child mode (there is
 * no process manager here, so no fork): "child-read", "child-store",
 * "child-pingpong", "child-race".
 */
#define _GNU_SOURCE
#define TEST_NAME "t_omf"
#include "test_check.h"
#include "fs_test.h"
#include "posix_test.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <myrmex/omf.h>

#define BLK        4096u
#define DATA       "/omf.data"          /* 40 blocks and 1000 bytes, read only */
#define DATA_SIZE  (40u * BLK + 1000u)
#define DATA_SEED  7u
#define GROW       "/omf.grow"
#define TRUNC      "/omf.trunc"
#define SHARE      "/omf.share"
#define PING_TRIES 20000                /* 1 ms each */

static char *const child_envp[] = { "MYRMEX_TEST=1", NULL };
static uint8_t buf[64 * BLK];

#include "fmap_test.h"   /* uses child_envp */

/* ---------------------------------------------------------- helpers */

static uint64_t file_size(int fd)
{
	struct stat st;
	if (fstat(fd, &st) != 0) {
		test_fail("fstat: errno %d", errno);
		return 0;
	}
	return (uint64_t)st.st_size;
}

static uint64_t file_blocks(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		test_fail("stat %s: errno %d", path, errno);
		return 0;
	}
	return (uint64_t)st.st_blocks;
}

static void make_data(void)
{
	int fd = open(DATA, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	CHECK(fd >= 0, "create %s: errno %d", DATA, errno);
	for (uint32_t i = 0; i < DATA_SIZE; i++)
		buf[i % sizeof buf] = stream_byte(DATA_SEED, i);
	for (uint32_t done = 0; done < DATA_SIZE;) {
		uint32_t n = DATA_SIZE - done < sizeof buf ? DATA_SIZE - done : sizeof buf;
		for (uint32_t i = 0; i < n; i++)
			buf[i] = stream_byte(DATA_SEED, done + i);
		CHECK_EQ(write(fd, buf, n), n);
		done += n;
	}
	close(fd);
}

/* A file of `blocks` blocks of stream seed. */
static void make_file(const char *path, uint32_t blocks, uint32_t seed)
{
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	CHECK(fd >= 0, "create %s: errno %d", path, errno);
	for (uint32_t i = 0; i < blocks * BLK; i++)
		buf[i] = stream_byte(seed, i);
	CHECK_EQ(write(fd, buf, blocks * BLK), blocks * BLK);
	close(fd);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { 0, ms * 1000000L };
	nanosleep(&ts, NULL);
}

/* ---------------------------------------------------------- the children */

/* child-read <path> <offset> <byte>: read() finds byte at offset. */
static int child_read(char **argv)
{
	int fd = open(argv[2], O_RDONLY);
	uint8_t b = 0;
	if (fd < 0 || pread(fd, &b, 1, atol(argv[3])) != 1)
		return 2;
	return b == (uint8_t)atoi(argv[4]) ? 0 : 1;
}

/* child-store <path> <offset> <byte>: a writable readblock of the block
 * holding offset, byte stored there, and the exit (which unmaps). */
static int child_store(char **argv)
{
	int fd = open(argv[2], O_RDWR);
	long off = atol(argv[3]), err;
	if (fd < 0)
		return 2;
	uint8_t *p = myrmex_readblock(fd, 1, (uint64_t)off / BLK, &err);
	if (!p)
		return 3;
	p[off % BLK] = (uint8_t)atoi(argv[4]);
	return 0;
}

/* child-pingpong <path>: block 0 mapped; 'C' at byte 0, then wait for the
 * parent's 'P' at byte 1. */
static int child_pingpong(char **argv)
{
	int fd = open(argv[2], O_RDWR);
	long err;
	if (fd < 0)
		return 2;
	volatile uint8_t *p = myrmex_readblock(fd, 1, 0, &err);
	if (!p)
		return 3;
	p[0] = 'C';
	for (int i = 0; i < PING_TRIES; i++) {
		if (p[1] == 'P')
			return 0;
		sleep_ms(1);
	}
	return 4;
}

/* child-race <flag file> <file>: says it is ready (byte 1 of the flag
 * file's block), waits for byte 0 to be 1, then reads block 1 of file. */
static int child_race(char **argv)
{
	int g = open(argv[2], O_RDWR), fd = open(argv[3], O_RDONLY);
	long err;
	if (g < 0 || fd < 0)
		return 2;
	volatile uint8_t *flag = myrmex_readblock(g, 1, 0, &err);
	if (!flag)
		return 3;
	flag[1] = 1;
	for (long i = 0; flag[0] != 1; i++) {
		if (i > 100000000)
			return 4;
		sched_yield();
	}
	uint8_t b;
	return pread(fd, &b, 1, BLK) == 1 ? 0 : 5;
}

/* ---------------------------------------------------------- the checks */

/* readblock of n blocks at off on a read-only descriptor: what pread says,
 * and no page fault while every page is read. */
static void map_and_compare(int fd, uint32_t n, uint32_t off)
{
	long err = 0;
	const uint8_t *p = myrmex_readblock(fd, n, off, &err);
	CHECK(p != NULL, "readblock(%u blocks at %u): %ld", n, off, err);
	if (!p)
		return;
	uint64_t want = (uint64_t)n * BLK;
	if (off * (uint64_t)BLK + want > DATA_SIZE)
		want = DATA_SIZE - off * (uint64_t)BLK;
	CHECK_EQ(pread(fd, buf, want, (off_t)off * BLK), (long)want);
	uint64_t before = page_faults();
	int same = memcmp(p, buf, want) == 0;
	unsigned sum = 0;
	for (uint64_t i = 0; i < (uint64_t)n * BLK; i += BLK)
		sum += p[i];
	uint64_t faults = page_faults() - before;
	CHECK(same, "readblock(%u at %u) differs from read()", n, off);
	CHECK(faults == 0, "readblock(%u at %u): %llu page faults while reading it (sum %u)", n,
	      off, (unsigned long long)faults, sum);
	CHECK_EQ(munmap((void *)p, (size_t)n * BLK), 0);
}

static void readblock_reads(void)
{
	int fd = open(DATA, O_RDONLY);
	CHECK(fd >= 0, "open %s: errno %d", DATA, errno);
	uint64_t s0[8], s1[8];
	map_stats(s0);
	map_and_compare(fd, 1, 0);
	map_and_compare(fd, 8, 3);
	map_and_compare(fd, 32, 8);
	map_and_compare(fd, 1, 40);   /* the last, partial block */
	map_stats(s1);
	CHECK_EQ(s1[FS_MSTAT_MAP_CALLS] - s0[FS_MSTAT_MAP_CALLS], 4);
	CHECK_EQ(s1[FS_MSTAT_PAGEINS] - s0[FS_MSTAT_PAGEINS], 0);

	/* munmap of a part: the rest stays, and the file manager keeps the map
	 * until its last page goes. */
	long err;
	volatile uint8_t *m = myrmex_readblock(fd, 3, 0, &err);
	CHECK(m != NULL, "readblock(3 at 0): %ld", err);
	if (m) {
		CHECK_EQ(munmap((void *)(m + BLK), BLK), 0);
		CHECK_EQ(touch(m + BLK, 0, 0), SIGSEGV);
		CHECK_EQ(touch(m + 2 * BLK, 0, 0), 0);
		CHECK_EQ(m[2 * BLK + 1], stream_byte(DATA_SEED, 2 * BLK + 1));
		map_stats(s1);
		CHECK_EQ(s1[FS_MSTAT_MAPS], s0[FS_MSTAT_MAPS] + 1);
		CHECK_EQ(munmap((void *)m, 3 * BLK), 0);
		map_stats(s1);
		CHECK_EQ(s1[FS_MSTAT_MAPS], s0[FS_MSTAT_MAPS]);
	}

	/* The bytes after the end in the last block read as zeros. */
	const uint8_t *p = myrmex_readblock(fd, 1, 40, &err);
	if (p) {
		int zeros = 1;
		for (uint32_t i = 1000; i < BLK; i++)
			zeros &= p[i] == 0;
		CHECK(zeros, "bytes after the end of the file are not zero");
		/* Read-only: a store raises SIGSEGV, and nothing changed. */
		CHECK_EQ(touch((volatile uint8_t *)p + 10, 1, 0xee), SIGSEGV);
		CHECK_EQ(p[10], stream_byte(DATA_SEED, 40 * BLK + 10));
		/* close leaves the mapping; munmap removes it. */
		close(fd);
		CHECK_EQ(touch((volatile uint8_t *)p + 999, 0, 0), 0);
		CHECK_EQ(p[999], stream_byte(DATA_SEED, 40 * BLK + 999));
		CHECK_EQ(munmap((void *)p, BLK), 0);
		CHECK_EQ(touch((volatile uint8_t *)p, 0, 0), SIGSEGV);
	} else {
		test_fail("readblock(1 at 40): %ld", err);
		close(fd);
	}
}

/* Past the end of a read-only file: -ENXIO, whole or in part. */
static void past_end_read_only(void)
{
	int fd = open(DATA, O_RDONLY);
	long err = 0;
	CHECK(myrmex_readblock(fd, 1, 41, &err) == NULL, "readblock past the end mapped");
	CHECK_EQ(err, -ENXIO);
	CHECK(myrmex_readblock(fd, 4, 39, &err) == NULL, "readblock over the end mapped");
	CHECK_EQ(err, -ENXIO);
	close(fd);
}

/* A writable descriptor: stores are the file; past the end, zero blocks
 * that syncblock's flg makes part of the file; the rest is freed at unmap. */
static void writable(void)
{
	make_file(GROW, 0, 0);
	int fd = open(GROW, O_RDWR);
	CHECK(fd >= 0, "open %s: errno %d", GROW, errno);
	for (uint32_t i = 0; i < 5000; i++)
		buf[i] = stream_byte(11, i);
	CHECK_EQ(write(fd, buf, 5000), 5000);
	long err = 0;
	uint8_t *p = myrmex_readblock(fd, 4, 0, &err);
	CHECK(p != NULL, "readblock(4 at 0) of a writable file: %ld", err);
	if (!p) {
		close(fd);
		return;
	}
	int zeros = 1;
	for (uint32_t i = 5000; i < 4 * BLK; i++)
		zeros &= p[i] == 0;
	CHECK(zeros, "past the end: not zero-filled");
	CHECK_EQ(memcmp(p, buf, 5000), 0);
	CHECK_EQ(file_size(fd), 5000);

	/* A store is what read() returns, here and in another process. */
	p[10] = 0x5a;
	uint8_t b = 0;
	CHECK_EQ(pread(fd, &b, 1, 10), 1);
	CHECK_EQ(b, 0x5a);
	char *rargv[] = { "t_omf", "child-read", GROW, "10", "90", NULL };
	expect_child_ok("child-read of a store", spawn_child(rargv));

	/* Stores past the end, then syncblock with flg: the size grows. */
	for (uint32_t i = 6000; i < 14000; i++)
		p[i] = stream_byte(12, i);
	CHECK_EQ(file_size(fd), 5000);
	CHECK_EQ(myrmex_syncblock(fd, p, 14000, 0, 1), 0);
	CHECK_EQ(file_size(fd), 14000);
	CHECK_EQ(pread(fd, buf, 8000, 6000), 8000);
	int same = 1;
	for (uint32_t i = 0; i < 8000; i++)
		same &= buf[i] == stream_byte(12, 6000 + i);
	CHECK(same, "read() after syncblock differs from the stores");
	/* syncblock without flg never shrinks or grows. */
	CHECK_EQ(myrmex_syncblock(fd, p, 4096, 0, 0), 0);
	CHECK_EQ(file_size(fd), 14000);

	/* Blocks past the end that nothing covered go with the mapping. */
	uint64_t blocks = file_blocks(GROW);
	uint8_t *q = myrmex_readblock(fd, 2, 10, &err);
	CHECK(q != NULL, "readblock(2 at 10) past the end: %ld", err);
	if (q) {
		CHECK(file_blocks(GROW) > blocks, "no blocks allocated past the end");
		q[0] = 1;
		CHECK_EQ(munmap(q, 2 * BLK), 0);
		CHECK_EQ(file_blocks(GROW), blocks);
		CHECK_EQ(file_size(fd), 14000);
	}

	/* The data survives the cache: unmapped, dropped, read again. */
	CHECK_EQ(munmap(p, 4 * BLK), 0);
	CHECK_EQ(myrmex_fs_drop_cache(), 0);
	CHECK_EQ(pread(fd, buf, 14000, 0), 14000);
	same = buf[10] == 0x5a;
	for (uint32_t i = 6000; i < 14000; i++)
		same &= buf[i] == stream_byte(12, i);
	CHECK(same, "stores lost after FS_DROP_CACHE");
	close(fd);
}

/* syncblock's and readblock's refusals. */
static void bad_inputs(void)
{
	int ro = open(DATA, O_RDONLY), rw = open(GROW, O_RDWR);
	int dir = open("/", O_RDONLY | O_DIRECTORY);
	int pipes[2];
	CHECK_EQ(pipe(pipes), 0);
	long err = 0;
	CHECK(!myrmex_readblock(99, 1, 0, &err) && err == -EBADF, "bad fd: %ld", err);
	CHECK(!myrmex_readblock(-1, 1, 0, &err) && err == -EBADF, "fd -1: %ld", err);
	CHECK(!myrmex_readblock(dir, 1, 0, &err) && err == -ENODEV, "directory: %ld", err);
	CHECK(!myrmex_readblock(pipes[0], 1, 0, &err) && err == -ENODEV, "pipe: %ld", err);
	CHECK(!myrmex_readblock(ro, 0, 0, &err) && err == -EINVAL, "0 blocks: %ld", err);
	CHECK(!myrmex_readblock(ro, MYRMEX_OMF_MAX_BLOCKS + 1, 0, &err) && err == -EINVAL,
	      "too many blocks: %ld", err);
	CHECK(!myrmex_readblock(ro, 1, 1ull << 33, &err) && err == -EINVAL, "blkoff 2^33: %ld",
	      err);
	CHECK(!myrmex_readblock(ro, 1, 1ull << 31, &err) && err == -ENXIO,
	      "blkoff 2^31, read-only: %ld", err);
	CHECK(!myrmex_readblock(rw, 1, (1ull << 32) - 1, &err) && err == -EFBIG,
	      "blkoff 2^32 - 1, writable: %ld", err);
	int wo = open(GROW, O_WRONLY);
	CHECK(!myrmex_readblock(wo, 1, 0, &err) && err == -EACCES, "write-only fd: %ld", err);
	close(wo);

	uint8_t *p = myrmex_readblock(ro, 2, 0, &err);
	uint8_t *w = myrmex_readblock(rw, 2, 0, &err);
	uint8_t *anon = mmap(NULL, BLK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(p && w && anon != MAP_FAILED, "mappings for the syncblock checks");
	if (p && w && anon != MAP_FAILED) {
		CHECK_EQ(myrmex_syncblock(rw, anon, BLK, 0, 0), -EINVAL);   /* not a readblock mapping */
		CHECK_EQ(myrmex_syncblock(rw, buf, BLK, 0, 0), -EINVAL);
		CHECK_EQ(myrmex_syncblock(rw, w + 1, BLK, 0, 0), -EINVAL);   /* not page aligned */
		CHECK_EQ(myrmex_syncblock(rw, w, 0, 0, 0), -EINVAL);
		CHECK_EQ(myrmex_syncblock(rw, w, 2 * BLK + 1, 0, 0), -EINVAL);   /* beyond it */
		CHECK_EQ(myrmex_syncblock(rw, w, BLK, 1, 0), -EINVAL);   /* the wrong block */
		CHECK_EQ(myrmex_syncblock(ro, w, BLK, 0, 0), -EINVAL);   /* another descriptor's */
		CHECK_EQ(myrmex_syncblock(99, w, BLK, 0, 0), -EINVAL);
		CHECK_EQ(myrmex_syncblock(rw, w + BLK, BLK, 1, 0), 0);   /* its second block */
		CHECK_EQ(myrmex_syncblock(ro, p, BLK, 0, 1), -EBADF);    /* flg, read-only */
		CHECK_EQ(myrmex_syncblock(ro, p, 2 * BLK, 0, 0), 0);
	}
	if (p)
		munmap(p, 2 * BLK);
	if (w)
		munmap(w, 2 * BLK);
	if (anon != MAP_FAILED)
		munmap(anon, BLK);
	close(pipes[0]);
	close(pipes[1]);
	close(dir);
	close(ro);
	close(rw);
}

/* A process that maps, stores and exits; two processes on one block. */
static void processes(void)
{
	make_file(SHARE, 2, 21);
	int fd = open(SHARE, O_RDWR);
	long err = 0;
	volatile uint8_t *p = myrmex_readblock(fd, 2, 0, &err);
	CHECK(p != NULL, "readblock of %s: %ld", SHARE, err);
	if (!p) {
		close(fd);
		return;
	}
	char *sargv[] = { "t_omf", "child-store", SHARE, "4196", "77", NULL };
	expect_child_ok("child-store", spawn_child(sargv));
	CHECK_EQ(p[4196], 77);   /* the child's store, in our mapping of the block */
	uint8_t b = 0;
	CHECK_EQ(pread(fd, &b, 1, 4196), 1);
	CHECK_EQ(b, 77);
	CHECK_EQ(p[4195], stream_byte(21, 4195));   /* the rest as it was */

	/* Ping-pong through the one block both map. */
	p[0] = p[1] = 0;
	char *pargv[] = { "t_omf", "child-pingpong", SHARE, NULL };
	long pid = spawn_child(pargv);
	int seen = 0;
	for (int i = 0; pid > 0 && i < PING_TRIES && !seen; i++) {
		seen = p[0] == 'C';
		if (!seen)
			sleep_ms(1);
	}
	CHECK(seen, "the child's store never showed in our mapping");
	p[1] = 'P';
	expect_child_ok("child-pingpong", pid);
	CHECK_EQ(munmap((void *)p, 2 * BLK), 0);
	close(fd);
}

/*
 * A page handed out while its chunk is at the disk driver for another
 * request still maps: the child's read of block 1 of the file is queued
 * behind our readblock of block 0 (it waits on the flag in a third file's
 * block, which both map), so the file manager answers us and then sends the
 * chunk holding both blocks to the driver to read block 1 into it, before
 * the kernel maps our answer. The frames are the chunk's all along.
 */
static void dma_race(void)
{
	make_file("/omf.race", 2, 51);
	make_file("/omf.flag", 1, 0);
	int g = open("/omf.flag", O_RDWR), fd = open("/omf.race", O_RDONLY);
	long err;
	volatile uint8_t *flag = myrmex_readblock(g, 1, 0, &err);
	CHECK(flag != NULL, "readblock of /omf.flag: %ld", err);
	if (flag) {
		flag[0] = flag[1] = 0;
		char *argv[] = { "t_omf", "child-race", "/omf.flag", "/omf.race", NULL };
		long pid = spawn_child(argv);
		while (pid > 0 && flag[1] != 1)
			sched_yield();
		CHECK_EQ(myrmex_fs_drop_cache(), 0);   /* block 1 must be read again */
		flag[0] = 1;
		const uint8_t *p = myrmex_readblock(fd, 1, 0, &err);
		CHECK(p != NULL, "readblock while the chunk is at the driver: %ld", err);
		CHECK(!p || p[7] == stream_byte(51, 7), "readblock beside a disk read: other bytes");
		if (p)
			munmap((void *)p, BLK);
		expect_child_ok("child-race", pid);
		munmap((void *)flag, BLK);
	}
	close(g);
	close(fd);
	unlink("/omf.race");
	unlink("/omf.flag");
}

/* Truncation below mapped pages: those from the new end raise SIGBUS. */
static void truncation(void)
{
	make_file(TRUNC, 8, 31);
	int fd = open(TRUNC, O_RDWR);
	long err = 0;
	volatile uint8_t *p = myrmex_readblock(fd, 8, 0, &err);
	CHECK(p != NULL, "readblock of %s: %ld", TRUNC, err);
	if (!p) {
		close(fd);
		return;
	}
	uint64_t s0[8], s1[8];
	map_stats(s0);
	CHECK_EQ(ftruncate(fd, 3 * BLK + 10), 0);
	map_stats(s1);
	CHECK(s1[FS_MSTAT_REVOKES] > s0[FS_MSTAT_REVOKES], "no revocation at the truncation");
	CHECK_EQ(touch(p + 3 * BLK + 5, 0, 0), 0);
	CHECK_EQ(p[3 * BLK + 5], stream_byte(31, 3 * BLK + 5));
	CHECK_EQ(p[3 * BLK + 100], 0);   /* cleared after the new end */
	CHECK_EQ(touch(p + 4 * BLK, 0, 0), SIGBUS);
	CHECK_EQ(touch(p + 7 * BLK + 1, 1, 1), SIGBUS);
	CHECK_EQ(p[BLK], stream_byte(31, BLK));
	/* Growing again does not bring revoked pages back. */
	CHECK_EQ(ftruncate(fd, 8 * BLK), 0);
	CHECK_EQ(touch(p + 5 * BLK, 0, 0), SIGBUS);
	CHECK_EQ(munmap((void *)p, 8 * BLK), 0);
	close(fd);
}

/* readbyte: a window of blocks, so that reads inside it make no request. */
static void readbyte(void)
{
	int fd = open(DATA, O_RDONLY);
	long err = 0;
	const uint8_t *r = myrmex_readbyte(fd, 100, 5000, &err);
	CHECK(r != NULL, "readbyte(100 at 5000): %ld", err);
	uint64_t a[8], b[8];
	CHECK_EQ(myrmex_fs_stats(a), 0);
	const uint8_t *r2 = myrmex_readbyte(fd, 3000, 9000, &err);
	const uint8_t *r3 = myrmex_readbyte(fd, 1, 15 * BLK, &err);
	CHECK_EQ(myrmex_fs_stats(b), 0);
	CHECK_EQ(b[FS_STAT_REQUESTS] - a[FS_STAT_REQUESTS], 1);   /* only the FS_STATS */
	int same = r && r2 && r3 && r3[0] == stream_byte(DATA_SEED, 15 * BLK);
	for (uint32_t i = 0; same && i < 100; i++)
		same = r[i] == stream_byte(DATA_SEED, 5000 + i);
	for (uint32_t i = 0; same && i < 3000; i++)
		same = r2[i] == stream_byte(DATA_SEED, 9000 + i);
	CHECK(same, "readbyte gave other bytes than the file's");
	/* Outside the window, up to the end, and past it. */
	const uint8_t *e = myrmex_readbyte(fd, 50, DATA_SIZE - 50, &err);
	CHECK(e && e[49] == stream_byte(DATA_SEED, DATA_SIZE - 1), "readbyte at the end: %ld",
	      err);
	CHECK(!myrmex_readbyte(fd, 10, DATA_SIZE + BLK, &err) && err == -ENXIO,
	      "readbyte past the end: %ld", err);
	CHECK(!myrmex_readbyte(fd, MYRMEX_READBYTE_WINDOW * BLK + 1, 0, &err) && err == -EINVAL,
	      "readbyte larger than the window: %ld", err);
	const uint8_t *s = myrmex_readbyte(fd, MYRMEX_READBYTE_WINDOW * BLK, 100, &err);
	CHECK(s && s[0] == stream_byte(DATA_SEED, 100), "a window's worth, unaligned: %ld", err);
	myrmex_readbyte_close(fd);
	close(fd);
}

/* The file manager's map calls are the kernel's alone. */
static void forged_calls(void)
{
	struct chan c;
	if (!chan_open(&c))
		return;
	int fd = open(DATA, O_RDONLY);
	long err;
	const uint8_t *p = myrmex_readblock(fd, 1, 0, &err);
	uint64_t s0[8], s1[8];
	map_stats(s0);
	uint64_t out[8];
	CHECK_EQ(fsx(&c, FS_MAP, (uint64_t)fd, 0, 1, FS_MAP_SHARED | FS_MAP_POPULATE | FS_MAP_OMF,
	             0x7fff0001, 0, out), -EPERM);
	for (uint64_t id = 1; id <= 64; id++) {
		CHECK_EQ(fsx(&c, FS_PAGEIN, id, 0, 0, 0, 0, 0, out), -EPERM);
		CHECK_EQ(fsx(&c, FS_SYNCMAP, id, 0, 1, 1 << 20, 0, 0, out), -EPERM);
		CHECK_EQ(fsx(&c, FS_UNMAP, id, 0, 0, 0, 0, 0, out), -EPERM);
	}
	/* The origin written by the program itself: the kernel's stamp wins. */
	static const uint32_t ops[] = { FS_MAP, FS_PAGEIN, FS_UNMAP, FS_SYNCMAP };
	for (unsigned i = 0; i < 4; i++) {
		struct fsreq r = { { (uint64_t)fd, 0, 1, FS_MAP_SHARED, 0x7fff0002, 0, 0, 0 }, { 0 }, 1 };
		if (ops[i] != FS_MAP)
			r.a[0] = 1;
		struct myrmex_ctl_header *h = chan_frame(&c, ops[i], &r);
		myrmex_ctl_top(h)->reserved = MYRMEX_ORIGIN_KERNEL;
		long rc = myrmex_callsync(h);
		CHECK_EQ(rc < 0 ? rc : chan_result(&c, &r), -EPERM);
	}
	map_stats(s1);
	CHECK_EQ(s1[FS_MSTAT_MAPS], s0[FS_MSTAT_MAPS]);
	CHECK_EQ(s1[FS_MSTAT_PAGES_HELD], s0[FS_MSTAT_PAGES_HELD]);
	CHECK(p && p[5] == stream_byte(DATA_SEED, 5), "the real mapping changed");
	if (p)
		munmap((void *)p, BLK);
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc >= 5 && strcmp(argv[1], "child-read") == 0)
		return child_read(argv);
	if (argc >= 5 && strcmp(argv[1], "child-store") == 0)
		return child_store(argv);
	if (argc >= 3 && strcmp(argv[1], "child-pingpong") == 0)
		return child_pingpong(argv);
	if (argc >= 4 && strcmp(argv[1], "child-race") == 0)
		return child_race(argv);
	test_console_for_messages();
	catch_faults();
	if (argc >= 2 && strcmp(argv[1], "dma") == 0) {
		dma_race();
		test_note("dma: %s", test_exit_code() ? "FAILED" : "all checks passed");
		return test_exit_code();
	}
	uint64_t start[8], end[8];
	map_stats(start);
	make_data();
	readblock_reads();
	past_end_read_only();
	writable();
	bad_inputs();
	processes();
	truncation();
	readbyte();
	forged_calls();
	map_stats(end);
	CHECK_EQ(end[FS_MSTAT_MAPS], start[FS_MSTAT_MAPS]);
	CHECK_EQ(end[FS_MSTAT_PAGES_HELD], start[FS_MSTAT_PAGES_HELD]);
	CHECK_EQ(end[FS_MSTAT_PINNED_BLOCKS], start[FS_MSTAT_PINNED_BLOCKS]);
	static const char *const made[] = { DATA, GROW, TRUNC, SHARE };
	for (unsigned i = 0; i < 4; i++)
		CHECK(unlink(made[i]) == 0, "unlink %s: errno %d", made[i], errno);
	test_note("%s", test_exit_code() ? "FAILED" : "all checks passed");
	return test_exit_code();
}
