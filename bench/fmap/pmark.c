/*
 * pmark (suite fmap-postmark): figure 5 of paper 000, PostMark's read
 * transactions as the paper runs them, with the data read in block units
 * (readblock against read()) and in byte units (readbyte against fread()
 * and read()).
 *
 *     pmark <api> <unit>...   api: readblock | read-blk (units in 4 KB
 *                             blocks), readbyte | fread | read (units in
 *                             bytes, at most 4096)
 *
 * The paper's parameters (section 3.3.1): 25 files of 500 to 10,000 bytes,
 * 25 transactions. The files are made first (FMAP_DIR/pmark/f00..f24, sizes
 * from a fixed seed, byte j of file i is (7 * i + j) % 251 + 1, written and
 * fsync()ed), outside the measurement, and are in the cache. A transaction
 * is what PostMark's read transaction does: open a file (the 25 picks come
 * from a fixed seed, the same for every api), read it from start to end in
 * units of <unit> (the last call takes the rest; the size is known, as in
 * PostMark, so no call looks for the end of the file), and close it; the
 * program touches the first byte of each unit it gets (read and fread copy
 * the unit into a buffer, readblock and readbyte hand out the cache's bytes
 * in place). The bytes read are the same for every api and
 * unit. readblock's mappings are unmapped (munmap) after use, readbyte's at
 * the end of each file (myrmex_readbyte_close): both inside the time, since
 * a program on Myrmex has to.
 *
 * A figure is one run of the 25 transactions: one warm-up run, then RUNS
 * runs; median, minimum, mean and maximum over them. Counts are per run.
 * Before the timed runs, one run per api and unit checks the bytes it reads
 * (a sum over every byte against the files' sum).
 */
#define _DEFAULT_SOURCE
#include "fmap_bench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define NFILES       25u
#define NTRANS       25u
#define SIZE_LOW     500u
#define SIZE_HIGH    10000u
#define SEED         42u
#define RUNS         11u
#define MAX_UNIT     4096u
#define MAX_BLOCKS   3u       /* SIZE_HIGH in 4 KB blocks */
#define PM_DIR       FMAP_DIR "/pmark"

static const char prog[] = "pmark";

enum api { API_READBLOCK, API_READ_BLK, API_READBYTE, API_FREAD, API_READ };

static const char *const api_names[] = {
	"readblock", "read-blk", "readbyte", "fread", "read",
};

struct workload {
	unsigned size[NFILES];
	unsigned pick[NTRANS];
	char path[NFILES][48];
	uint64_t bytes;          /* bytes one run reads */
	uint64_t sum;            /* the sum of those bytes */
};

static struct workload w;

static unsigned char file_byte(unsigned file, unsigned j)
{
	return (unsigned char)((7u * file + j) % 251u + 1u);
}

