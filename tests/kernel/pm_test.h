/*
 * Shared by the process-manager tests (t_pm_fork.c, t_pm_exec.c) and their
 * helper module pm_helper.c. The tests take the process manager's place
 * (coreid MYRMEX_COREID_PM) and make the kernel calls of include/myrmex/proc.h
 * on the helper's threads; the helper makes the requests as the kernel's
 * forwarding would, one native callsync each: arg[0] its tid. Header only;
 * include test_check.h first.
 *
 * pm_helper <mode>:
 *   cow           PM_FORK; the parent writes its memory and asks PM_T_START;
 *                 the child checks that it sees the memory as it was at the
 *                 fork (and the registers, TLS and ids of a copy), writes its
 *                 own (in user mode and by a system call), mprotects and
 *                 munmaps, and exits PM_CHILD_OK; the parent checks that none
 *                 of it reached its memory, except in a MAP_SHARED|
 *                 MAP_ANONYMOUS mapping, where each side sees the other's
 *                 writes and the child's munmap leaves the parent's pages.
 *                 0 when all is well.
 *   block         PM_FORK (retried while no process manager is registered),
 *                 with most of its stack unmapped first (many forks must fit
 *                 in memory); a child exits PM_CHILD_OK. The parent exits 0
 *                 when the result was a pid whose child exited PM_CHILD_OK, or an
 *                 error, and no other child of it is left (wait4 -ECHILD).
 *   block-sp      PM_FORK with arg[1] a stack of its own: the child checks
 *                 that it runs on it and exits PM_CHILD_OK. As block.
 *   notpm         each of the three calls gives -EPERM: exit 0.
 *   abandon-pm    registers as the process manager, takes one PM_FORK, makes
 *                 PM_ABANDON_FORKS children of it and ends without starting
 *                 them or answering: exit 0 when the forks worked.
 *   exec          PM_EXEC, which must fail (the process unchanged: checked),
 *                 then PM_EXEC again, which must not return (the new program
 *                 ends the process). Exits PM_EXEC_RETURNED otherwise.
 *   exec-threads  three more threads (spinning, in futex_wait, in a callsync
 *                 PM_T_HOLD), then PM_EXEC, which must not return.
 */
#ifndef PM_TEST_H
#define PM_TEST_H

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#define PM_T_START  100u   /* arg[0] a pid: proc_start(pid, 0) */
#define PM_T_HOLD   101u   /* held by the test, answered after the exec */

#define PM_CHILD_OK      42   /* exit code of a forked child whose checks passed */
#define PM_EXEC_RETURNED 3    /* exit code of the exec helper when an exec came back */
#define PM_ABANDON_FORKS 3

#define PM_MS 1000000ULL

static char *const pm_envp[] = { "MYRMEX_TEST=1", NULL };

/* Spawns "pm_helper <mode>" at the caller's priority; pid or -errno. */
static inline long pm_spawn_helper(const char *mode, unsigned flags)
{
	char *argv[] = { "pm_helper", (char *)mode, NULL };
	long pid = myrmex_spawn_flags("pm_helper", argv, pm_envp, -1, flags);
	if (pid <= 0)
		test_fail("spawn pm_helper %s: %ld", mode, pid);
	return pid;
}

/* Takes the next request (interrupts and results are not expected); its
 * frame, or NULL with the failure reported. */
static inline struct myrmex_frame *pm_take(struct myrmex_delivery *d)
{
	long r = myrmex_get(NULL, d);
	if (r <= 0 || d->kind != MYRMEX_DELIVERY_REQUEST) {
		test_fail("get: %ld, kind %u", r, d->kind);
		return NULL;
	}
	return (struct myrmex_frame *)(uintptr_t)(d->control + d->frame);
}

/* Reaps pid (blocking) and returns its wait status, -1 on failure. */
static inline int pm_reap(long pid)
{
	int status = 0;
	long r = myrmex_syscall6(SYS_wait4, pid, (long)&status, 0, 0, 0, 0);
	if (r != pid) {
		test_fail("wait4(%ld): %ld", pid, r);
		return -1;
	}
	return status;
}

/* Checks that pid exited with code; says who it was on failure. */
static inline void pm_expect_exit(long pid, int code, const char *who)
{
	int status = pm_reap(pid);
	if (status < 0)
		return;
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == code,
	      "%s (pid %ld) ended with status %#x, expected exit %d", who, pid, status, code);
}

#endif
