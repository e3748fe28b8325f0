/*
 * nice: getpriority and setpriority (and the C library's nice) on a
 * process, a child, a process group and a user; the errors (a bad `which`,
 * a pid that names nobody, a lower nice without privilege, another user's
 * process) as root and as uid 1000. Values are nice values, as the C
 * library returns them.
 */
#include "posix_test.h"

#include <sys/resource.h>
#include <sys/wait.h>

static void show(const char *what, int which, int who)
{
	errno = 0;
	int v = getpriority(which, who);
	if (v == -1 && errno)
		say("getpriority(%s): error %s\n", what, err_name(errno));
	else
		say("getpriority(%s): %d\n", what, v);
}

int main(void)
{
	show("self", PRIO_PROCESS, 0);
	outcome("setpriority(self, 5)", setpriority(PRIO_PROCESS, 0, 5));
	show("self", PRIO_PROCESS, getpid());
	outcome("setpriority(self, 3) as root", setpriority(PRIO_PROCESS, 0, 3));
	show("self", PRIO_PROCESS, 0);
	outcome("setpriority(self, 40) (clamped)", setpriority(PRIO_PROCESS, 0, 40));
	show("self", PRIO_PROCESS, 0);
	outcome("setpriority(self, 0)", setpriority(PRIO_PROCESS, 0, 0));
	outcome("setpriority(bad which)", setpriority(7, 0, 1));
	show("bad which", 7, 0);
	outcome("setpriority(nobody)", setpriority(PRIO_PROCESS, 999999, 1));
	show("nobody", PRIO_PROCESS, 999999);

	pid_t child = fork();
	if (child == 0) {
		/* uid 1000: may raise its own nice, not lower it, nor touch root's. */
		pause();
		_exit(0);
	}
	outcome("setpriority(child, 7)", setpriority(PRIO_PROCESS, child, 7));
	show("child", PRIO_PROCESS, child);
	outcome("setpgid(child, child)", setpgid(child, child));
	outcome("setpriority(child's group, 9)", setpriority(PRIO_PGRP, child, 9));
	show("child's group", PRIO_PGRP, child);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);

	pid_t user = fork();
	if (user == 0) {
		if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
			_exit(2);
		outcome("as 1000: setpriority(self, 4)", setpriority(PRIO_PROCESS, 0, 4));
		show("as 1000: self", PRIO_PROCESS, 0);
		outcome("as 1000: setpriority(self, 2) (lower)", setpriority(PRIO_PROCESS, 0, 2));
		outcome("as 1000: setpriority(parent, 10)", setpriority(PRIO_PROCESS, getppid(), 10));
		errno = 0;
		int v = nice(3);
		say("as 1000: nice(3): %d %s\n", v, errno ? err_name(errno) : "ok");
		show("as 1000: user 1000", PRIO_USER, 1000);
		_exit(0);
	}
	int status = 0;
	waitpid(user, &status, 0);
	say("uid-1000 child exit %d\n", WEXITSTATUS(status));
	show("self at the end", PRIO_PROCESS, 0);
	return 0;
}
