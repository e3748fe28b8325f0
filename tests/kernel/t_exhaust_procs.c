/*
 * t_exhaust_procs: spawns sleeping children until spawn is refused; the
 * refusal must be EAGAIN (or ENOMEM). Then kills every child with SIGKILL,
 * reaps each (status: signal 9), and shows that a new child can be spawned
 * and runs to exit 0. Myrmex only (spawn is a native call): on Linux it
 * prints a note and exits 0.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_exhaust_procs"
#include "test_check.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#define MAX_CHILDREN 1024
#define NS_PER_MS 1000000ULL

static long children[MAX_CHILDREN];
static char *const sleeper_argv[] = { "t_fault", "sleep", NULL };
static char *const alive_argv[] = { "t_alive", NULL };
static char *const test_envp[] = { "MYRMEX_TEST=1", NULL };

/* Spawns t_alive, retrying for up to a second while refused: a reaped
 * process may take a moment to give its slot back. Returns spawn's result. */
static long spawn_alive_with_patience(void)
{
	long pid = 0;
	for (int ms = 0; ms < 1000; ms++) {
		pid = myrmex_spawn("t_alive", alive_argv, test_envp, -1);
		if (pid > 0)
			return pid;
		myrmex_sleep_ns(NS_PER_MS);
	}
	return pid;
}

int main(void)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: nothing to do");
		return 0;
	}
	int made = 0;
	long refusal = 0;
	while (made < MAX_CHILDREN) {
		long pid = myrmex_spawn("t_fault", sleeper_argv, test_envp, -1);
		if (pid < 0) {
			refusal = pid;
			break;
		}
		children[made++] = pid;
	}
	if (refusal == 0)
		test_fail("%d children spawned without a refusal", made);
	else
		CHECK(refusal == -EAGAIN || refusal == -ENOMEM,
		      "spawn was refused with %ld, not -EAGAIN or -ENOMEM", refusal);
	test_note("spawn refused after %d children", made);

	for (int i = 0; i < made; i++)
		CHECK_EQ(raw2(SYS_kill, children[i], SIGKILL), 0);
	for (int i = 0; i < made; i++) {
		int status = -1;
		long reaped = raw4(SYS_wait4, children[i], (long)&status, 0, 0);
		CHECK(reaped == children[i], "wait4(%ld) returned %ld", children[i], reaped);
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
		      "child %ld ended with status %#x, not signal 9", children[i], status);
	}

	long pid = spawn_alive_with_patience();
	if (pid <= 0) {
		test_fail("no child could be spawned after reaping all: %ld", pid);
	} else {
		int status = -1;
		CHECK_EQ(raw4(SYS_wait4, pid, (long)&status, 0, 0), pid);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "t_alive after exhaustion ended with status %#x", status);
	}
	int status;
	CHECK_EQ(raw4(SYS_wait4, -1, (long)&status, 0, 0), -ECHILD);
	return test_exit_code();
}
