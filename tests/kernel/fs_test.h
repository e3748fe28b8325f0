/*
 * fs_test.h - helpers of the file-system test programs (t_fs*.c), which talk
 * to the file manager through libmyrmex's native file interface: waiting for
 * the file manager, whole-file writes and reads compared with what is
 * expected, absent names, and directory listings compared with a set of
 * names. Header only; include test_check.h first.
 *
 * The test init starts the disk driver and the file manager on the test's
 * disk before each of these programs and shuts the file manager down after
 * it (docs/testing.md). Each helper reports what went wrong with test_fail
 * and returns something the caller may go on with.
 */
#ifndef FS_TEST_H
#define FS_TEST_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <myrmex/fs.h>

#define FS_WAIT_MS 20000            /* the file manager mounts the disk first */
#define FS_BUF_BYTES (512u * 1024)   /* the largest file a helper reads whole */
#define FS_MAX_LISTED 700           /* entries of one listing */

#define FS_IS_DIR(mode) (((mode) & 0170000u) == 0040000u)
#define FS_IS_REG(mode) (((mode) & 0170000u) == 0100000u)

static uint8_t fs_buf[FS_BUF_BYTES];

/* Waits until the file manager answers; 1 when it does. */
static inline int fs_ready(void)
{
	int r = myrmex_fs_wait(FS_WAIT_MS);
	if (r != 0)
		test_fail("the file manager does not answer: %d", r);
	return r == 0;
}

/* Creates (or truncates) path and writes data; the bytes written or -errno. */
static inline long fs_put(const char *path, const void *data, size_t len)
{
	int fd = myrmex_fs_open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0) {
		test_fail("open(%s, O_CREAT|O_WRONLY|O_TRUNC): %d", path, fd);
		return fd;
	}
	long n = myrmex_fs_write(fd, data, len);
	if (n != (long)len)
		test_fail("write(%s, %zu bytes): %ld", path, len, n);
	int c = myrmex_fs_close(fd);
	if (c != 0)
		test_fail("close(%s): %d", path, c);
	return n;
}

static inline long fs_put_str(const char *path, const char *text)
{
	return fs_put(path, text, strlen(text));
}

/* Reads path whole into fs_buf (at most FS_BUF_BYTES): the size or -errno. */
static inline long fs_get(const char *path)
{
	int fd = myrmex_fs_open(path, O_RDONLY, 0);
	if (fd < 0)
		return fd;
	long n = myrmex_fs_read(fd, fs_buf, FS_BUF_BYTES);
	if (n == (long)FS_BUF_BYTES)
		test_fail("%s: longer than the helper's buffer", path);
	uint8_t extra[16];
	long more = n >= 0 ? myrmex_fs_read(fd, extra, sizeof extra) : 0;
	if (more != 0)
		test_fail("%s: a read at the end gave %ld, expected 0", path, more);
	myrmex_fs_close(fd);
	return n;
}

/* path must hold exactly want[0..len). */
static inline void fs_expect_file(const char *path, const void *want, size_t len)
{
	long n = fs_get(path);
	if (n < 0) {
		test_fail("%s: cannot read it back: %ld", path, n);
		return;
	}
	if ((size_t)n != len) {
		test_fail("%s: %ld bytes, expected %zu", path, n, len);
		return;
	}
	const uint8_t *w = want;
	for (size_t i = 0; i < len; i++) {
		if (fs_buf[i] != w[i]) {
			test_fail("%s: byte %zu is %#x, expected %#x", path, i, fs_buf[i], w[i]);
			return;
		}
	}
	struct myrmex_stat st;
	int r = myrmex_fs_stat(path, &st);
	if (r != 0 || !FS_IS_REG(st.st_mode) || st.st_size != (int64_t)len)
		test_fail("stat(%s): %d, mode %#o, size %lld, expected a file of %zu", path, r,
		          st.st_mode, (long long)st.st_size, len);
}

