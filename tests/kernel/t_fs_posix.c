/*
 * t_fs_posix: the file manager's POSIX side on the test image (fs.img),
 * which the test leaves as it found it. It registers as the process
 * manager (coreid 5) to make the calls only that server may make.
 *
 *   t_fs_posix fds     descriptors and open-file descriptions: dup, dup2
 *                      and fcntl F_DUPFD share one offset and status flags
 *                      while close-on-exec stays per descriptor; F_GETFL,
 *                      F_SETFL (O_APPEND takes effect), F_GETFD/F_SETFD,
 *                      FIOCLEX; FS_EXEC closes the close-on-exec ones;
 *                      FS_FORK's bookkeeping (a table for a pid with no
 *                      process, FS_EXIT of it); /dev/null and the result's
 *                      FS_KIND_*; -EMFILE through dup and open; bad inputs:
 *                      bad or out-of-range descriptors, a bad fcntl command,
 *                      bad dup arguments, unknown FS_AT_* bits, FS_FORK and
 *                      FS_EXIT with bad pids
 *   t_fs_posix paths   chdir/getcwd (-ERANGE, a removed directory), fchdir,
 *                      relative paths with "." and "..", dirfd-relative
 *                      open, stat, mkdir, unlink, rename (FS_AT_DIRFD,
 *                      AT_FDCWD, a file or bad descriptor as dirfd),
 *                      FS_AT_EMPTY_PATH, access, readlink of the image's
 *                      symbolic links (fast and slow), symbolic links
 *                      followed on the way (relative, absolute, to a
 *                      directory, -ELOOP for a loop and O_NOFOLLOW, lstat),
 *                      the special names, FS_OPEN_AS
 *
 * Pipes are t_fs_pipe's; poll and the console's descriptors t_fs_poll's.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_fs_posix"
#include "test_check.h"
#include "fs_test.h"
#include "posix_test.h"

#include <sys/ioctl.h>

#define HELLO "/text/hello.txt"
#define HELLO_TEXT "hello from the Myrmex test image\n"

static struct chan ch;

static long rd(int fd, char *buf, size_t n)
{
	return myrmex_fs_read(fd, buf, n);
}

/* Reads n bytes of fd and compares them with want. */
static void expect_read(int fd, const char *want, size_t n)
{
	char buf[128] = "";
	long got = rd(fd, buf, n);
	CHECK(got == (long)n && memcmp(buf, want, n) == 0, "read(%d, %zu): %ld \"%.*s\", expected \"%.*s\"",
	      fd, n, got, (int)(got > 0 ? got : 0), buf, (int)n, want);
}

/* ------------------------------------------------------------ fds */

static void dup_sharing(void)
{
	int a = myrmex_fs_open(HELLO, O_RDONLY, 0);
	if (!CHECK_EQ(a >= 0, 1))
		return;
	long b = myrmex_fs_call(FS_DUP, (uint64_t)a, 0, 0, NULL, 0, NULL);
	CHECK(b >= 0 && b != a, "dup: %ld", b);
	expect_read(a, "hello", 5);
	expect_read((int)b, " from", 5);     /* one offset */
	CHECK_EQ(myrmex_fs_lseek((int)b, 0, SEEK_CUR), 10);
	CHECK_EQ(myrmex_fs_lseek((int)b, 6, SEEK_SET), 6);
	expect_read(a, "from", 4);
	CHECK_EQ(myrmex_fs_call(FS_DUP2, (uint64_t)a, 40, 0, NULL, 0, NULL), 40);
	expect_read(40, " the", 4);
	CHECK_EQ(myrmex_fs_call(FS_DUP2, (uint64_t)a, (uint64_t)a, 0, NULL, 0, NULL), a);
	/* dup2 onto an open descriptor closes what it was. */
	int c = myrmex_fs_open("/SUMS", O_RDONLY, 0);
	CHECK_EQ(myrmex_fs_call(FS_DUP2, (uint64_t)a, (uint64_t)c, 0, NULL, 0, NULL), c);
	expect_read(c, " Myrmex", 7);
	/* The lowest free descriptor at or above arg[1]. */
	CHECK_EQ(myrmex_fs_call(FS_DUP, (uint64_t)a, 41, 0, NULL, 0, NULL), 41);
	CHECK_EQ(myrmex_fs_call(FS_DUP, (uint64_t)a, 40, 0, NULL, 0, NULL), 42);
	/* Closing one leaves the description to the others. */
	CHECK_EQ(myrmex_fs_close(a), 0);
	expect_read(42, " test", 5);
	long fds[] = { b, 40, 41, 42, c };
	for (unsigned i = 0; i < 5; i++)
		CHECK_EQ(myrmex_fs_close((int)fds[i]), 0);
	CHECK_EQ(myrmex_fs_close(42), -EBADF);
}

