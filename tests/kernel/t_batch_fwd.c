/*
 * t_batch_fwd: forwarded calls of a wrapped-call batch in one IPC (issue
 * 18; docs/syscalls.md "Forwarded calls in one IPC"), a POSIX process with
 * the file manager (and the right to ask it for its counters).
 *
 * - Requests counted (FS_STATS): 64 lseeks are 1 request, 64 alone
 *   (MYRMEX_BATCH_ALONE) 64; 32 lseek+read pairs 1; 64 reads of 4 KiB 5
 *   (the data ICA's room); a getpid in the middle splits a group in two.
 * - Random batches (seeded) over a file, a read-only file, a bad
 *   descriptor, a non-blocking pipe and /dev/null: lseek, read, pread64,
 *   write, pwrite64, fstat, getpid, with bad pointers (unmapped, kernel,
 *   non-canonical) in the middle, run grouped and then alone from the same
 *   state: every result, every buffer, the file's bytes and the offsets
 *   must be the same.
 * - Bad pointers in the middle of a group, with known results (the
 *   offset does not move on a failed read).
 * - close in a group: duplicates closed, one twice (-EBADF), 1 request.
 * - A pipe read in the middle (the server leaves it to run alone: -EAGAIN
 *   at once, not parked).
 * - A signal raised by an entry stops the batch after it, groups before
 *   and after it intact.
 * - n beyond the area: nothing runs; an area whose results cannot be
 *   written: the group ran (returned), the states stay STORED.
 * - A second thread rewriting the entries of running grouped batches.
 * - FS_BATCH sent by the test itself: refused (only the kernel sends it).
 * - SIGKILL to a forked child in grouped batches of preads.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_batch_fwd"
#include "test_check.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

#define MAX MYRMEX_BATCH_MAX
#define PAGE 4096L
#define KERNEL_ADDR 0xffffffff80100000L
#define NONCANONICAL_ADDR 0x0000800000000000L
#define HELLO "/text/hello.txt"
#define SCRATCH "/batchfwd.tmp"
#define FILE_BYTES 12000
#define BUF_BYTES 640

static union {
	struct myrmex_batch_area area;
	char bytes[sizeof(struct myrmex_batch_area) + MAX * sizeof(struct myrmex_batch_entry)];
} big __attribute__((aligned(4096)));

static long my_pid;
static int fd_file, fd_ro, fd_null, pipe_r, pipe_w;

static struct myrmex_batch_area *fresh_area(uint32_t capacity, uint32_t flags)
{
	memset(&big, 0, sizeof big);
	big.area.capacity = capacity;
	big.area.flags = flags;
	return &big.area;
}

static void store(struct myrmex_batch_area *a, unsigned i, long nr, long a0, long a1, long a2,
                  long a3)
{
	const long v[6] = { a0, a1, a2, a3, 0, 0 };
	myrmex_batch_store(a, i, nr, v);
}

/* File manager requests made by what fn does (FS_STATS around it: their
 * difference counts the first FS_STATS itself). */
static long fs_requests(long (*fn)(void), long *ret)
{
	uint64_t before[8], after[8];
	if (myrmex_fs_stats(before) != 0)
		return -1;
	*ret = fn();
	if (myrmex_fs_stats(after) != 0)
		return -1;
	return (long)(after[FS_STAT_REQUESTS] - before[FS_STAT_REQUESTS]) - 1;
}

static uint8_t bufs[MAX][BUF_BYTES];
static uint8_t src[MAX][BUF_BYTES];
static struct stat sts[MAX];

/* ---- Requests counted ---- */

static long run_big(void)
{
	return myrmex_batch(&big.area, big.area.capacity);
}

