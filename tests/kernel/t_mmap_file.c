/*
 * t_mmap_file: mmap of files (docs/fmap.md), run as a POSIX process with the
 * file manager on fs.img and the console server:
 *   - on demand: one FS_PAGEIN per FS_PAGEIN_AROUND pages touched in order
 *     (fault-around: the file is cached, so each page-in hands out the
 *     faulting page and the next 15; the file manager counts the page-ins,
 *     the kernel the faults), none for a page touched again;
 *     MAP_POPULATE: no page-in and no fault at the touch;
 *   - MAP_SHARED stores are what read() returns, here, in another mapping and
 *     in another process; MAP_PRIVATE stores are the process's own;
 *   - msync(MS_SYNC), munmap, FS_DROP_CACHE, read: the stores are on disk;
 *   - munmap of a part leaves the rest; the file manager lets the map go
 *     only with its last page;
 *   - fork shares a MAP_SHARED mapping and copies a MAP_PRIVATE one (when a
 *     process manager runs; here there is none, and the POSIX suite's
 *     mmap_file covers it);
 *   - the refusals: write access without a writable descriptor, a
 *     write-only descriptor, a pipe, a directory, an unaligned offset;
 *     SIGBUS past the end of the file (and zeros after it in the last
 *     page), mprotect adding PROT_WRITE to a shared mapping of a read-only
 *     descriptor; msync's;
 *   - a file truncated under its mapping: the pages go (SIGBUS); unlinked:
 *     the mapping keeps it, freed at the munmap;
 *   - at the end the file manager holds no map and no page.
 * Another process is this program spawned again ("child-read",
 * "child-store").
 */
#define _GNU_SOURCE
#define TEST_NAME "t_mmap_file"
#include "test_check.h"
#include "fs_test.h"
#include "posix_test.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define BLK        4096u
#define DATA       "/mmap.data"        /* 16 pages and 100 bytes */
#define DATA_SIZE  (16u * BLK + 100u)
#define DATA_PAGES 17u
#define SEED       41u
#define RW         "/mmap.rw"          /* 4 pages, written through mappings */
#define RW_SEED    43u
#define GONE       "/mmap.gone"

static char *const child_envp[] = { "MYRMEX_TEST=1", NULL };
static uint8_t buf[DATA_PAGES * BLK];

#include "fmap_test.h"   /* uses child_envp */

static void make_file(const char *path, uint32_t size, uint32_t seed)
{
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	CHECK(fd >= 0, "create %s: errno %d", path, errno);
	for (uint32_t i = 0; i < size; i++)
		buf[i] = stream_byte(seed, i);
	CHECK_EQ(write(fd, buf, size), size);
	close(fd);
}