static void fcntl_flags(void)
{
	int fd = myrmex_fs_open(HELLO, O_RDONLY | O_CLOEXEC, 0);
	if (!CHECK_EQ(fd >= 0, 1))
		return;
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)fd, F_GETFL, 0, NULL, 0, NULL), O_RDONLY | O_LARGEFILE);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)fd, F_GETFD, 0, NULL, 0, NULL), FD_CLOEXEC);
	long d = myrmex_fs_call(FS_DUP, (uint64_t)fd, 0, 0, NULL, 0, NULL);
	long dc = myrmex_fs_call(FS_DUP, (uint64_t)fd, 0, 1, NULL, 0, NULL);
	long fd20 = myrmex_fs_call(FS_FCNTL, (uint64_t)fd, F_DUPFD, 20, NULL, 0, NULL);
	long fd21 = myrmex_fs_call(FS_FCNTL, (uint64_t)fd, F_DUPFD_CLOEXEC, 20, NULL, 0, NULL);
	CHECK(d >= 0 && dc >= 0 && fd20 == 20 && fd21 == 21, "dups: %ld %ld %ld %ld", d, dc, fd20, fd21);
	/* Close-on-exec is the descriptor's. */
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)d, F_GETFD, 0, NULL, 0, NULL), 0);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)dc, F_GETFD, 0, NULL, 0, NULL), FD_CLOEXEC);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, 20, F_GETFD, 0, NULL, 0, NULL), 0);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, 21, F_GETFD, 0, NULL, 0, NULL), FD_CLOEXEC);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, 20, F_SETFD, FD_CLOEXEC, NULL, 0, NULL), 0);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, 20, F_GETFD, 0, NULL, 0, NULL), FD_CLOEXEC);
	CHECK_EQ(myrmex_fs_call(FS_IOCTL, (uint64_t)d, FIOCLEX, 0, NULL, 0, NULL), 0);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)d, F_GETFD, 0, NULL, 0, NULL), FD_CLOEXEC);
	CHECK_EQ(myrmex_fs_call(FS_IOCTL, (uint64_t)d, FIONCLEX, 0, NULL, 0, NULL), 0);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)d, F_GETFD, 0, NULL, 0, NULL), 0);
	/* Status flags are the description's; F_SETFL changes only them. */
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, 20, F_SETFL, O_NONBLOCK | O_RDWR | O_TRUNC, NULL, 0, NULL), 0);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)fd, F_GETFL, 0, NULL, 0, NULL),
	         O_RDONLY | O_NONBLOCK | O_LARGEFILE);
	CHECK_EQ(myrmex_fs_write(fd, "x", 1), -EBADF);   /* still read-only */
	/* Bad commands and descriptors. */
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)fd, 999, 0, NULL, 0, NULL), -EINVAL);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)fd, F_DUPFD, 64, NULL, 0, NULL), -EINVAL);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, 63, F_GETFL, 0, NULL, 0, NULL), -EBADF);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, 64, F_GETFL, 0, NULL, 0, NULL), -EBADF);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)-1, F_GETFD, 0, NULL, 0, NULL), -EBADF);
	CHECK_EQ(myrmex_fs_call(FS_IOCTL, 63, FIOCLEX, 0, NULL, 0, NULL), -EBADF);

	/* FS_EXEC (from the process manager, us) closes the close-on-exec ones. */
	CHECK_EQ(myrmex_fs_call(FS_EXEC, (uint64_t)my_pid(), 0, 0, NULL, 0, NULL), 0);
	struct myrmex_stat st;
	CHECK_EQ(myrmex_fs_fstat(fd, &st), -EBADF);
	CHECK_EQ(myrmex_fs_fstat((int)dc, &st), -EBADF);
	CHECK_EQ(myrmex_fs_fstat(20, &st), -EBADF);
	CHECK_EQ(myrmex_fs_fstat(21, &st), -EBADF);
	expect_read((int)d, "hello", 5);   /* kept, and the offset with it */
	CHECK_EQ(myrmex_fs_close((int)d), 0);
	CHECK_EQ(myrmex_fs_call(FS_EXEC, 0, 0, 0, NULL, 0, NULL), -EINVAL);

	/* Flags that open accepts and keeps (or not). */
	int o = myrmex_fs_open(HELLO, O_RDONLY | O_NOCTTY | O_LARGEFILE | O_NONBLOCK | O_APPEND, 0);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)o, F_GETFL, 0, NULL, 0, NULL),
	         O_RDONLY | O_LARGEFILE | O_NONBLOCK | O_APPEND);
	CHECK_EQ(myrmex_fs_close(o), 0);
	CHECK_EQ(myrmex_fs_open("/", O_RDONLY | O_TMPFILE, 0), -EOPNOTSUPP);

	/* O_APPEND through F_SETFL: writes go to the end. */
	fs_put_str("/posix-append", "abc");
	int w = myrmex_fs_open("/posix-append", O_WRONLY, 0);
	CHECK_EQ(myrmex_fs_write(w, "X", 1), 1);
	CHECK_EQ(myrmex_fs_call(FS_FCNTL, (uint64_t)w, F_SETFL, O_APPEND, NULL, 0, NULL), 0);
	CHECK_EQ(myrmex_fs_write(w, "YZ", 2), 2);
	CHECK_EQ(myrmex_fs_close(w), 0);
	fs_expect_text("/posix-append", "XbcYZ");
	CHECK_EQ(myrmex_fs_unlink("/posix-append"), 0);
}

