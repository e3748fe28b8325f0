/*
 * epoll: create (flags, close-on-exec), ctl ADD/MOD/DEL and their errors
 * (EEXIST, ENOENT, EBADF, EINVAL, EPERM on a regular file, a directory and
 * /dev/null, ELOOP, EFAULT), level- and edge-triggered and one-shot entries
 * on pipes, EPOLLHUP and EPOLLERR, the console, a closed description
 * leaving the set, a dup keeping it, nested sets, poll on a set, a set
 * shared with a forked child, a wait woken by the child, timeouts, a wait
 * interrupted by a signal (EINTR even with SA_RESTART), epoll_pwait's mask,
 * fstat and the /proc/self/fd link of a set, and epoll_wait's bad
 * arguments.
 */
#include "posix_test.h"

#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/time.h>
#include <sys/wait.h>

static int ep;

/* "<what>: <n> ready: <data>:<bits> ..." sorted by data (the order of
 * several ready entries is not part of the interface). */
static void show(const char *what, int epfd, int max, int timeout)
{
	struct epoll_event ev[8];
	errno = 0;
	int n = epoll_wait(epfd, ev, max, timeout);
	if (n < 0) {
		say("%s: error %s\n", what, err_name(errno));
		return;
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && ev[j].data.u64 < ev[j - 1].data.u64; j--) {
			struct epoll_event t = ev[j];
			ev[j] = ev[j - 1];
			ev[j - 1] = t;
		}
	say("%s: %d ready", what, n);
	static const struct { unsigned bit; const char *name; } bits[] = {
		{ EPOLLIN, "IN" }, { EPOLLPRI, "PRI" }, { EPOLLOUT, "OUT" }, { EPOLLERR, "ERR" },
		{ EPOLLHUP, "HUP" }, { EPOLLRDNORM, "RDNORM" }, { EPOLLWRNORM, "WRNORM" },
		{ EPOLLRDHUP, "RDHUP" },
	};
	for (int i = 0; i < n; i++) {
		say(" %llu:", (unsigned long long)ev[i].data.u64);
		unsigned e = ev[i].events;
		for (size_t b = 0; b < sizeof bits / sizeof bits[0]; b++)
			if (e & bits[b].bit) {
				say("%s%s", bits[b].name, (e & ~((bits[b].bit << 1) - 1)) ? "|" : "");
				e &= ~bits[b].bit;
			}
		if (e)
			say("other");
	}
	say("\n");
}

static int ctl(int epfd, int op, int fd, unsigned events, uint64_t data)
{
	struct epoll_event ev = { .events = events, .data.u64 = data };
	return epoll_ctl(epfd, op, fd, &ev);
}

static void basics(void)
{
	errno = 0;
	outcome("epoll_create(0)", epoll_create(0));
	outcome("epoll_create1(bad flag)", epoll_create1(1));
	int e = epoll_create1(EPOLL_CLOEXEC);
	say("epoll_create1(EPOLL_CLOEXEC): close-on-exec %s\n", yes(e >= 0 && (fcntl(e, F_GETFD) & FD_CLOEXEC)));
	close(e);
	e = epoll_create(1);
	say("epoll_create(1): close-on-exec %s\n", yes(fcntl(e, F_GETFD) & FD_CLOEXEC));
	struct stat st;
	fstat(e, &st);
	say("fstat: type bits %o, permissions %o, size %lld\n", (unsigned)(st.st_mode & S_IFMT),
	    (unsigned)(st.st_mode & 07777), (long long)st.st_size);
	char link[64], path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", e);
	ssize_t n = readlink(path, link, sizeof link - 1);
	link[n > 0 ? n : 0] = '\0';
	say("/proc/self/fd link: %s\n", link);
	char c;
	outcome("read on a set", read(e, &c, 1));
	outcome("write on a set", write(e, "x", 1));
	close(e);
}

