/*
 * TOSTOP and SIGTTOU: a background job (a child in a process group of its
 * own) writes to the terminal freely while TOSTOP is clear; with TOSTOP
 * set its write stops it with SIGTTOU (the parent's waitpid sees it), and
 * once it is made the foreground group and continued the same write goes
 * through; a job that ignores SIGTTOU writes all the same, and its read
 * with SIGTTIN ignored gives EIO. The job writes to /dev/tty, the controlling terminal (on Linux
 * the runner's setsid -c; here the test makes its group the foreground
 * first). termios and the foreground group are put back.
 */
#include "posix_test.h"

#include <signal.h>
#include <sys/wait.h>
#include <termios.h>

static pid_t background_writer(const char *line)
{
	int gate[2];
	pipe(gate);
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGTTOU, SIG_DFL);   /* the parent ignores it */
		setpgid(0, 0);
		close(gate[1]);
		char c;
		read(gate[0], &c, 1);   /* the parent has seen us in our group */
		/* Through /dev/tty: Linux's /dev/console (the runner's fd 1)
		 * is a redirection that TOSTOP does not apply to. */
		int fd = open("/dev/tty", O_WRONLY);
		ssize_t n = write(fd < 0 ? 1 : fd, line, strlen(line));
		_exit(n == (ssize_t)strlen(line) ? 0 : 1);
	}
	setpgid(pid, pid);
	close(gate[0]);
	write(gate[1], "x", 1);
	close(gate[1]);
	return pid;
}

int main(void)
{
	if (!isatty(1)) {
		say("fd 1 is not a terminal\n");
		return 0;
	}
	signal(SIGTTOU, SIG_IGN);   /* we change the foreground group from behind */
	pid_t me = getpgrp();
	say("make our group the foreground: %s\n", tcsetpgrp(1, me) == 0 ? "ok" : err_name(errno));
	struct termios saved, t;
	tcgetattr(1, &saved);
	say("TOSTOP clear at first: %s\n", yes(!(saved.c_lflag & TOSTOP)));

	pid_t pid = background_writer("background write without TOSTOP\n");
	int status = -1;
	waitpid(pid, &status, WUNTRACED);
	say("the background child exited: %s\n", yes(WIFEXITED(status) && WEXITSTATUS(status) == 0));

	t = saved;
	t.c_lflag |= TOSTOP;
	say("set TOSTOP: %s\n", tcsetattr(1, TCSANOW, &t) == 0 ? "ok" : err_name(errno));
	pid = background_writer("background write with TOSTOP, once in front\n");
	waitpid(pid, &status, WUNTRACED);
	say("the background writer stopped by SIGTTOU: %s\n",
	    yes(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTTOU));
	say("make it the foreground: %s\n", tcsetpgrp(1, pid) == 0 ? "ok" : err_name(errno));
	kill(pid, SIGCONT);
	waitpid(pid, &status, WUNTRACED | WCONTINUED);
	if (WIFCONTINUED(status))
		waitpid(pid, &status, WUNTRACED);
	say("then it wrote and exited: %s\n", yes(WIFEXITED(status) && WEXITSTATUS(status) == 0));
	say("our group in front: %s\n", tcsetpgrp(1, me) == 0 ? "ok" : err_name(errno));

	/* A job that ignores SIGTTOU writes all the same; one that ignores
	 * SIGTTIN and reads gets EIO. */
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		usleep(100 * 1000);
		int fd = open("/dev/tty", O_RDWR);
		const char *line = "background write ignoring SIGTTOU\n";
		ssize_t n = write(fd, line, strlen(line));
		signal(SIGTTIN, SIG_IGN);
		char c;
		ssize_t r = read(fd, &c, 1);
		_exit(n == (ssize_t)strlen(line) && r < 0 && errno == EIO ? 0 : 1);
	}
	setpgid(pid, pid);
	waitpid(pid, &status, WUNTRACED);
	say("it wrote, and its read gave EIO: %s\n", yes(WIFEXITED(status) && WEXITSTATUS(status) == 0));
	if (WIFSTOPPED(status)) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	say("TOSTOP cleared: %s\n", tcsetattr(1, TCSANOW, &saved) == 0 ? "ok" : err_name(errno));
	return 0;
}