static void dup_errors(void)
{
	int fd = myrmex_fs_open(HELLO, O_RDONLY, 0);
	static const uint64_t bad[] = { 63, 64, 1000, 1ull << 40, (uint64_t)-1 };
	for (unsigned i = 0; i < 5; i++) {
		CHECK_EQ(myrmex_fs_call(FS_DUP, bad[i], 0, 0, NULL, 0, NULL), -EBADF);
		CHECK_EQ(myrmex_fs_call(FS_DUP2, bad[i], 5, 0, NULL, 0, NULL), -EBADF);
	}
	CHECK_EQ(myrmex_fs_call(FS_DUP, (uint64_t)fd, 64, 0, NULL, 0, NULL), -EINVAL);
	CHECK_EQ(myrmex_fs_call(FS_DUP, (uint64_t)fd, 0, 2, NULL, 0, NULL), -EINVAL);
	CHECK_EQ(myrmex_fs_call(FS_DUP2, (uint64_t)fd, 64, 0, NULL, 0, NULL), -EBADF);
	CHECK_EQ(myrmex_fs_call(FS_DUP2, (uint64_t)fd, 1ull << 40, 0, NULL, 0, NULL), -EBADF);
	CHECK_EQ(myrmex_fs_call(FS_DUP2, (uint64_t)fd, 5, 7, NULL, 0, NULL), -EINVAL);
	/* -EMFILE: the table full through dup, then a failing open and pipe. */
	int n = 1;
	long r;
	while ((r = myrmex_fs_call(FS_DUP, (uint64_t)fd, 0, 0, NULL, 0, NULL)) >= 0)
		n++;
	CHECK_EQ(r, -EMFILE);
	CHECK_EQ(n, FS_MAX_FDS);
	CHECK_EQ(myrmex_fs_open(HELLO, O_RDONLY, 0), -EMFILE);
	CHECK_EQ(myrmex_fs_open("/posix-never", O_CREAT | O_WRONLY, 0644), -EMFILE);
	fs_expect_absent("/posix-never");   /* refused before anything was made */
	CHECK_EQ(myrmex_fs_call(FS_PIPE, 0, 0, 0, NULL, 0, NULL), -EMFILE);
	CHECK_EQ(myrmex_fs_close(63), 0);
	CHECK_EQ(myrmex_fs_call(FS_PIPE, 0, 0, 0, NULL, 0, NULL), -EMFILE);   /* needs two */
	for (int i = 0; i < (int)FS_MAX_FDS - 1; i++)
		CHECK_EQ(myrmex_fs_close(i), 0);
	CHECK_EQ(myrmex_fs_close(fd), -EBADF);
}

