/*
 * signalfd: blocked signals read as struct signalfd_siginfo (signo, code,
 * pid, uid, a child's status), several in one read (lowest first), only
 * those of the mask (SIGKILL and SIGSTOP never), the mask changed by a
 * second call, a thread-directed signal, SFD_NONBLOCK (EAGAIN) and
 * SFD_CLOEXEC, poll and epoll, a read waiting for a child's kill or a
 * child's exit, a read interrupted by another signal, a descriptor
 * inherited by a child (which reads its own signals); fstat and the
 * /proc/self/fd link; bad sizes, masks, flags, descriptors and pointers.
 */
#include "posix_test.h"

#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

static void show_read(const char *what, int fd, size_t room, pid_t from)
{
	struct signalfd_siginfo si[3];
	memset(si, 0, sizeof si);
	errno = 0;
	ssize_t n = read(fd, si, room);
	if (n < 0) {
		say("%s: error %s\n", what, err_name(errno));
		return;
	}
	say("%s: %zd bytes", what, n);
	for (ssize_t i = 0; i < n / (ssize_t)sizeof si[0]; i++)
		say(" [signo %u code %d pid %s uid %u status %d]", si[i].ssi_signo, si[i].ssi_code,
		    si[i].ssi_pid == (uint32_t)from ? "as expected" : "other", si[i].ssi_uid, si[i].ssi_status);
	say("\n");
}

static void show_pending(const char *what)
{
	sigset_t s;
	sigpending(&s);
	say("%s: pending USR1 %s, USR2 %s\n", what, yes(sigismember(&s, SIGUSR1)), yes(sigismember(&s, SIGUSR2)));
}

static void on_signal(int sig)
{
	(void)sig;
}

int main(void)
{
	sigset_t block, mask;
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGUSR2);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, NULL);
	pid_t me = getpid();

	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	int fd = signalfd(-1, &mask, SFD_NONBLOCK);
	say("signalfd: O_NONBLOCK %s, close-on-exec %s, read-write %s\n", yes(fcntl(fd, F_GETFL) & O_NONBLOCK),
	    yes(fcntl(fd, F_GETFD) & FD_CLOEXEC), yes((fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR));
	show_read("nothing pending", fd, 128, me);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	say("poll, nothing pending: %d\n", poll(&p, 1, 0));
	kill(me, SIGUSR1);
	int r = poll(&p, 1, 0);
	say("poll, SIGUSR1 pending: %d, IN %s\n", r, yes(p.revents & POLLIN));
	show_read("read", fd, 128, me);
	show_pending("after the read");
	kill(me, SIGUSR2);
	show_read("SIGUSR2 pending, not in the mask", fd, 128, me);
	show_pending("then");
	sigaddset(&mask, SIGUSR2);
	say("signalfd on the same descriptor: same number %s\n", yes(signalfd(fd, &mask, 0) == fd));
	say("  O_NONBLOCK kept: %s\n", yes(fcntl(fd, F_GETFL) & O_NONBLOCK));
	show_read("read", fd, 128, me);
	kill(me, SIGUSR2);
	kill(me, SIGUSR1);
	show_read("two pending, room for three", fd, 3 * 128, me);
	kill(me, SIGUSR2);
	kill(me, SIGUSR1);
	show_read("two pending, room for one", fd, 128, me);
	show_read("and the other", fd, 200, me);
	kill(me, SIGUSR1);
	show_read("a read into 127 bytes", fd, 127, me);
	outcome("a read into a kernel address", read(fd, (void *)0xffff800000000000ull, 128));
	show_read("the signal is still there", fd, 128, me);
	syscall(SYS_tgkill, me, (pid_t)syscall(SYS_gettid), SIGUSR1);
	show_read("tgkill", fd, 128, me);
	outcome("write", write(fd, "12345678", 8));

	struct stat st;
	fstat(fd, &st);
	say("fstat: type bits %o, permissions %o\n", (unsigned)(st.st_mode & S_IFMT), (unsigned)(st.st_mode & 07777));
	char link[64], path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(path, link, sizeof link - 1);
	link[n > 0 ? n : 0] = '\0';
	say("/proc/self/fd link: %s\n", link);

	/* Blocking reads. */
	int bfd = signalfd(-1, &mask, SFD_CLOEXEC);
	say("SFD_CLOEXEC: close-on-exec %s, O_NONBLOCK %s\n", yes(fcntl(bfd, F_GETFD) & FD_CLOEXEC),
	    yes(fcntl(bfd, F_GETFL) & O_NONBLOCK));
	pid_t pid = fork();
	if (pid == 0) {
		usleep(100000);
		kill(getppid(), SIGUSR2);
		_exit(0);
	}
	show_read("a read waiting for the child's kill", bfd, 128, pid);
	waitpid(pid, NULL, 0);
	sigset_t chld;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	int cfd = signalfd(-1, &chld, 0);
	show_read("the first child's SIGCHLD (it was reaped)", cfd, 128, pid);
	pid = fork();
	if (pid == 0) {
		usleep(100000);
		_exit(3);
	}
	show_read("a read waiting for the child's exit", cfd, 128, pid);
	waitpid(pid, NULL, 0);
	close(cfd);
	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { .it_value = { 0, 100000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	show_read("a read interrupted by SIGALRM (not blocked)", bfd, 128, me);

	/* epoll. */
	int ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = 9 }, out;
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	say("epoll, nothing pending: %d\n", epoll_wait(ep, &out, 1, 0));
	pid = fork();
	if (pid == 0) {
		usleep(100000);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	r = epoll_wait(ep, &out, 1, -1);
	say("epoll, waited for the child's kill: %d, IN %s\n", r, yes(r > 0 && (out.events & EPOLLIN)));
	waitpid(pid, NULL, 0);
	show_read("read", fd, 128, pid);
	close(ep);

	/* A child reads its own signals through the inherited descriptor. */
	pid = fork();
	if (pid == 0) {
		kill(getpid(), SIGUSR2);
		struct signalfd_siginfo si;
		ssize_t got = read(fd, &si, sizeof si);
		_exit(got == sizeof si && si.ssi_signo == SIGUSR2 && si.ssi_pid == (uint32_t)getpid() ? 0 : 1);
	}
	int status;
	waitpid(pid, &status, 0);
	say("the child read its own SIGUSR2: %s\n", yes(WIFEXITED(status) && WEXITSTATUS(status) == 0));
	show_pending("the parent's after");

	/* SIGKILL and SIGSTOP in the mask are left out. */
	sigset_t all;
	sigfillset(&all);
	sigdelset(&all, SIGCHLD);   /* the children's, pending */
	int kfd = signalfd(-1, &all, SFD_NONBLOCK);
	show_read("a mask of every signal, nothing pending", kfd, 128, me);
	close(kfd);

	outcome("bad flags", signalfd(-1, &mask, 1));
	outcome("sigsetsize 4", syscall(SYS_signalfd4, -1, &mask, 4, 0));
	outcome("a bad mask pointer", syscall(SYS_signalfd4, -1, (void *)8, 8, 0));
	outcome("descriptor -5", signalfd(-5, &mask, 0));
	outcome("descriptor 999", signalfd(999, &mask, 0));
	int pp[2];
	pipe(pp);
	outcome("a pipe", signalfd(pp[0], &mask, 0));
	close(pp[0]);
	close(pp[1]);
	outcome("signalfd (the old call, sigsetsize 8)", syscall(SYS_signalfd, -1, &mask, 8));
	close(bfd);
	close(fd);
	return 0;
}