static void test_counts(void)
{
	long r, reqs;
	for (int alone = 0; alone < 2; alone++) {
		struct myrmex_batch_area *a = fresh_area(MAX, alone ? MYRMEX_BATCH_ALONE : 0);
		for (unsigned i = 0; i < MAX; i++)
			store(a, i, SYS_lseek, fd_ro, i, SEEK_SET, 0);
		reqs = fs_requests(run_big, &r);
		CHECK(r == MAX, "64 lseeks: %ld", r);
		CHECK(reqs == (alone ? MAX : 1), "64 lseeks %s: %ld requests", alone ? "alone" : "grouped",
		      reqs);
		for (unsigned i = 0; i < MAX; i++)
			CHECK(a->entry[i].result == (long)i, "lseek %u: %ld", i, (long)a->entry[i].result);
	}

	struct myrmex_batch_area *a = fresh_area(MAX, 0);
	for (unsigned i = 0; i < MAX / 2; i++) {
		store(a, 2 * i, SYS_lseek, fd_ro, i, SEEK_SET, 0);
		store(a, 2 * i + 1, SYS_read, fd_ro, (long)bufs[i], 100, 0);
	}
	reqs = fs_requests(run_big, &r);
	CHECK(r == MAX && reqs == 1, "32 lseek+read: %ld run in %ld requests", r, reqs);
	static const char text[] = "hello from the Myrmex test image\n";
	for (unsigned i = 0; i < MAX / 2; i++) {
		long want = (long)strlen(text) - (long)i;
		CHECK(a->entry[2 * i + 1].result == want && memcmp(bufs[i], text + i, (size_t)want) == 0,
		      "read after lseek %u: %ld", i, (long)a->entry[2 * i + 1].result);
	}

	/* 4 KiB each: 14 fit in the data ICA after the records. */
	static uint8_t page_bufs[MAX][4096];
	a = fresh_area(MAX, 0);
	for (unsigned i = 0; i < MAX; i++)
		store(a, i, SYS_pread64, fd_file, (long)page_bufs[i], 4096, (long)(i % 2) * 4096);
	reqs = fs_requests(run_big, &r);
	CHECK(r == MAX && reqs == 5, "64 preads of 4 KiB: %ld run in %ld requests", r, reqs);
	for (unsigned i = 0; i < MAX; i++)
		CHECK(a->entry[i].result == 4096, "pread %u: %ld", i, (long)a->entry[i].result);

	/* A call for no server splits a group. */
	a = fresh_area(8, 0);
	for (unsigned i = 0; i < 8; i++)
		store(a, i, i == 3 ? SYS_getpid : SYS_lseek, fd_ro, 0, SEEK_CUR, 0);
	reqs = fs_requests(run_big, &r);
	CHECK(r == 8 && reqs == 2 && a->entry[3].result == my_pid,
	      "a getpid among lseeks: %ld run in %ld requests", r, reqs);
	test_note("requests: 64 lseeks 1 (alone 64), 32 lseek+read 1, 64 preads of 4 KiB 5");
}

/* ---- Grouped and alone give the same ---- */

static uint64_t rnd_state;

static unsigned rnd(unsigned bound)
{
	rnd_state = rnd_state * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(rnd_state >> 33) % bound;
}

static uint8_t pattern_byte(unsigned i)
{
	return (uint8_t)(i * 131u + (i >> 7));
}

/* The scratch file back to its bytes, its offset and the read-only file's
 * to 0, the pipe empty, the buffers to a fill. */
static void reset_state(void)
{
	static uint8_t content[FILE_BYTES];
	for (unsigned i = 0; i < FILE_BYTES; i++)
		content[i] = pattern_byte(i);
	CHECK_EQ(raw2(SYS_ftruncate, fd_file, 0), 0);
	CHECK_EQ(raw4(SYS_pwrite64, fd_file, (long)content, FILE_BYTES, 0), FILE_BYTES);
	CHECK_EQ(raw3(SYS_lseek, fd_file, 0, SEEK_SET), 0);
	CHECK_EQ(raw3(SYS_lseek, fd_ro, 0, SEEK_SET), 0);
	static uint8_t sink[4096];
	while (raw3(SYS_read, pipe_r, (long)sink, sizeof sink) > 0)
		;
	memset(bufs, 0xee, sizeof bufs);
	memset(sts, 0, sizeof sts);
}