static void special_files(void)
{
	uint64_t out[8];
	int fd = myrmex_fs_open("/dev/null", O_RDWR, 0);
	if (!CHECK_EQ(fd >= 0, 1))
		return;
	memset(chan_buf(&ch), 'q', 100);
	CHECK_EQ(fsx(&ch, FS_WRITE, (uint64_t)fd, 100, 0, 0, 0, 0, out), 100);
	CHECK_EQ(out[7], FS_KIND_NULL);
	CHECK_EQ(fsx(&ch, FS_READ, (uint64_t)fd, 100, 0, 0, 0, 0, out), 0);
	CHECK_EQ(out[7], FS_KIND_NULL);
	CHECK_EQ(myrmex_fs_lseek(fd, 10, SEEK_SET), 0);
	CHECK_EQ(fsx(&ch, FS_IOCTL, (uint64_t)fd, 0x5401 /* TCGETS */, 0, 0, 0, 0, NULL), -ENOTTY);
	struct myrmex_stat st;
	CHECK_EQ(myrmex_fs_fstat(fd, &st), 0);
	CHECK(st.st_mode == (0020000u | 0666) && st.st_rdev == 0x103, "fstat /dev/null: mode %#o rdev %#llx",
	      st.st_mode, (unsigned long long)st.st_rdev);
	CHECK_EQ(myrmex_fs_stat("/dev/../dev/./null", &st), 0);
	CHECK(st.st_mode == (0020000u | 0666) && st.st_rdev == 0x103, "stat /dev/null: mode %#o",
	      st.st_mode);
	CHECK_EQ(myrmex_fs_stat("/dev/tty", &st), 0);
	CHECK(st.st_mode == (0020000u | 0666) && st.st_rdev == 0x500, "stat /dev/tty: mode %#o rdev %#llx",
	      st.st_mode, (unsigned long long)st.st_rdev);
	CHECK_EQ(myrmex_fs_open("/dev/null", O_RDONLY | O_CREAT | O_EXCL, 0644), -EEXIST);
	CHECK_EQ(myrmex_fs_open("/dev/null", O_RDONLY | O_DIRECTORY, 0), -ENOTDIR);
	CHECK_EQ(myrmex_fs_close(fd), 0);
	/* A regular file's kind, and the ioctls it does not know. */
	fd = myrmex_fs_open(HELLO, O_RDONLY, 0);
	CHECK_EQ(fsx(&ch, FS_READ, (uint64_t)fd, 5, 0, 0, 0, 0, out), 5);
	CHECK_EQ(out[7], FS_KIND_REGULAR);
	CHECK_EQ(fsx(&ch, FS_IOCTL, (uint64_t)fd, FIONREAD, 0, 0, 0, 0, NULL), 0);
	int left = 0;
	memcpy(&left, chan_buf(&ch), sizeof left);
	CHECK_EQ(left, (long)strlen(HELLO_TEXT) - 5);
	CHECK_EQ(fsx(&ch, FS_IOCTL, (uint64_t)fd, 0x5401, 0, 0, 0, 0, NULL), -ENOTTY);
	CHECK_EQ(myrmex_fs_close(fd), 0);
	int dir = myrmex_fs_open("/", O_RDONLY | O_DIRECTORY, 0);
	CHECK_EQ(fsx(&ch, FS_READ, (uint64_t)dir, 5, 0, 0, 0, 0, out), -EISDIR);
	CHECK_EQ(out[7], FS_KIND_DIRECTORY);
	CHECK_EQ(myrmex_fs_close(dir), 0);
}

/* FS_FORK and FS_EXIT bookkeeping, with a pid no process has. */
static void fork_tables(void)
{
	int me = my_pid();
	int fd = myrmex_fs_open(HELLO, O_RDONLY, 0);
	CHECK_EQ(myrmex_fs_call(FS_FORK, (uint64_t)me, FAKE_PID, 0, NULL, 0, NULL), 0);
	CHECK_EQ(myrmex_fs_call(FS_FORK, (uint64_t)me, FAKE_PID, 0, NULL, 0, NULL), -EEXIST);
	CHECK_EQ(myrmex_fs_call(FS_FORK, (uint64_t)me, (uint64_t)me, 0, NULL, 0, NULL), -EINVAL);
	CHECK_EQ(myrmex_fs_call(FS_FORK, 0, FAKE_PID + 1, 0, NULL, 0, NULL), -EINVAL);
	CHECK_EQ(myrmex_fs_call(FS_FORK, (uint64_t)me, 1ull << 31, 0, NULL, 0, NULL), -EINVAL);
	CHECK_EQ(myrmex_fs_call(FS_FORK, (uint64_t)me, (uint64_t)-5, 0, NULL, 0, NULL), -EINVAL);
	CHECK_EQ(myrmex_fs_call(FS_EXIT, 0, 0, 0, NULL, 0, NULL), -EINVAL);
	CHECK_EQ(myrmex_fs_call(FS_EXIT, FAKE_PID, 0, 0, NULL, 0, NULL), 0);
	CHECK_EQ(myrmex_fs_call(FS_EXIT, FAKE_PID, 0, 0, NULL, 0, NULL), 0);   /* nothing left */
	/* Ours is untouched. */
	expect_read(fd, "hello", 5);
	CHECK_EQ(myrmex_fs_close(fd), 0);
}

static void test_fds(void)
{
	dup_sharing();
	fcntl_flags();
	dup_errors();
	special_files();
	fork_tables();
}

/* ------------------------------------------------------------ paths */

static void expect_cwd(const char *want)
{
	long r = fsx(&ch, FS_GETCWD, 4096, 0, 0, 0, 0, 0, NULL);
	const char *got = (const char *)chan_buf(&ch);
	CHECK(r == (long)strlen(want) + 1 && strcmp(got, want) == 0, "getcwd: %ld \"%s\", expected \"%s\"",
	      r, r > 0 ? got : "", want);
}

