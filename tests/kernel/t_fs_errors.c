/*
 * t_fs_errors: the file manager's error answers, on the test image
 * (build/test/fs.img), which the test leaves as it found it.
 *
 *   t_fs_errors errors   names too long (a path of FS_PATH_MAX bytes or
 *                        more, also one sent raw without its NUL; a name of
 *                        256 bytes) give -ENAMETOOLONG, and the longest
 *                        allowed ones do not; missing names -ENOENT; a file
 *                        used as a directory -ENOTDIR; descriptors that are
 *                        not open (-1, 63, 64, 2^40, closed ones), a write
 *                        on O_RDONLY and a read on O_WRONLY -EBADF;
 *                        O_CREAT|O_EXCL on a file, mkdir on a directory
 *                        -EEXIST; rmdir of a full directory -ENOTEMPTY;
 *                        unlink of a directory and opening one for writing
 *                        -EISDIR; the 65th descriptor -EMFILE; and a child
 *                        process's descriptor, while the child holds it,
 *                        -EBADF here (the child's still works after);
 *                        malformed requests sent raw: unknown opcodes
 *                        -ENOSYS, FS_SHUTDOWN from a process that is not
 *                        init -EPERM, no data ICA or a length past it, an
 *                        access mode of 3, a bad whence or negative offset,
 *                        a readdir room too small for one record, a rename
 *                        whose second path has no NUL, an ftruncate on a
 *                        read-only descriptor -EINVAL, readdir on a file
 *                        -ENOTDIR; inline reads and writes (FS_IO_INLINE):
 *                        the bytes a pread gives, past FS_INLINE_BYTES
 *                        -EINVAL, the descriptor's mode and number checked
 *   t_fs_errors errors-child   that child: opens /SUMS, writes its
 *                        descriptor's number to /errors-ready (written under
 *                        another name and renamed, so never seen empty), waits for
 *                        /errors-done, reads through the descriptor
 *   t_fs_errors hostile-ctl   the disk reads and writes the file manager
 *                        makes for a request go with the request's control
 *                        ICA; a header the caller set up so that no frame can
 *                        go on from it (direct return asked for, or no room
 *                        after its frame) must not make them fail: rmdir,
 *                        mkdir and a write of a fresh file, each sent raw
 *                        after a cache drop, work, and the image stays clean
 *                        (e2fsck after the run)
 */
#define _GNU_SOURCE
#define TEST_NAME "t_fs_errors"
#include "test_check.h"
#include "fs_test.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

#define READY_FILE "/errors-ready"
#define DONE_FILE "/errors-done"
#define HANDSHAKE_MS 30000

static char *const child_envp[] = { "MYRMEX_TEST=1", NULL };
static char long_path[FS_PATH_MAX + 64];

/* long_path: "/", then components of 200 'a's separated by '/', len bytes
 * in all (no NUL counted). */
static const char *make_long_path(size_t len)
{
	for (size_t i = 0; i < len; i++)
		long_path[i] = i % 201 == 0 ? '/' : 'a';
	long_path[len] = '\0';
	return long_path;
}

