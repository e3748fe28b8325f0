/*
 * SIGCHLD: sent to the parent when a child exits or is killed, with the
 * child's pid, CLD_EXITED/CLD_KILLED and the status in its siginfo; ignored
 * by default; with SIGCHLD set to SIG_IGN children are reaped by the system
 * and wait reports ECHILD.
 */
#include "posix_test.h"

#include <signal.h>
#include <sys/wait.h>

static volatile sig_atomic_t count;
static volatile int got_pid, got_code, got_status;

static void on_chld(int sig, siginfo_t *info, void *ctx)
{
	(void)sig;
	(void)ctx;
	got_pid = info->si_pid;
	got_code = info->si_code;
	got_status = info->si_status;
	count++;
}

static const char *code_name(int code)
{
	switch (code) {
	case CLD_EXITED: return "CLD_EXITED";
	case CLD_KILLED: return "CLD_KILLED";
	case CLD_DUMPED: return "CLD_DUMPED";
	default: return "other";
	}
}

int main(void)
{
	sigset_t chld, none;
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigemptyset(&none);

	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	int status = 0;
	waitpid(pid, &status, 0);
	say("default SIGCHLD ignored: the parent goes on: yes\n");

	struct sigaction sa = { .sa_sigaction = on_chld, .sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	sigprocmask(SIG_BLOCK, &chld, NULL);

	pid = fork();
	if (pid == 0)
		_exit(42);
	while (count == 0)
		sigsuspend(&none);
	say("SIGCHLD on exit: once: %s, si_pid is the child: %s, si_code %s, si_status %d\n",
	    yes(count == 1), yes(got_pid == pid), code_name(got_code), got_status);
	waitpid(pid, &status, 0);
	say("child reaped after SIGCHLD: exit %d\n", WEXITSTATUS(status));

	count = 0;
	pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	kill(pid, SIGKILL);
	while (count == 0)
		sigsuspend(&none);
	say("SIGCHLD on a kill: si_pid is the child: %s, si_code %s, si_status %d\n",
	    yes(got_pid == pid), code_name(got_code), got_status);
	waitpid(pid, &status, 0);
	sigprocmask(SIG_UNBLOCK, &chld, NULL);

	signal(SIGCHLD, SIG_IGN);
	pid = fork();
	if (pid == 0)
		_exit(1);
	errno = 0;
	pid_t w = waitpid(pid, &status, 0);
	say("SIGCHLD ignored: waitpid for the exited child: %ld %s\n", (long)w, err_name(errno));
	signal(SIGCHLD, SIG_DFL);
	return 0;
}