static long pick_fd(void)
{
	static const int *fds[] = { &fd_file, &fd_file, &fd_file, &fd_ro, &fd_null, &pipe_r,
	                            &pipe_w };
	unsigned k = rnd(sizeof fds / sizeof fds[0] + 1);
	return k < sizeof fds / sizeof fds[0] ? *fds[k] : 99;   /* 99: not open */
}

/* A pointer for entry i: its buffer, or now and then a bad one. */
static long pick_buf(uint8_t *good)
{
	static const long bad[] = { 0x1000, KERNEL_ADDR, NONCANONICAL_ADDR, -4096L };
	return rnd(10) == 0 ? bad[rnd(4)] : (long)good;
}

static void store_random(struct myrmex_batch_area *a, unsigned i)
{
	long fd = pick_fd();
	long count = rnd(4) == 0 ? (long)rnd(BUF_BYTES + 1) : (long)rnd(40);
	long off = (long)rnd(FILE_BYTES + 200);
	switch (rnd(8)) {
	case 0: store(a, i, SYS_lseek, fd, rnd(3) == 0 ? -(long)rnd(50) : off, rnd(4), 0); break;
	case 1: store(a, i, SYS_read, fd, pick_buf(bufs[i]), count, 0); break;
	case 2: store(a, i, SYS_pread64, fd, pick_buf(bufs[i]), count, rnd(8) ? off : -1); break;
	case 3: store(a, i, SYS_write, fd, pick_buf(src[i]), count, 0); break;
	case 4: store(a, i, SYS_pwrite64, fd, pick_buf(src[i]), count, off); break;
	case 5: store(a, i, SYS_fstat, fd, pick_buf((uint8_t *)&sts[i]), 0, 0); break;
	case 6: store(a, i, SYS_getpid, 0, 0, 0, 0); break;
	default: store(a, i, SYS_read, fd, pick_buf(bufs[i]), count, 0); break;
	}
}

struct outcome {
	int64_t result[MAX];
	uint8_t bufs[MAX][BUF_BYTES];
	int64_t size[MAX], ino[MAX], mode[MAX];
	uint8_t file[FILE_BYTES + 1024];
	long file_len, off_file, off_ro;
	long pipe_bytes;
};

static struct outcome got[2];

static void record(struct outcome *o, const struct myrmex_batch_area *a, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		o->result[i] = a->entry[i].result;
	memcpy(o->bufs, bufs, sizeof bufs);
	for (unsigned i = 0; i < MAX; i++) {
		o->size[i] = sts[i].st_size;
		o->ino[i] = (int64_t)sts[i].st_ino;
		o->mode[i] = sts[i].st_mode;
	}
	o->off_file = raw3(SYS_lseek, fd_file, 0, SEEK_CUR);
	o->off_ro = raw3(SYS_lseek, fd_ro, 0, SEEK_CUR);
	memset(o->file, 0, sizeof o->file);
	o->file_len = raw4(SYS_pread64, fd_file, (long)o->file, sizeof o->file, 0);
	static uint8_t sink[4096];
	o->pipe_bytes = 0;
	long r;
	while ((r = raw3(SYS_read, pipe_r, (long)sink, sizeof sink)) > 0)
		o->pipe_bytes += r;
}

