/*
 * t_spawn: processes made by a program other than the init. A spawned
 * t_hello exits 0; a spawned faulting program is reported killed by SIGSEGV;
 * a spinning child is killed with SIGKILL (after a WNOHANG wait that finds
 * it running and a signal-0 probe); several children are each reaped once
 * by wait4(-1); with no children left wait4 gives ECHILD, and a reaped
 * child's pid is gone (ESRCH). The spawn parts run only on Myrmex.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_spawn"
#include "test_check.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#define CHILDREN 4
#define NS_PER_MS 1000000ULL

static char *const test_envp[] = { "MYRMEX_TEST=1", NULL };

static long wait_for(long pid, int *status)
{
	return raw4(SYS_wait4, pid, (long)status, 0, 0);
}

static void describe_status(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "signal %d", WTERMSIG(status));
	else
		snprintf(buf, size, "status %#x", status);
}

/* Spawns module with argv, waits for it and checks the outcome:
 * expected_signal 0 means exit 0. */
static void spawn_and_check(const char *module, char *const argv[], int expected_signal)
{
	long pid = myrmex_spawn(module, argv, test_envp, -1);
	if (pid <= 0) {
		test_fail("spawn(%s): %ld", module, pid);
		return;
	}
	CHECK(pid != raw0(SYS_getpid) && pid != 1, "spawn(%s) returned pid %ld", module, pid);
	int status = -1;
	long reaped = wait_for(pid, &status);
	CHECK(reaped == pid, "wait4(%ld) for %s returned %ld", pid, module, reaped);
	char what[32];
	describe_status(status, what, sizeof what);
	if (expected_signal == 0)
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s ended with %s, not exit 0",
		      module, what);
	else
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == expected_signal,
		      "%s ended with %s, not signal %d", module, what, expected_signal);
	CHECK_EQ(raw2(SYS_kill, pid, 0), -ESRCH);
}

static void check_kill_spinning_child(void)
{
	static char *const argv[] = { "t_fault", "spin", NULL };
	long pid = myrmex_spawn("t_fault", argv, test_envp, -1);
	if (pid <= 0) {
		test_fail("spawn(t_fault spin): %ld", pid);
		return;
	}
	int status = -1;
	myrmex_sleep_ns(20 * NS_PER_MS); /* let it run a little */
	CHECK_EQ(raw4(SYS_wait4, pid, (long)&status, WNOHANG, 0), 0);
	CHECK_EQ(raw2(SYS_kill, pid, 0), 0);
	CHECK_EQ(raw2(SYS_kill, pid, SIGKILL), 0);
	long reaped = wait_for(pid, &status);
	CHECK(reaped == pid, "wait4 for the killed child returned %ld", reaped);
	char what[32];
	describe_status(status, what, sizeof what);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	      "the killed child ended with %s, not signal %d", what, SIGKILL);
}

static void check_reap_any(void)
{
	static char *const argv[] = { "t_alive", NULL };
	long pids[CHILDREN];
	int made = 0;

	for (int i = 0; i < CHILDREN; i++) {
		long pid = myrmex_spawn("t_alive", argv, test_envp, -1);
		if (pid <= 0) {
			test_fail("spawn(t_alive) #%d: %ld", i, pid);
			break;
		}
		for (int j = 0; j < made; j++)
			CHECK(pids[j] != pid, "two live children got pid %ld", pid);
		pids[made++] = pid;
	}
	for (int n = 0; n < made; n++) {
		int status = -1;
		long reaped = wait_for(-1, &status);
		int known = 0;
		for (int j = 0; j < made; j++) {
			if (pids[j] == reaped) {
				known = 1;
				pids[j] = 0; /* each only once */
			}
		}
		CHECK(known, "wait4(-1) returned %ld, not one of the children left", reaped);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "a t_alive child ended with status %#x", status);
	}
}

int main(void)
{
	int status;

	CHECK_EQ(wait_for(-1, &status), -ECHILD);
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: spawn checks skipped");
		return test_exit_code();
	}
	static char *const hello_argv[] = { "t_hello", "alpha", "beta", NULL };
	static char *const fault_argv[] = { "t_fault", "null-read", NULL };
	spawn_and_check("t_hello", hello_argv, 0);
	spawn_and_check("t_fault", fault_argv, SIGSEGV);
	check_kill_spinning_child();
	check_reap_any();
	CHECK_EQ(wait_for(-1, &status), -ECHILD);
	CHECK_EQ(raw4(SYS_wait4, -1, (long)&status, WNOHANG, 0), -ECHILD);
	return test_exit_code();
}
