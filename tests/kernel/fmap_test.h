/*
 * Helpers shared by the file-mapping tests (t_omf, t_mmap_file): catching
 * the SIGSEGV/SIGBUS an access raises, the file manager's map counters,
 * the kernel's page-fault count, and POSIX children that are the test
 * itself (the boot of the booted tests has no process manager: no fork).
 * Include after test_check.h, fs_test.h and posix_test.h, with TEST_NAME
 * defined and child_envp declared.
 */
#ifndef FMAP_TEST_H
#define FMAP_TEST_H

#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static sigjmp_buf jump;
static volatile int fault_sig, fault_code;

static void on_fault(int sig, siginfo_t *info, void *ctx)
{
	(void)ctx;
	fault_sig = sig;
	fault_code = info->si_code;
	siglongjmp(jump, 1);
}

static void catch_faults(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
}

/* Reads (or writes v to) *p: 0, or the signal the access raised. */
static int touch(volatile uint8_t *p, int write, uint8_t v)
{
	fault_sig = 0;
	if (sigsetjmp(jump, 1) == 0) {
		if (write)
			*p = v;
		else
			(void)*p;
	}
	return fault_sig;
}

static void map_stats(uint64_t out[8])
{
	long r = myrmex_fs_call(FS_STATS, FS_STATS_MAPS, 0, 0, NULL, 0, out);
	if (r != 0) {
		test_fail("FS_STATS(FS_STATS_MAPS): %ld", r);
		memset(out, 0, 8 * sizeof(uint64_t));
	}
}

static uint64_t page_faults(void)
{
	struct myrmex_kstats k;
	myrmex_kstats(&k);
	return k.page_faults;
}

static long spawn_child(char *const argv[])
{
	long pid = myrmex_spawn_flags(TEST_NAME, argv, child_envp, -1, MYRMEX_SPAWN_POSIX);
	if (pid <= 0)
		test_fail("spawn %s: %ld", argv[1], pid);
	return pid;
}

static void expect_child_ok(const char *what, long pid)
{
	if (pid <= 0)
		return;
	int status = wait_child(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: child %s %d", what,
	      WIFEXITED(status) ? "exited" : "killed by signal",
	      WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

#endif
