/*
 * Benchmarks of file reading (suite fs, issue 4), one binary for Myrmex and
 * Linux. The file is /bench/file64m of the ext2 image build/bench/fs.img
 * (tools/mkbenchimg.py): on Myrmex the file manager serves it from the
 * virtio-blk disk (benchinit starts the driver and the file manager); on
 * Linux tools/linux_guest.py mounts the same image at FS_LINUX_MOUNT.
 *
 *   fs.seqread.cold   the whole file from offset 0 in 64 KiB reads, after the
 *                     cache was emptied (Myrmex FS_DROP_CACHE; Linux sync and
 *                     drop_caches=3), outside the timing
 *   fs.seqread.warm   the same with the file in the cache
 *   fs.randread4k     RAND_OPS reads of 4 KiB at 4 KiB-aligned offsets drawn
 *                     from a fixed seed (the same offsets in every run), warm
 *
 * Every figure is per 4 KiB read (a 64 KiB read counts 16), in TSC ticks,
 * with bytes=4096 so that bench.py can give MB/s. Myrmex reads with
 * myrmex_fs_read_direct, which leaves the bytes in the channel's data ICA
 * (one copy, the file manager's; a random read is one FS_PREAD, and a
 * 4 KiB read moves a one-page data ICA); the ".buf" variants read into a buffer of ours with
 * myrmex_fs_read and myrmex_fs_pread (one call, a second copy, the
 * library's). Linux uses read() and pread() into a buffer.
 *
 * The counts, per 4 KiB: ipc (calls accepted by the kernel, kstats: ours
 * to the file manager and its own to the disk driver), copies (4 KiB blocks
 * copied: the file manager's FS_STAT_COPIES plus myrmex_fs_lib_copies; 1 on
 * Linux, the kernel's copy to the user), diskreads (read requests to the
 * disk: FS_STAT_DISK_READS, or field 1 of Linux's /sys/dev/block/<dev>/stat),
 * on Myrmex misses (blocks the cache fetched), ctxsw, asswitch, attach,
 * detach and icapages (context and address-space switches, ICA attaches and
 * detaches, pages those attaches mapped: kstats, the whole system's) and
 * idle (TSC ticks the CPU spent halted waiting, kstats idle_tsc: under
 * -icount these are clock jumps, not instructions, so a cold figure's
 * executed instructions are its value minus idle), on Linux syscalls (our
 * read calls). The first 8 bytes of every block read are
 * checked against the tag tools/mkbenchimg.py wrote, so a wrong block fails
 * the benchmark.
 */
#define _DEFAULT_SOURCE /* pread, sync with -std=gnu17 */
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define FS_FILE        "/bench/file64m"       /* in the image's root */
#define FS_LINUX_MOUNT "/mnt/benchfs"         /* where Linux mounts the image */
#define FILE_BYTES     (64ull << 20)
#define BLOCK          4096u
#define FILE_BLOCKS    (FILE_BYTES / BLOCK)
#define SEQ_READ       (64u * 1024)           /* bytes per read in seqread */
#define RAND_OPS       2000u
#define RAND_SEED      0x6d79726d62656e63ull
#define COLD_RUNS      3u
#define WARM_RUNS      5u
#define RAND_RUNS      5u
#define FM_WAIT_MS     30000u                 /* for the file manager to answer */

/* The block tag of tools/mkbenchimg.py: zero bytes are made 0x01. */
#define TAG_MUL 0x9E3779B97F4A7C15ull
#define TAG_XOR 0x6D79726D65782121ull

static const char prog[] = "bench_fs";

enum variant { DIRECT, BUF };

struct fsbench {
	int native;
	int fd;
	enum variant variant;
	uint32_t rand_blocks[RAND_OPS];
	char linux_stat[64];          /* /sys/dev/block/M:m/stat of the file's disk */
	uint64_t read_calls;          /* read system calls made (Linux) */
	int failed;
};

/* Counters read around a measurement. */
struct snapshot {
	struct myrmex_kstats ks;
	uint64_t fs[8];               /* FS_STAT_* */
	uint64_t lib_copies;
	uint64_t disk_reads;          /* Linux */
	uint64_t read_calls;          /* Linux */
};