static void names_too_long(void)
{
	struct myrmex_stat st;
	/* FS_PATH_MAX bytes without the NUL: too long, refused by the library. */
	const char *p = make_long_path(FS_PATH_MAX);
	CHECK_EQ(myrmex_fs_open(p, O_RDONLY, 0), -ENAMETOOLONG);
	CHECK_EQ(myrmex_fs_stat(p, &st), -ENAMETOOLONG);
	CHECK_EQ(myrmex_fs_mkdir(p, 0755), -ENAMETOOLONG);
	CHECK_EQ(myrmex_fs_unlink(p), -ENAMETOOLONG);
	CHECK_EQ(myrmex_fs_rename("/SUMS", p), -ENAMETOOLONG);
	/* The same bytes sent raw, with no NUL in the first FS_PATH_MAX: the
	 * file manager itself must refuse them. */
	CHECK_EQ(myrmex_fs_call(FS_OPEN, O_RDONLY, 0, 0, p, FS_PATH_MAX, NULL), -ENAMETOOLONG);
	CHECK_EQ(myrmex_fs_call(FS_STAT, 0, 0, 0, p, FS_PATH_MAX, NULL), -ENAMETOOLONG);
	/* FS_PATH_MAX - 1 bytes is a legal length: the path just does not exist. */
	p = make_long_path(FS_PATH_MAX - 1);
	CHECK_EQ(myrmex_fs_open(p, O_RDONLY, 0), -ENOENT);
	CHECK_EQ(myrmex_fs_call(FS_STAT, 0, 0, 0, p, FS_PATH_MAX, NULL), -ENOENT);

	/* A name of 256 bytes, alone or inside a path. */
	char name[300] = "/";
	memset(name + 1, 'n', 256);
	name[257] = '\0';
	CHECK_EQ(myrmex_fs_open(name, O_RDONLY, 0), -ENAMETOOLONG);
	CHECK_EQ(myrmex_fs_open(name, O_CREAT | O_WRONLY, 0644), -ENAMETOOLONG);
	CHECK_EQ(myrmex_fs_mkdir(name, 0755), -ENAMETOOLONG);
	CHECK_EQ(myrmex_fs_stat(name, &st), -ENAMETOOLONG);
	char inside[320];
	snprintf(inside, sizeof inside, "%s/x", name);
	CHECK_EQ(myrmex_fs_stat(inside, &st), -ENAMETOOLONG);
	/* 255 bytes is allowed: the image has /names/nnn...n of that length. */
	char longest[300] = "/names/";
	memset(longest + 7, 'n', 255);
	longest[7 + 255] = '\0';
	CHECK_EQ(myrmex_fs_stat(longest, &st), 0);
	int fd = myrmex_fs_open(longest, O_RDONLY, 0);
	if (CHECK_EQ(fd >= 0, 1))
		CHECK_EQ(myrmex_fs_close(fd), 0);
}

static void missing_names(void)
{
	struct myrmex_stat st;
	CHECK_EQ(myrmex_fs_open("/nosuch", O_RDONLY, 0), -ENOENT);
	CHECK_EQ(myrmex_fs_open("/no/such/file", O_RDONLY, 0), -ENOENT);
	CHECK_EQ(myrmex_fs_open("/no/such/file", O_CREAT | O_WRONLY, 0644), -ENOENT);
	CHECK_EQ(myrmex_fs_stat("/nosuch", &st), -ENOENT);
	CHECK_EQ(myrmex_fs_stat("", &st), -ENOENT);
	CHECK_EQ(myrmex_fs_unlink("/nosuch"), -ENOENT);
	CHECK_EQ(myrmex_fs_rmdir("/nosuch"), -ENOENT);
	CHECK_EQ(myrmex_fs_mkdir("/no/such", 0755), -ENOENT);
	CHECK_EQ(myrmex_fs_rename("/nosuch", "/other"), -ENOENT);
	/* A file where a directory is needed. */
	CHECK_EQ(myrmex_fs_stat("/SUMS/x", &st), -ENOTDIR);
	CHECK_EQ(myrmex_fs_open("/SUMS/x", O_CREAT | O_WRONLY, 0644), -ENOTDIR);
	CHECK_EQ(myrmex_fs_mkdir("/SUMS/d", 0755), -ENOTDIR);
	CHECK_EQ(myrmex_fs_rmdir("/SUMS"), -ENOTDIR);
	CHECK_EQ(myrmex_fs_open("/SUMS", O_RDONLY | O_DIRECTORY, 0), -ENOTDIR);
	uint8_t buf[512];
	int fd = myrmex_fs_open("/SUMS", O_RDONLY, 0);
	if (CHECK_EQ(fd >= 0, 1)) {
		CHECK_EQ(myrmex_fs_readdir(fd, buf, sizeof buf), -ENOTDIR);
		CHECK_EQ(myrmex_fs_close(fd), 0);
	}
}