static void test_same_as_alone(void)
{
	for (unsigned i = 0; i < MAX; i++)
		for (unsigned k = 0; k < BUF_BYTES; k++)
			src[i][k] = (uint8_t)(i * 7 + k);
	for (uint64_t seed = 1; seed <= 24; seed++) {
		unsigned n = 1 + (unsigned)((seed * 37) % MAX);
		if (seed % 4 == 0)
			n = MAX;
		for (int alone = 0; alone < 2; alone++) {
			rnd_state = seed;
			reset_state();
			struct myrmex_batch_area *a = fresh_area(n, alone ? MYRMEX_BATCH_ALONE : 0);
			for (unsigned i = 0; i < n; i++)
				store_random(a, i);
			long r = myrmex_batch(a, n);
			CHECK(r == (long)n, "seed %llu %s: batch of %u returned %ld",
			      (unsigned long long)seed, alone ? "alone" : "grouped", n, r);
			record(&got[alone], a, n);
		}
		for (unsigned i = 0; i < n; i++)
			CHECK(got[0].result[i] == got[1].result[i],
			      "seed %llu entry %u: grouped %lld, alone %lld", (unsigned long long)seed, i,
			      (long long)got[0].result[i], (long long)got[1].result[i]);
		CHECK(memcmp(got[0].bufs, got[1].bufs, sizeof got[0].bufs) == 0,
		      "seed %llu: buffers differ", (unsigned long long)seed);
		CHECK(memcmp(got[0].size, got[1].size, sizeof got[0].size) == 0 &&
		      memcmp(got[0].ino, got[1].ino, sizeof got[0].ino) == 0 &&
		      memcmp(got[0].mode, got[1].mode, sizeof got[0].mode) == 0,
		      "seed %llu: fstat results differ", (unsigned long long)seed);
		CHECK(got[0].file_len == got[1].file_len &&
		      memcmp(got[0].file, got[1].file, sizeof got[0].file) == 0,
		      "seed %llu: file differs (%ld, %ld bytes)", (unsigned long long)seed,
		      got[0].file_len, got[1].file_len);
		CHECK(got[0].off_file == got[1].off_file && got[0].off_ro == got[1].off_ro &&
		      got[0].pipe_bytes == got[1].pipe_bytes,
		      "seed %llu: offsets %ld/%ld, %ld/%ld, pipe %ld/%ld", (unsigned long long)seed,
		      got[0].off_file, got[1].off_file, got[0].off_ro, got[1].off_ro,
		      got[0].pipe_bytes, got[1].pipe_bytes);
	}
}

/* ---- Bad pointers in the middle ---- */

static void test_bad_pointers(void)
{
	uint8_t *b0 = bufs[0], *b1 = bufs[1];
	static struct stat st;
	/* A buffer whose last bytes run into an unmapped page, and one in a
	 * read-only page: the regions checked to their end. */
	char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(p != MAP_FAILED, "mmap");
	if (p == MAP_FAILED)
		return;
	CHECK_EQ(munmap(p + PAGE, PAGE), 0);
	char *ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(ro != MAP_FAILED, "mmap read-only");
	if (ro == MAP_FAILED)
		return;
	for (int alone = 0; alone < 2; alone++) {
		reset_state();
		struct myrmex_batch_area *a = fresh_area(16, alone ? MYRMEX_BATCH_ALONE : 0);
		unsigned n = 0;
		store(a, n++, SYS_lseek, fd_ro, 0, SEEK_SET, 0);
		store(a, n++, SYS_read, fd_ro, (long)b0, 6, 0);
		store(a, n++, SYS_read, fd_ro, 0x1000, 4, 0);
		store(a, n++, SYS_read, fd_ro, KERNEL_ADDR, 4, 0);
		store(a, n++, SYS_read, fd_ro, NONCANONICAL_ADDR, 4, 0);
		store(a, n++, SYS_fstat, fd_ro, 0x1000, 0, 0);
		store(a, n++, SYS_fstat, fd_ro, KERNEL_ADDR, 0, 0);
		store(a, n++, SYS_pread64, fd_ro, 0x1000, 4, 0);
		store(a, n++, SYS_write, fd_null, 0x1000, 4, 0);
		store(a, n++, SYS_write, fd_null, KERNEL_ADDR, 4, 0);
		store(a, n++, SYS_read, fd_ro, (long)(p + PAGE - 2), 4, 0);
		store(a, n++, SYS_read, fd_ro, (long)ro, 4, 0);
		store(a, n++, SYS_read, fd_ro, (long)b1, 4, 0);
		store(a, n++, SYS_fstat, fd_ro, (long)&st, 0, 0);
		store(a, n++, SYS_lseek, fd_ro, 0, SEEK_CUR, 0);
		long r = myrmex_batch(a, n);
		CHECK(r == (long)n, "bad pointers: %ld", r);
		const long want[] = { 0, 6, -EFAULT, -EFAULT, -EFAULT, -EFAULT, -EFAULT, -EFAULT,
		                      -EFAULT, -EFAULT, -EFAULT, -EFAULT, 4, 0, 10 };
		for (unsigned i = 0; i < n; i++)
			CHECK(a->entry[i].result == want[i], "%s bad pointers entry %u: %ld, expected %ld",
			      alone ? "alone" : "grouped", i, (long)a->entry[i].result, want[i]);
		CHECK(memcmp(b0, "hello ", 6) == 0 && memcmp(b1, "from", 4) == 0,
		      "bad pointers: reads around them got %.6s %.4s", (char *)b0, (char *)b1);
		CHECK(st.st_size == 33, "fstat after bad pointers: size %ld", (long)st.st_size);
	}
	munmap(p, PAGE);
	munmap(ro, PAGE);
}