static void level(void)
{
	int p[2];
	pipe(p);
	outcome("ADD read end, EPOLLIN", ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN, 1));
	show("empty pipe, timeout 0", ep, 8, 0);
	show("empty pipe, timeout 50 ms", ep, 8, 50);
	write(p[1], "ab", 2);
	show("two bytes in", ep, 8, 0);
	show("again (level-triggered)", ep, 8, 0);
	outcome("ADD it again", ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN, 1));
	outcome("MOD to EPOLLOUT", ctl(ep, EPOLL_CTL_MOD, p[0], EPOLLOUT, 2));
	show("read end asked for OUT", ep, 8, 0);
	outcome("MOD to EPOLLIN|EPOLLOUT", ctl(ep, EPOLL_CTL_MOD, p[0], EPOLLIN | EPOLLOUT, 3));
	show("read end asked for IN and OUT", ep, 8, 0);
	outcome("ADD write end, EPOLLOUT", ctl(ep, EPOLL_CTL_ADD, p[1], EPOLLOUT, 4));
	show("both ends", ep, 8, 0);
	show("both ends, maxevents 1", ep, 1, 0);
	show("both ends, maxevents 1, again", ep, 1, 0);
	show("both ends, maxevents 1, once more", ep, 1, 0);
	char buf[4];
	read(p[0], buf, sizeof buf);
	show("drained", ep, 8, 0);
	outcome("DEL write end", epoll_ctl(ep, EPOLL_CTL_DEL, p[1], NULL));
	outcome("DEL it again", epoll_ctl(ep, EPOLL_CTL_DEL, p[1], NULL));
	outcome("MOD it", ctl(ep, EPOLL_CTL_MOD, p[1], EPOLLOUT, 4));
	close(p[1]);
	show("writer closed", ep, 8, 0);
	outcome("DEL read end", epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL));
	close(p[0]);

	pipe(p);
	ctl(ep, EPOLL_CTL_ADD, p[1], EPOLLOUT, 5);
	close(p[0]);
	show("reader closed", ep, 8, 0);
	ctl(ep, EPOLL_CTL_ADD, p[1], EPOLLIN, 6);   /* EEXIST: the same entry */
	ctl(ep, EPOLL_CTL_MOD, p[1], EPOLLIN, 6);
	show("reader closed, asked for IN only", ep, 8, 0);
	epoll_ctl(ep, EPOLL_CTL_DEL, p[1], NULL);
	close(p[1]);
}

static void edge(void)
{
	int p[2];
	pipe(p);
	outcome("ADD read end, EPOLLIN|EPOLLET", ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN | EPOLLET, 7));
	show("edge: empty", ep, 8, 0);
	write(p[1], "a", 1);
	show("edge: a byte written", ep, 8, 0);
	show("edge: again", ep, 8, 0);
	write(p[1], "b", 1);
	show("edge: another byte written", ep, 8, 0);
	char c;
	read(p[0], &c, 1);
	show("edge: one byte read, one left", ep, 8, 0);
	outcome("MOD (re-arms)", ctl(ep, EPOLL_CTL_MOD, p[0], EPOLLIN | EPOLLET, 8));
	show("edge: after MOD", ep, 8, 0);
	read(p[0], &c, 1);
	close(p[1]);
	show("edge: writer closed", ep, 8, 0);
	show("edge: again", ep, 8, 0);
	close(p[0]);

	pipe(p);
	outcome("ADD read end, EPOLLIN|EPOLLONESHOT", ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN | EPOLLONESHOT, 9));
	write(p[1], "a", 1);
	show("oneshot: a byte written", ep, 8, 0);
	show("oneshot: again", ep, 8, 0);
	write(p[1], "b", 1);
	show("oneshot: another byte", ep, 8, 0);
	outcome("MOD (re-enables)", ctl(ep, EPOLL_CTL_MOD, p[0], EPOLLIN | EPOLLONESHOT, 10));
	show("oneshot: after MOD", ep, 8, 0);
	outcome("ADD it again", ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN, 9));
	close(p[0]);
	close(p[1]);

	pipe(p);
	outcome("ADD write end, EPOLLOUT|EPOLLET", ctl(ep, EPOLL_CTL_ADD, p[1], EPOLLOUT | EPOLLET, 11));
	show("edge: room to write", ep, 8, 0);
	show("edge: again", ep, 8, 0);
	close(p[0]);
	show("edge: reader closed", ep, 8, 0);
	close(p[1]);
}

static void closing(void)
{
	int p[2];
	pipe(p);
	int d = dup(p[0]);
	ctl(ep, EPOLL_CTL_ADD, d, EPOLLIN, 12);
	write(p[1], "a", 1);
	close(d);
	show("the added descriptor closed, a dup open", ep, 8, 0);
	outcome("DEL by the closed number", epoll_ctl(ep, EPOLL_CTL_DEL, d, NULL));
	outcome("DEL by the dup's number", epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL));
	close(p[0]);
	show("the last descriptor closed", ep, 8, 0);
	close(p[1]);
}

