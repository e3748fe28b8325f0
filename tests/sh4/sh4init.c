/*
 * sh4init: the SH-4 test boot's first process. Runs each test program
 * named on its command line (boot modules) in turn, as a child with the
 * right to start servers, and judges it by its exit status: a name ending
 * in "!" must be killed by the kernel (a fault), any other must exit 0.
 * "prog:arg" runs prog with arg as its argv[1] (after "alpha", "beta"
 * are dropped); a name starting with "+" runs with the power to give
 * devices (MYRMEX_SPAWN_MANAGER), for the device tests. A first argument "ica=pt" or "ica=tlb" names the ICA method the kernel
 * was booted with; the tests see it as MYRMEX_ICA=pt|tlb.
 * Around every test it compares the kernel's free pages and kernel objects
 * (kstats): a difference is a leak and fails the test. Prints
 * "sh4-test NAME: PASS|FAIL" per test, then "sh4: N passed, N failed",
 * and powers the machine off.
 */
#include "sh4_user.h"
#include <myrmex/rights.h>

static char ica_env[32] = "MYRMEX_ICA=pt";

static int run(const char *arg)
{
	char name[64];
	bool manager = arg[0] == '+';
	if (manager)
		arg++;
	size_t n = u_strlen(arg);
	bool must_die = n > 0 && arg[n - 1] == '!';
	if (must_die)
		n--;
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	for (size_t i = 0; i < n; i++)
		name[i] = arg[i];
	name[n] = '\0';
	char label[64];   /* name as given, for the verdict */
	for (size_t i = 0; i <= n; i++)
		label[i] = name[i];
	/* The kernel reads spawn's vectors as 64-bit words on every port
	 * (kernel/core/sys_native.c): a 32-bit program widens its pointers. */
	const uint64_t argv_plain[] = { (uintptr_t)name, (uintptr_t)"alpha", (uintptr_t)"beta", 0 };
	uint64_t argv_arg[] = { (uintptr_t)name, 0, 0 };
	const uint64_t *argv = argv_plain;
	for (char *c = name; *c; c++)
		if (*c == ':') {
			*c = '\0';
			argv_arg[1] = (uintptr_t)(c + 1);
			argv = argv_arg;
			break;
		}
	const uint64_t envp[] = { (uintptr_t)"MYRMEX_TEST=1", (uintptr_t)ica_env, 0 };
	struct myrmex_kstats before, after;
	sys2(MYRMEX_SYS_KSTATS, &before, sizeof(before));
	long pid = sys5(MYRMEX_SYS_SPAWN, name, argv, envp, -1,
	                MYRMEX_SPAWN_SERVER | (manager ? MYRMEX_SPAWN_MANAGER : 0));
	int status = 0;
	bool ok;
	if (pid < 0) {
		u_puts("sh4init: cannot spawn ");
		u_puts(label);
		u_puts(": error ");
		u_putnum(pid);
		u_puts("\n");
		ok = false;
	} else {
		long r = sys6(SH_NR_WAIT4, pid, (long)&status, 0, 0, 0, 0);
		bool killed = r == pid && (status & 0x7f) != 0;
		bool exited0 = r == pid && status == 0;
		ok = must_die ? killed : exited0;
		sys2(MYRMEX_SYS_KSTATS, &after, sizeof(after));
		if (after.free_pages != before.free_pages ||
		    after.kernel_objects != before.kernel_objects) {
			u_puts("sh4init: ");
			u_puts(label);
			u_puts(" leaked ");
			u_putnum((long)(before.free_pages - after.free_pages));
			u_puts(" pages, ");
			u_putnum((long)(after.kernel_objects - before.kernel_objects));
			u_puts(" objects\n");
			ok = false;
		}
		if (!ok) {
			u_puts("sh4init: ");
			u_puts(label);
			u_puts(" status ");
			u_putnum(status);
			u_puts("\n");
		}
	}
	u_puts("sh4-test ");
	u_puts(label);
	u_puts(ok ? ": PASS\n" : ": FAIL\n");
	return ok;
}

int main(int argc, char **argv, char **envp)
{
	(void)envp;
	int passed = 0, failed = 0;
	int first = 1;
	if (argc > 1 && argv[1][0] == 'i' && argv[1][1] == 'c' && argv[1][2] == 'a' &&
	    argv[1][3] == '=') {
		size_t n = u_strlen(argv[1] + 4);
		if (n > sizeof(ica_env) - 12)
			n = sizeof(ica_env) - 12;
		for (size_t i = 0; i <= n; i++)
			ica_env[11 + i] = argv[1][4 + i];
		ica_env[11 + n] = '\0';
		first = 2;
	}
	for (int i = first; i < argc; i++) {
		if (run(argv[i]))
			passed++;
		else
			failed++;
	}
	u_puts("sh4: ");
	u_putnum(passed);
	u_puts(" passed, ");
	u_putnum(failed);
	u_puts(" failed\n");
	sys1(MYRMEX_SYS_POWEROFF, failed ? 1 : 0);
	return 0;
}
