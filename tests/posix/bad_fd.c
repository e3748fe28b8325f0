/*
 * Bad descriptors: -1, a large number, a closed descriptor, the wrong
 * direction, and a descriptor of the wrong kind (ESPIPE on a pipe, ENOTDIR
 * for getdents64 on a file, ENOTTY): each call fails with its error and the
 * process goes on.
 */
#include "posix_test.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <termios.h>

static void expect(const char *what, long ret)
{
	if (ret < 0)
		say("%s: %s\n", what, err_name(errno));
	else
		say("%s: succeeded (%ld)\n", what, ret);
}

int main(void)
{
	char buf[64];
	struct stat st;
	struct termios t;
	scratch_enter("bad_fd");
	write_file("file", "0123456789", 0644);
	int closed = open("file", O_RDONLY);
	close(closed);

	expect("read(-1)", syscall(SYS_read, -1, buf, 1));
	expect("read(1000)", syscall(SYS_read, 1000, buf, 1));
	expect("read of a closed descriptor", syscall(SYS_read, closed, buf, 1));
	expect("write(-1)", syscall(SYS_write, -1, "x", 1));
	expect("write(1000)", syscall(SYS_write, 1000, "x", 1));
	expect("close(-1)", syscall(SYS_close, -1));
	expect("close(1000)", syscall(SYS_close, 1000));
	expect("close of a closed descriptor", syscall(SYS_close, closed));
	expect("fstat(1000)", syscall(SYS_fstat, 1000, &st));
	expect("lseek(1000)", syscall(SYS_lseek, 1000, 0, SEEK_SET));
	expect("pread(1000)", syscall(SYS_pread64, 1000, buf, 1, 0));
	expect("dup(1000)", syscall(SYS_dup, 1000));
	expect("dup2(1000, 5)", syscall(SYS_dup2, 1000, 5));
	expect("dup2(0, -1)", syscall(SYS_dup2, 0, -1));
	expect("dup3(1000, 5, 0)", syscall(SYS_dup3, 1000, 5, 0));
	expect("fcntl(1000, F_GETFD)", syscall(SYS_fcntl, 1000, F_GETFD));
	expect("fcntl(-1, F_GETFL)", syscall(SYS_fcntl, -1, F_GETFL));
	expect("ftruncate(1000)", syscall(SYS_ftruncate, 1000, 0));
	expect("fsync(1000)", syscall(SYS_fsync, 1000));
	expect("getdents64(1000)", syscall(SYS_getdents64, 1000, buf, sizeof buf));
	expect("fchdir(1000)", syscall(SYS_fchdir, 1000));
	expect("openat(1000) of a relative path", syscall(SYS_openat, 1000, "file", O_RDONLY));
	expect("ioctl(1000, TCGETS)", syscall(SYS_ioctl, 1000, TCGETS, &t));

	int ro = open("file", O_RDONLY), wo = open("file", O_WRONLY);
	expect("write to an O_RDONLY descriptor", syscall(SYS_write, ro, "x", 1));
	expect("read from an O_WRONLY descriptor", syscall(SYS_read, wo, buf, 1));
	expect("ftruncate of an O_RDONLY descriptor", syscall(SYS_ftruncate, ro, 0));
	expect("getdents64 of a file", syscall(SYS_getdents64, ro, buf, sizeof buf));
	expect("fchdir to a file", syscall(SYS_fchdir, ro));
	expect("openat relative to a file", syscall(SYS_openat, ro, "x", O_RDONLY));
	expect("openat(1000) of an absolute path", syscall(SYS_openat, 1000, "/posix", O_RDONLY | O_DIRECTORY));
	expect("TCGETS on a file", syscall(SYS_ioctl, ro, TCGETS, &t));
	close(ro);
	close(wo);

	int p[2];
	if (pipe(p) < 0)
		return 1;
	expect("lseek on a pipe", syscall(SYS_lseek, p[0], 0, SEEK_SET));
	expect("pread on a pipe", syscall(SYS_pread64, p[0], buf, 1, 0));
	expect("pwrite on a pipe", syscall(SYS_pwrite64, p[1], "x", 1, 0));
	expect("write to a pipe's read end", syscall(SYS_write, p[0], "x", 1));
	expect("read from a pipe's write end", syscall(SYS_read, p[1], buf, 1));
	expect("ftruncate of a pipe", syscall(SYS_ftruncate, p[1], 0));
	close(p[0]);
	close(p[1]);
	expect("read of a pipe end just closed", syscall(SYS_read, p[0], buf, 1));
	struct pollfd pfd = { .fd = p[0], .events = POLLIN };
	long n = syscall(SYS_poll, &pfd, 1, 0);
	say("poll of a closed descriptor: %ld ready, POLLNVAL %s\n", n, yes(pfd.revents & POLLNVAL));
	scratch_leave();
	say("the process is still alive: yes\n");
	return 0;
}
