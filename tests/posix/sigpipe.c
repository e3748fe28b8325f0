/*
 * SIGPIPE: a write to a pipe without a reader kills the writer by default;
 * with SIGPIPE ignored the write fails with EPIPE; with a handler the handler
 * runs and the write fails with EPIPE; a reader that ended in another process
 * counts as gone.
 */
#include "posix_test.h"

#include <signal.h>
#include <sys/wait.h>

static volatile sig_atomic_t count;

static void on_pipe(int sig)
{
	(void)sig;
	count++;
}

int main(void)
{
	int p[2];
	if (pipe(p) < 0)
		return 1;
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		if (write(p[1], "x", 1) < 0)
			_exit(3);
		_exit(4);
	}
	close(p[0]);
	close(p[1]);
	int status = 0;
	waitpid(pid, &status, 0);
	say("write without a reader, default action: killed by signal %d\n",
	    WIFSIGNALED(status) ? WTERMSIG(status) : 0);

	signal(SIGPIPE, SIG_IGN);
	if (pipe(p) < 0)
		return 1;
	close(p[0]);
	errno = 0;
	ssize_t n = write(p[1], "x", 1);
	say("write without a reader, SIGPIPE ignored: %zd %s\n", n, err_name(errno));
	close(p[1]);

	struct sigaction sa = { .sa_handler = on_pipe };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
	if (pipe(p) < 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		_exit(0);       /* the last reader goes away */
	}
	close(p[0]);
	waitpid(pid, &status, 0);
	errno = 0;
	n = write(p[1], "x", 1);
	say("write after the reader's process ended, with a handler: %zd %s, handler ran: %s\n",
	    n, err_name(errno), yes(count == 1));
	close(p[1]);
	return 0;
}
