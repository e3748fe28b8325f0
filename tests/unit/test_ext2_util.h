/*
 * test_ext2_util.h - shared helpers of the ext2 library's host tests
 * (test_ext2_*.c): scratch directories under /tmp, images made by mke2fs
 * from a populated directory, a block device over an image file, and the
 * e2fsprogs checks (e2fsck, debugfs) that judge what the library wrote.
 *
 * Included after unit.h by each test file. The e2fsprogs tools are searched
 * in PATH and in /sbin and /usr/sbin; a missing one fails the case that
 * needs it with a message saying so.
 */
#ifndef TEST_EXT2_UTIL_H
#define TEST_EXT2_UTIL_H

#include "../../servers/fs/ext2/ext2.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define T_NOW 1700000000u    /* the time the library is given */
#define T_FN __attribute__((unused))

/* Full path of an e2fsprogs tool, or NULL. */
T_FN static const char *t_tool(const char *name)
{
	static char found[4][256];
	static const char *dirs[] = { "/usr/sbin", "/sbin", "/usr/bin", "/bin" };
	static int slot;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		char *p = found[slot % 4];
		snprintf(p, sizeof(found[0]), "%s/%s", dirs[i], name);
		if (access(p, X_OK) == 0) {
			slot++;
			return p;
		}
	}
	const char *path = getenv("PATH");
	while (path && *path) {
		const char *end = strchr(path, ':');
		size_t n = end ? (size_t)(end - path) : strlen(path);
		char *p = found[slot % 4];
		snprintf(p, sizeof(found[0]), "%.*s/%s", (int)n, path, name);
		if (n && access(p, X_OK) == 0) {
			slot++;
			return p;
		}
		path = end ? end + 1 : NULL;
	}
	return NULL;
}

/* Leaves the case, failed with a message naming the missing tool, unless
 * mke2fs, e2fsck and debugfs are all present. */
#define T_NEED_TOOLS()                                                         \
	do {                                                                   \
		if (!t_have_tools(__FILE__, __LINE__))                         \
			return;                                                \
	} while (0)
T_FN static int t_have_tools(const char *file, int line)
{
	static const char *names[] = { "mke2fs", "e2fsck", "debugfs" };
	for (size_t i = 0; i < 3; i++) {
		if (!t_tool(names[i])) {
			unit_fail(file, line, "%s not found: install e2fsprogs", names[i]);
			return 0;
		}
	}
	return 1;
}

/* Runs a shell command; returns its exit status (or -1). */
__attribute__((format(printf, 1, 2)))
T_FN static int t_sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	fflush(stdout);
	int st = system(cmd);
	if (st == -1 || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* Runs a command and captures its standard output (NUL-terminated, at most
 * cap - 1 bytes); returns the byte count or -1. */
__attribute__((format(printf, 3, 4)))
T_FN static long t_capture(char *out, size_t cap, const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	fflush(stdout);
	FILE *f = popen(cmd, "r");
	if (!f)
		return -1;
	size_t n = 0, got;
	while (n + 1 < cap && (got = fread(out + n, 1, cap - 1 - n, f)) > 0)
		n += got;
	char sink[4096];
	while (fread(sink, 1, sizeof(sink), f) > 0)
		;
	pclose(f);
	out[n] = '\0';
	return (long)n;
}

/* A scratch directory: <dir>/src is filled by the test, <dir>/img is the
 * image. */
struct t_img {
	char dir[64];
	char src[96];
	char path[96];
	int fd;
	uint64_t reads, writes;
	struct ext2_blockdev dev;
	uint8_t view[EXT2_BLOCK_SIZE];   /* what t_file_peek lends, one block at a time */
};

T_FN static int t_file_read(void *ctx, uint64_t blockno, void *buf)
{
	struct t_img *im = ctx;
	im->reads++;
	ssize_t n = pread(im->fd, buf, EXT2_BLOCK_SIZE, (off_t)(blockno * EXT2_BLOCK_SIZE));
	return n == EXT2_BLOCK_SIZE ? 0 : -EIO;
}

T_FN static int t_file_write(void *ctx, uint64_t blockno, const void *buf)
{
	struct t_img *im = ctx;
	im->writes++;
	ssize_t n = pwrite(im->fd, buf, EXT2_BLOCK_SIZE, (off_t)(blockno * EXT2_BLOCK_SIZE));
	return n == EXT2_BLOCK_SIZE ? 0 : -EIO;
}

/* Lends a view the way a block cache would: valid until the next device
 * call (each peek reuses the one buffer), so the library's lookups run over
 * the peek path in every test. */
T_FN static const void *t_file_peek(void *ctx, uint64_t blockno)
{
	struct t_img *im = ctx;
	return t_file_read(ctx, blockno, im->view) == 0 ? im->view : NULL;
}

T_FN static uint32_t t_clock(void *ctx)
{
	(void)ctx;
	return T_NOW;
}

/* Makes the scratch directory with an empty src folder. */
T_FN static int t_img_begin(struct t_img *im)
{
	memset(im, 0, sizeof(*im));
	im->fd = -1;
	snprintf(im->dir, sizeof(im->dir), "/tmp/myrmex-ext2.XXXXXX");
	if (!mkdtemp(im->dir))
		return -1;
	snprintf(im->src, sizeof(im->src), "%s/src", im->dir);
	snprintf(im->path, sizeof(im->path), "%s/img", im->dir);
	return mkdir(im->src, 0755);
}

/* Opens the image and fills in the block device. */
T_FN static int t_img_open(struct t_img *im)
{
	struct stat st;
	if (im->fd >= 0)
		close(im->fd);
	im->fd = open(im->path, O_RDWR);
	if (im->fd < 0 || fstat(im->fd, &st) < 0)
		return -1;
	im->dev = (struct ext2_blockdev){
		.ctx = im,
		.nblocks = (uint64_t)st.st_size / EXT2_BLOCK_SIZE,
		.read = t_file_read,
		.write = t_file_write,
		.now = t_clock,
		.peek = t_file_peek,
	};
	return 0;
}

/* Runs mke2fs over src into the image (size like "64M"; opts are extra
 * mke2fs options) and opens it. */
T_FN static int t_img_make(struct t_img *im, const char *size, const char *opts)
{
	int st = t_sh("%s -q -t ext2 -b 4096 %s -d %s -F %s %s >%s/mke2fs.log 2>&1",
	              t_tool("mke2fs"), opts ? opts : "", im->src, im->path, size, im->dir);
	if (st != 0) {
		t_sh("cat %s/mke2fs.log", im->dir);
		return -1;
	}
	return t_img_open(im);
}

/* e2fsck -fn on the image: its exit status (0 = clean). With report, the
 * output is printed when it is not clean; t_fsck always reports. */
T_FN static int t_fsck_status(struct t_img *im, bool report)
{
	int st = t_sh("%s -fn %s >%s/fsck.log 2>&1", t_tool("e2fsck"), im->path, im->dir);
	if (st != 0 && report) {
		printf("  e2fsck exit %d:\n", st);
		t_sh("sed 's/^/    /' %s/fsck.log | head -40", im->dir);
	}
	return st;
}

T_FN static int t_fsck(struct t_img *im)
{
	return t_fsck_status(im, true);
}

/* The contents of a file as `debugfs -R "cat path"` prints them; returns
 * the length or -1. */
T_FN static long t_debugfs_cat(struct t_img *im, const char *path, void *out, size_t cap)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "%s -R 'cat %s' %s 2>/dev/null", t_tool("debugfs"), path,
	         im->path);
	fflush(stdout);
	FILE *f = popen(cmd, "r");
	if (!f)
		return -1;
	size_t n = 0, got;
	while (n < cap && (got = fread((char *)out + n, 1, cap - n, f)) > 0)
		n += got;
	char sink[4096];
	while ((got = fread(sink, 1, sizeof(sink), f)) > 0)
		n += got;   /* longer than cap: the caller sees the full length */
	return pclose(f) == 0 ? (long)n : -1;
}