static void errors(void)
{
	int p[2];
	pipe(p);
	int file = open("epoll.scratch", O_CREAT | O_RDWR, 0644);
	int dir = open(".", O_RDONLY | O_DIRECTORY);
	int null = open("/dev/null", O_RDWR);
	outcome("ADD a regular file", ctl(ep, EPOLL_CTL_ADD, file, EPOLLIN, 0));
	outcome("ADD a directory", ctl(ep, EPOLL_CTL_ADD, dir, EPOLLIN, 0));
	outcome("ADD /dev/null", ctl(ep, EPOLL_CTL_ADD, null, EPOLLIN, 0));
	outcome("ADD a bad descriptor", ctl(ep, EPOLL_CTL_ADD, 999, EPOLLIN, 0));
	outcome("ADD -1", ctl(ep, EPOLL_CTL_ADD, -1, EPOLLIN, 0));
	outcome("epfd a bad descriptor", ctl(999, EPOLL_CTL_ADD, p[0], EPOLLIN, 0));
	outcome("epfd a pipe", ctl(p[1], EPOLL_CTL_ADD, p[0], EPOLLIN, 0));
	outcome("epfd a regular file", ctl(file, EPOLL_CTL_ADD, p[0], EPOLLIN, 0));
	outcome("the set in itself", ctl(ep, EPOLL_CTL_ADD, ep, EPOLLIN, 0));
	int d = dup(ep);
	outcome("the set in itself by a dup", ctl(ep, EPOLL_CTL_ADD, d, EPOLLIN, 0));
	close(d);
	outcome("op 0", ctl(ep, 0, p[0], EPOLLIN, 0));
	outcome("op 99", ctl(ep, 99, p[0], EPOLLIN, 0));
	outcome("ADD with a NULL event", epoll_ctl(ep, EPOLL_CTL_ADD, p[0], NULL));
	outcome("ADD with a bad event pointer", epoll_ctl(ep, EPOLL_CTL_ADD, p[0], (struct epoll_event *)8));
	outcome("DEL a descriptor not in the set", epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL));
	outcome("MOD a descriptor not in the set", ctl(ep, EPOLL_CTL_MOD, p[0], EPOLLIN, 0));
	outcome("EPOLLEXCLUSIVE with MOD", ctl(ep, EPOLL_CTL_MOD, p[0], EPOLLIN | EPOLLEXCLUSIVE, 0));
	outcome("EPOLLEXCLUSIVE|EPOLLONESHOT", ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN | EPOLLEXCLUSIVE | EPOLLONESHOT, 0));
	outcome("EPOLLEXCLUSIVE", ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN | EPOLLEXCLUSIVE, 0));
	outcome("MOD an exclusive entry", ctl(ep, EPOLL_CTL_MOD, p[0], EPOLLIN, 0));
	outcome("DEL it", epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL));
	outcome("unknown event bits", ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN | 0x01000000, 0));
	epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL);

	struct epoll_event ev[2];
	outcome("epoll_wait maxevents 0", epoll_wait(ep, ev, 0, 0));
	outcome("epoll_wait maxevents -1", epoll_wait(ep, ev, -1, 0));
	outcome("epoll_wait maxevents INT_MAX", epoll_wait(ep, ev, 0x7fffffff, 0));
	outcome("epoll_wait events in the kernel's half", epoll_wait(ep, (struct epoll_event *)0xffff800000000000ull, 2, 0));
	outcome("epoll_wait a bad descriptor", epoll_wait(999, ev, 2, 0));
	outcome("epoll_wait on a pipe", epoll_wait(p[0], ev, 2, 0));
	outcome("epoll_wait on a regular file", epoll_wait(file, ev, 2, 0));
	close(file);
	close(dir);
	close(null);
	close(p[0]);
	close(p[1]);
	unlink("epoll.scratch");
}