/* Sums of the counter deltas over the measured runs of one figure. */
struct totals {
	uint64_t ipc, copies, disk_reads, misses, syscalls, ctxsw, asswitch, attach, detach,
	         icapages, idle;
};

static uint8_t buffer[SEQ_READ] __attribute__((aligned(4096)));

static void fail(struct fsbench *b, const char *what, long value)
{
	bench_fail(prog, what, value);
	b->failed = 1;
}

static uint64_t block_tag(uint64_t block)
{
	uint64_t v = block * TAG_MUL ^ TAG_XOR;
	for (unsigned i = 0; i < 64; i += 8)
		if (((v >> i) & 0xff) == 0)
			v |= 1ull << i;
	return v;
}

/* Checks the tags of the blocks of len bytes read at offset into p. */
static int check_blocks(struct fsbench *b, const uint8_t *p, uint64_t offset, uint64_t len)
{
	for (uint64_t at = 0; at < len; at += BLOCK) {
		uint64_t word;
		memcpy(&word, p + at, sizeof word);
		if (word != block_tag((offset + at) / BLOCK)) {
			fail(b, "wrong data in block", (long)((offset + at) / BLOCK));
			return -1;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ system side */

static int open_file(struct fsbench *b)
{
	if (b->native) {
		int r = myrmex_fs_wait(FM_WAIT_MS);
		if (r < 0) {
			fail(b, "no file manager (myrmex_fs_wait)", r);
			return -1;
		}
		b->fd = myrmex_fs_open(FS_FILE, O_RDONLY, 0);
		if (b->fd < 0) {
			fail(b, "myrmex_fs_open " FS_FILE, b->fd);
			return -1;
		}
		struct myrmex_stat st;
		int s = myrmex_fs_fstat(b->fd, &st);
		if (s < 0 || (uint64_t)st.st_size != FILE_BYTES) {
			fail(b, "fstat: not 64 MiB", s < 0 ? s : (long)st.st_size);
			return -1;
		}
		return 0;
	}
	b->fd = open(FS_LINUX_MOUNT FS_FILE, O_RDONLY);
	if (b->fd < 0) {
		fail(b, "open " FS_LINUX_MOUNT FS_FILE, -errno);
		return -1;
	}
	struct stat st;
	if (fstat(b->fd, &st) != 0) {
		fail(b, "fstat", -errno);
		return -1;
	}
	if ((uint64_t)st.st_size != FILE_BYTES) {
		fail(b, "fstat: not 64 MiB", (long)st.st_size);
		return -1;
	}
	snprintf(b->linux_stat, sizeof b->linux_stat, "/sys/dev/block/%u:%u/stat",
	         major(st.st_dev), minor(st.st_dev));
	return 0;
}

/* Linux: the read requests the disk has completed (field 1 of the stat file). */
static uint64_t linux_disk_reads(const struct fsbench *b)
{
	char text[256];
	int fd = open(b->linux_stat, O_RDONLY);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, text, sizeof text - 1);
	close(fd);
	if (n <= 0)
		return 0;
	text[n] = '\0';
	uint64_t reads = 0;
	sscanf(text, "%" SCNu64, &reads);
	return reads;
}

/* Reads the counters; `after` the measured pass, else before it. The file
 * manager's FS_STATS is an IPC (kstats is not), so it is asked outside the
 * kstats window: first before the pass, last after it. */
static void take(struct fsbench *b, struct snapshot *s, int after)
{
	memset(s, 0, sizeof *s);
	if (b->native) {
		if (after)
			myrmex_kstats(&s->ks);
		if (myrmex_fs_stats(s->fs) < 0)
			fail(b, "myrmex_fs_stats", -1);
		if (!after)
			myrmex_kstats(&s->ks);
		s->lib_copies = myrmex_fs_lib_copies;
	} else {
		s->disk_reads = linux_disk_reads(b);
		s->read_calls = b->read_calls;
	}
}

static void add_deltas(const struct fsbench *b, struct totals *t, const struct snapshot *x,
                       const struct snapshot *y)
{
	if (b->native) {
		t->ipc += y->ks.ipc_calls - x->ks.ipc_calls;
		t->copies += y->fs[FS_STAT_COPIES] - x->fs[FS_STAT_COPIES] +
		             (y->lib_copies - x->lib_copies);
		t->disk_reads += y->fs[FS_STAT_DISK_READS] - x->fs[FS_STAT_DISK_READS];
		t->misses += y->fs[FS_STAT_CACHE_MISSES] - x->fs[FS_STAT_CACHE_MISSES];
		t->ctxsw += y->ks.context_switches - x->ks.context_switches;
		t->asswitch += y->ks.address_space_switches - x->ks.address_space_switches;
		t->attach += y->ks.ica_attaches - x->ks.ica_attaches;
		t->detach += y->ks.ica_detaches - x->ks.ica_detaches;
		t->icapages += y->ks.ica_pages_mapped - x->ks.ica_pages_mapped;
		t->idle += y->ks.idle_tsc - x->ks.idle_tsc;
	} else {
		t->disk_reads += y->disk_reads - x->disk_reads;
		t->syscalls += y->read_calls - x->read_calls;
	}
}

/* Empties the file cache (outside the timing). */
static int drop_cache(struct fsbench *b)
{
	if (b->native) {
		int r = myrmex_fs_drop_cache();
		if (r < 0)
			fail(b, "myrmex_fs_drop_cache", r);
		return r < 0 ? -1 : 0;
	}
	sync();
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd < 0 || write(fd, "3\n", 2) != 2) {
		fail(b, "drop_caches", -errno);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int rewind_file(struct fsbench *b)
{
	long r = b->native ? myrmex_fs_lseek(b->fd, 0, SEEK_SET) : lseek(b->fd, 0, SEEK_SET);
	if (r != 0)
		fail(b, "lseek 0", b->native ? r : -errno);
	return r == 0 ? 0 : -1;
}

/* One read of len bytes at the descriptor's offset, which is `offset`
 * (random reads seek first), tags checked. */
static int read_at(struct fsbench *b, uint64_t offset, uint32_t len, int seek)
{
	const void *data = buffer;
	long n;
	if (!b->native) {
		n = seek ? pread(b->fd, buffer, len, (off_t)offset) : read(b->fd, buffer, len);
		b->read_calls++;
		if (n < 0)
			n = -errno;
	} else if (b->variant == BUF) {
		n = seek ? myrmex_fs_pread(b->fd, buffer, len, offset)
		         : myrmex_fs_read(b->fd, buffer, len);
	} else {
		n = seek ? myrmex_fs_pread_direct(b->fd, len, offset, &data)
		         : myrmex_fs_read_direct(b->fd, len, &data);
	}
	if (n != (long)len) {
		fail(b, "short read", n);
		return -1;
	}
	return check_blocks(b, data, offset, len);
}

/* ------------------------------------------------------------ workloads */

static int seq_pass(struct fsbench *b)
{
	for (uint64_t off = 0; off < FILE_BYTES; off += SEQ_READ)
		if (read_at(b, off, SEQ_READ, 0) != 0)
			return -1;
	return 0;
}

static int rand_pass(struct fsbench *b)
{
	for (unsigned i = 0; i < RAND_OPS; i++)
		if (read_at(b, (uint64_t)b->rand_blocks[i] * BLOCK, BLOCK, 1) != 0)
			return -1;
	return 0;
}

static void make_offsets(struct fsbench *b)
{
	uint64_t x = RAND_SEED;
	for (unsigned i = 0; i < RAND_OPS; i++) {
		x ^= x << 13;   /* xorshift64 */
		x ^= x >> 7;
		x ^= x << 17;
		b->rand_blocks[i] = (uint32_t)(x % FILE_BLOCKS);
	}
}

/* ------------------------------------------------------------ measuring */

static void sort_u64(uint64_t *v, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		uint64_t x = v[i];
		unsigned j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Appends " key=<int>.<4 digits>" (count per operation; 1/16 shows exactly). */
static void put(char *line, size_t size, size_t *len, const char *key, uint64_t n, uint64_t ops)
{
	uint64_t q = (n * 10000 + ops / 2) / ops;
	int w = snprintf(line + *len, size - *len, " %s=%" PRIu64 ".%04" PRIu64, key,
	                 q / 10000, q % 10000);
	if (w > 0 && (size_t)w < size - *len)
		*len += (size_t)w;
}

/* The BENCH line of docs/testing.md: ticks per 4 KiB (tenths), counts per 4 KiB. */
static int print_figure(const struct fsbench *b, const char *name, uint64_t *tenths,
                        unsigned runs, const struct totals *t, uint64_t ops)
{
	sort_u64(tenths, runs);
	uint64_t med = runs % 2 ? tenths[runs / 2]
	                        : (tenths[runs / 2 - 1] + tenths[runs / 2] + 1) / 2;
	char line[512];
	int w = snprintf(line, sizeof line,
	                 "BENCH fs %s median=%" PRIu64 ".%" PRIu64 " min=%" PRIu64 ".%" PRIu64
	                 " runs=%u bytes=%u",
	                 name, med / 10, med % 10, tenths[0] / 10, tenths[0] % 10, runs, BLOCK);
	size_t len = w > 0 ? (size_t)w : 0;
	put(line, sizeof line, &len, "ipc", t->ipc, ops);
	put(line, sizeof line, &len, "copies", b->native ? t->copies : ops, ops);
	put(line, sizeof line, &len, "diskreads", t->disk_reads, ops);
	if (b->native) {
		put(line, sizeof line, &len, "misses", t->misses, ops);
		put(line, sizeof line, &len, "ctxsw", t->ctxsw, ops);
		put(line, sizeof line, &len, "asswitch", t->asswitch, ops);
		put(line, sizeof line, &len, "attach", t->attach, ops);
		put(line, sizeof line, &len, "detach", t->detach, ops);
		put(line, sizeof line, &len, "icapages", t->icapages, ops);
		put(line, sizeof line, &len, "idle", t->idle, ops);
	} else {
		put(line, sizeof line, &len, "syscalls", t->syscalls, ops);
	}
	if (len > sizeof line - 2)
		len = sizeof line - 2;
	line[len++] = '\n';
	return write(1, line, len) == (ssize_t)len ? 0 : -1;
}

/*
 * Runs pass() `runs` times, timed, after `warmups` untimed passes; cold:
 * the cache is emptied before every timed pass; seq: the file is rewound
 * first. Every pass reads blocks_per_pass 4 KiB blocks. Prints the figure.
 */
static void measure(struct fsbench *b, const char *name, int (*pass)(struct fsbench *),
                    unsigned warmups, unsigned runs, int cold, int seq,
                    uint64_t blocks_per_pass)
{
	uint64_t tenths[BENCH_MAX_RUNS];
	struct totals t = { 0 };
	if (b->failed || runs == 0 || runs > BENCH_MAX_RUNS)
		return;
	for (unsigned i = 0; i < warmups; i++)
		if ((seq && rewind_file(b) != 0) || pass(b) != 0)
			return;
	for (unsigned r = 0; r < runs; r++) {
		struct snapshot x, y;
		if ((cold && drop_cache(b) != 0) || (seq && rewind_file(b) != 0))
			return;
		take(b, &x, 0);
		uint64_t t0 = myrmex_rdtsc();
		int rc = pass(b);
		uint64_t t1 = myrmex_rdtsc();
		take(b, &y, 1);
		if (rc != 0 || b->failed)
			return;
		add_deltas(b, &t, &x, &y);
		tenths[r] = ((t1 - t0) * 10 + blocks_per_pass / 2) / blocks_per_pass;
	}
	if (print_figure(b, name, tenths, runs, &t, blocks_per_pass * runs) != 0)
		b->failed = 1;
}

int main(void)
{
	static struct fsbench b;
	b.native = myrmex_is_native();
	make_offsets(&b);
	if (open_file(&b) != 0)
		return 1;

	b.variant = DIRECT;
	measure(&b, "fs.seqread.cold", seq_pass, 0, COLD_RUNS, 1, 1, FILE_BLOCKS);
	measure(&b, "fs.seqread.warm", seq_pass, 1, WARM_RUNS, 0, 1, FILE_BLOCKS);
	measure(&b, "fs.randread4k", rand_pass, 1, RAND_RUNS, 0, 0, RAND_OPS);
	if (b.native) {
		b.variant = BUF;
		measure(&b, "fs.seqread.warm.buf", seq_pass, 1, WARM_RUNS, 0, 1, FILE_BLOCKS);
		measure(&b, "fs.randread4k.buf", rand_pass, 1, RAND_RUNS, 0, 0, RAND_OPS);
		myrmex_fs_close(b.fd);
	} else {
		close(b.fd);
	}
	return b.failed ? 1 : 0;
}
