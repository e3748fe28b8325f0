/*
 * What the On-Memory File benchmarks (bench/fmap/, issue 6, paper 000) share:
 * the time stamps, the event counts that explain a figure, the statistics,
 * the BENCH line, and the OMF calls. The programs are plain static musl
 * binaries; the same file runs on Myrmex and on Linux (tools/bench_fmap.py).
 *
 * Counts: on Myrmex the kernel's counters (kstats: system-wide, so the file
 * manager's work is in them), on Linux the page faults of the calling
 * process (getrusage ru_minflt + ru_majflt), the only count Linux offers
 * here. A figure's line carries the counts that were measured, no others.
 *
 * The OMF calls: lib/libmyrmex/omf.c when it is built (the Makefile passes
 * -DFMAP_OMF_LIB then), else readblock as the raw system call, and
 * readbyte is reported as missing. On Linux readblock is -ENOSYS.
 */
#ifndef FMAP_BENCH_H
#define FMAP_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <myrmex.h>
#include <myrmex/omf.h>

/* Where the programs make their files: writable on both systems (the image's
 * /tmp, ext2 on Myrmex's file manager and on Linux's mount alike). */
#define FMAP_DIR      "/tmp"
#define FMAP_BLOCK    4096u
#define FMAP_MAX_RUNS 64u

/* Events over an interval, as fmap_counts_delta leaves them. */
struct fmap_counts {
	uint64_t syscalls;   /* Myrmex only */
	uint64_t ipc;        /* Myrmex: callsync + callasync accepted */
	uint64_t asswitch;   /* Myrmex: address-space switches */
	uint64_t tlbflush;   /* Myrmex: whole-TLB flushes */
	uint64_t tlbinval;   /* Myrmex: single-page invalidations */
	uint64_t pgfault;    /* both: page faults (Linux: of this process only) */
	uint64_t attach;     /* Myrmex: ICA attaches */
	uint64_t pagein;     /* Myrmex: page faults sent to the file manager (FS_PAGEIN) */
};

/* 1 on Myrmex (kstats answers), 0 on Linux; asked once. */
int fmap_on_myrmex(void);

/* Measures what taking snapshots costs (fmap_counts_add subtracts it), so
 * that the first fmap_counts_add does not do it inside a measurement; a
 * forked child inherits it. */
void fmap_counts_init(void);

/* Snapshot of the counters now (fields Linux lacks stay 0). */
void fmap_counts_now(struct fmap_counts *c);

/*
 * *acc += after - before, field by field, less what taking the two
 * snapshots costs by itself (measured once: on Myrmex the kstats call is a
 * system call), so that a phase's counts are the phase's own.
 */
void fmap_counts_add(struct fmap_counts *acc, const struct fmap_counts *before,
                     const struct fmap_counts *after);

/*
 * Appends " <prefix><key>=<v>" for each count to line (at *len, size
 * bytes), each divided by per (events per operation, 2 decimals): all of
 * them on Myrmex, pgfault alone on Linux.
 */
void fmap_counts_put(char *line, size_t size, size_t *len, const char *prefix,
                     const struct fmap_counts *c, uint64_t per);

/*
 * Prints one figure with a single write():
 *   BENCH <suite> <name> median=<v> min=<v> runs=<n> mean=<v> max=<v> [k=v...]
 * over v[first..last) of the n values given (each a TSC delta per operation,
 * in tenths: the caller divides), plus `extra` (" k=v ..." or NULL) and the
 * counts per `per` operations (NULL: none). Returns 0, or -1 if the line
 * could not be written. v is sorted in place.
 */
int fmap_print(const char *suite, const char *name, uint64_t *tenths, unsigned first,
               unsigned last, const char *extra, const struct fmap_counts *counts,
               uint64_t per);

/* "BENCH-SKIP <name> <why> <err>" (bench.py reports it), one write. */
void fmap_skip(const char *name, const char *why, long err);

/* "<prog>: <what>: <value>" on stderr, and "BENCH-ERROR <prog> <what>" on
 * stdout, so the driver sees the failure. */
void fmap_fail(const char *prog, const char *what, long value);

/* Rounded n * 10 / d: tenths per operation. */
uint64_t fmap_tenths(uint64_t n, uint64_t d);

/*
 * Makes path a regular file of exactly bytes bytes, every byte equal to
 * fill, written with write() (real blocks, not holes) and fsync()ed (no
 * write-back during the measurements), unless it already is one; either
 * way it is read through once, so that it is in the cache.
 * Returns 0 or -errno.
 */
int fmap_make_file(const char *path, uint64_t bytes, unsigned char fill);

/* readblock(fd, nblocks, blkoff): the mapping's address, or NULL with
 * *err = -errno (-ENOSYS on Linux). */
void *fmap_readblock(int fd, uint64_t nblocks, uint64_t blkoff, long *err);

/* readbyte(fd, size, offset) of lib/libmyrmex/omf.c; -ENOSYS without it. */
const void *fmap_readbyte(int fd, size_t size, uint64_t offset, long *err);
void fmap_readbyte_close(int fd);
/* 1 when this binary has lib/libmyrmex/omf.c's readbyte. */
int fmap_have_readbyte(void);

/* A small deterministic generator (xorshift64*), the same on both systems. */
static inline uint64_t fmap_rand(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1Dull;
}

#endif
