/*
 * t_pm_fork: the kernel's fork calls for the process manager (proc_fork,
 * proc_start; include/myrmex/proc.h), with this test in the process
 * manager's place (coreid 5) and pm_helper making the requests.
 *   t_pm_fork cow      a fork shares the memory (the free-page count barely
 *                      moves) and copies on write in both directions (the
 *                      helper checks every kind of memory, the registers
 *                      and the ids; pm_test.h), except a MAP_SHARED|
 *                      MAP_ANONYMOUS mapping, which stays shared (writes
 *                      seen both ways, the child's munmap leaves the
 *                      parent's pages; the leak check sees them go); the
 *                      child is started only
 *                      when the parent asks.
 *   t_pm_fork calls    -EPERM for anyone but the process manager; -ESRCH for
 *                      a thread not blocked in a call it is handling (its
 *                      own, one whose request is still queued or answered,
 *                      a forged or stale tid); proc_start of a non-child,
 *                      twice, or with a bad flag; discard leaves no trace;
 *                      forks until PROC_MAX give -EAGAIN (or memory -ENOMEM); a child on a
 *                      stack of its own (sp argument).
 *   t_pm_fork abandon  a process manager that ends with children it never
 *                      started: they go without a trace (the leak check
 *                      counts them), and the waiting parent gets -EPIPE.
 *   t_pm_fork forged   the real process manager (servers/proc/pm), called
 *                      by a program instead of the kernel: PM_FORK and
 *                      PM_EXEC are refused with -EPERM (the origin the
 *                      delivery gives, not the frame's word, which is
 *                      forged too), an unknown opcode with -ENOSYS, and no
 *                      child is made.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_pm_fork"
#include "test_check.h"
#include "pm_test.h"

#define KERNEL_PROC_MAX 1024   /* PROC_MAX in kernel/include/kernel/proc.h */
#define SHARED_FORK_MAX_PAGES 32   /* a fork costs tables and a kernel stack, not the data */

static long my_tid(void)
{
	return raw0(SYS_gettid);
}

static uint64_t free_pages(void)
{
	struct myrmex_kstats s;
	return myrmex_kstats(&s) < 0 ? 0 : s.free_pages;
}

static int become_pm(void)
{
	long r = myrmex_registserver(MYRMEX_COREID_PM);
	if (r != 0)
		test_fail("registserver(%u): %ld", MYRMEX_COREID_PM, r);
	return (int)r;
}

/* ------------------------------------------------------------ cow */

static void run_cow(void)
{
	if (become_pm() != 0)
		return;
	long helper = pm_spawn_helper("cow", 0);
	if (helper <= 0)
		return;
	struct myrmex_delivery d;
	struct myrmex_frame *f = pm_take(&d);
	if (!f || d.opcode != PM_FORK || d.requester != helper) {
		test_fail("cow: expected PM_FORK from %ld", helper);
		return;
	}
	uint64_t before = free_pages();
	long child = myrmex_proc_fork((int)f->arg[0], 0);
	uint64_t after = free_pages();
	CHECK(child > 0, "proc_fork: %ld", child);
	CHECK(before - after < SHARED_FORK_MAX_PAGES,
	      "proc_fork took %lld pages: copied, not shared", (long long)(before - after));
	CHECK_EQ(raw2(SYS_kill, child, 0), 0);   /* it exists, stopped */
	myrmex_reply(TEST_NAME, &d, child);

	f = pm_take(&d);
	if (!f || d.opcode != PM_T_START || (long)f->arg[0] != child) {
		test_fail("cow: expected PM_T_START for %ld", child);
		return;
	}
	CHECK_EQ(myrmex_proc_start((int)child, 0), 0);
	myrmex_reply(TEST_NAME, &d, 0);
	pm_expect_exit(helper, 0, "pm_helper cow");
}

/* ------------------------------------------------------------ calls */

