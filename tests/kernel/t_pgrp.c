/*
 * t_pgrp: process groups, sessions, group signals and waits, SIGCHLD.
 *
 * setsid makes the test a session and group leader (and fails the second
 * time, as does setpgid on a session leader); spawned children start in the
 * parent's group and session; setpgid moves a child into its own group or
 * another group of the session and refuses everything else; kill(-pgid)
 * reaches the whole group, wait4(-pgid) and wait4(0) wait for a group's
 * children; wait4 accepts the Linux options and fills the rusage (the
 * child's CPU time, the rest zero);
 * SIGCHLD reaches a handler with the child's pid, code and status; with
 * SIGCHLD ignored (or SA_NOCLDWAIT) children leave no zombie and wait4
 * ends with ECHILD; a wait4 interrupted by an SA_RESTART handler runs again.
 *
 * Helper modes (the children it spawns of itself): sleep, exit7, abort.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_pgrp"
#include "test_check.h"

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#define WALL_FLAG     0x40000000
#define WCLONE_FLAG   0x80000000
#define WNOTHREAD_FLAG 0x20000000

static char *const test_envp[] = { "MYRMEX_TEST=1", NULL };
static long self_pid;

/* Starts this program in a helper mode: its pid. On Linux with pgid >= 0
 * the child starts in that group (0: its own), as the setpgid checks need
 * (Linux refuses setpgid on a child that has called execve). */
static long spawn_in(const char *mode, long pgid)
{
	char *argv[] = { "t_pgrp", (char *)mode, NULL };
	if (myrmex_is_native()) {
		long pid = myrmex_spawn("t_pgrp", argv, test_envp, -1);
		if (pid <= 0)
			test_fail("spawn(t_pgrp %s): %ld", mode, pid);
		return pid;
	}
	posix_spawnattr_t attr;
	posix_spawnattr_init(&attr);
	if (pgid >= 0) {
		posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
		posix_spawnattr_setpgroup(&attr, (pid_t)pgid);
	}
	pid_t pid;
	int err = posix_spawn(&pid, "/proc/self/exe", NULL, &attr, argv, test_envp);
	posix_spawnattr_destroy(&attr);
	if (err) {
		test_fail("posix_spawn: %d", err);
		return -err;
	}
	return pid;
}

static long spawn_helper(const char *mode)
{
	return spawn_in(mode, -1);
}

static long wait_pid(long pid, int *status, long options)
{
	return raw4(SYS_wait4, pid, (long)status, options, 0);
}

/* ------------------------------------------------------------ ids */

static void check_ids(void)
{
	long pgrp = raw0(SYS_getpgrp), sid = raw1(SYS_getsid, 0);
	CHECK_EQ(raw1(SYS_getpgid, 0), pgrp);
	CHECK_EQ(raw1(SYS_getpgid, self_pid), pgrp);
	CHECK_EQ(raw1(SYS_getsid, self_pid), sid);
	if (myrmex_is_native()) {
		/* Spawned by the init: its group and session. */
		CHECK_EQ(pgrp, 1);
		CHECK_EQ(sid, 1);
		CHECK_EQ(raw1(SYS_getpgid, 1), 1);
	}
	CHECK_EQ(raw1(SYS_getpgid, 1 << 30), -ESRCH);
	CHECK_EQ(raw1(SYS_getsid, 1 << 30), -ESRCH);
	CHECK_EQ(raw1(SYS_getpgid, -1), -ESRCH);
	CHECK_EQ(raw1(SYS_getsid, -5), -ESRCH);
}

/* Returns 0 when the test could become a session leader. */
static int check_setsid(void)
{
	if (raw0(SYS_getpgrp) == self_pid) {
		test_note("already a group leader (started from a shell?): cannot setsid");
		return -1;
	}
	CHECK_EQ(raw0(SYS_setsid), self_pid);
	CHECK_EQ(raw1(SYS_getsid, 0), self_pid);
	CHECK_EQ(raw0(SYS_getpgrp), self_pid);
	CHECK_EQ(raw0(SYS_setsid), -EPERM);
	CHECK_EQ(raw2(SYS_setpgid, 0, 0), -EPERM);   /* a session leader */
	CHECK_EQ(raw2(SYS_setpgid, 0, -1), -EINVAL);
	return 0;
}

