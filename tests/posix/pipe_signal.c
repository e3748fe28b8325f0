/*
 * pipe() while signals come: Linux's pipe() never fails with EINTR, and a
 * signal never leaves descriptors behind. The parent catches SIGCHLD with
 * a handler without SA_RESTART (as busybox sh does) and makes and closes
 * pipes while children exit: a child forked every EVERY pipes exits at
 * once (the file manager closes its descriptors while the parent's next
 * pipe() waits there, and the SIGCHLD comes meanwhile). Every pipe() must
 * succeed, and afterwards the lowest free descriptor is the one it was
 * before (no pipe end left open by a call a signal cut short). The signal
 * has to land in a narrow window, so the test cannot make it happen every
 * time; it never fails on a correct system.
 */
#include "posix_test.h"

#include <signal.h>
#include <sys/wait.h>

#define PIPES    1200
#define EVERY    8
#define CHILDREN (PIPES / EVERY)

static volatile sig_atomic_t exited;

static void on_chld(int sig)
{
	(void)sig;
	exited++;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_chld, .sa_flags = 0 };   /* no SA_RESTART */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);

	int lowest = dup(0);
	close(lowest);
	int failed = 0, eintr = 0, forked = 0;
	for (int i = 0; i < PIPES; i++) {
		if (i % EVERY == 0) {
			pid_t pid = fork();
			if (pid == 0)
				_exit(0);
			forked += pid > 0;
		}
		int fds[2];
		if (pipe(fds) != 0) {
			failed++;
			eintr += errno == EINTR;
			continue;
		}
		close(fds[0]);
		close(fds[1]);
	}
	int reaped = 0;
	while (reaped < forked) {
		pid_t pid = wait(NULL);
		if (pid > 0)
			reaped++;
		else if (errno != EINTR)
			break;
	}
	int now = dup(0);
	close(now);
	say("pipe() while children exit: failed %d (EINTR %d)\n", failed, eintr);
	say("children reaped: %d of %d\n", reaped, CHILDREN);
	say("no descriptor left open: %s\n", yes(now == lowest));
	return 0;
}
