/*
 * A fork bomb held by the process limit: fork until refused (EAGAIN), every
 * child waiting on a pipe; then let them all go, reap each, and fork again
 * once the slots are back. The next program in run.sh running at all shows
 * the system survived.
 *
 * Linux lets root fork past RLIMIT_NPROC, so the program first lowers that
 * limit and becomes an unprivileged user where it can (Linux); Myrmex has a
 * fixed system-wide process limit and one root user, so there these calls may
 * fail, which is ignored. Nothing about them is printed.
 */
#include "posix_test.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

#define CAP 4096        /* stop here if nothing refuses */
#define NPROC_LIMIT 48

static pid_t kids[CAP];

static void limit_processes(void)
{
	struct rlimit rl = { NPROC_LIMIT, NPROC_LIMIT };
	setrlimit(RLIMIT_NPROC, &rl);
	if (getuid() == 0) {
		if (setgid(65534) < 0 || setuid(65534) < 0)
			errno = 0;
	}
}

int main(void)
{
	int gate[2];
	if (pipe(gate) < 0)
		return 1;
	limit_processes();
	int count = 0, error = 0;
	while (count < CAP) {
		pid_t pid = fork();
		if (pid < 0) {
			error = errno;
			break;
		}
		if (pid == 0) {
			char c;
			close(gate[1]);
			/* End of file once the parent closes its end. */
			_exit(read(gate[0], &c, 1) == 0 ? 0 : 1);
		}
		kids[count++] = pid;
	}
	say("fork eventually failed: %s\n", yes(count < CAP));
	say("the error was EAGAIN: %s%s%s\n", yes(error == EAGAIN), error && error != EAGAIN ? " " : "",
	    error && error != EAGAIN ? err_name(error) : "");
	say("more than 8 children ran before the limit: %s\n", yes(count > 8));
	close(gate[1]);
	int clean = 0;
	for (int i = 0; i < count; i++) {
		int status = 0;
		if (waitpid(kids[i], &status, 0) == kids[i] && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 0)
			clean++;
	}
	say("every child exited cleanly and was reaped: %s\n", yes(clean == count));
	errno = 0;
	say("no child left: %s\n", yes(waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD));
	/* A slot may take a moment to come back: try for up to 5 s. */
	int again = 0;
	for (int i = 0; i < 500 && !again; i++) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid > 0) {
			int status;
			again = waitpid(pid, &status, 0) == pid && WIFEXITED(status);
		} else {
			nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
		}
	}
	say("fork works again afterwards: %s\n", yes(again));
	return 0;
}
