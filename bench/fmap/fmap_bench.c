/*
 * The shared part of the On-Memory File benchmarks (see fmap_bench.h):
 * counters on both systems, statistics and the BENCH line (integer fixed
 * point, one write per line), the test files, and the OMF calls.
 */
#define _DEFAULT_SOURCE
#include "fmap_bench.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

int fmap_on_myrmex(void)
{
	static int known = -1;
	if (known < 0)
		known = myrmex_is_native();
	return known;
}

void fmap_counts_now(struct fmap_counts *c)
{
	memset(c, 0, sizeof *c);
	if (fmap_on_myrmex()) {
		struct myrmex_kstats ks;
		if (myrmex_kstats(&ks) != (long)sizeof ks)
			return;
		c->syscalls = ks.syscalls;
		c->ipc = ks.ipc_calls;
		c->asswitch = ks.address_space_switches;
		c->tlbflush = ks.tlb_flushes_full;
		c->tlbinval = ks.tlb_invalidations;
		c->pgfault = ks.page_faults;
		c->attach = ks.ica_attaches;
		c->pagein = ks.pager_calls;
		return;
	}
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		c->pgfault = (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
}

static uint64_t delta(uint64_t before, uint64_t after)
{
	return after >= before ? after - before : 0;
}

/* after - before - cost, each field at least 0. */
static uint64_t net(uint64_t before, uint64_t after, uint64_t cost)
{
	uint64_t d = delta(before, after);
	return d >= cost ? d - cost : 0;
}

/* What two back-to-back snapshots count by themselves (the smallest of
 * three tries, so that a timer interrupt between two does not count). */
static const struct fmap_counts *snapshot_cost(void)
{
	static struct fmap_counts cost;
	static int known;
	if (known)
		return &cost;
	struct fmap_counts s[4];
	for (int i = 0; i < 4; i++)
		fmap_counts_now(&s[i]);
	cost.syscalls = cost.ipc = cost.asswitch = cost.tlbflush = UINT64_MAX;
	cost.tlbinval = cost.pgfault = cost.attach = cost.pagein = UINT64_MAX;
	for (int i = 0; i < 3; i++) {
		const struct fmap_counts *a = &s[i], *b = &s[i + 1];
#define FMAP_MIN(f) if (delta(a->f, b->f) < cost.f) cost.f = delta(a->f, b->f)
		FMAP_MIN(syscalls);
		FMAP_MIN(ipc);
		FMAP_MIN(asswitch);
		FMAP_MIN(tlbflush);
		FMAP_MIN(tlbinval);
		FMAP_MIN(pgfault);
		FMAP_MIN(attach);
		FMAP_MIN(pagein);
#undef FMAP_MIN
	}
	known = 1;
	return &cost;
}

void fmap_counts_init(void)
{
	snapshot_cost();
}

void fmap_counts_add(struct fmap_counts *acc, const struct fmap_counts *before,
                     const struct fmap_counts *after)
{
	const struct fmap_counts *cost = snapshot_cost();
	acc->syscalls += net(before->syscalls, after->syscalls, cost->syscalls);
	acc->ipc += net(before->ipc, after->ipc, cost->ipc);
	acc->asswitch += net(before->asswitch, after->asswitch, cost->asswitch);
	acc->tlbflush += net(before->tlbflush, after->tlbflush, cost->tlbflush);
	acc->tlbinval += net(before->tlbinval, after->tlbinval, cost->tlbinval);
	acc->pgfault += net(before->pgfault, after->pgfault, cost->pgfault);
	acc->attach += net(before->attach, after->attach, cost->attach);
	acc->pagein += net(before->pagein, after->pagein, cost->pagein);
}

/* Appends formatted text at line + *len, never past size. */
static void put(char *line, size_t size, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put(char *line, size_t size, size_t *len, const char *fmt, ...)
{
	if (*len >= size)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t)n < size - *len ? (size_t)n : size - *len - 1;
}

static void put_per(char *line, size_t size, size_t *len, const char *prefix,
                    const char *key, uint64_t n, uint64_t per)
{
	uint64_t hundredths = (n * 100 + per / 2) / per;
	put(line, size, len, " %s%s=%" PRIu64 ".%02" PRIu64, prefix, key, hundredths / 100,
	    hundredths % 100);
}

void fmap_counts_put(char *line, size_t size, size_t *len, const char *prefix,
                     const struct fmap_counts *c, uint64_t per)
{
	if (per == 0)
		return;
	if (!fmap_on_myrmex()) {
		put_per(line, size, len, prefix, "pgfault", c->pgfault, per);
		return;
	}
	put_per(line, size, len, prefix, "syscalls", c->syscalls, per);
	put_per(line, size, len, prefix, "ipc", c->ipc, per);
	put_per(line, size, len, prefix, "asswitch", c->asswitch, per);
	put_per(line, size, len, prefix, "tlbflush", c->tlbflush, per);
	put_per(line, size, len, prefix, "tlbinval", c->tlbinval, per);
	put_per(line, size, len, prefix, "pgfault", c->pgfault, per);
	put_per(line, size, len, prefix, "attach", c->attach, per);
	put_per(line, size, len, prefix, "pagein", c->pagein, per);
}

uint64_t fmap_tenths(uint64_t n, uint64_t d)
{
	return d ? (n * 10 + d / 2) / d : 0;
}

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

/* Writes the whole line or reports failure. */
static int write_line(const char *line, size_t len)
{
	return write(1, line, len) == (ssize_t)len ? 0 : -1;
}

int fmap_print(const char *suite, const char *name, uint64_t *tenths, unsigned first,
               unsigned last, const char *extra, const struct fmap_counts *counts,
               uint64_t per)
{
	uint64_t *v = tenths + first;
	unsigned n = last - first;
	if (last <= first)
		return -1;
	uint64_t sum = 0;
	for (unsigned i = 0; i < n; i++)
		sum += v[i];
	uint64_t mean = (sum + n / 2) / n;
	sort_u64(v, n);
	uint64_t median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2] + 1) / 2;

	char line[640];
	size_t len = 0;
	put(line, sizeof line, &len,
	    "BENCH %s %s median=%" PRIu64 ".%" PRIu64 " min=%" PRIu64 ".%" PRIu64
	    " runs=%u mean=%" PRIu64 ".%" PRIu64 " max=%" PRIu64 ".%" PRIu64,
	    suite, name, median / 10, median % 10, v[0] / 10, v[0] % 10, n, mean / 10,
	    mean % 10, v[n - 1] / 10, v[n - 1] % 10);
	if (extra)
		put(line, sizeof line, &len, "%s", extra);
	if (counts)
		fmap_counts_put(line, sizeof line, &len, "", counts, per);
	put(line, sizeof line, &len, "\n");
	return write_line(line, len);
}

