/*
 * Descriptors: dup (the lowest free number, a shared offset), dup2 (onto an
 * open descriptor, onto itself), dup3 (O_CLOEXEC, EINVAL onto itself), fcntl
 * F_GETFD/F_SETFD, F_GETFL/F_SETFL (O_APPEND, O_NONBLOCK), F_DUPFD and
 * F_DUPFD_CLOEXEC; pipe and pipe2 (O_CLOEXEC, O_NONBLOCK), a pipe's short
 * reads, end of file, EAGAIN on an empty non-blocking pipe and on a full one;
 * close twice; EMFILE when the table is full.
 */
#include "posix_test.h"

#include <fcntl.h>

static const char *access_mode(int fl)
{
	switch (fl & O_ACCMODE) {
	case O_RDONLY: return "O_RDONLY";
	case O_WRONLY: return "O_WRONLY";
	case O_RDWR: return "O_RDWR";
	default: return "?";
	}
}

static void show_fl(const char *what, int fd)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0) {
		say("%s: F_GETFL error %s\n", what, err_name(errno));
		return;
	}
	say("%s: F_GETFL %s%s%s\n", what, access_mode(fl), fl & O_APPEND ? "|O_APPEND" : "",
	    fl & O_NONBLOCK ? "|O_NONBLOCK" : "");
}

int main(void)
{
	scratch_enter("fd");
	/* Leave 0, 1 and 2 alone; find where the free numbers start. */
	int fd = open("f", O_RDWR | O_CREAT | O_TRUNC, 0644);
	int base = fd;
	if (write(fd, "0123456789", 10) != 10)
		return 1;
	lseek(fd, 0, SEEK_SET);
	int d = dup(fd);
	say("dup gives the lowest free number: %s\n", yes(d == base + 1));
	char c;
	if (read(fd, &c, 1) != 1)
		return 1;
	say("dup shares the offset: %s\n", yes(lseek(d, 0, SEEK_CUR) == 1));
	close(d);
	say("after close the number is free again: %s\n", yes(dup(fd) == base + 1));
	close(base + 1);

	say("dup2 onto a free number: %s\n", yes(dup2(fd, base + 5) == base + 5));
	int other = open("g", O_RDWR | O_CREAT, 0644);
	say("dup2 onto an open descriptor: %s\n", yes(dup2(fd, other) == other));
	say("that descriptor now reaches f (shared offset): %s\n", yes(lseek(other, 0, SEEK_CUR) == 1));
	say("dup2 onto itself returns it: %s\n", yes(dup2(fd, fd) == fd));
	close(other);
	close(base + 5);

	int c3 = dup3(fd, base + 6, O_CLOEXEC);
	say("dup3 with O_CLOEXEC: %s, FD_CLOEXEC set: %s\n", yes(c3 == base + 6),
	    yes(fcntl(c3, F_GETFD) == FD_CLOEXEC));
	say("dup2 does not copy FD_CLOEXEC: %s\n", yes(dup2(c3, base + 7) == base + 7 &&
	    fcntl(base + 7, F_GETFD) == 0));
	outcome("dup3 onto itself", dup3(fd, fd, 0));
	close(c3);
	close(base + 7);

	say("F_GETFD of a new descriptor: %d\n", fcntl(fd, F_GETFD));
	outcome("F_SETFD FD_CLOEXEC", fcntl(fd, F_SETFD, FD_CLOEXEC));
	say("F_GETFD: %d\n", fcntl(fd, F_GETFD));
	fcntl(fd, F_SETFD, 0);
	show_fl("O_RDWR file", fd);
	outcome("F_SETFL O_APPEND", fcntl(fd, F_SETFL, O_APPEND));
	show_fl("after F_SETFL", fd);
	lseek(fd, 0, SEEK_SET);
	if (write(fd, "A", 1) != 1)
		return 1;
	say("O_APPEND set by F_SETFL appends: %s\n", yes(lseek(fd, 0, SEEK_CUR) == 11));
	fcntl(fd, F_SETFL, 0);
	int wo = open("f", O_WRONLY | O_APPEND);
	show_fl("O_WRONLY|O_APPEND file", wo);
	close(wo);

	int f20 = fcntl(fd, F_DUPFD, 20);
	say("F_DUPFD 20 gives 20: %s, without FD_CLOEXEC: %s\n", yes(f20 == 20), yes(fcntl(20, F_GETFD) == 0));
	int f21 = fcntl(fd, F_DUPFD, 20);
	say("F_DUPFD 20 again gives 21: %s\n", yes(f21 == 21));
	int f22 = fcntl(fd, F_DUPFD_CLOEXEC, 20);
	say("F_DUPFD_CLOEXEC 20 gives 22 with FD_CLOEXEC: %s\n", yes(f22 == 22 && fcntl(22, F_GETFD) == FD_CLOEXEC));
	close(20);
	close(21);
	close(22);

	int p[2];
	outcome("pipe", pipe(p));
	show_fl("pipe read end", p[0]);
	show_fl("pipe write end", p[1]);
	outcome_value("write 3 to the pipe", write(p[1], "abc", 3));
	char buf[100] = { 0 };
	outcome_value("read 100 from the pipe (a short read)", read(p[0], buf, sizeof buf));
	outcome("F_SETFL O_NONBLOCK on the read end", fcntl(p[0], F_SETFL, O_NONBLOCK));
	show_fl("read end now", p[0]);
	outcome("read from the empty non-blocking pipe", read(p[0], buf, 1));
	close(p[1]);
	outcome_value("read after the writer closed (end of file)", read(p[0], buf, 1));
	close(p[0]);

	outcome("pipe2 O_CLOEXEC|O_NONBLOCK", pipe2(p, O_CLOEXEC | O_NONBLOCK));
	say("both ends FD_CLOEXEC: %s\n", yes(fcntl(p[0], F_GETFD) == FD_CLOEXEC && fcntl(p[1], F_GETFD) == FD_CLOEXEC));
	show_fl("pipe2 write end", p[1]);
	long total = 0;
	ssize_t n;
	static char chunk[1024];
	while ((n = write(p[1], chunk, sizeof chunk)) > 0)
		total += n;
	say("the full non-blocking pipe refuses: %s, after at least 4096 bytes: %s\n",
	    err_name(errno), yes(total >= 4096));
	long drained = 0;
	while ((n = read(p[0], chunk, sizeof chunk)) > 0)
		drained += n;
	say("everything written is read back: %s\n", yes(drained == total));
	close(p[0]);
	close(p[1]);

	outcome("close", close(fd));
	outcome("close again", close(fd));

	/* Fill the table: dup until it refuses (EMFILE), then free it all. */
	int opened[4096], count = 0, last;
	while (count < 4096 && (last = dup(0)) >= 0)
		opened[count++] = last;
	say("dup until refused: %s\n", count < 4096 ? err_name(errno) : "never refused");
	for (int i = 0; i < count; i++)
		close(opened[i]);
	say("a descriptor is free again: %s\n", yes((last = dup(0)) >= 0));
	close(last);
	scratch_leave();
	return 0;
}
