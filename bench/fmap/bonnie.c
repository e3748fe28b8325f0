/*
 * bonnie (suite fmap-bonnie): figure 6 of paper 000, Bonnie's random seeks:
 * processes read random 4 KB blocks of one file and update some of them.
 *
 *     bonnie <impl> <nproc> <pct>...   impl: omf | rw; pct: 0..100, the
 *                                       update probability in percent
 *
 * The paper's parameters (section 3.3.2): 1 or 5 processes, a 128 KB file,
 * 4 KB reads and updates, 4,000 operations in all, split evenly among the
 * processes. An operation picks a block at random (each process its own
 * fixed seed), reads its first 8 bytes and, with probability pct %, adds 1
 * to them and writes the block back:
 *
 *   omf  readblock(fd, 32, 0) of the whole file, once per process (fd open
 *        for reading and writing, so the mapping is writable), then every
 *        read and update in place: no call (the cache is shared, no write()
 *        is needed).
 *   rw   pread(fd, buf, 4096, off), and for an update pwrite of the block.
 *
 * The processes are forked and open the file first; they wait on a pipe
 * that the parent closes to start them all. The time runs from that close
 * to the last process reporting its end on a second pipe; it includes
 * omf's readblock and the scheduling among the processes. For each pct one
 * warm-up run (the first pct only), then RUNS runs: median, minimum, mean,
 * maximum; " per_op=" is the median per operation. Counts per operation:
 * Myrmex's over the whole system, Linux's the processes' page faults.
 * Afterwards the file's counters must add up to the updates made (with one
 * process; with several, racing updates of a block may be lost, so they
 * must not exceed them).
 */
#define _DEFAULT_SOURCE
#include "fmap_bench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define FILE_BYTES  (128u * 1024u)
#define NBLOCKS     (FILE_BYTES / FMAP_BLOCK)
#define FILE_NAME   FMAP_DIR "/bonnie128k"
#define TOTAL_OPS   4000u
#define MAX_PROCS   5u
#define RUNS        3u

static const char prog[] = "bonnie";

enum impl { IMPL_OMF, IMPL_RW };

/* What a process sends at its end. */
struct done {
	int64_t status;      /* 0 or -errno */
	uint64_t updates;
	uint64_t pgfault;    /* Linux: its page faults during the operations */
};

static long do_ops(enum impl impl, int fd, unsigned ops, unsigned pct, uint64_t seed,
                   uint64_t *updates)
{
	static unsigned char buf[FMAP_BLOCK];
	unsigned char *base = NULL;
	if (impl == IMPL_OMF) {
		long err;
		base = fmap_readblock(fd, NBLOCKS, 0, &err);
		if (!base)
			return err;
	}
	uint64_t rnd = seed;
	for (unsigned i = 0; i < ops; i++) {
		uint64_t x = fmap_rand(&rnd);
		unsigned blk = (unsigned)(x % NBLOCKS);
		int update = (unsigned)((x >> 32) % 100u) < pct;
		off_t off = (off_t)blk * FMAP_BLOCK;
		if (impl == IMPL_OMF) {
			volatile uint64_t *word = (volatile uint64_t *)(base + off);
			uint64_t v = *word;
			if (update) {
				*word = v + 1;
				(*updates)++;
			}
			continue;
		}
		if (pread(fd, buf, FMAP_BLOCK, off) != (ssize_t)FMAP_BLOCK)
			return -EIO;
		if (update) {
			uint64_t v;
			memcpy(&v, buf, sizeof v);
			v++;
			memcpy(buf, &v, sizeof v);
			if (pwrite(fd, buf, FMAP_BLOCK, off) != (ssize_t)FMAP_BLOCK)
				return -EIO;
			(*updates)++;
		}
	}
	if (base && munmap(base, FILE_BYTES) != 0)
		return -errno;
	return 0;
}