static void nested(void)
{
	int inner = epoll_create1(0), p[2];
	pipe(p);
	ctl(inner, EPOLL_CTL_ADD, p[0], EPOLLIN, 20);
	outcome("ADD a set to a set", ctl(ep, EPOLL_CTL_ADD, inner, EPOLLIN, 21));
	outcome("ADD the outer set to the inner (a cycle)", ctl(inner, EPOLL_CTL_ADD, ep, EPOLLIN, 22));
	show("nested, nothing ready", ep, 8, 0);
	write(p[1], "a", 1);
	show("nested, the inner one's pipe ready", ep, 8, 0);
	show("the inner set", inner, 8, 0);
	struct pollfd pfd = { .fd = inner, .events = POLLIN | POLLOUT };
	int r = poll(&pfd, 1, 0);
	say("poll on the inner set: %d, revents IN %s OUT %s\n", r, yes(pfd.revents & POLLIN),
	    yes(pfd.revents & POLLOUT));
	char c;
	read(p[0], &c, 1);
	r = poll(&pfd, 1, 0);
	say("after the read: poll %d\n", r);
	show("nested wait after the read", ep, 8, 0);
	/* A set in two sets, two deep. */
	int outer2 = epoll_create1(0);
	outcome("ADD the inner set to a second set", ctl(outer2, EPOLL_CTL_ADD, inner, EPOLLIN, 23));
	int top = epoll_create1(0);
	outcome("ADD the second set to a third", ctl(top, EPOLL_CTL_ADD, outer2, EPOLLIN, 24));
	write(p[1], "b", 1);
	show("three deep, the pipe ready", top, 8, 0);
	read(p[0], &c, 1);
	close(top);
	close(outer2);
	epoll_ctl(ep, EPOLL_CTL_DEL, inner, NULL);
	close(inner);
	close(p[0]);
	close(p[1]);
}

static void console(void)
{
	int e = epoll_create1(0);
	outcome("ADD stdout (the console), EPOLLOUT", ctl(e, EPOLL_CTL_ADD, 1, EPOLLOUT, 30));
	show("the console", e, 8, 0);
	close(e);
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void with_children(void)
{
	int p[2];
	pipe(p);
	ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN, 40);
	pid_t pid = fork();
	if (pid == 0) {
		struct epoll_event ev;
		int n = epoll_wait(ep, &ev, 1, 0);
		say("child: the shared set has %d ready\n", n);
		usleep(100000);
		write(p[1], "a", 1);
		_exit(0);
	}
	waitpid(pid, NULL, 0);   /* the child's line first, then the wait */
	show("woken by the child's write", ep, 8, -1);
	char c;
	read(p[0], &c, 1);

	/* The child's ctl changes the parent's set: it is one description. */
	pid = fork();
	if (pid == 0) {
		epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	outcome("DEL after the child removed it", epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL));

	/* Interrupted by a signal: EINTR, even with SA_RESTART. */
	ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN, 41);
	for (int restart = 0; restart < 2; restart++) {
		struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = restart ? SA_RESTART : 0 };
		sigaction(SIGALRM, &sa, NULL);
		struct itimerval it = { .it_value = { 0, 100000 } };
		setitimer(ITIMER_REAL, &it, NULL);
		struct epoll_event ev;
		errno = 0;
		int n = epoll_wait(ep, &ev, 1, -1);
		say("epoll_wait, SIGALRM %s SA_RESTART: %d %s\n", restart ? "with" : "without", n,
		    n < 0 ? err_name(errno) : "");
	}

	/* epoll_pwait: SIGUSR1 blocked, let in while waiting, blocked again. */
	struct sigaction sa = { .sa_handler = on_alarm };
	sigaction(SIGUSR1, &sa, NULL);
	sigset_t block, empty, now;
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigemptyset(&empty);
	sigprocmask(SIG_BLOCK, &block, NULL);
	kill(getpid(), SIGUSR1);
	struct epoll_event ev;
	int n = epoll_wait(ep, &ev, 1, 50);
	say("epoll_wait with SIGUSR1 blocked and pending: %d\n", n);
	errno = 0;
	n = epoll_pwait(ep, &ev, 1, -1, &empty);
	say("epoll_pwait letting it in: %d %s\n", n, n < 0 ? err_name(errno) : "");
	sigprocmask(SIG_SETMASK, NULL, &now);
	say("SIGUSR1 blocked again after: %s\n", yes(sigismember(&now, SIGUSR1)));
	outcome("epoll_pwait, sigsetsize 4", syscall(281, ep, &ev, 1, 0, &empty, 4));
	outcome("epoll_pwait, bad mask pointer", syscall(281, ep, &ev, 1, 0, (void *)8, 8));
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL);
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	ep = epoll_create1(0);
	basics();
	level();
	edge();
	closing();
	errors();
	nested();
	console();
	with_children();
	close(ep);
	return 0;
}