static void bad_descriptors(void)
{
	uint8_t buf[64];
	struct myrmex_stat st;
	static const int bad[] = { -1, 63, 64, 1000 };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CHECK_EQ(myrmex_fs_read(bad[i], buf, sizeof buf), -EBADF);
		CHECK_EQ(myrmex_fs_write(bad[i], buf, sizeof buf), -EBADF);
		CHECK_EQ(myrmex_fs_pread(bad[i], buf, sizeof buf, 0), -EBADF);
		CHECK_EQ(myrmex_fs_fstat(bad[i], &st), -EBADF);
		CHECK_EQ(myrmex_fs_lseek(bad[i], 0, SEEK_SET), -EBADF);
		CHECK_EQ(myrmex_fs_close(bad[i]), -EBADF);
		CHECK_EQ(myrmex_fs_readdir(bad[i], buf, sizeof buf), -EBADF);
		CHECK_EQ(myrmex_fs_ftruncate(bad[i], 0), -EBADF);
	}
	/* Numbers an int cannot carry, sent raw (with the data ICA). */
	CHECK_EQ(myrmex_fs_call(FS_READ, 1ull << 40, 16, 0, "", 0, NULL), -EBADF);
	CHECK_EQ(myrmex_fs_call(FS_CLOSE, 1ull << 40, 0, 0, NULL, 0, NULL), -EBADF);
	CHECK_EQ(myrmex_fs_call(FS_READ, (uint64_t)-1, 16, 0, "", 0, NULL), -EBADF);

	/* Wrong direction, and closed descriptors. */
	int ro = myrmex_fs_open("/text/hello.txt", O_RDONLY, 0);
	int wo = myrmex_fs_open("/text/hello.txt", O_WRONLY, 0);
	if (!CHECK_EQ(ro >= 0 && wo >= 0 && ro != wo, 1))
		return;
	CHECK_EQ(myrmex_fs_write(ro, "x", 1), -EBADF);
	CHECK_EQ(myrmex_fs_pwrite(ro, "x", 1, 0), -EBADF);
	/* Linux's ftruncate says either for a descriptor not open for writing. */
	CHECK_ONE_OF(myrmex_fs_ftruncate(ro, 0), -EBADF, -EINVAL);
	CHECK_EQ(myrmex_fs_read(wo, buf, sizeof buf), -EBADF);
	CHECK_EQ(myrmex_fs_pread(wo, buf, sizeof buf, 0), -EBADF);
	CHECK_EQ(myrmex_fs_read(ro, buf, 5), 5);
	CHECK_EQ(myrmex_fs_close(ro), 0);
	CHECK_EQ(myrmex_fs_close(wo), 0);
	CHECK_EQ(myrmex_fs_close(ro), -EBADF);
	CHECK_EQ(myrmex_fs_read(ro, buf, sizeof buf), -EBADF);
	fs_expect_text("/text/hello.txt", "hello from the Myrmex test image\n");
}

static void existing_names(void)
{
	CHECK_EQ(myrmex_fs_open("/SUMS", O_CREAT | O_EXCL | O_WRONLY, 0644), -EEXIST);
	CHECK_EQ(myrmex_fs_open("/many", O_CREAT | O_EXCL | O_RDONLY, 0644), -EEXIST);
	CHECK_EQ(myrmex_fs_mkdir("/many", 0755), -EEXIST);
	CHECK_EQ(myrmex_fs_mkdir("/SUMS", 0755), -EEXIST);
	CHECK_EQ(myrmex_fs_rmdir("/many"), -ENOTEMPTY);
	CHECK_EQ(myrmex_fs_rmdir("/nest"), -ENOTEMPTY);
	CHECK_EQ(myrmex_fs_unlink("/many"), -EISDIR);
	CHECK_EQ(myrmex_fs_unlink("/emptydir"), -EISDIR);
	CHECK_EQ(myrmex_fs_open("/many", O_WRONLY, 0), -EISDIR);
	CHECK_EQ(myrmex_fs_open("/many", O_RDWR, 0), -EISDIR);
	CHECK_EQ(myrmex_fs_open("/emptydir", O_WRONLY | O_TRUNC, 0), -EISDIR);
	fs_expect_dir_exists("/many");
	fs_expect_dir_exists("/emptydir");
}