/* ---- close in a group ---- */

/* Two duplicates closed in the middle of lseeks and fstats, one of them
 * twice: one request, and the same results as alone. */
static void test_close(void)
{
	static struct stat st;
	for (int alone = 0; alone < 2; alone++) {
		long d1 = raw1(SYS_dup, fd_ro), d2 = raw1(SYS_dup, fd_ro);
		CHECK(d1 >= 0 && d2 >= 0, "dup: %ld %ld", d1, d2);
		struct myrmex_batch_area *a = fresh_area(7, alone ? MYRMEX_BATCH_ALONE : 0);
		store(a, 0, SYS_lseek, fd_ro, 3, SEEK_SET, 0);
		store(a, 1, SYS_close, d1, 0, 0, 0);
		store(a, 2, SYS_close, d1, 0, 0, 0);
		store(a, 3, SYS_fstat, d1, (long)&st, 0, 0);
		store(a, 4, SYS_lseek, d2, 1, SEEK_CUR, 0);
		store(a, 5, SYS_close, d2, 0, 0, 0);
		store(a, 6, SYS_lseek, fd_ro, 0, SEEK_CUR, 0);
		long r, reqs = fs_requests(run_big, &r);
		CHECK(r == 7 && reqs == (alone ? 7 : 1), "close %s: %ld run in %ld requests",
		      alone ? "alone" : "grouped", r, reqs);
		const long want[] = { 3, 0, -EBADF, -EBADF, 4, 0, 4 };
		for (unsigned i = 0; i < 7; i++)
			CHECK(a->entry[i].result == want[i], "close %s entry %u: %ld, expected %ld",
			      alone ? "alone" : "grouped", i, (long)a->entry[i].result, want[i]);
		CHECK_EQ(raw1(SYS_close, d2), -EBADF);
	}
}

/* ---- A pipe in the middle ---- */

