/*
 * posix.read4k (suite posix): pread() of 4 KiB at offset 0 of a file that
 * is in the cache, per call. The file is data4k beside this program
 * (/bench/posix/data4k on the benchmark disk, written by
 * tools/bench_posix.py); when it is missing (another folder, another disk)
 * it is created first, outside the measurement. Byte i of the file is
 * i % 251; the bytes read are checked after the measurement.
 *
 * On Myrmex the kernel forwards each pread to the file manager as one
 * request (docs/posix.md: 1 IPC round trip); the file manager copies the
 * block from its cache into the thread's data ICA and the kernel copies it
 * on to our buffer. On Linux it is one copy from the page cache.
 */
#define _DEFAULT_SOURCE /* pread with -std=gnu17 */
#include "bench.h"
#include "posix.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#define BLOCK     4096u
#define DATA_NAME "data4k"

static const char prog[] = "posix.read4k";

struct read4k {
	int fd;
	uint64_t bad;                 /* reads that did not return BLOCK bytes */
	uint8_t buf[BLOCK];
};

static uint8_t data_byte(unsigned i)
{
	return (uint8_t)(i % 251);
}

/* Writes the data file at path; returns 0 or -errno. */
static int create_data(const char *path)
{
	uint8_t block[BLOCK];
	for (unsigned i = 0; i < BLOCK; i++)
		block[i] = data_byte(i);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		return -errno;
	int ret = write(fd, block, BLOCK) == (ssize_t)BLOCK ? 0 : -EIO;
	if (close(fd) != 0 && ret == 0)
		ret = -errno;
	return ret;
}

/* Opens the data file, creating it when it is missing; returns fd or -errno. */
static int open_data(const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0 && errno == ENOENT) {
		int r = create_data(path);
		if (r < 0 && r != -EEXIST)
			return r;
		fd = open(path, O_RDONLY);
	}
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st) != 0 || st.st_size < (off_t)BLOCK) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

/* 0 when buf holds the file's first block. */
static int check(const struct read4k *r)
{
	for (unsigned i = 0; i < BLOCK; i++)
		if (r->buf[i] != data_byte(i))
			return -1;
	return 0;
}

static void read_body(void *ctx, uint64_t iters)
{
	struct read4k *r = ctx;
	for (uint64_t i = 0; i < iters; i++)
		if (pread(r->fd, r->buf, BLOCK, 0) != (ssize_t)BLOCK)
			r->bad++;
}

int main(int argc, char **argv)
{
	static struct read4k r;
	char path[256];
	if (posix_sibling(path, sizeof path, argc > 0 ? argv[0] : NULL, DATA_NAME) != 0) {
		bench_fail(prog, "path too long", 0);
		return 1;
	}
	r.fd = open_data(path);
	if (r.fd < 0) {
		bench_fail(prog, "cannot open or create the data file", r.fd);
		return 1;
	}
	/* Warm: the block is in the cache before the harness's own warm-up. */
	if (pread(r.fd, r.buf, BLOCK, 0) != (ssize_t)BLOCK || check(&r) != 0) {
		bench_fail(prog, "first read wrong", -errno);
		return 1;
	}

	const struct bench b = {
		.suite = "posix",
		.name = "posix.read4k",
		.runs = 21,
		.iters = 200,
		.ops_per_iter = 1,
		.body = read_body,
		.ctx = &r,
	};
	int ret = bench_run(&b);
	if (r.bad != 0 || check(&r) != 0) {
		bench_fail(prog, "short or wrong reads", (long)r.bad);
		ret = -1;
	}
	close(r.fd);
	return ret == 0 ? 0 : 1;
}