static void check_not_pm(void)
{
	struct myrmex_exec how;
	memset(&how, 0, sizeof(how));
	CHECK_EQ(myrmex_proc_fork((int)my_tid(), 0), -EPERM);
	CHECK_EQ(myrmex_proc_start(1, 0), -EPERM);
	CHECK_EQ(myrmex_proc_exec((int)my_tid(), &how), -EPERM);
}

static void check_forged_ids(void)
{
	static const long bad[] = { 0, -1, 1, 1 << 30, 0x100000001L };
	CHECK_EQ(myrmex_proc_fork((int)my_tid(), 0), -ESRCH);   /* running, not waiting */
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_PROC_FORK, bad[i], 0, 0, 0, 0, 0), -ESRCH);
		CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_PROC_START, bad[i], 0, 0, 0, 0, 0), -ESRCH);
	}
	CHECK_EQ(myrmex_proc_start((int)raw0(SYS_getpid), 0), -ESRCH);   /* not a fork child */
}

/* Forks tid's process until the kernel refuses: -EAGAIN at PROC_MAX, or
 * -ENOMEM when the memory budget runs out first (1024 copies of the helper
 * may not fit in the test machine). The children are discarded. */
static void check_limit(int tid)
{
	static long pids[KERNEL_PROC_MAX + 1];
	int n = 0;
	long r;
	while ((r = myrmex_proc_fork(tid, 0)) > 0 && n < KERNEL_PROC_MAX + 1)
		pids[n++] = r;
	CHECK(r == -EAGAIN || r == -ENOMEM, "fork refused with %ld, not -EAGAIN or -ENOMEM", r);
	struct myrmex_kstats s;
	if (r == -EAGAIN && myrmex_kstats(&s) == 0)
		CHECK(s.processes == KERNEL_PROC_MAX, "%llu processes at the limit",
		      (unsigned long long)s.processes);
	CHECK(n >= 1, "no fork before the limit");
	for (int i = 0; i < n; i++)
		CHECK_EQ(myrmex_proc_start((int)pids[i], 1), 0);
}

static void run_calls(void)
{
	check_not_pm();
	if (become_pm() != 0)
		return;
	long notpm = pm_spawn_helper("notpm", 0);
	if (notpm > 0)
		pm_expect_exit(notpm, 0, "pm_helper notpm");
	check_forged_ids();

	long helper = pm_spawn_helper("block", 0);
	if (helper <= 0)
		return;
	/* Its request is not being handled yet (or not even made). */
	CHECK_EQ(myrmex_proc_fork((int)helper, 0), -ESRCH);
	struct myrmex_delivery d;
	struct myrmex_frame *f = pm_take(&d);
	if (!f || d.opcode != PM_FORK)
		return;
	int tid = (int)f->arg[0];
	CHECK_EQ(tid, helper);
	CHECK_EQ(myrmex_proc_start((int)helper, 0), -ESRCH);

	long c1 = myrmex_proc_fork(tid, 0);
	CHECK(c1 > 0, "proc_fork: %ld", c1);
	CHECK_EQ(myrmex_proc_start((int)c1, 2), -EINVAL);
	CHECK_EQ(myrmex_proc_start((int)c1, 1), 0);    /* discarded */
	CHECK_EQ(myrmex_proc_start((int)c1, 0), -ESRCH);
	CHECK_EQ(myrmex_proc_start((int)c1, 1), -ESRCH);
	CHECK_EQ(raw2(SYS_kill, c1, 0), -ESRCH);        /* no zombie either */

	check_limit(tid);

	long c2 = myrmex_proc_fork(tid, 0);
	CHECK(c2 > 0, "proc_fork after the limit: %ld", c2);
	CHECK_EQ(myrmex_proc_start((int)c2, 0), 0);
	CHECK_EQ(myrmex_proc_start((int)c2, 0), -ESRCH);   /* started already */
	CHECK_EQ(myrmex_proc_start((int)c2, 1), -ESRCH);
	myrmex_reply(TEST_NAME, &d, c2);
	/* Answered: the thread no longer waits in a call of ours. */
	CHECK_EQ(myrmex_proc_fork(tid, 0), -ESRCH);
	pm_expect_exit(helper, 0, "pm_helper block");
	CHECK_EQ(myrmex_proc_fork(tid, 0), -ESRCH);      /* a stale tid */

	/* A child on a stack of its own. */
	helper = pm_spawn_helper("block-sp", 0);
	if (helper <= 0)
		return;
	f = pm_take(&d);
	if (!f || d.opcode != PM_FORK)
		return;
	long c3 = myrmex_proc_fork((int)f->arg[0], f->arg[1]);
	CHECK(c3 > 0, "proc_fork with a stack: %ld", c3);
	if (c3 > 0)
		CHECK_EQ(myrmex_proc_start((int)c3, 0), 0);
	myrmex_reply(TEST_NAME, &d, c3);
	pm_expect_exit(helper, 0, "pm_helper block-sp");
}

