/*
 * sh4init: the SH-4 test boot's first process. Runs each test program
 * named on its command line (boot modules) in turn, as a child with the
 * right to start servers, and judges it by its exit status: a name ending
 * in "!" must be killed by the kernel (a fault), any other must exit 0.
 * "prog:arg" runs prog with arg as its argv[1] (after "alpha", "beta"
 * are dropped). "client@srv1,srv2..." first starts the servers (boot
 * modules, with the server right: the demos of user/), runs the client,
 * then kills and reaps the servers; a server written "*srv" is also given
 * the CF slot (MYRMEX_SPAWN_DEVICE: the disk driver cf_ide), "srv:a:b"
 * passes a (and b) to a server, "prog:arg@srv" arg to the client. "+prog" runs prog as a Linux program
 * (the POSIX personality's process, MYRMEX_SPAWN_POSIX); "^prog" with the
 * power to give devices (MYRMEX_SPAWN_MANAGER), for the device tests; "=prog"
 * (after "^" if both) as the x86-64 test init runs the shared tests: no
 * "alpha", "beta" (argv[1] only when ":arg" gives one) and at priority
 * TEST_PRIO, below sh4init's (t_threads, t_sched, t_spawn). An argument
 * "list=<module>" runs the names (separated by white space) in that boot
 * module, a file the build writes (a boot module's command line is too
 * short for them all). A first argument "ica=pt" or "ica=tlb" names the
 * ICA method the kernel was booted with; the tests see it as
 * MYRMEX_ICA=pt|tlb.
 * Around every test it compares the kernel's free pages and kernel objects
 * (kstats): a difference is a leak and fails the test. Prints
 * "sh4-test NAME: PASS|FAIL" per test, then "sh4: N passed, N failed",
 * and powers the machine off.
 */
#include "sh4_dev.h"
#include <myrmex/fs.h>
#include <myrmex/rights.h>

static char ica_env[32] = "MYRMEX_ICA=pt";

#define SH_SIGKILL 9
#define MAX_SERVERS 4
/* "=prog"'s priority: tests/kernel/testinit.c's TEST_PRIO (t_sched is
 * given it as the ceiling it must find: "=t_sched:15"). */
#define TEST_PRIO 15

/* The device index of the CF slot (the legacy IDE device), or -1. */
static long ide_index(void)
{
	struct myrmex_pci_info info;
	for (uint32_t i = 0; i < MYRMEX_MAX_DEVICES && u_dev_info(i, &info) == 0; i++)
		if (info.kind == MYRMEX_DEV_KIND_LEGACY && info.class_code == 1 && info.subclass == 1)
			return i;
	return -1;
}

/* Starts the comma-separated servers of list (cut in place) with the
 * server right; their pids in pids[] (0 when one could not start);
 * *fileman tells whether the file manager is one of them. */
static int start_servers(char *list, long *pids, bool *fileman)
{
	*fileman = false;
	int n = 0;
	while (list && *list && n < MAX_SERVERS) {
		char *name = list;
		while (*list && *list != ',')
			list++;
		if (*list)
			*list++ = '\0';
		unsigned flags = MYRMEX_SPAWN_SERVER;
		if (*name == '*') {   /* "*srv": the driver of the CF slot */
			name++;
			long index = ide_index();
			if (index >= 0)
				flags |= MYRMEX_SPAWN_DEVICE(index);
		}
		/* "srv:a:b": a and b are the server's argv[1] and argv[2]. */
		uint64_t argv[] = { (uintptr_t)name, 0, 0, 0 };
		unsigned nargs = 1;
		for (char *c = name; *c && nargs < 3; c++)
			if (*c == ':') {
				*c = '\0';
				argv[nargs++] = (uintptr_t)(c + 1);
			}
		const uint64_t envp[] = { (uintptr_t)"MYRMEX_TEST=1", 0 };
		long pid = sys5(MYRMEX_SYS_SPAWN, name, argv, envp, -1, flags);
		const char *fm = "fileman";
		size_t k = 0;
		while (fm[k] && name[k] == fm[k])
			k++;
		if (pid > 0 && !fm[k] && !name[k])
			*fileman = true;
		if (pid < 0) {
			u_puts("sh4init: cannot start server ");
			u_puts(name);
			u_puts(": error ");
			u_putnum(pid);
			u_puts("\n");
			pid = 0;
		}
		pids[n++] = pid;
	}
	return n;
}

/* FS_SHUTDOWN to the file manager (an init's call): it writes back
 * what it caches and unmounts, so the image is clean when it is killed
 * (the file-system boot checks it with e2fsck afterwards). 0, or the
 * error; nothing when no file manager is up. */
static long fs_ctl = -1;   /* FS_SHUTDOWN's control ICA, kept for good */

/* Makes fs_ctl before the first test with a file manager takes its
 * counts: the ICA and the page table under it stay (a leak otherwise);
 * only boots that run a file manager hold it (a reserved TLB entry
 * held for good would cost t_ica_limit one). */
static void fs_ctl_make(const char *servers)
{
	for (const char *c = servers; fs_ctl < 0 && c && *c; c++)
		if (c[0] == 'f' && c[1] == 'i' && c[2] == 'l' && c[3] == 'e' && c[4] == 'm')
			fs_ctl = u_ica_alloc(1);
}