/* FS_MAX_FDS descriptors at most per process. */
static void too_many(void)
{
	int fds[FS_MAX_FDS + 1];
	int n = 0;
	for (; n < (int)FS_MAX_FDS; n++) {
		fds[n] = myrmex_fs_open("/SUMS", O_RDONLY, 0);
		if (fds[n] < 0) {
			test_fail("open number %d: %d", n + 1, fds[n]);
			break;
		}
	}
	if (n == (int)FS_MAX_FDS)
		CHECK_EQ(myrmex_fs_open("/SUMS", O_RDONLY, 0), -EMFILE);
	for (int i = 0; i < n; i++)
		CHECK_EQ(myrmex_fs_close(fds[i]), 0);
	int fd = myrmex_fs_open("/SUMS", O_RDONLY, 0);
	if (CHECK_EQ(fd >= 0, 1))
		CHECK_EQ(myrmex_fs_close(fd), 0);
}

/* ------------------------------------------------------------ another process */

/* Polls stat(path) until it exists: 1, or 0 after HANDSHAKE_MS. */
static int wait_for(const char *path)
{
	struct myrmex_stat st;
	for (int ms = 0; ms < HANDSHAKE_MS; ms += 5) {
		if (myrmex_fs_stat(path, &st) == 0)
			return 1;
		myrmex_sleep_ns(5 * 1000000ull);
	}
	return 0;
}

static void other_process(void)
{
	char *argv[] = { "t_fs_errors", "errors-child", NULL };
	long pid = myrmex_spawn("t_fs_errors", argv, child_envp, -1);
	if (pid <= 0) {
		test_fail("spawn(t_fs_errors errors-child): %ld", pid);
		return;
	}
	long theirs = -1;
	if (wait_for(READY_FILE) && fs_get(READY_FILE) > 0) {
		fs_buf[15] = '\0';
		theirs = strtol((char *)fs_buf, NULL, 10);
	}
	if (theirs < 0 || theirs >= (long)FS_MAX_FDS) {
		test_fail("the child did not say which descriptor it holds");
	} else {
		/* Ours has no descriptor open: the number is the child's alone. */
		uint8_t buf[64];
		struct myrmex_stat st;
		CHECK_EQ(myrmex_fs_read((int)theirs, buf, sizeof buf), -EBADF);
		CHECK_EQ(myrmex_fs_fstat((int)theirs, &st), -EBADF);
		CHECK_EQ(myrmex_fs_lseek((int)theirs, 0, SEEK_END), -EBADF);
		CHECK_EQ(myrmex_fs_close((int)theirs), -EBADF);
	}
	CHECK_EQ(myrmex_fs_unlink(READY_FILE), 0);
	fs_put_str(DONE_FILE, "go on\n");
	int status = 0;
	long r = 0;
	for (int ms = 0; ms < HANDSHAKE_MS && r == 0; ms += 5) {
		r = raw4(SYS_wait4, pid, (long)&status, WNOHANG, 0);
		if (r == 0)
			myrmex_sleep_ns(5 * 1000000ull);
	}
	if (r == 0) {
		raw2(SYS_kill, pid, SIGKILL);
		raw4(SYS_wait4, pid, (long)&status, 0, 0);
		test_fail("the child did not finish");
	} else {
		CHECK(r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "the child: wait4 %ld, status %#x", r, status);
	}
	fs_expect_absent(READY_FILE);
	fs_expect_absent(DONE_FILE);
}

/* Requests no library call makes: sent raw with myrmex_fs_call. */
/* FS_READ or FS_WRITE sent inline (FS_IO_INLINE, no data ICA), with
 * bytes[] for a write: the status; the result words in out. */