/* A process: open, wait for the start, do its share, report. */
static _Noreturn void child(enum impl impl, unsigned ops, unsigned pct, uint64_t seed,
                            int go, int done_fd)
{
	struct done d = { 0 };
	int fd = open(FILE_NAME, O_RDWR);
	char c;
	if (read(go, &c, 1) < 0)
		d.status = -errno;
	if (fd < 0)
		d.status = -errno;
	if (d.status == 0) {
		/* Linux: this process's page faults (Myrmex counts system-wide,
		 * in the parent). */
		int on_linux = !fmap_on_myrmex();
		struct fmap_counts before, after, counts = { 0 };
		if (on_linux)
			fmap_counts_now(&before);
		d.status = do_ops(impl, fd, ops, pct, seed, &d.updates);
		if (on_linux) {
			fmap_counts_now(&after);
			fmap_counts_add(&counts, &before, &after);
			d.pgfault = counts.pgfault;
		}
	}
	if (write(done_fd, &d, sizeof d) != (ssize_t)sizeof d)
		_exit(3);
	_exit(d.status == 0 ? 0 : 1);
}

/*
 * One run of nproc processes. *ticks: the TSC from the start to the last
 * report; counts gets the events (Myrmex: system-wide in that window;
 * Linux: the processes' page faults). Returns 0 or -errno.
 */
static long run_once(enum impl impl, unsigned nproc, unsigned pct, unsigned run,
                     uint64_t *ticks, struct fmap_counts *counts, uint64_t *updates)
{
	int go[2], done[2];
	if (pipe(go) != 0)
		return -errno;
	if (pipe(done) != 0) {
		close(go[0]);
		close(go[1]);
		return -errno;
	}
	pid_t pids[MAX_PROCS];
	unsigned started = 0;
	long ret = 0;
	for (; started < nproc; started++) {
		uint64_t seed = 0x9E3779B97F4A7C15ull * (run * MAX_PROCS + started + 1) + pct;
		pid_t pid = fork();
		if (pid == 0) {
			close(go[1]);
			close(done[0]);
			child(impl, TOTAL_OPS / nproc, pct, seed, go[0], done[1]);
		}
		if (pid < 0) {
			ret = -errno;
			break;
		}
		pids[started] = pid;
	}
	close(go[0]);
	close(done[1]);
	struct fmap_counts before, after;
	fmap_counts_now(&before);
	uint64_t t0 = myrmex_rdtsc();
	close(go[1]);                    /* every process's read ends: start */
	unsigned got = 0;
	struct done d;
	while (got < started) {
		ssize_t n = read(done[0], &d, sizeof d);
		if (n != (ssize_t)sizeof d) {
			if (n < 0 && errno == EINTR)
				continue;
			ret = ret ? ret : -EPIPE;
			break;
		}
		got++;
		if (d.status != 0 && ret == 0)
			ret = d.status;
		*updates += d.updates;
		if (!fmap_on_myrmex())
			counts->pgfault += d.pgfault;
	}
	*ticks = myrmex_rdtsc() - t0;
	fmap_counts_now(&after);
	if (fmap_on_myrmex())
		fmap_counts_add(counts, &before, &after);
	close(done[0]);
	for (unsigned i = 0; i < started; i++) {
		int status;
		while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR)
			;
	}
	return ret;
}

/* The sum of the blocks' counters (their first 8 bytes). */
static long file_updates(uint64_t *sum)
{
	static unsigned char buf[FILE_BYTES];
	int fd = open(FILE_NAME, O_RDONLY);
	if (fd < 0)
		return -errno;
	ssize_t n = pread(fd, buf, FILE_BYTES, 0);
	close(fd);
	if (n != (ssize_t)FILE_BYTES)
		return -EIO;
	*sum = 0;
	for (unsigned b = 0; b < NBLOCKS; b++) {
		uint64_t v;
		memcpy(&v, buf + (size_t)b * FMAP_BLOCK, sizeof v);
		*sum += v;
	}
	return 0;
}