/* ------------------------------------------------------------ abandon */

static void run_abandon(void)
{
	long pm = pm_spawn_helper("abandon-pm", MYRMEX_SPAWN_SERVER);
	if (pm <= 0)
		return;
	long helper = pm_spawn_helper("block", 0);
	if (helper > 0)
		pm_expect_exit(helper, 0, "pm_helper block (abandoned)");
	pm_expect_exit(pm, 0, "pm_helper abandon-pm");
	CHECK_EQ(myrmex_server_pid(MYRMEX_COREID_PM), -ESRCH);
}

/* One native call to the process manager from this program, with the
 * frame's origin word forged to the kernel's: its status. */
static long pm_forged_call(uint32_t opcode)
{
	static long handle = -1;
	if (handle < 0 && (handle = myrmex_ica_alloc(1)) < 0)
		return handle;
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr((uint32_t)handle));
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_PM, opcode);
	f->arg[0] = (uint64_t)my_tid();
	f->reserved = MYRMEX_ORIGIN_KERNEL;
	long r = myrmex_callsync(h);
	if (r < 0)
		return r;
	struct myrmex_frame *res = myrmex_ctl_result(h);
	return res ? (long)res->status : -EIO;
}

static void run_forged(void)
{
	char *argv[] = { "pm", NULL };
	long pm = myrmex_spawn_flags("pm", argv, pm_envp, -1, MYRMEX_SPAWN_SERVER);
	if (pm <= 0) {
		test_fail("spawn pm: %ld", pm);
		return;
	}
	for (int tries = 0; tries < 2000 && myrmex_server_pid(MYRMEX_COREID_PM) != pm; tries++)
		myrmex_sleep_ns(PM_MS);
	CHECK_EQ(myrmex_server_pid(MYRMEX_COREID_PM), pm);
	CHECK_EQ(pm_forged_call(PM_FORK), -EPERM);
	CHECK_EQ(pm_forged_call(PM_EXEC), -EPERM);
	CHECK_EQ(pm_forged_call(77), -ENOSYS);
	myrmex_syscall6(SYS_kill, pm, SIGKILL, 0, 0, 0, 0);
	int status = pm_reap(pm);
	CHECK(status >= 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	      "pm ended with status %#x, expected SIGKILL", status);
	/* Nothing was forked on our behalf. */
	CHECK_EQ(myrmex_syscall6(SYS_wait4, -1, 0, WNOHANG, 0, 0, 0), -ECHILD);
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	const char *mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "cow") == 0)
		run_cow();
	else if (strcmp(mode, "calls") == 0)
		run_calls();
	else if (strcmp(mode, "abandon") == 0)
		run_abandon();
	else if (strcmp(mode, "forged") == 0)
		run_forged();
	else
		test_fail("unknown mode \"%s\"", mode);
	return test_exit_code();
}