static long inline_call(uint32_t opcode, int fd, uint64_t len, const void *bytes, uint64_t out[8])
{
	long h = myrmex_ica_alloc(1);
	if (h < 0)
		return h;
	struct myrmex_ctl_header *c = myrmex_ctl_init(myrmex_ica_addr((uint32_t)h));
	struct myrmex_frame *f = myrmex_ctl_push(c, 1, MYRMEX_COREID_FS, opcode);
	f->arg[0] = (uint64_t)fd;
	f->arg[1] = len;
	f->arg[3] = FS_IO_INLINE;
	if (bytes)
		memcpy(&f->arg[4], bytes, len < 32 ? len : 32);
	long r = myrmex_callsync(c);
	struct myrmex_frame *res = r == 0 ? myrmex_ctl_result(c) : NULL;
	if (res) {
		memcpy(out, res->arg, sizeof(res->arg));
		r = (long)res->status;
	}
	myrmex_ica_free((uint32_t)h);
	return r;
}

/* Small reads and writes in the frame: the bytes a read with a data ICA
 * gives, a length past FS_INLINE_BYTES refused, the descriptor's mode
 * still checked. */
static void inline_requests(void)
{
	int fd = myrmex_fs_open("/SUMS", O_RDONLY, 0);
	CHECK(fd >= 0, "open /SUMS: %d", fd);
	if (fd < 0)
		return;
	uint8_t want[FS_INLINE_BYTES];
	CHECK_EQ(myrmex_fs_pread(fd, want, sizeof want, 0), (long)sizeof want);
	CHECK_EQ(myrmex_fs_lseek(fd, 0, SEEK_SET), 0);
	uint64_t out[8] = { 0 };
	CHECK_EQ(inline_call(FS_READ, fd, FS_INLINE_BYTES, NULL, out), (long)FS_INLINE_BYTES);
	CHECK(memcmp(out, want, sizeof want) == 0, "inline read: other bytes than pread's");
	CHECK_EQ(out[FS_RESULT_KIND], FS_KIND_REGULAR);
	CHECK_EQ(inline_call(FS_READ, fd, FS_INLINE_BYTES + 1, NULL, out), -EINVAL);
	CHECK_EQ(inline_call(FS_WRITE, fd, 4, "abcd", out), -EBADF);
	CHECK_EQ(inline_call(FS_READ, 999, 4, NULL, out), -EBADF);
	CHECK_EQ(myrmex_fs_close(fd), 0);
}

static void malformed_requests(void)
{
	CHECK_EQ(myrmex_fs_call(0, 0, 0, 0, NULL, 0, NULL), -ENOSYS);
	CHECK_EQ(myrmex_fs_call(999, 0, 0, 0, NULL, 0, NULL), -ENOSYS);
	CHECK_EQ(myrmex_fs_call(FS_SHUTDOWN, 0, 0, 0, NULL, 0, NULL), -EPERM);
	CHECK_EQ(myrmex_fs_call(FS_OPEN, O_RDONLY, 0, 0, NULL, 0, NULL), -EINVAL);
	CHECK_EQ(myrmex_fs_call(FS_OPEN, O_ACCMODE, 0, 0, "/SUMS", 6, NULL), -EINVAL);
	int fd = myrmex_fs_open("/SUMS", O_RDONLY, 0);
	CHECK(fd >= 0, "open /SUMS: %d", fd);
	if (fd >= 0) {
		/* A one-byte payload travels in the one-page data ICA. */
		CHECK_EQ(myrmex_fs_call(FS_READ, (uint64_t)fd, 4097, 0, "", 1, NULL), -EINVAL);
		CHECK_EQ(myrmex_fs_call(FS_READ, (uint64_t)fd, 16, 0, NULL, 0, NULL), -EINVAL);
		CHECK_EQ(myrmex_fs_call(FS_FSTAT, (uint64_t)fd, 0, 0, NULL, 0, NULL), -EINVAL);
		CHECK_EQ(myrmex_fs_lseek(fd, 0, 7), -EINVAL);
		CHECK_EQ(myrmex_fs_lseek(fd, -5, SEEK_SET), -EINVAL);
		CHECK_EQ(myrmex_fs_ftruncate(fd, 0), -EINVAL);
		char buf[64];
		CHECK_EQ(myrmex_fs_readdir(fd, buf, sizeof buf), -ENOTDIR);
		CHECK_EQ(myrmex_fs_close(fd), 0);
	}
	int dir = myrmex_fs_open("/", O_RDONLY | O_DIRECTORY, 0);
	CHECK(dir >= 0, "open /: %d", dir);
	if (dir >= 0) {
		char buf[8];
		CHECK_EQ(myrmex_fs_readdir(dir, buf, sizeof buf), -EINVAL);
		CHECK_EQ(myrmex_fs_close(dir), 0);
	}
	/* A whole page: "/x", its NUL, then no NUL to the end of the ICA. */
	static char two[4096];
	memset(two, 'b', sizeof two);
	memcpy(two, "/x", 3);
	CHECK_EQ(myrmex_fs_call(FS_RENAME, 0, 0, 0, two, sizeof two, NULL), -EINVAL);
}

