/*
 * Orphans and exec: a process whose parent ends becomes a child of init
 * (getppid() is 1), is no longer its grandparent's to wait for, and is
 * reaped by init when it ends; SIGTSTP does not stop a process of an
 * orphaned process group, and a group orphaned while a member is stopped
 * gets SIGHUP and SIGCONT; setpgid on a child succeeds before the child
 * calls execve and gives EACCES after.
 */
#include "posix_test.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void put(int fd, long v)
{
	if (write(fd, &v, sizeof v) != sizeof v)
		_exit(90);
}

static long get(int fd)
{
	long v = -999;
	if (read(fd, &v, sizeof v) != sizeof v)
		return -998;
	return v;
}

static void orphan(void)
{
	int up[2], down[2], mid[2];
	if (pipe(up) < 0 || pipe(down) < 0 || pipe(mid) < 0)
		return;
	pid_t middle = fork();
	if (middle == 0) {
		pid_t me = getpid();
		pid_t grandchild = fork();
		if (grandchild == 0) {
			/* Only the grandchild writes to the pipe: its words keep their order. */
			put(up[1], getpid());
			put(up[1], getppid() == me);
			put(mid[1], 1);   /* the middle process may end now */
			/* Wait (3 s at most) for the middle process to end. */
			for (int i = 0; i < 300 && getppid() == me; i++)
				nap_ms(10);
			put(up[1], getppid());
			/* In a group of its own, whose only member's parent is init:
			 * an orphaned group, which SIGTSTP does not stop. */
			setpgid(0, 0);
			raise(SIGTSTP);
			put(up[1], 1);
			get(down[0]);   /* until the grandparent has looked */
			_exit(0);
		}
		if (grandchild < 0 || get(mid[0]) != 1)
			_exit(6);
		_exit(5);
	}
	long grandchild = get(up[0]);
	int status = 0;
	waitpid(middle, &status, 0);
	say("the middle process exited: %s\n", yes(WIFEXITED(status) && WEXITSTATUS(status) == 5));
	say("before, the grandchild's parent was the middle process: %s\n", yes(get(up[0]) == 1));
	long ppid = get(up[0]);
	say("after, the orphan's getppid(): %ld\n", ppid);
	struct pollfd pfd = { .fd = up[0], .events = POLLIN };
	long ran = poll(&pfd, 1, 3000) == 1 ? get(up[0]) : 0;
	say("SIGTSTP in an orphaned process group does not stop it: %s\n", yes(ran == 1));
	errno = 0;
	say("waitpid of the orphan by its grandparent: %s\n",
	    waitpid((pid_t)grandchild, &status, WNOHANG) < 0 ? err_name(errno) : "succeeded");
	say("the orphan is alive: %s\n", yes(kill((pid_t)grandchild, 0) == 0));
	put(down[1], 1);
	int gone = 0;
	for (int i = 0; i < 300 && !gone; i++) {
		gone = kill((pid_t)grandchild, 0) < 0 && errno == ESRCH;
		if (!gone)
			nap_ms(10);
	}
	say("once it exits, init reaps it: %s\n", yes(gone));
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
	close(mid[0]);
	close(mid[1]);
}

static int hup_fd;

static void on_hup(int sig)
{
	(void)sig;
	_exit(write(hup_fd, "H", 1) == 1 ? 0 : 3);
}

/* A middle process's child stops in a group of its own; the middle process
 * ends, which orphans that group: SIGHUP (caught here), then SIGCONT. */
static void orphaned_while_stopped(void)
{
	int up[2];
	if (pipe(up) < 0)
		return;
	pid_t middle = fork();
	if (middle == 0) {
		pid_t child = fork();
		if (child == 0) {
			setpgid(0, 0);
			hup_fd = up[1];
			signal(SIGHUP, on_hup);
			raise(SIGSTOP);
			_exit(write(up[1], "C", 1) == 1 ? 4 : 5);   /* continued without SIGHUP */
		}
		setpgid(child, child);
		int status = 0;
		waitpid(child, &status, WUNTRACED);
		_exit(WIFSTOPPED(status) ? 0 : 1);
	}
	close(up[1]);
	int status = 0;
	waitpid(middle, &status, 0);
	say("the middle process saw its child stop: %s\n",
	    yes(WIFEXITED(status) && WEXITSTATUS(status) == 0));
	struct pollfd pfd = { .fd = up[0], .events = POLLIN };
	char c = 0;
	if (poll(&pfd, 1, 3000) == 1 && read(up[0], &c, 1) != 1)
		c = 0;
	say("its group, orphaned while it is stopped, gets SIGHUP: %s\n", yes(c == 'H'));
	close(up[0]);
}

static void setpgid_exec(void)
{
	int fds[2];
	if (pipe(fds) < 0)
		return;
	/* Before exec: the parent may move the child. */
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		close(fds[1]);
		if (read(fds[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	say("setpgid on a child before exec: %s\n", setpgid(pid, pid) == 0 ? "0" : err_name(errno));
	say("the child's group is its own: %s\n", yes(getpgid(pid) == pid));
	close(fds[0]);
	close(fds[1]);
	waitpid(pid, NULL, 0);

	/* After exec (seen as the end of a close-on-exec pipe): EACCES. */
	if (pipe2(fds, O_CLOEXEC) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		execl("/bin/sleep", "sleep", "2", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	char c;
	say("the child has exec'd: %s\n", yes(read(fds[0], &c, 1) == 0));
	errno = 0;
	say("setpgid on a child after exec: %s\n", setpgid(pid, pid) == 0 ? "0" : err_name(errno));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(fds[0]);
}

int main(void)
{
	orphan();
	orphaned_while_stopped();
	setpgid_exec();
	return 0;
}
