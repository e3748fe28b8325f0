/*
 * eventfd: the count read whole or one at a time (EFD_SEMAPHORE), writes
 * adding to it, the 2^64-2 ceiling, EFD_NONBLOCK (EAGAIN) and EFD_CLOEXEC,
 * poll and epoll (edge-triggered: each write is an edge), a read blocked
 * until a child writes, a write blocked until a child reads, a blocked read
 * interrupted by a signal, a counter shared across fork; fstat, the
 * /proc/self/fd link, lseek and pread; bad sizes, values, flags and
 * pointers.
 */
#include "posix_test.h"

#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

static void show_read(const char *what, int fd)
{
	uint64_t v = 0;
	errno = 0;
	ssize_t n = read(fd, &v, sizeof v);
	if (n < 0)
		say("%s: error %s\n", what, err_name(errno));
	else
		say("%s: %zd bytes, value %llu\n", what, n, (unsigned long long)v);
}

static void show_write(const char *what, int fd, uint64_t v)
{
	errno = 0;
	ssize_t n = write(fd, &v, sizeof v);
	if (n < 0)
		say("%s: error %s\n", what, err_name(errno));
	else
		say("%s: %zd bytes\n", what, n);
}

static void show_poll(const char *what, int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };
	int r = poll(&p, 1, 0);
	say("%s: poll %d, IN %s, OUT %s, ERR %s\n", what, r, yes(p.revents & POLLIN), yes(p.revents & POLLOUT),
	    yes(p.revents & POLLERR));
}

static void on_signal(int sig)
{
	(void)sig;
}

static void counting(void)
{
	int fd = eventfd(3, EFD_NONBLOCK);
	say("eventfd(3, EFD_NONBLOCK): access mode read-write %s, O_NONBLOCK %s, close-on-exec %s\n",
	    yes((fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR), yes(fcntl(fd, F_GETFL) & O_NONBLOCK),
	    yes(fcntl(fd, F_GETFD) & FD_CLOEXEC));
	show_poll("count 3", fd);
	show_read("read", fd);
	show_read("read again", fd);
	show_poll("count 0", fd);
	show_write("write 5", fd, 5);
	show_write("write 2", fd, 2);
	show_read("read", fd);
	show_write("write 0", fd, 0);
	show_read("read after writing 0", fd);
	show_write("write 2^64-1", fd, UINT64_MAX);
	show_write("write 2^64-2", fd, UINT64_MAX - 1);
	show_poll("count 2^64-2", fd);
	show_write("write 1 more", fd, 1);
	show_read("read", fd);
	uint32_t small = 1;
	outcome("read into 4 bytes", read(fd, &small, sizeof small));
	outcome("write 4 bytes", write(fd, &small, sizeof small));
	uint64_t two[2] = { 4, 5 };
	outcome_value("write 16 bytes (the first 8 count)", write(fd, two, sizeof two));
	outcome_value("read into 16 bytes", read(fd, two, sizeof two));
	say("value %llu\n", (unsigned long long)two[0]);
	write(fd, &(uint64_t){ 9 }, 8);
	outcome("read into a kernel address", read(fd, (void *)0xffff800000000000ull, 8));
	outcome("write from a bad address", write(fd, (void *)8, 8));
	show_read("the count is still", fd);
	outcome("pread", pread(fd, two, 8, 0));
	outcome_value("lseek", lseek(fd, 0, SEEK_CUR));
	struct stat st;
	fstat(fd, &st);
	say("fstat: type bits %o, permissions %o\n", (unsigned)(st.st_mode & S_IFMT), (unsigned)(st.st_mode & 07777));
	char link[64], path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(path, link, sizeof link - 1);
	link[n > 0 ? n : 0] = '\0';
	say("/proc/self/fd link: %s\n", link);
	close(fd);

	fd = eventfd(3, EFD_SEMAPHORE | EFD_NONBLOCK);
	show_read("semaphore: read", fd);
	show_read("semaphore: read", fd);
	show_read("semaphore: read", fd);
	show_read("semaphore: read", fd);
	close(fd);

	fd = eventfd(0, EFD_CLOEXEC);
	say("EFD_CLOEXEC: close-on-exec %s, O_NONBLOCK %s\n", yes(fcntl(fd, F_GETFD) & FD_CLOEXEC),
	    yes(fcntl(fd, F_GETFL) & O_NONBLOCK));
	close(fd);
	errno = 0;
	outcome("eventfd bad flags", eventfd(0, 8));
	fd = (int)syscall(SYS_eventfd2, 0x100000005ull, EFD_NONBLOCK);
	show_read("eventfd2 with 2^32 + 5 (an unsigned int)", fd);
	close(fd);
	fd = (int)syscall(SYS_eventfd, 6);
	say("eventfd (the old call): O_NONBLOCK %s\n", yes(fcntl(fd, F_GETFL) & O_NONBLOCK));
	fcntl(fd, F_SETFL, O_NONBLOCK);
	show_read("read", fd);
	close(fd);
}

static void blocking(void)
{
	int fd = eventfd(0, 0);
	pid_t pid = fork();
	if (pid == 0) {
		usleep(100000);
		write(fd, &(uint64_t){ 4 }, 8);
		_exit(0);
	}
	show_read("a read waiting for the child's write", fd);
	waitpid(pid, NULL, 0);

	write(fd, &(uint64_t){ UINT64_MAX - 1 }, 8);
	pid = fork();
	if (pid == 0) {
		usleep(100000);
		uint64_t v;
		read(fd, &v, 8);
		_exit(v == UINT64_MAX - 1 ? 0 : 1);
	}
	show_write("a write waiting for the child's read", fd, 1);
	int status;
	waitpid(pid, &status, 0);
	say("the child read 2^64-2: %s\n", yes(WIFEXITED(status) && WEXITSTATUS(status) == 0));
	show_read("then", fd);

	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { .it_value = { 0, 100000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	show_read("a read interrupted by SIGALRM", fd);
	show_write("the count is untouched: write 1", fd, 1);
	show_read("read", fd);

	/* Shared across fork: the child's writes are the parent's count. */
	pid = fork();
	if (pid == 0) {
		write(fd, &(uint64_t){ 10 }, 8);
		write(fd, &(uint64_t){ 20 }, 8);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	show_read("after the child wrote 10 and 20", fd);
	close(fd);
}

static void with_epoll(void)
{
	int fd = eventfd(0, EFD_NONBLOCK), ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.u64 = 7 };
	outcome("epoll ADD, EPOLLIN|EPOLLET", epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev));
	struct epoll_event got[2];
	say("nothing written: %d\n", epoll_wait(ep, got, 2, 0));
	write(fd, &(uint64_t){ 1 }, 8);
	int n = epoll_wait(ep, got, 2, 0);
	say("written: %d, IN %s, data %llu\n", n, yes(n > 0 && (got[0].events & EPOLLIN)),
	    (unsigned long long)(n > 0 ? got[0].data.u64 : 0));
	say("again: %d\n", epoll_wait(ep, got, 2, 0));
	write(fd, &(uint64_t){ 1 }, 8);
	say("written again (a new edge): %d\n", epoll_wait(ep, got, 2, 0));
	ev.events = EPOLLOUT;
	epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev);
	n = epoll_wait(ep, got, 2, 0);
	say("asked for OUT: %d, OUT %s\n", n, yes(n > 0 && (got[0].events & EPOLLOUT)));
	close(ep);
	close(fd);
}

int main(void)
{
	counting();
	blocking();
	with_epoll();
	return 0;
}
