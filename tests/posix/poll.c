/*
 * poll and select on pipes: nothing to read, room to write, data arrived, a
 * wait that times out, a wait woken by a child's write, the writer gone
 * (POLLHUP), the reader gone (POLLERR), a closed descriptor (POLLNVAL,
 * EBADF), a negative one (ignored), the console writable.
 */
#include "posix_test.h"

#include <poll.h>
#include <sys/select.h>
#include <sys/wait.h>

static void show(const char *what, int fd, short events, int timeout)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	errno = 0;
	int r = poll(&pfd, 1, timeout);
	if (r < 0) {
		say("%s: error %s\n", what, err_name(errno));
		return;
	}
	say("%s: %d ready, revents", what, r);
	short re = pfd.revents;
	static const struct { short bit; const char *name; } bits[] = {
		{ POLLIN, "IN" }, { POLLPRI, "PRI" }, { POLLOUT, "OUT" },
		{ POLLERR, "ERR" }, { POLLHUP, "HUP" }, { POLLNVAL, "NVAL" },
	};
	for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++) {
		if (re & bits[i].bit) {
			say(" %s", bits[i].name);
			re &= ~bits[i].bit;
		}
	}
	say(re ? " other\n" : pfd.revents ? "\n" : " none\n");
}

static void show_select(const char *what, int rfd, int wfd, long usec)
{
	fd_set r, w;
	FD_ZERO(&r);
	FD_ZERO(&w);
	int max = -1;
	if (rfd >= 0) {
		FD_SET(rfd, &r);
		max = rfd;
	}
	if (wfd >= 0) {
		FD_SET(wfd, &w);
		max = wfd > max ? wfd : max;
	}
	struct timeval tv = { 0, usec };
	errno = 0;
	int n = select(max + 1, &r, &w, NULL, &tv);
	if (n < 0)
		say("%s: error %s\n", what, err_name(errno));
	else
		say("%s: %d ready, readable %s, writable %s\n", what, n,
		    yes(rfd >= 0 && FD_ISSET(rfd, &r)), yes(wfd >= 0 && FD_ISSET(wfd, &w)));
}

int main(void)
{
	int p[2];
	if (pipe(p) < 0)
		return 1;
	show("empty pipe, POLLIN, timeout 0", p[0], POLLIN, 0);
	show("empty pipe, POLLIN, timeout 100 ms", p[0], POLLIN, 100);
	show("write end, POLLOUT", p[1], POLLOUT, 0);
	show_select("select on the empty pipe, timeout 0", p[0], p[1], 0);
	show_select("select on the empty pipe, read only, 50 ms", p[0], -1, 50000);
	if (write(p[1], "x", 1) != 1)
		return 1;
	show("one byte in the pipe, POLLIN", p[0], POLLIN, 0);
	show_select("select with a byte in the pipe", p[0], -1, 0);
	char c;
	if (read(p[0], &c, 1) != 1)
		return 1;

	pid_t pid = fork();
	if (pid == 0) {
		/* The parent blocks in poll until this write. */
		_exit(write(p[1], "y", 1) == 1 ? 0 : 1);
	}
	show("blocking poll woken by a child's write", p[0], POLLIN, -1);
	waitpid(pid, NULL, 0);
	if (read(p[0], &c, 1) != 1)
		return 1;
	pid = fork();
	if (pid == 0)
		_exit(write(p[1], "z", 1) == 1 ? 0 : 1);
	show_select("blocking select woken by a child's write", p[0], -1, 5000000);
	waitpid(pid, NULL, 0);
	if (read(p[0], &c, 1) != 1)
		return 1;

	if (write(p[1], "w", 1) != 1)
		return 1;
	close(p[1]);
	show("writer gone, one byte left", p[0], POLLIN, 0);
	if (read(p[0], &c, 1) != 1)
		return 1;
	show("writer gone, empty", p[0], POLLIN, 0);
	close(p[0]);

	if (pipe(p) < 0)
		return 1;
	close(p[0]);
	show("reader gone, POLLOUT", p[1], POLLOUT, 0);
	close(p[1]);

	show("closed descriptor", p[1], POLLIN, 0);
	show_select("select on a closed descriptor", p[1], -1, 0);
	struct pollfd neg = { .fd = -1, .events = POLLIN, .revents = 0 };
	say("negative descriptor ignored: %d ready, revents %d\n", poll(&neg, 1, 0), neg.revents);
	say("poll of nothing for 10 ms: %d\n", poll(NULL, 0, 10));
	show("console (fd 1), POLLOUT", 1, POLLOUT, 0);
	return 0;
}
