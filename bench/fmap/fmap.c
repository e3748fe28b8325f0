/*
 * fmap (suite fmap): figure 4 of paper 000, the time to map the start of a
 * cached file, to reference what was mapped, and both together.
 *
 *     fmap <impl> <kb>     impl: omf | mmap-odp | mmap-pre; kb: 4..1024, a
 *                          multiple of 4 (the mapping size)
 *
 * As the paper's measuring process (section 3.2.1, figure 3), 50 times in a
 * row: (1) open the 1,024 KB zero-filled file, (2) map its first <kb> KB,
 * (3) read the first byte of each 4 KB block of the mapping, (4) unmap,
 * (5) close. The TSC is read around (2) and (3); the figure of a phase is
 * the mean of repetitions 6 to 45 (so that everything is in the cache and
 * warm), in TSC ticks: cycles normally, instructions under QEMU's -icount.
 *
 *   omf       readblock(fd, kb / 4, 0): the file manager's cache blocks,
 *             mapped before the call returns (no page fault afterwards);
 *             munmap in step (4), outside the measured phases (AnT had no
 *             unmap step; Myrmex's mapping outlives close()).
 *   mmap-odp  mmap(NULL, kb KB, PROT_READ, MAP_SHARED, fd, 0): on-demand
 *             paging, one page fault per block in (3) ("MMF (ODP)").
 *   mmap-pre  the same with MAP_POPULATE ("MMF (pre-get)").
 *
 * Then ten more repetitions, not timed, read the counters between the
 * phases: the figures' counts are per repetition, of that phase (total =
 * map + ref), and " rep_*" on the total line for the whole repetition,
 * open to close. The file is FMAP_DIR/fmap-zero1m, made with write() by
 * the first run that misses it (real blocks, not holes) and read through.
 */
#define _DEFAULT_SOURCE
#include "fmap_bench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define FILE_BYTES  (1024u * 1024u)
#define FILE_NAME   FMAP_DIR "/fmap-zero1m"
#define REPS        50u
#define FIRST       5u      /* repetition 6, counting from 1 */
#define LAST        45u     /* ... to 45 */
#define COUNT_REPS  10u

static const char prog[] = "fmap";

enum impl { IMPL_OMF, IMPL_ODP, IMPL_PRE };

static const char *const impl_names[] = { "omf", "mmap-odp", "mmap-pre" };

/* Counts of one measured setup, summed over the counting repetitions. */
struct phase_counts {
	struct fmap_counts map, ref, total, rep;
};

/* Step (2): the mapping, or NULL with *err = -errno. */
static void *map_file(enum impl impl, int fd, size_t bytes, long *err)
{
	if (impl == IMPL_OMF)
		return fmap_readblock(fd, bytes / FMAP_BLOCK, 0, err);
	int flags = MAP_SHARED | (impl == IMPL_PRE ? MAP_POPULATE : 0);
	void *p = mmap(NULL, bytes, PROT_READ, flags, fd, 0);
	if (p == MAP_FAILED) {
		*err = -errno;
		return NULL;
	}
	*err = 0;
	return p;
}

/* Step (3): the first byte of each block; their sum (0 for this file). */
static unsigned ref_blocks(const void *p, size_t bytes)
{
	const volatile unsigned char *b = p;
	unsigned sum = 0;
	for (size_t off = 0; off < bytes; off += FMAP_BLOCK)
		sum += b[off];
	return sum;
}

/*
 * One repetition, steps (1) to (5). ticks[0..1] get the map and ref phases'
 * TSC deltas; with pc, the counters are read between the steps (not timed).
 * Returns 0 or -errno; *bad is set when a referenced byte was not 0.
 */