/* ------------------------------------------------------------ groups */

/* setpgid on a child that has not called execve (Linux's rule; Myrmex
 * does not track execve there). */
static void check_setpgid_rules(long a)
{
	CHECK_EQ(raw2(SYS_setpgid, a, a), 0);
	CHECK_EQ(raw1(SYS_getpgid, a), a);
	CHECK_EQ(raw2(SYS_setpgid, a, 0x3fffffff), -EPERM);   /* no such group */
	CHECK_EQ(raw2(SYS_setpgid, a, -1), -EINVAL);
	CHECK_EQ(raw2(SYS_setpgid, a, self_pid), 0);            /* back to ours */
	CHECK_EQ(raw1(SYS_getpgid, a), self_pid);
	CHECK_EQ(raw2(SYS_setpgid, a, 0), 0);                   /* 0: its own pid */
	CHECK_EQ(raw1(SYS_getpgid, a), a);
}

static void check_setpgid_and_group_kill(void)
{
	CHECK_EQ(raw2(SYS_setpgid, 1, 0), -ESRCH);              /* not a child */
	CHECK_EQ(raw2(SYS_setpgid, 1 << 30, 0), -ESRCH);
	CHECK_EQ(raw2(SYS_setpgid, -3, 5), -ESRCH);
	CHECK_EQ(raw2(SYS_setpgid, -3, 0), -EINVAL);            /* pgid 0 means -3 */
	long a = spawn_in("sleep", 0);
	if (a <= 0)
		return;
	long b = spawn_in("sleep", a);
	if (b <= 0) {
		raw2(SYS_kill, a, SIGKILL);
		wait_pid(a, NULL, 0);
		return;
	}
	CHECK_EQ(raw1(SYS_getsid, a), self_pid);                /* inherited */
	if (myrmex_is_native()) {
		CHECK_EQ(raw1(SYS_getpgid, a), self_pid);       /* inherited */
		check_setpgid_rules(a);
		CHECK_EQ(raw2(SYS_setpgid, b, a), 0);           /* joins a's group */
	}
	CHECK_EQ(raw1(SYS_getpgid, a), a);
	CHECK_EQ(raw1(SYS_getpgid, b), a);

	CHECK_EQ(raw2(SYS_kill, 0, 0), 0);            /* our group: ourselves */
	CHECK_EQ(raw2(SYS_kill, -self_pid, 0), 0);
	CHECK_EQ(raw2(SYS_kill, -a, 0), 0);
	int status = 0;
	CHECK_EQ(wait_pid(-a, &status, WNOHANG), 0);
	CHECK_EQ(wait_pid(0, &status, WNOHANG), -ECHILD);       /* none in our group */
	CHECK_EQ(raw2(SYS_kill, -a, SIGTERM), 0);
	for (int i = 0; i < 2; i++) {
		long r = wait_pid(-a, &status, 0);
		CHECK(r == a || r == b, "wait4(-%ld) returned %ld", a, r);
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "status %#x", status);
	}
	CHECK_EQ(wait_pid(-a, &status, 0), -ECHILD);
	CHECK_EQ(raw2(SYS_kill, -a, 0), -ESRCH);
	/* Whatever went wrong above, leave no child behind. */
	raw2(SYS_kill, a, SIGKILL);
	raw2(SYS_kill, b, SIGKILL);
	wait_pid(a, NULL, 0);
	wait_pid(b, NULL, 0);
}