static void test_pipe_middle(void)
{
	reset_state();
	struct myrmex_batch_area *a = fresh_area(8, 0);
	store(a, 0, SYS_lseek, fd_ro, 6, SEEK_SET, 0);
	store(a, 1, SYS_read, pipe_r, (long)bufs[0], 10, 0);    /* empty, non-blocking */
	store(a, 2, SYS_read, fd_ro, (long)bufs[1], 4, 0);
	store(a, 3, SYS_write, pipe_w, (long)"pipe", 4, 0);
	store(a, 4, SYS_read, pipe_r, (long)bufs[2], 10, 0);
	store(a, 5, SYS_read, fd_ro, (long)bufs[3], 5, 0);
	long r = myrmex_batch(a, 6);
	CHECK(r == 6, "pipe in the middle: %ld", r);
	const long want[] = { 6, -EAGAIN, 4, 4, 4, 5 };
	for (unsigned i = 0; i < 6; i++)
		CHECK(a->entry[i].result == want[i], "pipe in the middle entry %u: %ld, expected %ld", i,
		      (long)a->entry[i].result, want[i]);
	CHECK(memcmp(bufs[1], "from", 4) == 0 && memcmp(bufs[2], "pipe", 4) == 0 &&
	      memcmp(bufs[3], " the ", 5) == 0, "pipe in the middle: data wrong");
}

/* ---- A signal raised in the middle ---- */

static volatile int usr1;

static void on_usr1(int sig)
{
	(void)sig;
	usr1++;
}

static void test_signal_middle(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	struct myrmex_batch_area *a = fresh_area(8, 0);
	store(a, 0, SYS_lseek, fd_ro, 1, SEEK_SET, 0);
	store(a, 1, SYS_lseek, fd_ro, 1, SEEK_CUR, 0);
	store(a, 2, SYS_kill, my_pid, SIGUSR1, 0, 0);
	store(a, 3, SYS_lseek, fd_ro, 1, SEEK_CUR, 0);
	store(a, 4, SYS_lseek, fd_ro, 1, SEEK_CUR, 0);
	usr1 = 0;
	long r = myrmex_batch(a, 5);
	CHECK(r == 3 && usr1 == 1, "signal in the middle: %ld run, handler %d", r, usr1);
	CHECK(a->entry[0].result == 1 && a->entry[1].result == 2 && a->entry[2].result == 0,
	      "signal in the middle: %ld %ld %ld", (long)a->entry[0].result,
	      (long)a->entry[1].result, (long)a->entry[2].result);
	CHECK(a->entry[3].state == MYRMEX_BATCH_STORED && a->entry[4].state == MYRMEX_BATCH_STORED,
	      "entries after the signal ran");
	CHECK_EQ(raw3(SYS_lseek, fd_ro, 0, SEEK_CUR), 2);
	/* The rest from index 3, as docs/syscalls.md says: a second batch. */
	memmove(&a->entry[0], &a->entry[3], 2 * sizeof a->entry[0]);
	CHECK_EQ(myrmex_batch(a, 2), 2);
	CHECK(a->entry[0].result == 3 && a->entry[1].result == 4, "the rest: %ld %ld",
	      (long)a->entry[0].result, (long)a->entry[1].result);
}

/* ---- The area ---- */

static void test_area(void)
{
	struct myrmex_batch_area *a = fresh_area(4, 0);
	for (unsigned i = 0; i < 4; i++)
		store(a, i, SYS_lseek, fd_ro, 5, SEEK_SET, 0);
	CHECK_EQ(raw3(SYS_lseek, fd_ro, 0, SEEK_SET), 0);
	CHECK_EQ(myrmex_batch(a, 5), -EINVAL);
	CHECK_EQ(myrmex_batch(a, MAX + 1), -EINVAL);
	CHECK_EQ(raw3(SYS_lseek, fd_ro, 0, SEEK_CUR), 0);   /* nothing ran */

	/* Results that cannot be written: the area read-only. The group ran
	 * (the offset moved) and is counted; the states stay STORED. */
	char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(p != MAP_FAILED, "mmap");
	if (p == MAP_FAILED)
		return;
	struct myrmex_batch_area *ro = (struct myrmex_batch_area *)p;
	ro->capacity = 4;
	ro->flags = 0;
	for (unsigned i = 0; i < 4; i++)
		store(ro, i, SYS_lseek, fd_ro, 1, SEEK_CUR, 0);
	CHECK_EQ(mprotect(p, PAGE, PROT_READ), 0);
	CHECK_EQ(myrmex_batch(ro, 4), 4);
	CHECK(ro->entry[0].state == MYRMEX_BATCH_STORED, "read-only area written");
	CHECK_EQ(raw3(SYS_lseek, fd_ro, 0, SEEK_CUR), 4);
	CHECK_EQ(munmap(p, PAGE), 0);
}