static long one_rep(enum impl impl, size_t bytes, uint64_t ticks[2], struct phase_counts *pc,
                    unsigned *bad)
{
	struct fmap_counts c[6];
	if (pc)
		fmap_counts_now(&c[0]);
	int fd = open(FILE_NAME, O_RDONLY);
	if (fd < 0)
		return -errno;
	if (pc)
		fmap_counts_now(&c[1]);
	long err;
	uint64_t t0 = myrmex_rdtsc();
	void *p = map_file(impl, fd, bytes, &err);
	uint64_t t1 = myrmex_rdtsc();
	if (!p) {
		close(fd);
		return err;
	}
	if (pc)
		fmap_counts_now(&c[2]);
	uint64_t t2 = myrmex_rdtsc();
	unsigned sum = ref_blocks(p, bytes);
	uint64_t t3 = myrmex_rdtsc();
	if (pc)
		fmap_counts_now(&c[3]);
	long ret = munmap(p, bytes) == 0 ? 0 : -errno;
	if (close(fd) != 0 && ret == 0)
		ret = -errno;
	if (pc) {
		fmap_counts_now(&c[5]);
		fmap_counts_add(&pc->map, &c[1], &c[2]);
		fmap_counts_add(&pc->ref, &c[2], &c[3]);
		fmap_counts_add(&pc->total, &c[1], &c[2]);
		fmap_counts_add(&pc->total, &c[2], &c[3]);
		fmap_counts_add(&pc->rep, &c[0], &c[5]);
	}
	ticks[0] = t1 - t0;
	ticks[1] = t3 - t2;
	if (sum != 0)
		*bad = 1;
	return ret;
}

static int parse_impl(const char *s, enum impl *impl)
{
	for (unsigned i = 0; i < sizeof impl_names / sizeof impl_names[0]; i++) {
		if (strcmp(s, impl_names[i]) == 0) {
			*impl = (enum impl)i;
			return 0;
		}
	}
	return -1;
}

static int report(enum impl impl, unsigned kb, uint64_t (*tenths)[REPS],
                  const struct phase_counts *pc)
{
	static const char *const phases[] = { "map", "ref", "total" };
	const struct fmap_counts *counts[] = { &pc->map, &pc->ref, &pc->total };
	char rep[320];
	size_t len = 0;
	fmap_counts_put(rep, sizeof rep, &len, "rep_", &pc->rep, COUNT_REPS);
	rep[len < sizeof rep ? len : sizeof rep - 1] = '\0';
	int ret = 0;
	for (unsigned ph = 0; ph < 3; ph++) {
		char name[64];
		snprintf(name, sizeof name, "fmap.%s.%s.%u", impl_names[impl], phases[ph], kb);
		if (fmap_print("fmap", name, tenths[ph], FIRST, LAST, ph == 2 ? rep : NULL,
		               counts[ph], COUNT_REPS) != 0)
			ret = -1;
	}
	return ret;
}

int main(int argc, char **argv)
{
	enum impl impl;
	if (argc != 3 || parse_impl(argv[1], &impl) != 0) {
		fmap_fail(prog, "usage: fmap omf|mmap-odp|mmap-pre <kb>", argc);
		return 2;
	}
	unsigned kb = (unsigned)strtoul(argv[2], NULL, 10);
	if (kb == 0 || kb % 4 != 0 || kb > FILE_BYTES / 1024) {
		fmap_fail(prog, "kb must be 4..1024, a multiple of 4", (long)kb);
		return 2;
	}
	size_t bytes = (size_t)kb * 1024u;
	int r = fmap_make_file(FILE_NAME, FILE_BYTES, 0);
	if (r < 0) {
		fmap_fail(prog, "cannot make " FILE_NAME, r);
		return 1;
	}
	fmap_counts_init();

	static uint64_t tenths[3][REPS];
	unsigned bad = 0;
	for (unsigned i = 0; i < REPS; i++) {
		uint64_t ticks[2];
		long ret = one_rep(impl, bytes, ticks, NULL, &bad);
		if (ret < 0 && i == 0) {
			/* Not offered here (readblock on Linux, or not built yet). */
			char name[64];
			snprintf(name, sizeof name, "fmap.%s.%u", impl_names[impl], kb);
			fmap_skip(name, "map_refused", ret);
			return 0;
		}
		if (ret < 0) {
			fmap_fail(prog, "repetition failed", ret);
			return 1;
		}
		tenths[0][i] = ticks[0] * 10;
		tenths[1][i] = ticks[1] * 10;
		tenths[2][i] = (ticks[0] + ticks[1]) * 10;
	}
	static struct phase_counts pc;
	for (unsigned i = 0; i < COUNT_REPS; i++) {
		uint64_t ticks[2];
		long ret = one_rep(impl, bytes, ticks, &pc, &bad);
		if (ret < 0) {
			fmap_fail(prog, "counting repetition failed", ret);
			return 1;
		}
	}
	if (bad) {
		fmap_fail(prog, "a referenced byte was not 0", (long)bad);
		return 1;
	}
	return report(impl, kb, tenths, &pc) == 0 ? 0 : 1;
}