static void check_wait_options(void)
{
	int status = 0;
	long c = spawn_helper("exit7");
	if (c <= 0)
		return;
	struct rusage ru;
	memset(&ru, 0xff, sizeof ru);
	CHECK_EQ(raw4(SYS_wait4, 0, (long)&status, 0, (long)&ru), c);   /* in our group */
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 7, "exit7: status %#x", status);
	/* The kernel's struct rusage is 144 bytes (musl's has room for more):
	 * the child's user and system time, valid timevals, then fourteen
	 * longs Myrmex does not count (zeros). */
	static const char zero[144 - 32];
	CHECK(ru.ru_utime.tv_sec >= 0 && ru.ru_utime.tv_usec >= 0 && ru.ru_utime.tv_usec < 1000000 &&
	      ru.ru_stime.tv_sec >= 0 && ru.ru_stime.tv_usec >= 0 && ru.ru_stime.tv_usec < 1000000,
	      "wait4's rusage times are not timevals");
	CHECK(memcmp((const char *)&ru + 32, zero, sizeof zero) == 0 || !myrmex_is_native(),
	      "wait4 left the rest of the rusage not zeroed");

	long d = spawn_helper("sleep");
	if (d <= 0)
		return;
	if (myrmex_is_native()) {   /* Linux writes the rusage only for a reaped child */
		CHECK_EQ(raw4(SYS_wait4, d, (long)&status, WNOHANG, 0xffffffff80100000L), -EFAULT);
		CHECK_EQ(raw4(SYS_wait4, d, (long)&status, WNOHANG, 0x1000), -EFAULT);
	}
	CHECK_EQ(wait_pid(d, &status, WNOHANG | WUNTRACED | WCONTINUED | WNOTHREAD_FLAG), 0);
	CHECK_EQ(wait_pid(d, &status, WCLONE_FLAG), -ECHILD);   /* not a clone child */
	CHECK_EQ(wait_pid(d, &status, 0x100), -EINVAL);
	CHECK_EQ(wait_pid(-0x7fffffff - 1, &status, 0), -ESRCH);
	CHECK_EQ(raw2(SYS_kill, d, SIGKILL), 0);
	CHECK_EQ(wait_pid(d, &status, WALL_FLAG | WCLONE_FLAG), d);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "status %#x", status);

	if (myrmex_is_native()) {   /* no core is written: no 0x80 bit, as Linux with ulimit -c 0 */
		long e = spawn_helper("abort");
		if (e > 0) {
			CHECK_EQ(wait_pid(e, &status, 0), e);
			CHECK(status == SIGABRT, "abort: status %#x, expected %#x", status, SIGABRT);
		}
	}
}

/* ------------------------------------------------------------ SIGCHLD */

static volatile int chld_count, chld_pid, chld_code, chld_status;

static void on_chld(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	chld_count++;
	chld_pid = si->si_pid;
	chld_code = si->si_code;
	chld_status = si->si_status;
}

static void wait_for_chld(const sigset_t *during)
{
	while (chld_count == 0)
		sigsuspend(during);
}

static void check_sigchld(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_chld;
	sa.sa_flags = SA_SIGINFO;
	CHECK_EQ(sigaction(SIGCHLD, &sa, NULL), 0);
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &old);
	int status;

	chld_count = 0;
	long c = spawn_helper("exit7");
	if (c > 0) {
		wait_for_chld(&old);
		CHECK(chld_pid == c && chld_code == CLD_EXITED && chld_status == 7,
		      "SIGCHLD for an exit: pid %d (child %ld) code %d status %d", chld_pid, c,
		      chld_code, chld_status);
		CHECK_EQ(wait_pid(c, &status, 0), c);
	}
	chld_count = 0;
	c = spawn_helper("sleep");
	if (c > 0) {
		raw2(SYS_kill, c, SIGKILL);
		wait_for_chld(&old);
		CHECK(chld_pid == c && chld_code == CLD_KILLED && chld_status == SIGKILL,
		      "SIGCHLD for a kill: pid %d (child %ld) code %d status %d", chld_pid, c,
		      chld_code, chld_status);
		CHECK_EQ(wait_pid(c, &status, 0), c);
	}
	if (myrmex_is_native()) {
		chld_count = 0;
		c = spawn_helper("abort");
		if (c > 0) {
			wait_for_chld(&old);
			/* No core is written: CLD_KILLED, as Linux with ulimit -c 0. */
			CHECK(chld_code == CLD_KILLED && chld_status == SIGABRT,
			      "SIGCHLD for an abort: code %d status %d", chld_code, chld_status);
			CHECK_EQ(wait_pid(c, &status, 0), c);
		}
	}

	/* SA_NOCLDWAIT: the handler runs, but no zombie stays. */
	sa.sa_flags = SA_SIGINFO | SA_NOCLDWAIT;
	CHECK_EQ(sigaction(SIGCHLD, &sa, NULL), 0);
	chld_count = 0;
	c = spawn_helper("exit7");
	if (c > 0) {
		wait_for_chld(&old);
		CHECK_EQ(wait_pid(-1, &status, 0), -ECHILD);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);

	/* SIG_IGN: reaped automatically; a waiting wait4 ends with ECHILD. */
	signal(SIGCHLD, SIG_IGN);
	c = spawn_helper("exit7");
	if (c > 0)
		CHECK_EQ(wait_pid(-1, &status, 0), -ECHILD);
	c = spawn_helper("sleep");
	if (c > 0) {
		CHECK_EQ(wait_pid(c, &status, WNOHANG), 0);
		CHECK_EQ(raw2(SYS_kill, c, SIGTERM), 0);
		CHECK_EQ(wait_pid(-1, &status, 0), -ECHILD);
		CHECK_EQ(raw2(SYS_kill, c, 0), -ESRCH);   /* gone, not a zombie */
	}
	signal(SIGCHLD, SIG_DFL);
}