static inline void fs_expect_text(const char *path, const char *text)
{
	fs_expect_file(path, text, strlen(text));
}

/* path must not exist. */
static inline void fs_expect_absent(const char *path)
{
	struct myrmex_stat st;
	int r = myrmex_fs_stat(path, &st);
	if (r != -ENOENT)
		test_fail("stat(%s): %d, expected -ENOENT (it should be gone)", path, r);
}

/* path must be a directory. */
static inline void fs_expect_dir_exists(const char *path)
{
	struct myrmex_stat st;
	int r = myrmex_fs_stat(path, &st);
	if (r != 0 || !FS_IS_DIR(st.st_mode))
		test_fail("stat(%s): %d, mode %#o: expected a directory", path, r, st.st_mode);
}

/*
 * Lists directory path (readdir calls of at most bufsize bytes) and calls
 * each(name, type, ctx) for every entry but . and .. Returns the number of
 * entries, or -errno (reported) when the listing fails or is malformed.
 */
static inline long fs_list(const char *path, size_t bufsize,
                           void (*each)(const char *name, unsigned type, void *ctx), void *ctx)
{
	static uint8_t buf[64 * 1024];
	if (bufsize > sizeof buf)
		bufsize = sizeof buf;
	int fd = myrmex_fs_open(path, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0) {
		test_fail("open(%s, O_DIRECTORY): %d", path, fd);
		return fd;
	}
	long count = 0, n;
	int dots = 0;
	while ((n = myrmex_fs_readdir(fd, buf, bufsize)) > 0) {
		for (long off = 0; off < n;) {
			/* A record: the header, a name of 1 byte or more and its NUL,
			 * padded to a multiple of 8, inside what readdir returned. */
			const struct myrmex_dirent64 *d = (const void *)(buf + off);
			size_t head = offsetof(struct myrmex_dirent64, d_name);
			if (n - off < (long)(head + 2) || d->d_reclen < head + 2 || d->d_reclen % 8 ||
			    d->d_reclen > n - off || !memchr(d->d_name, '\0', d->d_reclen - head)) {
				test_fail("readdir(%s): a malformed record at byte %ld of %ld", path, off, n);
				myrmex_fs_close(fd);
				return -EINVAL;
			}
			off += d->d_reclen;
			if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0) {
				dots++;
				continue;
			}
			count++;
			if (each)
				each(d->d_name, d->d_type, ctx);
		}
	}
	myrmex_fs_close(fd);
	if (n < 0) {
		test_fail("readdir(%s): %ld", path, n);
		return n;
	}
	if (dots != 2)
		test_fail("readdir(%s): %d entries . and .., expected 2", path, dots);
	return count;
}

struct fs_name_set {
	const char *const *names;
	int n;
	int seen[FS_MAX_LISTED];
	const char *dir;
};

static inline void fs_name_seen(const char *name, unsigned type, void *ctx)
{
	struct fs_name_set *s = ctx;
	(void)type;
	for (int i = 0; i < s->n; i++) {
		if (strcmp(s->names[i], name) == 0) {
			if (s->seen[i]++)
				test_fail("%s: %s listed twice", s->dir, name);
			return;
		}
	}
	test_fail("%s: unexpected entry %s", s->dir, name);
}

/* Directory path must hold exactly the n names (besides . and ..). */
static inline void fs_expect_listing(const char *path, const char *const *names, int n)
{
	static struct fs_name_set s;
	memset(&s, 0, sizeof s);
	s.names = names;
	s.n = n < FS_MAX_LISTED ? n : FS_MAX_LISTED;
	s.dir = path;
	long count = fs_list(path, 4096, fs_name_seen, &s);
	if (count < 0)
		return;
	for (int i = 0; i < s.n; i++)
		if (!s.seen[i])
			test_fail("%s: %s is missing", path, names[i]);
	if (count != n)
		test_fail("%s: %ld entries, expected %d", path, count, n);
}

#endif