/* Output of one debugfs request (stderr dropped). */
T_FN static long t_debugfs(struct t_img *im, char *out, size_t cap, const char *request)
{
	return t_capture(out, cap, "%s -R '%s' %s 2>/dev/null", t_tool("debugfs"), request,
	                 im->path);
}

/* Writes len bytes at off of the image file (for corruption). */
T_FN static int t_poke(struct t_img *im, uint64_t off, const void *data, size_t len)
{
	return pwrite(im->fd, data, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

T_FN static int t_peek(struct t_img *im, uint64_t off, void *data, size_t len)
{
	return pread(im->fd, data, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

/* Removes the scratch directory. */
T_FN static void t_img_end(struct t_img *im)
{
	if (im->fd >= 0)
		close(im->fd);
	im->fd = -1;
	if (strncmp(im->dir, "/tmp/myrmex-ext2.", 17) == 0)
		t_sh("rm -rf '%s'", im->dir);
}

/* Writes a file under src (path relative to it) with len bytes of data. */
T_FN static int t_put_file(struct t_img *im, const char *rel, const void *data, size_t len)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", im->src, rel);
	FILE *f = fopen(p, "wb");
	if (!f)
		return -1;
	size_t n = len ? fwrite(data, 1, len, f) : 0;
	return fclose(f) == 0 && n == len ? 0 : -1;
}

T_FN static int t_put_dir(struct t_img *im, const char *rel)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", im->src, rel);
	return mkdir(p, 0755);
}

/* A deterministic byte pattern: byte i of stream seed. */
T_FN static uint8_t t_pattern(uint32_t seed, uint64_t i)
{
	uint64_t x = (i / 8 + 1) * 0x9e3779b97f4a7c15ull ^ ((uint64_t)seed << 32 | seed);
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 32;
	return (uint8_t)(x >> (8 * (i % 8)));
}

T_FN static void t_fill(void *buf, uint32_t seed, uint64_t off, size_t len)
{
	uint8_t *p = buf;
	for (size_t i = 0; i < len; i++)
		p[i] = t_pattern(seed, off + i);
}

/* Index of the first byte of buf that differs from the pattern, or -1. */
T_FN static long t_check_pattern(const void *buf, uint32_t seed, uint64_t off, size_t len)
{
	const uint8_t *p = buf;
	for (size_t i = 0; i < len; i++)
		if (p[i] != t_pattern(seed, off + i))
			return (long)i;
	return -1;
}

#endif