static void cwd_and_relative(void)
{
	struct myrmex_stat st;
	expect_cwd("/");
	CHECK_EQ(fsp(&ch, FS_CHDIR, "/nest/l1", 0, 0, 0), 0);
	expect_cwd("/nest/l1");
	CHECK_EQ(fsx(&ch, FS_GETCWD, 9, 0, 0, 0, 0, 0, NULL), 9);
	CHECK_EQ(fsx(&ch, FS_GETCWD, 8, 0, 0, 0, 0, 0, NULL), -ERANGE);
	CHECK_EQ(fsx(&ch, FS_GETCWD, 0, 0, 0, 0, 0, 0, NULL), -ERANGE);
	CHECK_EQ(myrmex_fs_stat("l2/f2.bin", &st), 0);
	CHECK_EQ(st.st_size, 10000);
	CHECK_EQ(myrmex_fs_stat("./l2/../l2/./f2.bin", &st), 0);
	CHECK_EQ(myrmex_fs_stat("../l1/f1.bin", &st), 0);
	CHECK_EQ(st.st_size, 5000);
	int fd = myrmex_fs_open("../../text/hello.txt", O_RDONLY, 0);
	expect_read(fd, "hello", 5);
	CHECK_EQ(myrmex_fs_close(fd), 0);
	CHECK_EQ(fsp(&ch, FS_CHDIR, "l2/l3/..", 0, 0, 0), 0);
	expect_cwd("/nest/l1/l2");
	CHECK_EQ(fsp(&ch, FS_CHDIR, "../../../../..", 0, 0, 0), 0);   /* ".." of the root */
	expect_cwd("/");
	/* chdir through a symbolic link: getcwd shows where it led. */
	CHECK_EQ(fsp(&ch, FS_CHDIR, "/links/dir", 0, 0, 0), 0);
	expect_cwd("/nest/l1");
	CHECK_EQ(fsp(&ch, FS_CHDIR, "/text/hello.txt", 0, 0, 0), -ENOTDIR);
	CHECK_EQ(fsp(&ch, FS_CHDIR, "/nosuch", 0, 0, 0), -ENOENT);
	CHECK_EQ(fsp(&ch, FS_CHDIR, "/nest", 5, 0, 0), -EINVAL);
	expect_cwd("/nest/l1");
	/* fchdir. */
	int dir = myrmex_fs_open("/nest/l1/l2/l3", O_RDONLY | O_DIRECTORY, 0);
	CHECK_EQ(fsx(&ch, FS_CHDIR, 1, (uint64_t)dir, 0, 0, 0, 0, NULL), 0);
	expect_cwd("/nest/l1/l2/l3");
	fd = myrmex_fs_open(HELLO, O_RDONLY, 0);
	CHECK_EQ(fsx(&ch, FS_CHDIR, 1, (uint64_t)fd, 0, 0, 0, 0, NULL), -ENOTDIR);
	CHECK_EQ(fsx(&ch, FS_CHDIR, 1, 63, 0, 0, 0, 0, NULL), -EBADF);
	CHECK_EQ(fsx(&ch, FS_CHDIR, 1, 1ull << 40, 0, 0, 0, 0, NULL), -EBADF);
	CHECK_EQ(myrmex_fs_close(fd), 0);
	CHECK_EQ(myrmex_fs_close(dir), 0);
	/* A current directory that is removed: relative names are gone. */
	CHECK_EQ(myrmex_fs_mkdir("/posix-gone", 0755), 0);
	CHECK_EQ(fsp(&ch, FS_CHDIR, "/posix-gone", 0, 0, 0), 0);
	CHECK_EQ(myrmex_fs_rmdir("/posix-gone"), 0);
	CHECK_EQ(fsx(&ch, FS_GETCWD, 4096, 0, 0, 0, 0, 0, NULL), -ENOENT);
	CHECK_EQ(myrmex_fs_open("x", O_CREAT | O_WRONLY, 0644), -ENOENT);
	CHECK_EQ(myrmex_fs_stat("/text", &st), 0);   /* absolute ones still work */
	CHECK_EQ(fsp(&ch, FS_CHDIR, "/", 0, 0, 0), 0);
	expect_cwd("/");
}

