/*
 * timerfd: CLOCK_MONOTONIC, CLOCK_REALTIME and CLOCK_BOOTTIME timers, one
 * shot and periodic (expirations counted on read), relative and
 * TFD_TIMER_ABSTIME (in the future and in the past), gettime and
 * settime's old value, disarming, blocking and non-blocking reads, poll
 * and epoll (waits without a timeout ended by the expiry), a read interrupted by a signal, a timer shared across fork;
 * fstat and the /proc/self/fd link; bad clocks, flags, values, sizes,
 * descriptors and pointers. Times are only compared with bounds that hold
 * however slow the machine is.
 */
#include "posix_test.h"

#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>

#define MS 1000000ll

static struct itimerspec spec(long long value_ns, long long interval_ns)
{
	struct itimerspec s = {
		.it_value = { value_ns / 1000000000, value_ns % 1000000000 },
		.it_interval = { interval_ns / 1000000000, interval_ns % 1000000000 },
	};
	return s;
}

static long long ns(const struct timespec *t)
{
	return t->tv_sec * 1000000000ll + t->tv_nsec;
}

static void show_read(const char *what, int fd)
{
	uint64_t v = 0;
	errno = 0;
	ssize_t n = read(fd, &v, sizeof v);
	if (n < 0)
		say("%s: error %s\n", what, err_name(errno));
	else
		say("%s: %zd bytes, %llu expiration%s\n", what, n, (unsigned long long)v, v == 1 ? "" : "s");
}

static void on_signal(int sig)
{
	(void)sig;
}

static void one_shot(clockid_t clock, const char *name)
{
	int fd = timerfd_create(clock, 0);
	say("%s: created %s\n", name, yes(fd >= 0));
	struct itimerspec s = spec(50 * MS, 0), got;
	outcome("settime 50 ms", timerfd_settime(fd, 0, &s, NULL));
	timerfd_gettime(fd, &got);
	/* 0 once it has expired: a slow machine may get there first. */
	say("gettime: value at most 50 ms %s, interval 0 %s\n", yes(ns(&got.it_value) <= 50 * MS),
	    yes(ns(&got.it_interval) == 0));
	show_read("blocking read", fd);
	timerfd_gettime(fd, &got);
	say("gettime after: value 0 %s\n", yes(ns(&got.it_value) == 0));
	struct timespec now;
	clock_gettime(clock, &now);
	s = spec(ns(&now) + 30 * MS, 0);
	outcome("settime absolute, now + 30 ms", timerfd_settime(fd, TFD_TIMER_ABSTIME, &s, NULL));
	show_read("blocking read", fd);
	s = spec(ns(&now) / 2, 0);
	outcome("settime absolute, in the past", timerfd_settime(fd, TFD_TIMER_ABSTIME, &s, NULL));
	show_read("read", fd);
	/* Waits with no timeout of their own end at the expiry. */
	s = spec(30 * MS, 0);
	timerfd_settime(fd, 0, &s, NULL);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r = poll(&p, 1, -1);
	say("poll without a timeout, armed 30 ms: %d, IN %s\n", r, yes(p.revents & POLLIN));
	show_read("read", fd);
	int ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = 7 };
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	timerfd_settime(fd, 0, &s, NULL);
	r = epoll_wait(ep, &ev, 1, -1);
	say("epoll_wait without a timeout, armed 30 ms: %d, data %llu\n", r,
	    (unsigned long long)ev.data.u64);
	show_read("read", fd);
	close(ep);
	close(fd);
}

