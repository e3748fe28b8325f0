/*
 * sigprocmask, sigpending and sigsuspend: a blocked signal stays pending and
 * is delivered when unblocked; a standard signal does not queue; SIGKILL and
 * SIGSTOP cannot be blocked; sigsuspend waits with a temporary mask and
 * restores the old one; fork keeps the mask and clears the pending set.
 */
#include "posix_test.h"

#include <signal.h>
#include <sys/wait.h>

static volatile sig_atomic_t count;

static void on_usr1(int sig)
{
	(void)sig;
	count++;
}

static int pending(int sig)
{
	sigset_t set;
	sigpending(&set);
	return sigismember(&set, sig);
}

static int blocked(int sig)
{
	sigset_t set;
	sigprocmask(SIG_BLOCK, NULL, &set);
	return sigismember(&set, sig);
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigset_t usr1, old;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);

	say("SIGUSR1 blocked at start: %s\n", yes(blocked(SIGUSR1)));
	sigprocmask(SIG_BLOCK, &usr1, &old);
	say("old mask lacked SIGUSR1: %s\n", yes(!sigismember(&old, SIGUSR1)));
	say("SIGUSR1 blocked: %s\n", yes(blocked(SIGUSR1)));
	raise(SIGUSR1);
	say("blocked signal not delivered: %s\n", yes(count == 0));
	say("blocked signal pending: %s\n", yes(pending(SIGUSR1)));
	raise(SIGUSR1);
	sigprocmask(SIG_UNBLOCK, &usr1, NULL);
	say("delivered once on unblock (no queueing): %s (count %d)\n", yes(count == 1), (int)count);
	say("pending after delivery: %s\n", yes(pending(SIGUSR1)));

	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	say("SIG_SETMASK of all: SIGKILL blocked: %s, SIGSTOP blocked: %s, SIGTERM blocked: %s\n",
	    yes(blocked(SIGKILL)), yes(blocked(SIGSTOP)), yes(blocked(SIGTERM)));
	sigprocmask(SIG_SETMASK, &usr1, NULL);
	say("SIG_SETMASK of SIGUSR1 only: SIGTERM blocked: %s\n", yes(blocked(SIGTERM)));

	/* fork keeps the mask, clears the pending set. */
	raise(SIGUSR1);
	pid_t pid = fork();
	if (pid == 0)
		_exit((blocked(SIGUSR1) ? 1 : 0) | (pending(SIGUSR1) ? 2 : 0));
	int status = 0;
	waitpid(pid, &status, 0);
	int bits = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	say("child keeps the mask: %s, child has the parent's pending signal: %s\n",
	    yes(bits >= 0 && (bits & 1)), yes(bits >= 0 && (bits & 2)));
	say("parent still has it pending: %s\n", yes(pending(SIGUSR1)));
	count = 0;
	sigset_t none;
	sigemptyset(&none);
	errno = 0;
	int r = sigsuspend(&none);
	say("sigsuspend with a pending signal: returned %d %s, handler ran: %s\n", r,
	    err_name(errno), yes(count == 1));

	/* sigsuspend waits for a signal sent by a child. */
	pid_t parent = getpid();
	count = 0;
	pid = fork();
	if (pid == 0) {
		kill(parent, SIGUSR1);
		_exit(0);
	}
	errno = 0;
	r = sigsuspend(&none);
	say("sigsuspend woken by a child's SIGUSR1: returned %d %s, handler ran: %s\n", r,
	    err_name(errno), yes(count == 1));
	say("mask restored after sigsuspend (SIGUSR1 blocked): %s\n", yes(blocked(SIGUSR1)));
	waitpid(pid, NULL, 0);

	errno = 0;
	r = sigprocmask(12345, &usr1, NULL);
	say("sigprocmask with a bad how: %d %s\n", r, err_name(errno));
	return 0;
}