static int same_as_stream(const volatile uint8_t *p, uint32_t from, uint32_t n, uint32_t seed)
{
	for (uint32_t i = 0; i < n; i++)
		if (p[i] != stream_byte(seed, from + i))
			return 0;
	return 1;
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

/* child-store <path> <offset> <byte>: a shared writable mmap of the page
 * holding offset, byte stored there, and the exit (which unmaps). */
static int child_store(char **argv)
{
	int fd = open(argv[2], O_RDWR);
	long off = atol(argv[3]);
	if (fd < 0)
		return 2;
	uint8_t *p = mmap(NULL, BLK, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off / BLK * BLK);
	if (p == MAP_FAILED)
		return 3;
	p[off % BLK] = (uint8_t)atoi(argv[4]);
	return 0;
}

/* ---------------------------------------------------------- notice-self */

#define PIPE_ROUNDS 64
#define ICA_TRIES   200

/*
 * notice-self: an FS_UNMAP notice that could not be sent when its map went
 * (the process had no ICA left for it) waits in the kernel until the next
 * process that maps or unmaps memory carries it. The file manager itself
 * maps and unmaps memory (its allocator, behind pipe rings): the kernel
 * must not make the notice a call from the file manager to itself, whose
 * kernel channel it cannot map. Found by the fuzzer (make fuzz SEED=2):
 * the file manager was killed for a page fault at offset 0x50 of a
 * control ICA slot, the first word of its arguments.
 */
static int notice_self(void)
{
	test_console_for_messages();
	make_file(DATA, DATA_SIZE, SEED);
	long fm = myrmex_server_pid(MYRMEX_COREID_FS);
	uint64_t before[8], pending[8], after[8];
	map_stats(before);
	int fd = open(DATA, O_RDONLY);
	CHECK(fd >= 0, "open %s: errno %d", DATA, errno);
	volatile uint8_t *p = mmap(NULL, BLK, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED, "mmap: errno %d", errno);
	if (fd < 0 || p == MAP_FAILED)
		return test_exit_code();
	CHECK_EQ(p[0], stream_byte(SEED, 0));
	/* No ICA left for the notice: it stays in the kernel. */
	static long handles[ICA_TRIES];
	int n = 0;
	while (n < ICA_TRIES && (handles[n] = myrmex_ica_alloc(1)) > 0)
		n++;
	CHECK(n < ICA_TRIES && handles[n] == -EAGAIN, "ica_alloc until the limit: %d, then %ld",
	      n, n < ICA_TRIES ? handles[n] : 0L);
	CHECK_EQ(munmap((void *)p, BLK), 0);
	for (int i = 0; i < n; i++)
		CHECK_EQ(myrmex_ica_free((uint32_t)handles[i]), 0);
	map_stats(pending);
	CHECK_EQ(pending[FS_MSTAT_MAPS], before[FS_MSTAT_MAPS] + 1);
	/* The file manager allocates and frees pipe rings (maps and unmaps
	 * memory) while the notice waits. */
	for (int i = 0; i < PIPE_ROUNDS; i++) {
		int pair[2];
		CHECK_EQ(pipe(pair), 0);
		close(pair[0]);
		close(pair[1]);
	}
	CHECK_EQ(myrmex_server_pid(MYRMEX_COREID_FS), fm);
	/* Our next unmap carries the notice: the map goes. */
	void *q = mmap(NULL, BLK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(q != MAP_FAILED, "mmap anonymous: errno %d", errno);
	CHECK_EQ(munmap(q, BLK), 0);
	map_stats(after);
	CHECK_EQ(after[FS_MSTAT_MAPS], before[FS_MSTAT_MAPS]);
	CHECK_EQ(after[FS_MSTAT_PAGES_HELD], before[FS_MSTAT_PAGES_HELD]);
	close(fd);
	CHECK_EQ(unlink(DATA), 0);
	test_note("notice-self: %s", test_exit_code() ? "FAILED" : "all checks passed");
	return test_exit_code();
}

/* ---------------------------------------------------------- the checks */

static void on_demand(void)
{
	int fd = open(DATA, O_RDONLY);
	CHECK(fd >= 0, "open %s: errno %d", DATA, errno);
	uint64_t s0[8], s1[8];
	map_stats(s0);
	volatile uint8_t *p = mmap(NULL, (DATA_PAGES + 1) * BLK, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED, "mmap shared read-only: errno %d", errno);
	if (p == MAP_FAILED)
		return;
	uint64_t before = page_faults();
	unsigned sum = 0;
	for (uint32_t i = 0; i < DATA_PAGES; i++)
		sum += p[i * BLK];
	uint64_t faults = page_faults() - before;
	map_stats(s1);
	CHECK_EQ(s1[FS_MSTAT_MAP_CALLS] - s0[FS_MSTAT_MAP_CALLS], 1);
	uint64_t rounds = (DATA_PAGES + FS_PAGEIN_AROUND - 1) / FS_PAGEIN_AROUND;
	CHECK_EQ(s1[FS_MSTAT_PAGEINS] - s0[FS_MSTAT_PAGEINS], rounds);
	CHECK(faults >= rounds && faults < DATA_PAGES, "%llu page faults for %u pages touched (sum %u)",
	      (unsigned long long)faults, DATA_PAGES, sum);
	CHECK(same_as_stream(p, 0, DATA_SIZE, SEED), "the mapping differs from the file");
	/* Touched again: nothing asked. */
	for (uint32_t i = 0; i < DATA_PAGES; i++)
		sum += p[i * BLK + 1];
	map_stats(s0);
	CHECK_EQ(s0[FS_MSTAT_PAGEINS], s1[FS_MSTAT_PAGEINS]);
	/* After the end: zeros in the last page, SIGBUS on the next. */
	int zeros = 1;
	for (uint32_t i = DATA_SIZE; i < DATA_PAGES * BLK; i++)
		zeros &= p[i] == 0;
	CHECK(zeros, "bytes after the end of the file are not zero");
	CHECK_EQ(touch(p + DATA_PAGES * BLK, 0, 0), SIGBUS);
	CHECK_EQ(fault_code, BUS_ADRERR);
	/* Read-only: a store is SIGSEGV. */
	CHECK_EQ(touch(p + 5, 1, 1), SIGSEGV);
	CHECK_EQ(mprotect((void *)p, BLK, PROT_READ | PROT_WRITE), -1);
	CHECK_EQ(errno, EACCES);
	CHECK_EQ(munmap((void *)p, (DATA_PAGES + 1) * BLK), 0);
	/* A mapping wholly past the end is made; its pages raise SIGBUS. */
	p = mmap(NULL, BLK, PROT_READ, MAP_SHARED, fd, 100 * BLK);
	CHECK(p != MAP_FAILED, "mmap past the end: errno %d", errno);
	if (p != MAP_FAILED) {
		CHECK_EQ(touch(p, 0, 0), SIGBUS);
		munmap((void *)p, BLK);
	}
	close(fd);
}

static void populate(void)
{
	int fd = open(DATA, O_RDONLY);
	uint64_t s0[8], s1[8];
	map_stats(s0);
	volatile uint8_t *p = mmap(NULL, DATA_PAGES * BLK, PROT_READ, MAP_SHARED | MAP_POPULATE,
	                           fd, 0);
	CHECK(p != MAP_FAILED, "mmap MAP_POPULATE: errno %d", errno);
	if (p == MAP_FAILED)
		return;
	uint64_t before = page_faults();
	unsigned sum = 0;
	for (uint32_t i = 0; i < DATA_PAGES; i++)
		sum += p[i * BLK];
	uint64_t faults = page_faults() - before;
	map_stats(s1);
	CHECK(faults == 0, "MAP_POPULATE: %llu faults at the touch (sum %u)",
	      (unsigned long long)faults, sum);
	CHECK_EQ(s1[FS_MSTAT_PAGEINS] - s0[FS_MSTAT_PAGEINS], 0);
	CHECK(same_as_stream(p, 0, DATA_SIZE, SEED), "the populated mapping differs");
	/* Private and populated: the same, and still without a fault. */
	volatile uint8_t *q = mmap(NULL, 4 * BLK, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 4 * BLK);
	CHECK(q != MAP_FAILED && same_as_stream(q, 4 * BLK, 4 * BLK, SEED),
	      "private populated mapping: errno %d", errno);
	if (q != MAP_FAILED)
		munmap((void *)q, 4 * BLK);
	munmap((void *)p, DATA_PAGES * BLK);
	close(fd);
}

static void private_writes(void)
{
	int fd = open(DATA, O_RDONLY);
	volatile uint8_t *p = mmap(NULL, 2 * BLK, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	volatile uint8_t *s = mmap(NULL, 2 * BLK, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED && s != MAP_FAILED, "mmap private writable of a read-only fd: %d",
	      errno);
	if (p == MAP_FAILED || s == MAP_FAILED)
		return;
	uint8_t old = p[BLK + 3];
	CHECK_EQ(touch(p + BLK + 3, 1, (uint8_t)(old + 1)), 0);
	CHECK_EQ(p[BLK + 3], (uint8_t)(old + 1));
	CHECK_EQ(s[BLK + 3], old);
	uint8_t b = 0;
	CHECK_EQ(pread(fd, &b, 1, BLK + 3), 1);
	CHECK_EQ(b, old);
	char off[16], val[16];
	snprintf(off, sizeof off, "%u", BLK + 3);
	snprintf(val, sizeof val, "%u", old);
	char *argv[] = { "t_mmap_file", "child-read", DATA, off, val, NULL };
	expect_child_ok("child-read after a private store", spawn_child(argv));
	munmap((void *)p, 2 * BLK);
	munmap((void *)s, 2 * BLK);
	close(fd);
}

static void shared_writes(void)
{
	make_file(RW, 4 * BLK, RW_SEED);
	int fd = open(RW, O_RDWR);
	volatile uint8_t *p = mmap(NULL, 4 * BLK, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	volatile uint8_t *q = mmap(NULL, BLK, PROT_READ, MAP_SHARED, fd, 2 * BLK);
	CHECK(p != MAP_FAILED && q != MAP_FAILED, "mmap shared writable: errno %d", errno);
	if (p == MAP_FAILED || q == MAP_FAILED)
		return;
	p[2 * BLK + 5] = 'Q';
	uint8_t b = 0;
	CHECK_EQ(pread(fd, &b, 1, 2 * BLK + 5), 1);
	CHECK_EQ(b, 'Q');
	CHECK_EQ(q[5], 'Q');
	char *rargv[] = { "t_mmap_file", "child-read", RW, "8197", "81", NULL };
	expect_child_ok("child-read of a shared store", spawn_child(rargv));
	char *sargv[] = { "t_mmap_file", "child-store", RW, "12300", "99", NULL };
	expect_child_ok("child-store", spawn_child(sargv));
	CHECK_EQ(p[12300], 99);
	/* write() shows in the mapping too. */
	CHECK_EQ(pwrite(fd, "W", 1, 100), 1);
	CHECK_EQ(p[100], 'W');

	CHECK_EQ(msync((void *)p, 4 * BLK, MS_SYNC), 0);
	CHECK_EQ(msync((void *)p, 4 * BLK, MS_ASYNC), 0);
	CHECK_EQ(msync((void *)(p + 1), BLK, MS_SYNC), -1);
	CHECK_EQ(errno, EINVAL);
	CHECK_EQ(msync((void *)p, BLK, MS_SYNC | MS_ASYNC), -1);
	CHECK_EQ(errno, EINVAL);
	munmap((void *)p, 4 * BLK);
	munmap((void *)q, BLK);
	CHECK_EQ(myrmex_fs_drop_cache(), 0);
	CHECK_EQ(pread(fd, buf, 4 * BLK, 0), 4 * BLK);
	CHECK(buf[2 * BLK + 5] == 'Q' && buf[12300] == 99 && buf[100] == 'W',
	      "stores lost after msync and FS_DROP_CACHE");
	CHECK(same_as_stream(buf, 0, 100, RW_SEED), "other bytes changed");
	close(fd);
}

static void partial_unmap(void)
{
	int fd = open(DATA, O_RDONLY);
	uint64_t s0[8], s1[8];
	map_stats(s0);
	volatile uint8_t *p = mmap(NULL, 4 * BLK, PROT_READ, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED, "mmap: errno %d", errno);
	if (p == MAP_FAILED)
		return;
	(void)p[BLK];
	CHECK_EQ(munmap((void *)(p + BLK), BLK), 0);
	CHECK_EQ(touch(p, 0, 0), 0);
	CHECK_EQ(touch(p + BLK, 0, 0), SIGSEGV);
	CHECK_EQ(touch(p + 2 * BLK, 0, 0), 0);
	CHECK_EQ(p[2 * BLK + 7], stream_byte(SEED, 2 * BLK + 7));
	map_stats(s1);
	CHECK_EQ(s1[FS_MSTAT_MAPS], s0[FS_MSTAT_MAPS] + 1);   /* still held */
	CHECK_EQ(munmap((void *)p, 4 * BLK), 0);
	map_stats(s1);
	CHECK_EQ(s1[FS_MSTAT_MAPS], s0[FS_MSTAT_MAPS]);
	CHECK_EQ(s1[FS_MSTAT_PAGES_HELD], s0[FS_MSTAT_PAGES_HELD]);
	close(fd);
}

static void forked(void)
{
	int fd = open(RW, O_RDWR);
	volatile uint8_t *s = mmap(NULL, BLK, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	volatile uint8_t *v = mmap(NULL, BLK, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (s == MAP_FAILED || v == MAP_FAILED) {
		test_fail("mmap for fork: errno %d", errno);
		return;
	}
	s[50] = 1;
	v[50] = 1;
	pid_t pid = fork();
	if (pid < 0) {
		test_note("fork: errno %d (no process manager here): skipped", errno);
	} else if (pid == 0) {
		s[50] = 2;
		v[50] = 2;
		_exit(s[50] == 2 && v[50] == 2 ? 0 : 1);
	} else {
		expect_child_ok("fork", pid);
		CHECK_EQ(s[50], 2);
		CHECK_EQ(v[50], 1);
	}
	munmap((void *)s, BLK);
	munmap((void *)v, BLK);
	close(fd);
}

static void refusals(void)
{
	int ro = open(DATA, O_RDONLY), wo = open(RW, O_WRONLY), rw = open(RW, O_RDWR);
	int dir = open("/", O_RDONLY | O_DIRECTORY);
	int pipes[2];
	CHECK_EQ(pipe(pipes), 0);
	struct { const char *what; int prot, flags, fd; long off; int err; } cases[] = {
		{ "read-only fd, shared writable", PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0, EACCES },
		{ "write-only fd, shared", PROT_READ, MAP_SHARED, wo, 0, EACCES },
		{ "write-only fd, private", PROT_READ, MAP_PRIVATE, wo, 0, EACCES },
		{ "write-only fd, shared writable", PROT_WRITE, MAP_SHARED, wo, 0, EACCES },
		{ "a pipe", PROT_READ, MAP_SHARED, pipes[0], 0, ENODEV },
		{ "a directory", PROT_READ, MAP_SHARED, dir, 0, ENODEV },
		{ "offset not page-aligned", PROT_READ, MAP_SHARED, ro, 100, EINVAL },
		{ "a descriptor not open", PROT_READ, MAP_SHARED, 99, 0, EBADF },
	};
	for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		errno = 0;
		void *p = mmap(NULL, BLK, cases[i].prot, cases[i].flags, cases[i].fd, cases[i].off);
		CHECK(p == MAP_FAILED && errno == cases[i].err, "mmap of %s: %s errno %d, wanted %d",
		      cases[i].what, p == MAP_FAILED ? "failed with" : "mapped,", errno,
		      cases[i].err);
		if (p != MAP_FAILED)
			munmap(p, BLK);
	}
	/* A private mapping of a read-only fd may become writable; a shared
	 * one may not. */
	void *pv = mmap(NULL, BLK, PROT_READ, MAP_PRIVATE, ro, 0);
	void *sh = mmap(NULL, BLK, PROT_READ, MAP_SHARED, ro, 0);
	CHECK_EQ(mprotect(pv, BLK, PROT_READ | PROT_WRITE), 0);
	CHECK_EQ(mprotect(sh, BLK, PROT_READ | PROT_WRITE), -1);
	CHECK_EQ(errno, EACCES);
	CHECK_EQ(mprotect(sh, BLK, PROT_NONE), 0);
	CHECK_EQ(mprotect(sh, BLK, PROT_READ), 0);
	CHECK_EQ(((volatile uint8_t *)sh)[9], stream_byte(SEED, 9));
	munmap(pv, BLK);
	munmap(sh, BLK);
	CHECK_EQ(msync(buf + (BLK - (uintptr_t)buf % BLK), BLK, MS_SYNC), 0);   /* anonymous */
	void *hole = mmap(NULL, 2 * BLK, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap((char *)hole + BLK, BLK);
	CHECK_EQ(msync(hole, 2 * BLK, MS_SYNC), -1);
	CHECK_EQ(errno, ENOMEM);
	munmap(hole, BLK);
	close(pipes[0]);
	close(pipes[1]);
	close(dir);
	close(ro);
	close(wo);
	close(rw);
}

/* The file goes under its mapping: truncated, then unlinked. A truncation
 * takes the pages past the new end (SIGBUS); an unlink takes nothing: the
 * mapping keeps the file (no link left) until it goes, as on Linux. */
static void file_goes(void)
{
	make_file(GONE, 4 * BLK, 47);
	int fd = open(GONE, O_RDWR);
	volatile uint8_t *p = mmap(NULL, 4 * BLK, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(p != MAP_FAILED, "mmap %s: errno %d", GONE, errno);
	if (p == MAP_FAILED)
		return;
	for (uint32_t i = 0; i < 4; i++)
		(void)p[i * BLK];
	CHECK_EQ(ftruncate(fd, BLK + 1), 0);
	CHECK_EQ(touch(p + BLK, 0, 0), 0);
	CHECK_EQ(p[BLK + 1], 0);
	CHECK_EQ(touch(p + 2 * BLK, 0, 0), SIGBUS);
	CHECK_EQ(touch(p + 3 * BLK, 1, 1), SIGBUS);
	uint64_t s0[8], s1[8];
	map_stats(s0);
	close(fd);
	CHECK_EQ(unlink(GONE), 0);
	map_stats(s1);
	CHECK_EQ(s1[FS_MSTAT_REVOKES], s0[FS_MSTAT_REVOKES]);
	CHECK_EQ(touch(p, 1, 0x5a), 0);
	CHECK_EQ(p[0], 0x5a);
	CHECK_EQ(touch(p + BLK, 0, 0), 0);
	struct statfs before, after;
	CHECK_EQ(statfs("/", &before), 0);
	munmap((void *)p, 4 * BLK);
	/* FS_UNMAP is an asynchronous notice: give it a moment to arrive. */
	for (int i = 0; i < 100; i++) {
		CHECK_EQ(statfs("/", &after), 0);
		if (after.f_bfree > before.f_bfree)
			break;
		usleep(10000);
	}
	CHECK(after.f_bfree > before.f_bfree, "no block freed at the munmap of the unlinked file");
	CHECK_EQ(open(GONE, O_RDONLY), -1);
}

int main(int argc, char **argv)
{
	if (argc >= 5 && strcmp(argv[1], "child-read") == 0)
		return child_read(argv);
	if (argc >= 5 && strcmp(argv[1], "child-store") == 0)
		return child_store(argv);
	if (argc >= 2 && strcmp(argv[1], "notice-self") == 0)
		return notice_self();
	test_console_for_messages();
	catch_faults();
	uint64_t start[8], end[8];
	map_stats(start);
	make_file(DATA, DATA_SIZE, SEED);
	on_demand();
	populate();
	private_writes();
	shared_writes();
	partial_unmap();
	forked();
	refusals();
	file_goes();
	map_stats(end);
	CHECK_EQ(end[FS_MSTAT_MAPS], start[FS_MSTAT_MAPS]);
	CHECK_EQ(end[FS_MSTAT_PAGES_HELD], start[FS_MSTAT_PAGES_HELD]);
	CHECK_EQ(end[FS_MSTAT_PINNED_BLOCKS], start[FS_MSTAT_PINNED_BLOCKS]);
	CHECK(unlink(DATA) == 0 && unlink(RW) == 0, "unlink: errno %d", errno);
	test_note("%s", test_exit_code() ? "FAILED" : "all checks passed");
	return test_exit_code();
}