static void periodic(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
	say("TFD_NONBLOCK: O_NONBLOCK %s, close-on-exec %s\n", yes(fcntl(fd, F_GETFL) & O_NONBLOCK),
	    yes(fcntl(fd, F_GETFD) & FD_CLOEXEC));
	show_read("unarmed, read", fd);
	struct itimerspec s = spec(10 * MS, 10 * MS), got, old;
	timerfd_settime(fd, 0, &s, NULL);
	timerfd_gettime(fd, &got);
	say("gettime: value in (0, 10 ms] %s, interval 10 ms %s\n",
	    yes(ns(&got.it_value) > 0 && ns(&got.it_value) <= 10 * MS), yes(ns(&got.it_interval) == 10 * MS));
	usleep(100000);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int r = poll(&p, 1, 0);
	say("after 100 ms: poll %d, IN %s\n", r, yes(p.revents & POLLIN));
	uint64_t v = 0;
	read(fd, &v, 8);
	say("read: at least 10 expirations %s\n", yes(v >= 10));
	s = spec(10000 * MS, 0);
	timerfd_settime(fd, 0, &s, &old);
	say("settime 10 s: old interval 10 ms %s, old value in (0, 10 ms] %s\n",
	    yes(ns(&old.it_interval) == 10 * MS), yes(ns(&old.it_value) > 0 && ns(&old.it_value) <= 10 * MS));
	s = spec(0, 0);
	timerfd_settime(fd, 0, &s, &old);
	say("disarmed: old value in (0, 10 s] %s, old interval 0 %s\n",
	    yes(ns(&old.it_value) > 0 && ns(&old.it_value) <= 10000 * MS), yes(ns(&old.it_interval) == 0));
	timerfd_gettime(fd, &got);
	say("gettime: value 0 %s, interval 0 %s\n", yes(ns(&got.it_value) == 0), yes(ns(&got.it_interval) == 0));
	show_read("read", fd);

	/* An expiration not read is forgotten by a new setting. */
	s = spec(1 * MS, 0);
	timerfd_settime(fd, 0, &s, NULL);
	usleep(20000);
	s = spec(10000 * MS, 0);
	timerfd_settime(fd, 0, &s, NULL);
	show_read("expired, then set again: read", fd);

	/* epoll: one expiration is one edge. */
	int ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.u64 = 5 }, out[2];
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	say("epoll, not expired: %d\n", epoll_wait(ep, out, 2, 0));
	s = spec(20 * MS, 0);
	timerfd_settime(fd, 0, &s, NULL);
	r = epoll_wait(ep, out, 2, -1);
	say("epoll, waited for the expiration: %d, IN %s\n", r, yes(r > 0 && (out[0].events & EPOLLIN)));
	say("epoll, again: %d\n", epoll_wait(ep, out, 2, 0));
	close(ep);
	close(fd);
}

static void sharing(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);
	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { .it_value = { 0, 100000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	show_read("unarmed, a blocking read interrupted by SIGALRM", fd);

	struct itimerspec s = spec(50 * MS, 0);
	timerfd_settime(fd, 0, &s, NULL);
	pid_t pid = fork();
	if (pid == 0) {
		uint64_t v = 0;
		read(fd, &v, 8);
		_exit(v == 1 ? 0 : 1);
	}
	int status;
	waitpid(pid, &status, 0);
	say("the child read the parent's timer: %s\n", yes(WIFEXITED(status) && WEXITSTATUS(status) == 0));
	fcntl(fd, F_SETFL, O_NONBLOCK);
	show_read("then the parent reads", fd);

	struct stat st;
	fstat(fd, &st);
	say("fstat: type bits %o, permissions %o\n", (unsigned)(st.st_mode & S_IFMT), (unsigned)(st.st_mode & 07777));
	char link[64], path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(path, link, sizeof link - 1);
	link[n > 0 ? n : 0] = '\0';
	say("/proc/self/fd link: %s\n", link);
	close(fd);
}

static void errors(void)
{
	outcome("timerfd_create clock 99", timerfd_create(99, 0));
	outcome("timerfd_create CLOCK_PROCESS_CPUTIME_ID", timerfd_create(CLOCK_PROCESS_CPUTIME_ID, 0));
	outcome("timerfd_create bad flags", timerfd_create(CLOCK_MONOTONIC, 1));
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	say("TFD_CLOEXEC: close-on-exec %s\n", yes(fcntl(fd, F_GETFD) & FD_CLOEXEC));
	struct itimerspec s = spec(0, 0), got;
	s.it_value.tv_nsec = 1000000000;
	outcome("settime nsec 10^9", timerfd_settime(fd, 0, &s, NULL));
	s = spec(0, 0);
	s.it_interval.tv_sec = -1;
	outcome("settime a negative interval", timerfd_settime(fd, 0, &s, NULL));
	s = spec(MS, 0);
	outcome("settime bad flags", timerfd_settime(fd, 4, &s, NULL));
	outcome("settime a bad descriptor", timerfd_settime(999, 0, &s, NULL));
	int p[2];
	pipe(p);
	outcome("settime on a pipe", timerfd_settime(p[0], 0, &s, NULL));
	outcome("gettime on a pipe", timerfd_gettime(p[0], &got));
	outcome("gettime a bad descriptor", timerfd_gettime(999, &got));
	close(p[0]);
	close(p[1]);
	outcome("settime a bad new pointer", timerfd_settime(fd, 0, (struct itimerspec *)8, NULL));
	outcome("settime a NULL new pointer", timerfd_settime(fd, 0, NULL, NULL));
	outcome("gettime a bad pointer", timerfd_gettime(fd, (struct itimerspec *)8));
	uint32_t small;
	outcome("read into 4 bytes", read(fd, &small, sizeof small));
	uint64_t v = 1;
	outcome("write", write(fd, &v, sizeof v));
	outcome("pread", pread(fd, &v, 8, 0));
	close(fd);
}

int main(void)
{
	one_shot(CLOCK_MONOTONIC, "CLOCK_MONOTONIC");
	one_shot(CLOCK_REALTIME, "CLOCK_REALTIME");
	one_shot(CLOCK_BOOTTIME, "CLOCK_BOOTTIME");
	periodic();
	sharing();
	errors();
	return 0;
}