/* ---- Entries rewritten during grouped batches ---- */

static volatile int rewriting;

/* Rewrites numbers and descriptors of the running batches' entries; runs
 * while the batch's thread waits for the file manager. */
static void rewriter(void *arg)
{
	(void)arg;
	static const long nrs[5] = { SYS_lseek, SYS_read, SYS_fstat, SYS_getpid, SYS_sched_yield };
	unsigned x = 7;
	while (rewriting) {
		for (int k = 0; k < 8; k++) {
			x = x * 1103515245u + 12345u;
			unsigned i = (x >> 8) % MAX;
			volatile uint64_t *nr = &big.area.entry[i].nr;
			*nr = (uint64_t)nrs[(x >> 20) % 5];
			big.area.entry[i].arg[0] = (x >> 24) & 1 ? (uint64_t)fd_ro : 99;
		}
		raw0(SYS_sched_yield);
	}
}

static void test_rewritten(void)
{
	struct myrmex_batch_area *a = fresh_area(MAX, 0);
	static struct stat st_r[MAX];
	/* Arguments every number accepts: a buffer of 144 bytes, 8. Every
	 * eighth a sched_yield, which gives the rewriter the CPU in the middle
	 * of a batch (it may rewrite those too, and make others). */
	for (unsigned i = 0; i < MAX; i++)
		store(a, i, i % 8 == 7 ? SYS_sched_yield : SYS_lseek, fd_ro, (long)&st_r[i], 8, 0);
	rewriting = 1;
	struct myrmex_thread th;
	long err = myrmex_thread_create(&th, rewriter, NULL, 0);
	CHECK(err == 0, "myrmex_thread_create: %ld", err);
	if (err)
		return;
	long seen[4] = { 0, 0, 0, 0 };
	for (int round = 0; round < 60; round++) {
		for (unsigned i = 0; i < MAX; i++) {
			a->entry[i].state = MYRMEX_BATCH_STORED;
			a->entry[i].result = 12345;
		}
		raw3(SYS_lseek, fd_ro, 0, SEEK_SET);
		raw0(SYS_sched_yield);
		long r = myrmex_batch(a, MAX);
		CHECK(r == MAX, "rewritten batch %d returned %ld", round, r);
		for (unsigned i = 0; i < MAX; i++) {
			long res = (long)a->entry[i].result;
			/* lseek with whence 8: -EINVAL; read of 8: 0..8; fstat and
			 * sched_yield: 0; descriptor 99: -EBADF; getpid. */
			if (res == my_pid)
				seen[0]++;
			else if (res == -EINVAL)
				seen[1]++;
			else if (res == -EBADF)
				seen[2]++;
			else if (res >= 0 && res <= 8)
				seen[3]++;
			else
				test_fail("rewritten batch %d entry %u: result %ld", round, i, res);
		}
	}
	rewriting = 0;
	myrmex_thread_join(&th);
	CHECK(seen[0] && seen[2] && seen[3], "the rewriter changed nothing: %ld %ld %ld %ld",
	      seen[0], seen[1], seen[2], seen[3]);
	test_note("rewritten: %ld getpid, %ld -EINVAL, %ld -EBADF, %ld 0..8", seen[0], seen[1],
	          seen[2], seen[3]);
}

/* ---- FS_BATCH is the kernel's ---- */

/* The test may call the file manager itself (MEASURE): an FS_BATCH of its
 * own, records and all, is refused before any record runs. */