static void test_errors(void)
{
	if (!fs_ready())
		return;
	names_too_long();
	missing_names();
	bad_descriptors();
	existing_names();
	too_many();
	other_process();
	malformed_requests();
	inline_requests();
}

static void test_child(void)
{
	if (!fs_ready())
		return;
	int fd = myrmex_fs_open("/SUMS", O_RDONLY, 0);
	if (fd < 0) {
		test_fail("child: open(/SUMS): %d", fd);
		return;
	}
	char text[16];
	snprintf(text, sizeof text, "%d\n", fd);
	/* Written whole under another name, then renamed: the parent, which
	 * reads it as soon as it exists, never finds it empty. */
	fs_put_str(READY_FILE ".tmp", text);
	CHECK_EQ(myrmex_fs_rename(READY_FILE ".tmp", READY_FILE), 0);
	if (!wait_for(DONE_FILE)) {
		test_fail("child: %s never came", DONE_FILE);
		return;
	}
	/* The parent's attempts did not touch our descriptor. */
	uint8_t buf[8];
	CHECK_EQ(myrmex_fs_read(fd, buf, sizeof buf), (long)sizeof buf);
	CHECK_EQ(myrmex_fs_close(fd), 0);
	CHECK_EQ(myrmex_fs_unlink(DONE_FILE), 0);
}

/* ---------------------------------------------------------- hostile-ctl */

#define HCTL_DIR "/hctl"
#define HCTL_PAGE 4096u

/* One raw request on a control ICA of ours whose header the caller
 * prepared as a hostile client would: flags, and the frame at `at` (the
 * last place a frame fits, leaving no room for another). The path (and
 * bytes after it) in a data ICA. The status, or the call's error. */
static long hostile_call(uint32_t opcode, uint32_t flags, uint32_t at, uint64_t a0, uint64_t a1,
                         const void *data, size_t len)
{
	long c = myrmex_ica_alloc(1), d = myrmex_ica_alloc(1);
	if (c < 0 || d < 0) {
		test_fail("ica_alloc: %ld %ld", c, d);
		return -ENOMEM;
	}
	uint8_t *base = myrmex_ica_addr((uint32_t)c);
	struct myrmex_ctl_header *h = myrmex_ctl_init(base);
	h->currentp = at;
	h->flags = flags;
	struct myrmex_frame *f = (struct myrmex_frame *)(void *)(base + at);
	memset(f, 0, sizeof *f);
	f->target = MYRMEX_COREID_FS;
	f->opcode = opcode;
	f->arg[0] = a0;
	f->arg[1] = a1;
	f->ndata = 1;
	f->data[0] = (uint32_t)d;
	memcpy(myrmex_ica_addr((uint32_t)d), data, len);
	long r = myrmex_callsync(h);
	struct myrmex_frame *res = myrmex_ctl_result(h);
	long status = r < 0 ? r : res ? (long)res->status : -EIO;
	myrmex_ica_free((uint32_t)c);
	myrmex_ica_free((uint32_t)d);
	return status;
}

