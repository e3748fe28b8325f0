/*
 * iov.c - positioned vector I/O: preadv and pwritev (the descriptor's
 * offset stays), preadv2 and pwritev2 with flags 0 (offset -1: the
 * descriptor's offset, which moves), holes, and bad input (EINVAL for a
 * negative offset or count, EOPNOTSUPP for unknown flags, ESPIPE on a pipe,
 * EBADF, EFAULT).
 */
#include "posix_test.h"
#include <sys/syscall.h>
#include <sys/uio.h>

/* musl has no wrappers for the v2 forms: the raw calls (x86-64 passes the
 * offset whole in pos_l; pos_h is 0). */
static long preadv2_(int fd, const struct iovec *v, int n, long off, int flags)
{
	return syscall(SYS_preadv2, fd, v, n, off, 0L, flags);
}

static long pwritev2_(int fd, const struct iovec *v, int n, long off, int flags)
{
	return syscall(SYS_pwritev2, fd, v, n, off, 0L, flags);
}

static void show_file(const char *what, const char *path)
{
	char buf[256];
	int fd = open(path, O_RDONLY);
	ssize_t n = read(fd, buf, sizeof buf);
	close(fd);
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0')
			buf[i] = '.';
	say("%s: %zd bytes: %.*s\n", what, n, n > 0 ? (int)n : 0, buf);
}

int main(void)
{
	scratch_enter("iov");
	write_file("f", "0123456789abcdefghij", 0644);
	int fd = open("f", O_RDWR);
	char a[4] = { 0 }, b[6] = { 0 };
	struct iovec v[2] = { { a, 3 }, { b, 5 } };
	outcome_value("preadv at 4", preadv(fd, v, 2, 4));
	say("got %s|%s\n", a, b);
	say("offset still 0: %s\n", yes(lseek(fd, 0, SEEK_CUR) == 0));
	outcome_value("preadv at 18", preadv(fd, v, 2, 18));
	say("got %s\n", a);
	outcome_value("preadv at 100", preadv(fd, v, 2, 100));
	struct iovec w[2] = { { "XY", 2 }, { "zzz", 3 } };
	outcome_value("pwritev at 2", pwritev(fd, w, 2, 2));
	show_file("f", "f");
	outcome_value("pwritev at 30 (a hole)", pwritev(fd, w, 2, 30));
	show_file("f", "f");
	say("offset still 0: %s\n", yes(lseek(fd, 0, SEEK_CUR) == 0));
	lseek(fd, 5, SEEK_SET);
	memset(a, 0, sizeof a);
	memset(b, 0, sizeof b);
	outcome_value("preadv2 at -1", preadv2_(fd, v, 2, -1, 0));
	say("got %s|%s, offset now %lld\n", a, b, (long long)lseek(fd, 0, SEEK_CUR));
	outcome_value("preadv2 at 0", preadv2_(fd, v, 1, 0, 0));
	say("got %s, offset still %lld\n", a, (long long)lseek(fd, 0, SEEK_CUR));
	outcome_value("pwritev2 at -1", pwritev2_(fd, w, 1, -1, 0));
	say("offset now %lld\n", (long long)lseek(fd, 0, SEEK_CUR));
	outcome_value("pwritev2 at 0", pwritev2_(fd, w, 1, 0, 0));
	show_file("f", "f");

	say("== bad input\n");
	outcome("preadv2 unknown flag", preadv2_(fd, v, 2, 0, 0x40000000));
	outcome("pwritev2 unknown flag", pwritev2_(fd, w, 2, 0, 0x40000000));
	outcome("preadv at -1", syscall(SYS_preadv, fd, v, 2, -1L, 0L));
	outcome("pwritev at -5", syscall(SYS_pwritev, fd, w, 2, -5L, 0L));
	outcome("preadv2 at -2", syscall(SYS_preadv2, fd, v, 2, -2L, 0L, 0));
	outcome("preadv count -1", syscall(SYS_preadv, fd, v, -1, 0L, 0L));
	outcome("preadv count 1025", syscall(SYS_preadv, fd, v, 1025, 0L, 0L));
	outcome("preadv bad vector", syscall(SYS_preadv, fd, (void *)1, 2, 0L, 0L));
	struct iovec badbase[1] = { { (void *)1, 4 } };
	outcome("preadv bad buffer", syscall(SYS_preadv, fd, badbase, 1, 0L, 0L));
	outcome("pwritev bad buffer", syscall(SYS_pwritev, fd, badbase, 1, 0L, 0L));
	outcome("preadv fd 999", preadv(999, v, 2, 0));
	outcome("pwritev fd -1", pwritev(-1, w, 2, 0));
	int ro = open("f", O_RDONLY);
	outcome("pwritev read-only fd", pwritev(ro, w, 2, 0));
	close(ro);
	int p[2];
	pipe(p);
	outcome("preadv on a pipe", preadv(p[0], v, 2, 0));
	outcome("pwritev on a pipe", pwritev(p[1], w, 2, 0));
	outcome_value("pwritev2 at -1 on a pipe", pwritev2_(p[1], w, 2, -1, 0));
	outcome_value("preadv2 at -1 on a pipe", preadv2_(p[0], v, 2, -1, 0));
	close(p[0]);
	close(p[1]);
	int dfd = open(".", O_RDONLY | O_DIRECTORY);
	outcome("preadv on a directory", preadv(dfd, v, 2, 0));
	close(dfd);
	close(fd);
	scratch_leave();
	return 0;
}