static void dirfd_relative(void)
{
	struct myrmex_stat st;
	int pad = myrmex_fs_open("/", O_RDONLY | O_DIRECTORY, 0);   /* the directory is not fd 0 */
	int dir = myrmex_fs_open("/nest/l1", O_RDONLY | O_DIRECTORY, 0);
	int file = myrmex_fs_open(HELLO, O_RDONLY, 0);
	if (!CHECK_EQ(dir >= 0 && file >= 0, 1))
		return;
	strcpy((char *)chan_buf(&ch), "l2/f2.bin");
	long fd = fsx(&ch, FS_OPEN, O_RDONLY, 0, 0, (uint64_t)dir, FS_AT_DIRFD, 0, NULL);
	CHECK(fd >= 0, "openat(dir, l2/f2.bin): %ld", fd);
	myrmex_fs_close((int)fd);
	CHECK_EQ(fsp(&ch, FS_STAT, "l2/f2.bin", 0, (uint64_t)dir, FS_AT_DIRFD), 0);
	memcpy(&st, chan_buf(&ch), sizeof st);
	CHECK_EQ(st.st_size, 10000);
	CHECK_EQ(fsp(&ch, FS_STAT, "l2/f2.bin", 0, (uint64_t)file, FS_AT_DIRFD), -ENOTDIR);
	CHECK_EQ(fsp(&ch, FS_STAT, "l2/f2.bin", 0, 63, FS_AT_DIRFD), -EBADF);
	CHECK_EQ(fsp(&ch, FS_STAT, "l2/f2.bin", 0, 1ull << 40, FS_AT_DIRFD), -EBADF);
	/* An absolute path ignores the descriptor; AT_FDCWD is the current directory. */
	CHECK_EQ(fsp(&ch, FS_STAT, HELLO, 0, 63, FS_AT_DIRFD), 0);
	CHECK_EQ(fsp(&ch, FS_STAT, "text/hello.txt", 0, (uint64_t)-100, FS_AT_DIRFD), 0);
	CHECK_EQ(fsp(&ch, FS_STAT, "text/hello.txt", 0, 0xffffff9cull, FS_AT_DIRFD), 0);
	CHECK_EQ(fsp(&ch, FS_STAT, "text/hello.txt", 0, 0, 8), -EINVAL);   /* unknown FS_AT_* bit */
	/* FS_AT_EMPTY_PATH: the descriptor itself. */
	CHECK_EQ(fsp(&ch, FS_STAT, "", 0, (uint64_t)file, FS_AT_DIRFD | FS_AT_EMPTY_PATH), 0);
	memcpy(&st, chan_buf(&ch), sizeof st);
	CHECK_EQ(st.st_size, (long)strlen(HELLO_TEXT));
	CHECK_EQ(fsp(&ch, FS_STAT, "", 0, 63, FS_AT_DIRFD | FS_AT_EMPTY_PATH), -EBADF);
	CHECK_EQ(fsp(&ch, FS_STAT, "", 0, 0, 0), -ENOENT);
	/* mkdir, unlink (AT_REMOVEDIR too) and rename from the descriptor. */
	CHECK_EQ(fsp(&ch, FS_MKDIR, "posix-d", 0755, (uint64_t)dir, FS_AT_DIRFD), 0);
	fs_expect_dir_exists("/nest/l1/posix-d");
	strcpy((char *)chan_buf(&ch), "posix-d/f");
	fd = fsx(&ch, FS_OPEN, O_CREAT | O_WRONLY, 0644, 0, (uint64_t)dir, FS_AT_DIRFD, 0, NULL);
	CHECK(fd >= 0, "openat(O_CREAT): %ld", fd);
	myrmex_fs_close((int)fd);
	/* Both names of a rename start at arg[3] (arg[5] means nothing). */
	char two[] = "posix-d/f\0posix-d/g";
	memcpy(chan_buf(&ch), two, sizeof two);
	CHECK_EQ(fsx(&ch, FS_RENAME, 0, 0, 0, (uint64_t)dir, FS_AT_DIRFD, (uint64_t)pad, NULL), 0);
	fs_expect_text("/nest/l1/posix-d/g", "");
	strcpy((char *)chan_buf(&ch), "posix-d/g");
	CHECK_EQ(fsx(&ch, FS_UNLINK, 0, 0x400, 0, (uint64_t)dir, FS_AT_DIRFD, 0, NULL), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_UNLINK, 0, 0, 0, (uint64_t)dir, FS_AT_DIRFD, 0, NULL), 0);
	strcpy((char *)chan_buf(&ch), "posix-d/");
	CHECK_EQ(fsx(&ch, FS_UNLINK, 0, 0, 0, (uint64_t)dir, FS_AT_DIRFD, 0, NULL), -EISDIR);
	CHECK_EQ(fsx(&ch, FS_UNLINK, 0, 0x200 /* AT_REMOVEDIR */, 0, (uint64_t)dir, FS_AT_DIRFD, 0, NULL), 0);
	fs_expect_absent("/nest/l1/posix-d");
	CHECK_EQ(myrmex_fs_unlink("/text/hello.txt/"), -ENOTDIR);
	myrmex_fs_close(dir);
	myrmex_fs_close(file);
	myrmex_fs_close(pad);
}