static int measure(enum impl impl, unsigned nproc, unsigned pct, int warm, uint64_t *updates)
{
	char name[64];
	snprintf(name, sizeof name, "bonnie.%s.%up.%u", impl == IMPL_OMF ? "omf" : "rw", nproc,
	         pct);
	uint64_t ticks;
	struct fmap_counts counts = { 0 };
	if (warm) {
		long r = run_once(impl, nproc, pct, RUNS, &ticks, &counts, updates);
		if (r < 0 && impl == IMPL_OMF) {
			fmap_skip(name, "omf_refused", r);  /* Linux, or not built yet */
			return 1;
		}
		if (r < 0) {
			fmap_fail(name, "warm-up run failed", r);
			return -1;
		}
		memset(&counts, 0, sizeof counts);
	}
	static uint64_t tenths[RUNS];
	uint64_t ticks_sorted[RUNS];
	for (unsigned i = 0; i < RUNS; i++) {
		long r = run_once(impl, nproc, pct, i, &ticks, &counts, updates);
		if (r < 0) {
			fmap_fail(name, "run failed", r);
			return -1;
		}
		tenths[i] = ticks * 10;
		ticks_sorted[i] = ticks;
	}
	for (unsigned i = 1; i < RUNS; i++)
		for (unsigned j = i; j > 0 && ticks_sorted[j - 1] > ticks_sorted[j]; j--) {
			uint64_t t = ticks_sorted[j];
			ticks_sorted[j] = ticks_sorted[j - 1];
			ticks_sorted[j - 1] = t;
		}
	uint64_t per_op = fmap_tenths(ticks_sorted[RUNS / 2], TOTAL_OPS);
	char extra[96];
	snprintf(extra, sizeof extra, " per_op=%llu.%llu ops=%u procs=%u",
	         (unsigned long long)(per_op / 10), (unsigned long long)(per_op % 10), TOTAL_OPS,
	         nproc);
	return fmap_print("fmap-bonnie", name, tenths, 0, RUNS, extra, &counts,
	                  (uint64_t)TOTAL_OPS * RUNS) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	if (argc < 4 || (strcmp(argv[1], "omf") != 0 && strcmp(argv[1], "rw") != 0)) {
		fmap_fail(prog, "usage: bonnie omf|rw <nproc> <pct>...", argc);
		return 2;
	}
	enum impl impl = strcmp(argv[1], "omf") == 0 ? IMPL_OMF : IMPL_RW;
	unsigned nproc = (unsigned)strtoul(argv[2], NULL, 10);
	if (nproc == 0 || nproc > MAX_PROCS || TOTAL_OPS % nproc != 0) {
		fmap_fail(prog, "nproc must be 1..5 and divide 4000", (long)nproc);
		return 2;
	}
	int r = fmap_make_file(FILE_NAME, FILE_BYTES, 0);
	if (r < 0) {
		fmap_fail(prog, "cannot make " FILE_NAME, r);
		return 1;
	}
	fmap_counts_init();
	uint64_t updates = 0;
	int failed = 0;
	for (int i = 3; i < argc; i++) {
		unsigned pct = (unsigned)strtoul(argv[i], NULL, 10);
		if (pct > 100) {
			fmap_fail(prog, "pct must be 0..100", (long)pct);
			return 2;
		}
		int m = measure(impl, nproc, pct, i == 3, &updates);
		if (m == 1)
			return 0;
		if (m < 0)
			failed = 1;
	}
	uint64_t sum = 0;
	long c = file_updates(&sum);
	/* Several processes' read-modify-writes of one block may race (each
	 * writes its own copy back, as Bonnie's do): then some are lost. */
	if (c < 0 || (nproc == 1 ? sum != updates : sum > updates)) {
		fmap_fail(prog, "the file's counters do not add up to the updates",
		          c < 0 ? c : (long)(sum - updates));
		failed = 1;
	}
	return failed;
}
