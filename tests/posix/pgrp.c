/*
 * Process groups and sessions: setpgid/getpgid/getpgrp, setsid/getsid, what
 * fork inherits, the errors (ESRCH for a process that is not a child, EPERM
 * for setsid by a group leader and for a group in another session), waitpid
 * for a group (-pgid) and kill of a whole group.
 */
#include "posix_test.h"

#include <signal.h>
#include <sys/wait.h>

static int pipe_fds[2];

static void report(long value)
{
	if (write(pipe_fds[1], &value, sizeof value) != sizeof value)
		_exit(90);
}

static long collect(void)
{
	long v = -999;
	if (read(pipe_fds[0], &v, sizeof v) != sizeof v)
		return -998;
	return v;
}

static void wait_child(pid_t pid)
{
	int status;
	waitpid(pid, &status, 0);
}

int main(void)
{
	if (pipe(pipe_fds) < 0)
		return 1;
	pid_t me = getpid();
	say("getpgrp equals getpgid(0): %s\n", yes(getpgrp() == getpgid(0)));
	say("getpgid(getpid()) equals getpgid(0): %s\n", yes(getpgid(me) == getpgid(0)));
	say("getsid(0) positive: %s\n", yes(getsid(0) > 0));
	errno = 0;
	say("setpgid of the parent (not a child): %s\n",
	    setpgid(getppid(), getppid()) < 0 ? err_name(errno) : "succeeded");

	/* A child inherits the group and session, then makes its own group. */
	pid_t pid = fork();
	if (pid == 0) {
		report(getpgid(0) == getpgid(getppid()));
		report(getsid(0) == getsid(getppid()));
		report(setpgid(0, 0));
		report(getpgid(0) == getpid());
		_exit(0);
	}
	long inherits_group = collect(), inherits_session = collect();
	long setpgid_result = collect(), own_group = collect();
	wait_child(pid);
	say("child inherits the process group: %s\n", yes(inherits_group == 1));
	say("child inherits the session: %s\n", yes(inherits_session == 1));
	say("child's setpgid(0, 0): %s\n", yes(setpgid_result == 0));
	say("child leads its own group: %s\n", yes(own_group == 1));

	/* The parent moves a child into a new group; both see it. */
	pid = fork();
	if (pid == 0) {
		char c;
		close(pipe_fds[1]);
		if (read(pipe_fds[0], &c, 1) != 1)
			_exit(1);
		_exit(getpgid(0) == getpid() ? 0 : 2);
	}
	say("parent's setpgid(child, child): %s\n", yes(setpgid(pid, pid) == 0));
	say("parent sees the child's new group: %s\n", yes(getpgid(pid) == pid));
	if (write(pipe_fds[1], "g", 1) != 1)
		return 1;
	int status = 0;
	waitpid(pid, &status, 0);
	say("child sees its new group: %s\n", yes(WIFEXITED(status) && WEXITSTATUS(status) == 0));
	close(pipe_fds[0]);
	close(pipe_fds[1]);
	if (pipe(pipe_fds) < 0)
		return 1;

	/* setsid: a new session and group led by the caller. */
	pid_t parent_group = getpgrp();
	pid = fork();
	if (pid == 0) {
		pid_t sid = setsid();
		report(sid == getpid());
		report(getsid(0) == getpid());
		report(getpgid(0) == getpid());
		errno = 0;
		report(setsid() < 0 ? errno : 0);
		errno = 0;
		report(setpgid(0, parent_group) < 0 ? errno : 0);
		_exit(0);
	}
	long new_sid = collect(), getsid_ok = collect(), leads = collect();
	long again = collect(), cross = collect();
	wait_child(pid);
	say("setsid returns the caller's pid: %s\n", yes(new_sid == 1));
	say("getsid after setsid is the caller: %s\n", yes(getsid_ok == 1));
	say("setsid makes a new group: %s\n", yes(leads == 1));
	say("setsid again (a group leader): %s\n", again ? err_name((int)again) : "succeeded");
	say("setpgid into a group of another session: %s\n", cross ? err_name((int)cross) : "succeeded");

	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		errno = 0;
		report(setsid() < 0 ? errno : 0);
		_exit(0);
	}
	long leader = collect();
	wait_child(pid);
	say("setsid by a process group leader: %s\n", leader ? err_name((int)leader) : "succeeded");

	/* A group of two children: waitpid(-pgid) and kill(-pgid). */
	pid_t first = fork();
	if (first == 0) {
		setpgid(0, 0);
		for (;;)
			pause();
	}
	setpgid(first, first);
	pid_t second = fork();
	if (second == 0) {
		for (;;)
			pause();
	}
	say("second child joins the first's group: %s\n", yes(setpgid(second, first) == 0));
	say("kill of the group: %s\n", yes(kill(-first, SIGTERM) == 0));
	int killed = 0, reaped = 0;
	for (int i = 0; i < 2; i++) {
		pid_t w = waitpid(-first, &status, 0);
		reaped += w == first || w == second;
		killed += WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM;
	}
	say("waitpid(-group) reaped both: %s, both killed by SIGTERM: %s\n",
	    yes(reaped == 2), yes(killed == 2));
	return 0;
}