static void access_calls(void)
{
	CHECK_EQ(fsp(&ch, FS_ACCESS, HELLO, 0, 0, 0), 0);
	CHECK_EQ(fsp(&ch, FS_ACCESS, HELLO, R_OK | W_OK, 0, 0), 0);
	CHECK_EQ(fsp(&ch, FS_ACCESS, HELLO, X_OK, 0, 0), -EACCES);
	CHECK_EQ(fsp(&ch, FS_ACCESS, "/text", X_OK, 0, 0), 0);
	CHECK_EQ(fsp(&ch, FS_ACCESS, "/nosuch", 0, 0, 0), -ENOENT);
	CHECK_EQ(fsp(&ch, FS_ACCESS, HELLO, 8, 0, 0), -EINVAL);
	CHECK_EQ(fsp(&ch, FS_ACCESS, "/dev/null", R_OK | W_OK, 0, 0), 0);
	CHECK_EQ(fsp(&ch, FS_ACCESS, "/links/short", R_OK, 0, 0), 0);
	CHECK_EQ(fsp(&ch, FS_ACCESS, "/links/dangling", 0, 0, 0), -ENOENT);
	CHECK_EQ(fsp(&ch, FS_ACCESS, "/links/dangling", 0, 0, FS_AT_NOFOLLOW), 0);
}

/* The image's links (tools/mkfsimage.py). */
#define SHORT_TARGET "../text/hello.txt"
#define LONG_TARGET "../nest/l1/l2/l3/l4/l5/l6/l7/../../../../l4/l5/l6/l7/../l7/./deep.txt"

static void expect_link(const char *path, const char *target)
{
	long r = fsp(&ch, FS_READLINK, path, 0, 0, 0);
	const char *got = (const char *)chan_buf(&ch);
	CHECK(r == (long)strlen(target) && memcmp(got, target, strlen(target)) == 0,
	      "readlink(%s): %ld \"%.*s\", expected \"%s\"", path, r, (int)(r > 0 ? r : 0), got, target);
}

static void symlinks(void)
{
	struct myrmex_stat st;
	expect_link("/links/short", SHORT_TARGET);
	expect_link("/links/long", LONG_TARGET);
	expect_link("/links/abs", HELLO);
	CHECK_EQ(fsp(&ch, FS_READLINK, "/links/short", 4, 0, 0), 4);
	CHECK_EQ(fsp(&ch, FS_READLINK, HELLO, 0, 0, 0), -EINVAL);
	CHECK_EQ(fsp(&ch, FS_READLINK, "/links", 0, 0, 0), -EINVAL);
	CHECK_EQ(fsp(&ch, FS_READLINK, "/dev/null", 0, 0, 0), -EINVAL);
	CHECK_EQ(fsp(&ch, FS_READLINK, "/nosuch", 0, 0, 0), -ENOENT);
	/* Followed: stat and open see the target; lstat the link. */
	static const char *const to_hello[] = { "/links/short", "/links/abs", "/links/via-dir" };
	for (unsigned i = 0; i < 3; i++) {
		CHECK_EQ(myrmex_fs_stat(to_hello[i], &st), 0);
		CHECK(st.st_size == (long)strlen(HELLO_TEXT) && FS_IS_REG(st.st_mode), "stat(%s): size %lld",
		      to_hello[i], (long long)st.st_size);
		int fd = myrmex_fs_open(to_hello[i], O_RDONLY, 0);
		expect_read(fd, "hello", 5);
		myrmex_fs_close(fd);
	}
	CHECK_EQ(myrmex_fs_stat("/links/long", &st), 0);
	CHECK_EQ(st.st_size, (long)strlen("seven levels down\n"));
	CHECK_EQ(fsp(&ch, FS_STAT, "/links/short", 0, 0, FS_AT_NOFOLLOW), 0);
	memcpy(&st, chan_buf(&ch), sizeof st);
	CHECK(st.st_mode == (0120000u | 0777) && st.st_size == (long)strlen(SHORT_TARGET),
	      "lstat(/links/short): mode %#o size %lld", st.st_mode, (long long)st.st_size);
	CHECK_EQ(myrmex_fs_stat("/links/dir/l2/f2.bin", &st), 0);   /* a link in the middle */
	CHECK_EQ(myrmex_fs_open("/links/short", O_RDONLY | O_NOFOLLOW, 0), -ELOOP);
	CHECK_EQ(myrmex_fs_open("/links/loop1", O_RDONLY, 0), -ELOOP);
	CHECK_EQ(myrmex_fs_stat("/links/loop1/x", &st), -ELOOP);
	CHECK_EQ(myrmex_fs_stat("/links/dangling", &st), -ENOENT);
	CHECK_EQ(myrmex_fs_stat("/links/short/", &st), -ENOTDIR);
	int dir = myrmex_fs_open("/links/dir", O_RDONLY | O_DIRECTORY, 0);
	CHECK(dir >= 0, "open(/links/dir, O_DIRECTORY): %d", dir);
	myrmex_fs_close(dir);
	/* Names are removed, not followed. */
	CHECK_EQ(myrmex_fs_open("/links/abs", O_CREAT | O_EXCL | O_WRONLY, 0644), -EEXIST);
	CHECK_EQ(myrmex_fs_mkdir("/links/dir", 0755), -EEXIST);
	CHECK_EQ(myrmex_fs_rmdir("/links/dir"), -ENOTDIR);
}