/* The blocks the request needs are read from the disk again. */
static void cold_cache(void)
{
	CHECK_EQ(myrmex_fs_drop_cache(), 0);
}

static void test_hostile_ctl(void)
{
	if (!fs_ready())
		return;
	static const struct { uint32_t flags, at; const char *what; } headers[] = {
		{ MYRMEX_CTL_DIRECT_RETURN, 32, "direct return" },
		{ 0, HCTL_PAGE - sizeof(struct myrmex_frame), "no room for a frame" },
	};
	static char text[HCTL_PAGE];
	memset(text, 'h', sizeof text);
	struct myrmex_stat st;
	CHECK_EQ(myrmex_fs_mkdir(HCTL_DIR, 0755), 0);
	for (unsigned i = 0; i < sizeof headers / sizeof headers[0]; i++) {
		const char *what = headers[i].what;
		char dir[64], file[80];
		snprintf(dir, sizeof dir, "%s/d%u", HCTL_DIR, i);
		snprintf(file, sizeof file, "%s/f%u", HCTL_DIR, i);
		/* rmdir with the parent, the directory and its block read again,
		 * the bitmaps not: they are read while the entry is already gone
		 * (a failure there left an inode marked deleted but allocated). */
		CHECK_EQ(myrmex_fs_mkdir(dir, 0755), 0);
		cold_cache();
		CHECK_EQ(myrmex_fs_stat(dir, &st), 0);
		int fd = myrmex_fs_open(dir, O_RDONLY, 0);
		if (fd >= 0) {
			myrmex_fs_readdir(fd, fs_buf, 4096);
			myrmex_fs_close(fd);
		}
		long r = hostile_call(FS_RMDIR, headers[i].flags, headers[i].at, 0, 0, dir,
		                      strlen(dir) + 1);
		CHECK(r == 0, "rmdir %s with %s: %ld", dir, what, r);
		CHECK_EQ(myrmex_fs_stat(dir, &st), -ENOENT);
		/* mkdir from a cold cache: an inode, a block, the bitmaps, the
		 * parent's entry. */
		cold_cache();
		r = hostile_call(FS_MKDIR, headers[i].flags, headers[i].at, 0755, 0, dir,
		                 strlen(dir) + 1);
		CHECK(r == 0, "mkdir %s with %s: %ld", dir, what, r);
		CHECK_EQ(myrmex_fs_rmdir(dir), 0);
		/* A write to a fresh file whose inode was read again: a block
		 * allocated, the inode grown. */
		fd = myrmex_fs_open(file, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		CHECK(fd >= 0, "create %s: %d", file, fd);
		cold_cache();
		CHECK_EQ(myrmex_fs_fstat(fd, &st), 0);
		r = hostile_call(FS_WRITE, headers[i].flags, headers[i].at, (uint64_t)fd, HCTL_PAGE,
		                 text, HCTL_PAGE);
		CHECK(r == HCTL_PAGE, "write of %s with %s: %ld", file, what, r);
		myrmex_fs_close(fd);
		CHECK_EQ(fs_get(file), HCTL_PAGE);
		CHECK_EQ(myrmex_fs_unlink(file), 0);
	}
	CHECK_EQ(myrmex_fs_rmdir(HCTL_DIR), 0);
	CHECK_EQ(myrmex_fs_sync(), 0);
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: nothing to test");
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "errors") == 0)
		test_errors();
	else if (argc > 1 && strcmp(argv[1], "errors-child") == 0)
		test_child();
	else if (argc > 1 && strcmp(argv[1], "hostile-ctl") == 0)
		test_hostile_ctl();
	else
		test_fail("usage: t_fs_errors errors|errors-child|hostile-ctl");
	return test_exit_code();
}
