/*
 * wait4/waitpid: exit codes (0, 7, 255, and 256+3 truncated to 3), deaths by
 * signal (SIGKILL from the parent, SIGTERM raised, SIGSEGV from a bad access,
 * SIGABRT from abort) with the raw status word, WNOHANG before and after the
 * child ends, waiting for any child, wait4 with a rusage, a NULL status, and
 * ECHILD with no children or for a process that is not a child.
 */
#include "posix_test.h"

#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/wait.h>

static void describe(const char *what, pid_t pid, int status, pid_t waited)
{
	say("%s: returned the child: %s, ", what, yes(waited == pid));
	if (WIFEXITED(status))
		say("exited with %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		say("killed by signal %d", WTERMSIG(status));
	else
		say("other status");
	say(", raw status 0x%x\n", status);
}

static void exit_case(const char *what, int code)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(code);
	int status = -1;
	pid_t w = waitpid(pid, &status, 0);
	describe(what, pid, status, w);
}

int main(void)
{
	exit_case("exit 0", 0);
	exit_case("exit 7", 7);
	exit_case("exit 255", 255);
	exit_case("exit 259", 259);

	int status = -1;
	pid_t w;
	pid_t pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	kill(pid, SIGKILL);
	w = waitpid(pid, &status, 0);   /* before status is read: C leaves the order of arguments open */
	describe("SIGKILL from the parent", pid, status, w);

	pid = fork();
	if (pid == 0) {
		raise(SIGTERM);
		_exit(1);
	}
	w = waitpid(pid, &status, 0);   /* before status is read: C leaves the order of arguments open */
	describe("SIGTERM raised", pid, status, w);

	pid = fork();
	if (pid == 0) {
		volatile uintptr_t bad = 8;
		signal(SIGSEGV, SIG_DFL);
		*(volatile int *)bad = 1;
		_exit(1);
	}
	w = waitpid(pid, &status, 0);   /* before status is read: C leaves the order of arguments open */
	describe("store to address 8", pid, status, w);

	pid = fork();
	if (pid == 0)
		abort();
	waitpid(pid, &status, 0);
	say("abort: killed by signal %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : -1);

	/* WNOHANG: 0 while the child runs, then its pid once it has ended. */
	int p[2];
	if (pipe(p) < 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		char c;
		close(p[1]);
		_exit(read(p[0], &c, 1) == 1 ? 5 : 6);
	}
	close(p[0]);
	status = -1;
	say("WNOHANG while the child runs returns 0: %s\n", yes(waitpid(pid, &status, WNOHANG) == 0));
	if (write(p[1], "x", 1) != 1)
		say("write to the child failed\n");
	close(p[1]);
	w = 0;
	while ((w = waitpid(pid, &status, WNOHANG)) == 0)
		usleep(1000);
	describe("WNOHANG after the child ended", pid, status, w);

	/* Any child: -1, and wait4 with a rusage. */
	pid = fork();
	if (pid == 0)
		_exit(3);
	struct rusage ru;
	w = wait4(-1, &status, 0, &ru);
	describe("wait4(-1) with a rusage", pid, status, w);
	pid = fork();
	if (pid == 0)
		_exit(4);
	w = waitpid(pid, NULL, 0);
	say("waitpid with a NULL status returned the child: %s\n", yes(w == pid));
	pid = fork();
	if (pid == 0)
		_exit(5);
	w = wait(&status);
	describe("wait", pid, status, w);

	/* Three children, reaped in any order. */
	pid_t kids[3];
	for (int i = 0; i < 3; i++) {
		kids[i] = fork();
		if (kids[i] == 0)
			_exit(i + 1);
	}
	int sum = 0, found = 0;
	for (int i = 0; i < 3; i++) {
		w = waitpid(-1, &status, 0);
		for (int j = 0; j < 3; j++)
			found += w == kids[j];
		sum += WEXITSTATUS(status);
	}
	say("three children reaped: %s, exit codes sum to %d\n", yes(found == 3), sum);

	errno = 0;
	w = waitpid(-1, &status, 0);
	say("waitpid(-1) without children: %ld %s\n", (long)w, err_name(errno));
	errno = 0;
	w = waitpid(-1, &status, WNOHANG);
	say("waitpid(-1, WNOHANG) without children: %ld %s\n", (long)w, err_name(errno));
	errno = 0;
	w = waitpid(getppid(), &status, 0);
	say("waitpid of the parent (not a child): %ld %s\n", (long)w, err_name(errno));
	errno = 0;
	w = waitpid(kids[0], &status, 0);
	say("waitpid of a reaped child: %ld %s\n", (long)w, err_name(errno));
	return 0;
}