/* Writes the files (when missing or wrong) and the transaction picks. */
static int make_workload(void)
{
	uint64_t rnd = SEED;
	static unsigned char buf[SIZE_HIGH];
	if (mkdir(PM_DIR, 0755) != 0 && errno != EEXIST)
		return -errno;
	for (unsigned i = 0; i < NFILES; i++) {
		w.size[i] = SIZE_LOW + (unsigned)(fmap_rand(&rnd) % (SIZE_HIGH - SIZE_LOW + 1));
		snprintf(w.path[i], sizeof w.path[i], "%s/f%02u", PM_DIR, i);
		for (unsigned j = 0; j < w.size[i]; j++)
			buf[j] = file_byte(i, j);
		int fd = open(w.path[i], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			return -errno;
		ssize_t put = write(fd, buf, w.size[i]);
		int synced = fsync(fd);      /* no write-back during the measurements */
		if (close(fd) != 0 || put != (ssize_t)w.size[i] || synced != 0)
			return -EIO;
	}
	w.bytes = 0;
	w.sum = 0;
	for (unsigned t = 0; t < NTRANS; t++) {
		unsigned f = (unsigned)(fmap_rand(&rnd) % NFILES);
		w.pick[t] = f;
		w.bytes += w.size[f];
		for (unsigned j = 0; j < w.size[f]; j++)
			w.sum += file_byte(f, j);
	}
	return 0;
}

/* Adds the first byte of [p, p + n) to *touch, or all n bytes to *check. */
static void use(const unsigned char *p, size_t n, uint64_t *touch, uint64_t *check)
{
	if (check) {
		for (size_t i = 0; i < n; i++)
			*check += p[i];
	} else {
		*touch += *(const volatile unsigned char *)p;
	}
}

/* One file with readblock, unit blocks per call; 0 or -errno. */
static long file_readblock(unsigned f, unsigned unit, uint64_t *touch, uint64_t *check,
                           unsigned *calls)
{
	int fd = open(w.path[f], O_RDONLY);
	if (fd < 0)
		return -errno;
	unsigned nblocks = (w.size[f] + FMAP_BLOCK - 1) / FMAP_BLOCK;
	long ret = 0;
	for (unsigned b = 0; b < nblocks && ret == 0; b += unit) {
		unsigned n = nblocks - b < unit ? nblocks - b : unit;
		long err;
		unsigned char *p = fmap_readblock(fd, n, b, &err);
		(*calls)++;
		if (!p) {
			ret = err;
			break;
		}
		size_t left = w.size[f] - (size_t)b * FMAP_BLOCK;
		use(p, left < (size_t)n * FMAP_BLOCK ? left : (size_t)n * FMAP_BLOCK, touch, check);
		if (munmap(p, (size_t)n * FMAP_BLOCK) != 0)
			ret = -errno;
	}
	close(fd);
	return ret;
}

/* One file with readbyte, unit bytes per call. */
static long file_readbyte(unsigned f, unsigned unit, uint64_t *touch, uint64_t *check,
                          unsigned *calls)
{
	int fd = open(w.path[f], O_RDONLY);
	if (fd < 0)
		return -errno;
	long ret = 0;
	for (unsigned off = 0; off < w.size[f]; off += unit) {
		size_t n = w.size[f] - off < unit ? w.size[f] - off : unit;
		long err;
		const unsigned char *p = fmap_readbyte(fd, n, off, &err);
		(*calls)++;
		if (!p) {
			ret = err;
			break;
		}
		use(p, n, touch, check);
	}
	fmap_readbyte_close(fd);
	close(fd);
	return ret;
}

/* One file with read(), unit bytes per call, the last one the rest. */
static long file_read(unsigned f, unsigned unit, uint64_t *touch, uint64_t *check,
                      unsigned *calls)
{
	static unsigned char buf[MAX_BLOCKS * FMAP_BLOCK];
	int fd = open(w.path[f], O_RDONLY);
	if (fd < 0)
		return -errno;
	long ret = 0;
	for (unsigned off = 0; off < w.size[f]; off += unit) {
		size_t n = w.size[f] - off < unit ? w.size[f] - off : unit;
		ssize_t got = read(fd, buf, n);
		(*calls)++;
		if (got != (ssize_t)n) {
			ret = got < 0 ? -errno : -EIO;
			break;
		}
		use(buf, n, touch, check);
	}
	close(fd);
	return ret;
}

/* One file with fread(), unit bytes per call, the last one the rest. */
static long file_fread(unsigned f, unsigned unit, uint64_t *touch, uint64_t *check,
                       unsigned *calls)
{
	static unsigned char buf[MAX_UNIT];
	FILE *fp = fopen(w.path[f], "r");
	if (!fp)
		return -errno;
	long ret = 0;
	for (unsigned off = 0; off < w.size[f]; off += unit) {
		size_t n = w.size[f] - off < unit ? w.size[f] - off : unit;
		size_t got = fread(buf, 1, n, fp);
		(*calls)++;
		if (got != n) {
			ret = -EIO;
			break;
		}
		use(buf, n, touch, check);
	}
	fclose(fp);
	return ret;
}

/* One run: the 25 transactions. *calls counts the read calls. */
static long run_once(enum api api, unsigned unit, uint64_t *touch, uint64_t *check,
                     unsigned *calls)
{
	for (unsigned t = 0; t < NTRANS; t++) {
		unsigned f = w.pick[t];
		long r;
		switch (api) {
		case API_READBLOCK:
			r = file_readblock(f, unit, touch, check, calls);
			break;
		case API_READ_BLK:
			r = file_read(f, unit * FMAP_BLOCK, touch, check, calls);
			break;
		case API_READBYTE:
			r = file_readbyte(f, unit, touch, check, calls);
			break;
		case API_FREAD:
			r = file_fread(f, unit, touch, check, calls);
			break;
		default:
			r = file_read(f, unit, touch, check, calls);
			break;
		}
		if (r < 0)
			return r;
	}
	return 0;
}

/* Measures one api and unit; prints its line (or a skip). 0, or -1. */
static int measure(enum api api, unsigned unit)
{
	char name[64];
	const char *kind = api == API_READBLOCK || api == API_READ_BLK ? "block" : "byte";
	const char *api_name = api == API_READ_BLK ? "read" : api_names[api];
	snprintf(name, sizeof name, "pmark.%s.%s.%u", kind, api_name, unit);

	uint64_t check = 0, touch = 0;
	unsigned calls = 0;
	long r = run_once(api, unit, &touch, &check, &calls);
	if (r < 0 && (api == API_READBLOCK || api == API_READBYTE)) {
		fmap_skip(name, "omf_refused", r);   /* Linux, or not built yet */
		return 0;
	}
	if (r < 0 || check != w.sum) {
		fmap_fail(name, r < 0 ? "check run failed" : "wrong bytes read", r < 0 ? r : -1);
		return -1;
	}
	unsigned calls_per_run = calls;
	run_once(api, unit, &touch, NULL, &calls); /* warm-up */

	static uint64_t tenths[RUNS];
	struct fmap_counts before, after, counts = { 0 };
	fmap_counts_now(&before);
	for (unsigned i = 0; i < RUNS; i++) {
		uint64_t t0 = myrmex_rdtsc();
		r = run_once(api, unit, &touch, NULL, &calls);
		uint64_t t1 = myrmex_rdtsc();
		if (r < 0) {
			fmap_fail(name, "timed run failed", r);
			return -1;
		}
		tenths[i] = (t1 - t0) * 10;
	}
	fmap_counts_now(&after);
	fmap_counts_add(&counts, &before, &after);
	char extra[96];
	snprintf(extra, sizeof extra, " calls=%u files=%u bytes_read=%llu", calls_per_run, NTRANS,
	         (unsigned long long)w.bytes);
	return fmap_print("fmap-postmark", name, tenths, 0, RUNS, extra, &counts, RUNS);
}

static int parse_api(const char *s, enum api *api)
{
	for (unsigned i = 0; i < sizeof api_names / sizeof api_names[0]; i++) {
		if (strcmp(s, api_names[i]) == 0) {
			*api = (enum api)i;
			return 0;
		}
	}
	return -1;
}

int main(int argc, char **argv)
{
	enum api api;
	if (argc < 3 || parse_api(argv[1], &api) != 0) {
		fmap_fail(prog, "usage: pmark readblock|read-blk|readbyte|fread|read <unit>...", argc);
		return 2;
	}
	int r = make_workload();
	if (r < 0) {
		fmap_fail(prog, "cannot make the files in " PM_DIR, r);
		return 1;
	}
	fmap_counts_init();
	int failed = 0;
	for (int i = 2; i < argc; i++) {
		unsigned unit = (unsigned)strtoul(argv[i], NULL, 10);
		int blocks = api == API_READBLOCK || api == API_READ_BLK;
		if (unit == 0 || (blocks ? unit > MAX_BLOCKS : unit > MAX_UNIT)) {
			fmap_fail(prog, "bad unit", (long)unit);
			return 2;
		}
		if (measure(api, unit) != 0)
			failed = 1;
	}
	return failed;
}