static void test_forged(void)
{
	struct fs_batch_sub rec[2];
	memset(rec, 0, sizeof rec);
	for (int i = 0; i < 2; i++) {
		rec[i].opcode = FS_LSEEK;
		rec[i].arg[0] = (uint64_t)fd_ro;
		rec[i].arg[1] = 7;
	}
	CHECK_EQ(raw3(SYS_lseek, fd_ro, 0, SEEK_SET), 0);
	uint64_t out[8];
	CHECK_EQ(myrmex_fs_call(FS_BATCH, 2, 0, 0, rec, sizeof rec, out), -EPERM);
	CHECK_EQ(myrmex_fs_call(FS_BATCH, 0, 0, 0, NULL, 0, out), -EPERM);
	CHECK_EQ(raw3(SYS_lseek, fd_ro, 0, SEEK_CUR), 0);
}

/* ---- A kill during grouped batches ---- */

/* A forked child runs grouped batches of preads for ever; SIGKILL ends it
 * (the group's request waits only for the thread's death), and the file
 * manager serves on. */
static void test_kill(void)
{
	long pid = raw0(SYS_fork);
	if (pid == 0) {
		struct myrmex_batch_area *a = fresh_area(MAX, 0);
		for (;;) {
			for (unsigned i = 0; i < MAX; i++)
				store(a, i, SYS_pread64, fd_file, (long)bufs[i], 512, (long)i * 64);
			myrmex_batch(a, MAX);
		}
	}
	CHECK(pid > 0, "fork: %ld", pid);
	if (pid <= 0)
		return;
	struct timespec wait = { 0, 50 * 1000000L };
	raw2(SYS_nanosleep, (long)&wait, 0);
	CHECK_EQ(raw2(SYS_kill, pid, SIGKILL), 0);
	int status = 0;
	CHECK_EQ(raw4(SYS_wait4, pid, (long)&status, 0, 0), pid);
	CHECK(status == SIGKILL, "child status %#x, expected killed by SIGKILL", status);
	uint8_t b[4];
	CHECK_EQ(raw4(SYS_pread64, fd_ro, (long)b, 4, 0), 4);
}

/* A POSIX test starts without descriptors: messages go to the console. */
static void messages_to_console(void)
{
	long fd = raw3(SYS_open, (long)"/dev/console", O_RDWR, 0);
	if (fd < 0)
		return;
	raw2(SYS_dup2, fd, 1);
	raw2(SYS_dup2, fd, 2);
	raw1(SYS_close, fd);
}

int main(void)
{
	messages_to_console();
	my_pid = raw0(SYS_getpid);
	fd_file = (int)raw3(SYS_open, (long)SCRATCH, O_RDWR | O_CREAT | O_TRUNC, 0644);
	fd_ro = (int)raw3(SYS_open, (long)HELLO, O_RDONLY, 0);
	fd_null = (int)raw3(SYS_open, (long)"/dev/null", O_RDWR, 0);
	int pfd[2];
	long pr = raw2(SYS_pipe2, (long)pfd, O_NONBLOCK);
	CHECK(fd_file >= 0 && fd_ro >= 0 && fd_null >= 0 && pr == 0, "open: %d %d %d pipe %ld",
	      fd_file, fd_ro, fd_null, pr);
	if (fd_file < 0 || fd_ro < 0 || fd_null < 0 || pr != 0)
		return test_exit_code();
	pipe_r = pfd[0];
	pipe_w = pfd[1];
	reset_state();
	test_counts();
	test_same_as_alone();
	test_bad_pointers();
	test_close();
	test_pipe_middle();
	test_signal_middle();
	test_area();
	test_rewritten();
	test_forged();
	test_kill();
	raw1(SYS_close, fd_file);
	CHECK_EQ(raw1(SYS_unlink, (long)SCRATCH), 0);
	return test_exit_code();
}