void fmap_skip(const char *name, const char *why, long err)
{
	char line[256];
	size_t len = 0;
	put(line, sizeof line, &len, "BENCH-SKIP %s %s %ld\n", name, why, err);
	write_line(line, len);
}

void fmap_fail(const char *prog, const char *what, long value)
{
	char line[256];
	size_t len = 0;
	put(line, sizeof line, &len, "BENCH-ERROR %s %s %ld\n", prog, what, value);
	write_line(line, len);
	len = 0;
	put(line, sizeof line, &len, "%s: %s: %ld\n", prog, what, value);
	if (write(2, line, len) < 0)
		return;
}

/* Reads fd from the start to the end; 0 when it holds only fill bytes. */
static int read_through(int fd, uint64_t bytes, unsigned char fill)
{
	static unsigned char buf[16 * FMAP_BLOCK];
	uint64_t done = 0;
	while (done < bytes) {
		ssize_t got = pread(fd, buf, sizeof buf, (off_t)done);
		if (got <= 0)
			return got < 0 ? -errno : -EIO;
		for (ssize_t i = 0; i < got; i++)
			if (buf[i] != fill)
				return -EILSEQ;
		done += (uint64_t)got;
	}
	return 0;
}

static int write_file(const char *path, uint64_t bytes, unsigned char fill)
{
	static unsigned char buf[16 * FMAP_BLOCK];
	memset(buf, fill, sizeof buf);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return -errno;
	int ret = 0;
	for (uint64_t done = 0; done < bytes && ret == 0;) {
		size_t chunk = bytes - done < sizeof buf ? (size_t)(bytes - done) : sizeof buf;
		ssize_t put_bytes = write(fd, buf, chunk);
		if (put_bytes <= 0)
			ret = put_bytes < 0 ? -errno : -EIO;
		else
			done += (uint64_t)put_bytes;
	}
	/* On the disk now, so that no write-back runs during the measurements. */
	if (ret == 0 && fsync(fd) != 0)
		ret = -errno;
	if (close(fd) != 0 && ret == 0)
		ret = -errno;
	return ret;
}

/* Reads path through: 0 when it holds bytes fill bytes, else -errno. */
static int check_file(const char *path, uint64_t bytes, unsigned char fill)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size != bytes)
		return -EILSEQ;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	int r = read_through(fd, bytes, fill);
	close(fd);
	return r;
}

int fmap_make_file(const char *path, uint64_t bytes, unsigned char fill)
{
	if (check_file(path, bytes, fill) == 0)
		return 0;
	int r = write_file(path, bytes, fill);
	return r < 0 ? r : check_file(path, bytes, fill);
}

void *fmap_readblock(int fd, uint64_t nblocks, uint64_t blkoff, long *err)
{
#ifdef FMAP_OMF_LIB
	return myrmex_readblock(fd, nblocks, blkoff, err);
#else
	long ret;
	__asm__ volatile("syscall"
	                 : "=a"(ret)
	                 : "a"((long)MYRMEX_SYS_READBLOCK), "D"((long)fd), "S"(nblocks),
	                   "d"(blkoff)
	                 : "rcx", "r11", "memory");
	if (ret < 0 && ret > -4096) {
		*err = ret;
		return NULL;
	}
	*err = 0;
	return (void *)ret;
#endif
}

#ifdef FMAP_OMF_LIB
const void *fmap_readbyte(int fd, size_t size, uint64_t offset, long *err)
{
	return myrmex_readbyte(fd, size, offset, err);
}

void fmap_readbyte_close(int fd)
{
	myrmex_readbyte_close(fd);
}

int fmap_have_readbyte(void)
{
	return 1;
}
#else
const void *fmap_readbyte(int fd, size_t size, uint64_t offset, long *err)
{
	(void)fd;
	(void)size;
	(void)offset;
	*err = -ENOSYS;
	return NULL;
}

void fmap_readbyte_close(int fd)
{
	(void)fd;
}

int fmap_have_readbyte(void)
{
	return 0;
}
#endif