static long fs_shutdown(void)
{
	long h = fs_ctl;
	if (h < 0)
		return h;
	void *ctl = myrmex_ica_addr((uint32_t)h);
	u_ctl_first(ctl, MYRMEX_COREID_FS, FS_SHUTDOWN);
	long r = u_callsync(ctl);
	if (r == 0) {
		struct myrmex_frame *res = u_ctl_result(ctl);
		r = res ? (long)res->status : -EINVAL;
	}
	return r;
}

/* Servers never end by themselves: the file manager, if one runs, is shut
 * down first (while its disk driver still serves), then all are killed
 * and reaped. false when the file manager's shutdown failed. */
static bool stop_servers(const long *pids, int n, bool fileman)
{
	bool ok = true;
	if (fileman) {
		long r = fs_shutdown();
		if (r != 0) {
			u_puts("sh4init: FS_SHUTDOWN: error ");
			u_putnum(r);
			u_puts("\n");
			ok = false;
		}
	}
	for (int i = 0; i < n; i++) {
		if (pids[i] <= 0)
			continue;
		int status = 0;
		sys2(SH_NR_KILL, pids[i], SH_SIGKILL);
		sys6(SH_NR_WAIT4, pids[i], (long)&status, 0, 0, 0, 0);
	}
	return ok;
}

static int run(const char *arg)
{
	char name[64];
	bool manager = arg[0] == '^';
	if (manager)
		arg++;
	bool shared = arg[0] == '=';   /* "=prog": argv as written, TEST_PRIO */
	if (shared)
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
	/* "+prog": a Linux program, started as the POSIX personality's process. */
	const char *module = name[0] == '+' ? name + 1 : name;
	unsigned flags = name[0] == '+' ? MYRMEX_SPAWN_POSIX : MYRMEX_SPAWN_SERVER;
	if (manager)
		flags |= MYRMEX_SPAWN_MANAGER;
	const uint64_t argv_plain[] = { (uintptr_t)module, (uintptr_t)"alpha", (uintptr_t)"beta", 0 };
	uint64_t argv_arg[] = { (uintptr_t)module, 0, 0 };
	const uint64_t *argv = shared ? argv_arg : argv_plain;
	/* The servers first: "prog:arg@srv" passes arg to prog. */
	char *servers = NULL;
	for (char *c = name; *c; c++)
		if (*c == '@') {
			*c = '\0';
			servers = c + 1;
			break;
		}
	for (char *c = name; *c; c++)
		if (*c == ':') {
			*c = '\0';
			argv_arg[1] = (uintptr_t)(c + 1);
			argv = argv_arg;
			break;
		}
	const uint64_t envp[] = { (uintptr_t)"MYRMEX_TEST=1", (uintptr_t)ica_env, 0 };
	fs_ctl_make(servers);
	struct myrmex_kstats before, after;
	sys2(MYRMEX_SYS_KSTATS, &before, sizeof(before));
	long server_pids[MAX_SERVERS];
	bool fileman;
	int nservers = start_servers(servers, server_pids, &fileman);
	long pid = sys5(MYRMEX_SYS_SPAWN, module, argv, envp, shared ? TEST_PRIO : -1, flags);
	int status = 0;
	bool ok;
	if (pid < 0) {
		u_puts("sh4init: cannot spawn ");
		u_puts(label);
		u_puts(": error ");
		u_putnum(pid);
		u_puts("\n");
		stop_servers(server_pids, nservers, fileman);
		ok = false;
	} else {
		long r = sys6(SH_NR_WAIT4, pid, (long)&status, 0, 0, 0, 0);
		bool killed = r == pid && (status & 0x7f) != 0;
		bool exited0 = r == pid && status == 0;
		ok = must_die ? killed : exited0;
		for (int i = 0; i < nservers; i++)
			ok = ok && server_pids[i] > 0;
		ok = stop_servers(server_pids, nservers, fileman) && ok;
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

static int passed, failed;

static void run_counted(const char *arg)
{
	if (run(arg))
		passed++;
	else
		failed++;
}

/* Runs the names listed in boot module `module`. */
static void run_list(const char *module)
{
	static char list[4096];
	long n = sys6(MYRMEX_SYS_MODULE_READ, (long)module, 0 /* offset */, (long)list,
	              (long)sizeof(list) - 1, 0, 0);
	if (n < 0 || n >= (long)sizeof(list) - 1) {
		u_puts("sh4init: cannot read the test list ");
		u_puts(module);
		u_puts(n < 0 ? " (error)\n" : " (too long)\n");
		failed++;
		return;
	}
	list[n] = '\0';
	char *p = list;
	for (;;) {
		while (*p == ' ' || *p == '\n' || *p == '\t')
			p++;
		if (!*p)
			break;
		char *name = p;
		while (*p && *p != ' ' && *p != '\n' && *p != '\t')
			p++;
		if (*p)
			*p++ = '\0';
		run_counted(name);
	}
}

int main(int argc, char **argv, char **envp)
{
	(void)envp;
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
		const char *a = argv[i];
		if (a[0] == 'l' && a[1] == 'i' && a[2] == 's' && a[3] == 't' && a[4] == '=')
			run_list(a + 5);
		else
			run_counted(a);
	}
	u_puts("sh4: ");
	u_putnum(passed);
	u_puts(" passed, ");
	u_putnum(failed);
	u_puts(" failed\n");
	sys1(MYRMEX_SYS_POWEROFF, failed ? 1 : 0);
	return 0;
}
