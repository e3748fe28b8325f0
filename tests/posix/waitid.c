/*
 * waitid: P_PID, P_PGID (a group, and 0 for ours), P_ALL; WEXITED with the
 * exit code, a death by signal, WSTOPPED and WCONTINUED with the signal in
 * si_status; WNOWAIT leaves the child waitable (an ended one and a stopped
 * one report twice); WNOHANG with nothing ready zeroes the siginfo fields;
 * a NULL infop; then bad input: no option of what to wait for, unknown
 * bits, idtypes and ids, no such child, __WCLONE, a bad infop (the child is
 * reaped all the same, as Linux).
 */
#include "posix_test.h"

#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#ifndef __WCLONE
#define __WCLONE 0x80000000
#endif

static const char *code_name(int code)
{
	switch (code) {
	case CLD_EXITED: return "CLD_EXITED";
	case CLD_KILLED: return "CLD_KILLED";
	case CLD_DUMPED: return "CLD_DUMPED";
	case CLD_STOPPED: return "CLD_STOPPED";
	case CLD_CONTINUED: return "CLD_CONTINUED";
	case 0: return "0";
	default: return "other";
	}
}

static void show(const char *what, long r, const siginfo_t *si, pid_t child)
{
	if (r < 0) {
		say("%s: error %s\n", what, err_name(errno));
		return;
	}
	say("%s: ok, si_signo %s, code %s, status %d, si_pid is the child: %s, si_uid ours: %s\n",
	    what, si->si_signo == SIGCHLD ? "SIGCHLD" : si->si_signo == 0 ? "0" : "other",
	    code_name(si->si_code), si->si_status, yes(si->si_pid == child),
	    yes(si->si_uid == getuid()));
}

static long do_waitid(idtype_t type, id_t id, siginfo_t *si, int options)
{
	if (si)
		memset(si, 0x55, sizeof *si);
	return waitid(type, id, si, options);
}

static pid_t child_exiting(int code)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(code);
	return pid;
}

static pid_t child_pausing(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		for (;;)
			pause();
	}
	return pid;
}

int main(void)
{
	siginfo_t si;
	pid_t pid = child_exiting(7);
	show("P_PID exit 7", do_waitid(P_PID, pid, &si, WEXITED), &si, pid);

	pid = child_exiting(3);
	show("WNOWAIT exit 3", do_waitid(P_PID, pid, &si, WEXITED | WNOWAIT), &si, pid);
	show("again", do_waitid(P_PID, pid, &si, WEXITED | WNOWAIT), &si, pid);
	int status = -1;
	pid_t reaped = waitpid(pid, &status, 0);
	say("waitpid reaps it: %s, exit %d\n", yes(reaped == pid), WEXITSTATUS(status));
	show("then waitid", do_waitid(P_PID, pid, &si, WEXITED), &si, pid);

	pid = child_pausing();
	kill(pid, SIGTERM);
	show("killed by SIGTERM", do_waitid(P_PID, pid, &si, WEXITED), &si, pid);

	pid = child_pausing();
	kill(pid, SIGSTOP);
	show("WSTOPPED after SIGSTOP, WNOWAIT",
	     do_waitid(P_PID, pid, &si, WSTOPPED | WNOWAIT), &si, pid);
	show("WSTOPPED again", do_waitid(P_PID, pid, &si, WSTOPPED), &si, pid);
	show("WSTOPPED, WNOHANG, reported already",
	     do_waitid(P_PID, pid, &si, WSTOPPED | WNOHANG), &si, 0);
	kill(pid, SIGCONT);
	show("WCONTINUED", do_waitid(P_PID, pid, &si, WCONTINUED), &si, pid);
	show("WEXITED, WNOHANG, running",
	     do_waitid(P_PID, pid, &si, WEXITED | WNOHANG), &si, 0);
	kill(pid, SIGKILL);
	show("WEXITED after SIGKILL", do_waitid(P_PID, pid, &si, WEXITED), &si, pid);

	/* A child in a group of its own. */
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		usleep(50 * 1000);
		_exit(5);
	}
	setpgid(pid, pid);
	show("P_PGID 0: the child is in another group",
	     do_waitid(P_PGID, 0, &si, WEXITED), &si, pid);
	show("P_PGID of the child's group", do_waitid(P_PGID, pid, &si, WEXITED), &si, pid);

	pid = child_exiting(9);
	show("P_PGID 0", do_waitid(P_PGID, 0, &si, WEXITED), &si, pid);
	pid = child_exiting(11);
	show("P_ALL", do_waitid(P_ALL, 0, &si, WEXITED), &si, pid);

	pid = child_exiting(1);
	outcome("NULL infop", syscall(SYS_waitid, P_PID, pid, NULL, WEXITED, NULL));
	say("reaped: %s\n", yes(waitpid(pid, NULL, WNOHANG) < 0 && errno == ECHILD));

	/* Only stopped children asked for: an ended one is not reported. */
	pid = child_exiting(2);
	usleep(50 * 1000);
	show("WSTOPPED|WNOHANG, the child has ended",
	     do_waitid(P_PID, pid, &si, WSTOPPED | WNOHANG), &si, 0);
	show("WEXITED then", do_waitid(P_PID, pid, &si, WEXITED), &si, pid);

	/* Bad input. */
	pid = child_pausing();
	show("no options", do_waitid(P_PID, pid, &si, 0), &si, pid);
	show("WNOHANG only", do_waitid(P_PID, pid, &si, WNOHANG), &si, pid);
	show("unknown option bit", do_waitid(P_PID, pid, &si, WEXITED | 0x100), &si, pid);
	show("idtype 7", do_waitid((idtype_t)7, pid, &si, WEXITED), &si, pid);
	show("P_PID 0", do_waitid(P_PID, 0, &si, WEXITED), &si, pid);
	show("P_PID -1", syscall(SYS_waitid, P_PID, -1, &si, WEXITED, NULL), &si, pid);
	show("P_PGID -1", syscall(SYS_waitid, P_PGID, -1, &si, WEXITED, NULL), &si, pid);
	show("P_PID not a child", do_waitid(P_PID, getppid(), &si, WEXITED), &si, pid);
	show("__WCLONE", do_waitid(P_PID, pid, &si, WEXITED | __WCLONE), &si, pid);
	kill(pid, SIGKILL);
	usleep(50 * 1000);
	outcome("bad infop", syscall(SYS_waitid, P_PID, pid, (siginfo_t *)8, WEXITED, NULL));
	say("the child was reaped all the same: %s\n",
	    yes(waitpid(pid, NULL, WNOHANG) < 0 && errno == ECHILD));
	show("no children", do_waitid(P_ALL, 0, &si, WEXITED), &si, 0);
	return 0;
}