/* ------------------------------------------------------------ restart */

static volatile long victim;
static volatile int alarm_count, victim_killed, restart_mode;

/* Kills the victim only when the alarm interrupted the wait4 itself, seen in
 * the frame: under SA_RESTART the call is set to run again (its number in
 * rax, rip on the syscall instruction); without, it returns -EINTR. So the
 * test does not depend on when the timer fires. */
static void kill_victim(int sig, siginfo_t *si, void *ucv)
{
	(void)sig;
	(void)si;
	greg_t *g = ((ucontext_t *)ucv)->uc_mcontext.gregs;
	alarm_count++;
	int in_wait = restart_mode ? g[REG_RAX] == SYS_wait4 &&
	                             *(const uint16_t *)g[REG_RIP] == 0x050f
	                           : g[REG_RAX] == -EINTR;
	if (in_wait && !victim_killed) {
		victim_killed = 1;
		raw2(SYS_kill, victim, SIGTERM);
	}
}

static void check_wait_restart(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = kill_victim;
	int status = 0;
	struct itimerval it = { { 0, 10000 }, { 0, 10000 } }, off = { { 0, 0 }, { 0, 0 } };

	/* The child ends only when the handler kills it: wait4 must run again
	 * after the handler to see that. */
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	CHECK_EQ(sigaction(SIGALRM, &sa, NULL), 0);
	victim = spawn_helper("sleep");
	if (victim <= 0)
		return;
	restart_mode = 1;
	victim_killed = 0;
	alarm_count = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	CHECK_EQ(wait_pid(victim, &status, 0), victim);
	setitimer(ITIMER_REAL, &off, NULL);
	CHECK(victim_killed && WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
	      "SA_RESTART wait4: killed %d after %d alarms, status %#x", victim_killed,
	      alarm_count, status);

	/* Without SA_RESTART: EINTR, then the child is reaped. */
	sa.sa_flags = SA_SIGINFO;
	CHECK_EQ(sigaction(SIGALRM, &sa, NULL), 0);
	victim = spawn_helper("sleep");
	if (victim <= 0)
		return;
	restart_mode = 0;
	victim_killed = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	CHECK_EQ(wait_pid(victim, &status, 0), -EINTR);
	setitimer(ITIMER_REAL, &off, NULL);
	CHECK(victim_killed, "wait4 returned EINTR but the handler did not see it");
	CHECK_EQ(wait_pid(victim, &status, 0), victim);
	signal(SIGALRM, SIG_DFL);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		if (strcmp(argv[1], "sleep") == 0)
			for (;;)
				pause();
		if (strcmp(argv[1], "exit7") == 0)
			return 7;
		if (strcmp(argv[1], "abort") == 0)
			abort();
		test_fail("unknown mode \"%s\"", argv[1]);
		return 2;
	}
	self_pid = raw0(SYS_getpid);
	check_ids();
	if (check_setsid() == 0)
		check_setpgid_and_group_kill();
	check_wait_options();
	check_sigchld();
	check_wait_restart();
	return test_exit_code();
}