/* An open (FS_OPEN_AS for pid FAKE_PID + 7, or FS_OPEN) of path read-only,
 * with uid and gid stamped in the control ICA header as the kernel stamps
 * a caller's: the descriptor (closed here) or -errno. */
static long open_stamped(uint32_t opcode, const char *path, uint32_t uid)
{
	strcpy((char *)chan_buf(&ch), path);
	struct fsreq r = { { O_RDONLY, 0, 0, 0, 0, opcode == FS_OPEN_AS ? FAKE_PID + 7 : 0, 0, 0 },
	                   { 0 }, 1 };
	struct myrmex_ctl_header *h = chan_frame(&ch, opcode, &r);
	h->reserved[FS_CRED_UID] = uid;
	h->reserved[FS_CRED_GID] = uid;
	long rc = myrmex_callsync(h);
	long fd = rc < 0 ? rc : chan_result(&ch, &r);
	if (fd >= 0)
		myrmex_fs_close((int)fd);
	return fd;
}

static void open_as(void)
{
	/* The process manager opens for an execve, in another process's
	 * current directory (one with no table: "/"); the descriptor is its
	 * own. A file without an execute bit and a directory are refused,
	 * root's ids (the process manager stamps none here) too. */
	int w = myrmex_fs_open("/text/run.me", O_CREAT | O_EXCL | O_WRONLY, 0755);
	CHECK(w >= 0, "create /text/run.me: %d", w);
	CHECK_EQ(myrmex_fs_write(w, "hello", 5), 5);
	myrmex_fs_close(w);
	strcpy((char *)chan_buf(&ch), "text/run.me");
	long fd = fsx(&ch, FS_OPEN_AS, O_RDONLY, 0, 0, 0, 0, FAKE_PID + 7, NULL);
	CHECK(fd >= 0, "open_as: %ld", fd);
	expect_read((int)fd, "hello", 5);
	myrmex_fs_close((int)fd);
	/* The ids the process manager stamps count on FS_OPEN_AS (for the
	 * execve of that process), nowhere else: uid 1000 may run the 0755
	 * file, not root's 0700 one, and the same stamp on a plain open is
	 * root's. */
	int o = myrmex_fs_open("/text/root.only", O_CREAT | O_EXCL | O_WRONLY, 0700);
	CHECK(o >= 0, "create /text/root.only: %d", o);
	myrmex_fs_close(o);
	CHECK_EQ(open_stamped(FS_OPEN_AS, "/text/run.me", 1000) >= 0, 1);
	CHECK_EQ(open_stamped(FS_OPEN_AS, "/text/root.only", 1000), -EACCES);
	CHECK_EQ(open_stamped(FS_OPEN_AS, "/text/root.only", 0) >= 0, 1);
	CHECK_EQ(open_stamped(FS_OPEN, "/text/root.only", 1000) >= 0, 1);
	CHECK_EQ(myrmex_fs_unlink("/text/root.only"), 0);
	CHECK_EQ(myrmex_fs_unlink("/text/run.me"), 0);
	strcpy((char *)chan_buf(&ch), "text/hello.txt");   /* 0644 */
	CHECK_EQ(fsx(&ch, FS_OPEN_AS, O_RDONLY, 0, 0, 0, 0, FAKE_PID + 7, NULL), -EACCES);
	strcpy((char *)chan_buf(&ch), "text");
	CHECK_EQ(fsx(&ch, FS_OPEN_AS, O_RDONLY, 0, 0, 0, 0, FAKE_PID + 7, NULL), -EACCES);
	strcpy((char *)chan_buf(&ch), "text/hello.txt");
	CHECK_EQ(fsx(&ch, FS_OPEN_AS, O_RDONLY, 0, 0, 0, FS_AT_DIRFD, FAKE_PID + 7, NULL), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_OPEN_AS, O_RDONLY, 0, 0, 0, 0, 0, NULL), -EINVAL);
	CHECK_EQ(fsx(&ch, FS_OPEN_AS, O_RDONLY, 0, 0, 0, 0, 1ull << 32, NULL), -EINVAL);
}

static void test_paths(void)
{
	cwd_and_relative();
	dirfd_relative();
	access_calls();
	symlinks();
	open_as();
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: nothing to test");
		return 0;
	}
	const char *mode = argc > 1 ? argv[1] : "";
	if (!fs_ready() || !chan_open(&ch) || !become_pm())
		return test_exit_code();
	if (strcmp(mode, "fds") == 0)
		test_fds();
	else if (strcmp(mode, "paths") == 0)
		test_paths();
	else
		test_fail("usage: t_fs_posix fds|paths");
	return test_exit_code();
}
