/*
 * testinit: the test init (pid 1) of the booted tests (docs/testing.md).
 * Runs each test program of the table below in its own process with the
 * native spawn call, waits for it with a timeout, compares how it ended with
 * the expected outcome, and checks the kernel's free pages and kernel
 * objects before and after (a difference is a leak). After each hostile test
 * it runs t_alive as the test alive-after-<name>. A disk test (DISK) runs
 * with the virtio-blk driver, which the init starts with the device just
 * before it and kills just after it, inside the leak check. A file-system
 * test (FS) runs with the driver on the disk its table entry names and the
 * file manager over it; after the test the init shuts the file manager down
 * (FS_SHUTDOWN: everything written back, the file system marked clean) and
 * kills both, again inside the leak check. A console test (CONSOLE) runs
 * with the console server (uart), given COM1, started and killed the same
 * way; its input comes from the host, which types what a "CONSOLE-TYPE"
 * line asks for. A time test (TIME) runs with the time server (timed),
 * started (and awaited until it has registered) and killed the same way;
 * a process-manager test (PM, with FS) with the process manager (pm), so
 * that its POSIX processes can fork. A network test (NET) runs with the
 * virtio-net driver given the NIC, and with ETH also the Ethernet server
 * over it, started and killed the same way. Prints TEST-PLAN,
 * TEST-RESULT and TEST-SUMMARY lines, then powers the machine off with 0
 * when everything passed, 1 otherwise.
 *
 * Usage: testinit [-v] [-t<seconds>] [name[=arg,arg...] ...]
 *   -v      also print a line before each test
 *   -t<s>   the time each test may take before it is killed (default 120)
 *   name    run only these tests: a test name ("mmap", "fault-ud"), or a
 *           program name ("t_mmap", "t_fault": every test that runs it); a
 *           trailing '*' matches a prefix ("fault-*"). The alive-after test
 *           of a chosen hostile test always runs. A name that matches
 *           nothing is reported as a failed test.
 *   =args   the chosen tests run with these arguments (comma-separated,
 *           at most MAX_ARGS) instead of their table's: `make fuzz` runs
 *           "fuzz=<seed>,<rounds>,<procs>" this way.
 *
 * On Linux (no spawn call) it runs the programs from its own directory with
 * posix_spawn and skips the leak check, which makes it testable on a host.
 */
#define _GNU_SOURCE
#include <myrmex.h>
#include <myrmex/device.h>
#include <myrmex/console.h>
#include <myrmex/disk.h>
#include <myrmex/fs.h>
#include <myrmex/net.h>
#include <myrmex/inet.h>
#include <myrmex/time.h>

#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define STRINGIFY_VALUE(x) #x
#define STRINGIFY(x) STRINGIFY_VALUE(x)

/* Tests run one level below the default priority, where the init runs, so
 * that a test that spins cannot keep the init from enforcing the timeout. */
#define TEST_PRIO 15
_Static_assert(TEST_PRIO < MYRMEX_PRIO_DEFAULT, "tests run below the init");

#define TIMEOUT_S 120ULL                    /* per test, guest time (-t) */
#define POLL_NS (5ULL * 1000000ULL)
#define REAP_AFTER_KILL_NS (10ULL * 1000000000ULL)
#define LEAK_SETTLE_TRIES 100                  /* re-reads of kstats, 2 ms apart */
#define LEAK_SETTLE_NS (2ULL * 1000000ULL)
#define MAX_ARGS 6
#define LINE_MAX_LEN 512

#include "test_table.h"
#define TEST_COUNT (sizeof tests / sizeof tests[0])

static const struct test alive_test = { "alive", "t_alive", { 0 }, EXITS, 0, 0, 0 };

static char *test_envp[] = { "MYRMEX_TEST=1", NULL };

static int native;                 /* on Myrmex: spawn and kstats work */
static int verbose;
static uint64_t timeout_ns = TIMEOUT_S * 1000000000ULL;   /* per test (-t) */
static char *fsconf = "split";   /* -fsconf=<name>: the file manager's configuration */
static const char *program_dir = "."; /* Linux: where the test programs are */
static int passed, failed;

/* ------------------------------------------------------------ output */

static void write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		long done = myrmex_syscall6(SYS_write, fd, (long)buf, (long)len, 0, 0, 0);
		if (done <= 0)
			return;
		buf += done;
		len -= (size_t)done;
	}
}

/* Formats one line (a newline is added) and writes it with one write. */
__attribute__((format(printf, 1, 2)))
static void emit(const char *fmt, ...)
{
	char line[LINE_MAX_LEN];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	size_t len = strlen(line);
	line[len++] = '\n';
	write_all(1, line, len);
}

static const char *error_name(long err)
{
	switch (-err) {
	case ENOENT: return "ENOENT";
	case EFAULT: return "EFAULT";
	case E2BIG: return "E2BIG";
	case EINVAL: return "EINVAL";
	case ENOEXEC: return "ENOEXEC";
	case EAGAIN: return "EAGAIN";
	case ENOMEM: return "ENOMEM";
	case EPERM: return "EPERM";
	case ECHILD: return "ECHILD";
	case ESRCH: return "ESRCH";
	case ENOSYS: return "ENOSYS";
	default: return "error";
	}
}

/* "exit 0" or "killed by signal 11" into buf. */
static void describe_status(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exit %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "killed by signal %d", WTERMSIG(status));
	else
		snprintf(buf, size, "wait status %#x", status);
}

static void describe_expected(const struct test *t, char *buf, size_t size)
{
	if (t->ending == EXITS)
		snprintf(buf, size, "exit %d", t->value);
	else
		snprintf(buf, size, "killed by signal %d", t->value);
}

/* ------------------------------------------------------------ processes */

/* Linux stand-in for spawn: the program file next to testinit. */
static long host_spawn(const char *module, char **argv)
{
	char path[LINE_MAX_LEN];
	snprintf(path, sizeof path, "%s/%s", program_dir, module);
	pid_t pid;
	int err = posix_spawn(&pid, path, NULL, NULL, argv, test_envp);
	return err ? -err : pid;
}

/* COM1's index in the device list (a legacy device, after the PCI ones),
 * or -1. */
static int com1_index(void)
{
	static const uint16_t com1[] = { MYRMEX_DEV_LEGACY_COM1 };
	return myrmex_dev_find(MYRMEX_DEV_VENDOR_LEGACY, com1, 1, NULL);
}

/* The spawn flags a test asks for, with GIVE_NIC turned into the emulated
 * e1000's device index and GIVE_COM1 into COM1's (the devices the tests
 * drive directly). */
static unsigned test_spawn_flags(const struct test *t)
{
	unsigned flags = t->spawn_flags & ~TESTINIT_FLAGS;
	if (t->spawn_flags & GIVE_COM1) {
		int index = com1_index();
		return index < 0 ? flags : flags | MYRMEX_SPAWN_DEVICE(index);
	}
	if (!(t->spawn_flags & GIVE_NIC))
		return flags;
	struct myrmex_pci_info info;
	for (unsigned i = 0; i < MYRMEX_MAX_DEVICES; i++) {
		if (myrmex_syscall6(MYRMEX_SYS_DEV_INFO, i, (long)&info, 0, 0, 0, 0) < 0)
			break;
		if (info.vendor == 0x8086 && info.device == 0x100e)
			return flags | MYRMEX_SPAWN_DEVICE(i);
	}
	return flags;
}

static long start_test(const struct test *t)
{
	char *argv[MAX_ARGS + 2];
	int argc = 0;
	argv[argc++] = (char *)t->module;
	for (int i = 0; i < MAX_ARGS && t->args[i]; i++)
		argv[argc++] = (char *)t->args[i];
	argv[argc] = NULL;
	if (!native)
		return host_spawn(t->module, argv);
	if (t->spawn_flags & (MEASURE | NO_RIGHTS | SERVER_RIGHTS | INET_RIGHT)) {
		struct myrmex_rights rights = { { 0 } };
		if (t->spawn_flags & MEASURE) {
			myrmex_rights_add(&rights, MYRMEX_COREID_FS);
			myrmex_rights_add(&rights, MYRMEX_COREID_TIME);
		}
		if (t->spawn_flags & INET_RIGHT)
			myrmex_rights_add(&rights, MYRMEX_COREID_INET);
		if (t->spawn_flags & SERVER_RIGHTS)
			for (unsigned c = MYRMEX_COREID_DISK; c <= MYRMEX_COREID_TIME; c++)
				myrmex_rights_add(&rights, c);
		return myrmex_spawn_rights(t->module, argv, test_envp, TEST_PRIO, test_spawn_flags(t),
		                           &rights);
	}
	return myrmex_spawn_flags(t->module, argv, test_envp, TEST_PRIO, test_spawn_flags(t));
}

static long wait_nohang(long pid, int *status)
{
	return myrmex_syscall6(SYS_wait4, pid, (long)status, WNOHANG, 0, 0, 0);
}

/* Polls for pid's end for at most limit_ns. Returns pid when reaped (with
 * *status), 0 on timeout, or -errno from wait4. */
static long wait_with_timeout(long pid, int *status, uint64_t limit_ns)
{
	uint64_t start = myrmex_now_ns();
	for (uint64_t polls = 0;; polls++) {
		long r = wait_nohang(pid, status);
		if (r != 0)
			return r;
		uint64_t now = myrmex_now_ns();
		/* Without a working clock, count the sleeps instead. */
		uint64_t elapsed = (now && start) ? now - start : polls * POLL_NS;
		if (elapsed >= limit_ns)
			return 0;
		myrmex_sleep_ns(POLL_NS);
	}
}

/* ------------------------------------------------------------ leak check */

struct counts {
	uint64_t free_pages;
	uint64_t kernel_objects;
};

static int read_counts(struct counts *c)
{
	struct myrmex_kstats stats;
	if (myrmex_kstats(&stats) < 0)
		return -1;
	c->free_pages = stats.free_pages;
	c->kernel_objects = stats.kernel_objects;
	return 0;
}

/* Reaps the children the init adopted (orphans of a test's processes, whose
 * parent ended first: the kernel makes them init's, as Linux does). Called
 * once the test and its servers are reaped, so every child left is one. */
static void reap_adopted(void)
{
	int status;
	while (wait_nohang(-1, &status) > 0)
		;
}

/* Compares with `before`, giving the kernel a moment to finish any deferred
 * freeing. Writes "leak: ..." to reason and returns 1 if counts still differ. */
static int find_leak(const struct counts *before, char *reason, size_t size)
{
	struct counts after;
	for (int i = 0; i < LEAK_SETTLE_TRIES; i++) {
		reap_adopted();
		if (read_counts(&after) < 0) {
			snprintf(reason, size, "kstats failed after the test");
			return 1;
		}
		if (after.free_pages == before->free_pages &&
		    after.kernel_objects == before->kernel_objects)
			return 0;
		myrmex_sleep_ns(LEAK_SETTLE_NS);
	}
	snprintf(reason, size, "leak: %lld pages, %lld objects",
	         (long long)(before->free_pages - after.free_pages),
	         (long long)(after.kernel_objects - before->kernel_objects));
	return 1;
}

/* ------------------------------------------------------------ running */

static void report(const char *name, int ok, const char *reason)
{
	if (ok) {
		passed++;
		emit("TEST-RESULT %s PASS", name);
	} else {
		failed++;
		emit("TEST-RESULT %s FAIL %s", name, reason);
	}
}

/*
 * Runs t once and judges how it ended: 1 passed, 0 failed (reason written),
 * -1 failed before it could be judged (spawn, wait or timeout; the leak
 * check is skipped then).
 */
static int run_once(const struct test *t, char *reason, size_t size)
{
	long pid = start_test(t);
	if (pid <= 0) {
		snprintf(reason, size, "spawn failed: %ld (%s)", pid, error_name(pid));
		return -1;
	}
	int status = 0;
	long r = wait_with_timeout(pid, &status, timeout_ns);
	if (r == 0) {
		myrmex_syscall6(SYS_kill, pid, SIGKILL, 0, 0, 0, 0);
		long reaped = wait_with_timeout(pid, &status, REAP_AFTER_KILL_NS);
		snprintf(reason, size, "timeout after %llu s%s",
		         (unsigned long long)(timeout_ns / 1000000000ULL),
		         reaped == pid ? "" : " (and SIGKILL did not end it)");
		return -1;
	}
	if (r != pid) {
		snprintf(reason, size, "wait4 returned %ld", r);
		return -1;
	}

	int ok = t->ending == EXITS ? WIFEXITED(status) && WEXITSTATUS(status) == t->value
	                            : WIFSIGNALED(status) && WTERMSIG(status) == t->value;
	if (!ok) {
		char got[64], wanted[64];
		describe_status(status, got, sizeof got);
		describe_expected(t, wanted, sizeof wanted);
		snprintf(reason, size, "%s, expected %s", got, wanted);
	}
	return ok;
}

/* Appends "; <text>" (or just the text to an empty reason). */
__attribute__((format(printf, 3, 4)))
static void add_reason(char *reason, size_t size, const char *fmt, ...)
{
	size_t used = strlen(reason);
	if (used && used + 2 < size) {
		memcpy(reason + used, "; ", 3);
		used += 2;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(reason + used, size - used, fmt, ap);
	va_end(ap);
}

/* The device index of virtio-blk disk n (from 0, in the kernel's PCI
 * order), or -1 when there are not that many. */
static int virtio_blk_index(int n)
{
	struct myrmex_pci_info info;
	for (uint32_t i = 0; i < MYRMEX_MAX_DEVICES; i++) {
		if (myrmex_dev_info(i, &info) < 0)
			break;
		/* modern and transitional virtio-blk */
		if (info.vendor == 0x1af4 && (info.device == 0x1042 || info.device == 0x1001) &&
		    n-- == 0)
			return (int)i;
	}
	return -1;
}

/* Waits until server pid (just spawned as `name`) has registered coreid, so
 * that the test's first call reaches it: a server spawned before the test
 * need not run before it (a timer tick may preempt it before its
 * registserver, and then a call finds no server: -ESRCH). pid, or -1 with
 * the reason written and the server killed and reaped. */
static long server_registered(const char *name, unsigned coreid, long pid, char *reason,
                              size_t size)
{
	for (int tries = 0; tries < 2000 && myrmex_server_pid(coreid) != pid; tries++)
		myrmex_sleep_ns(1000000);
	if (myrmex_server_pid(coreid) == pid)
		return pid;
	snprintf(reason, size, "%s did not register coreid %u", name, coreid);
	myrmex_syscall6(SYS_kill, pid, SIGKILL, 0, 0, 0, 0);
	int status;
	wait_with_timeout(pid, &status, REAP_AFTER_KILL_NS);
	return -1;
}

/* Starts the virtio-blk driver with disk `disk` and the server right, for a
 * DISK or FS test, and waits for its registration: its pid, or -1 with the
 * reason written. For an FS test it serves the file manager alone (its
 * client coreid); a DISK test drives it directly. */
static long disk_driver_start(int disk, int for_fileman, char *reason, size_t size)
{
	int index = virtio_blk_index(disk);
	if (index < 0) {
		snprintf(reason, size, "no virtio-blk disk %d (the run attaches them: "
		         "the Makefile's TEST_DISKS)", disk);
		return -1;
	}
	char arg[16];
	snprintf(arg, sizeof arg, "%d", index);
	char client[16];
	snprintf(client, sizeof client, "%u", MYRMEX_COREID_FS);
	char *argv[] = { "virtio_blk", arg, for_fileman ? client : NULL, NULL };
	long pid = myrmex_spawn_flags("virtio_blk", argv, test_envp, TEST_PRIO,
	                              MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_DEVICE(index));
	if (pid <= 0) {
		snprintf(reason, size, "cannot start virtio_blk: %ld (%s)", pid, error_name(pid));
		return -1;
	}
	return server_registered("virtio_blk", MYRMEX_COREID_DISK, pid, reason, size);
}

/* Starts the NIC driver with its NIC (run_tests.py --net attaches it) and
 * the server right, for a NET test: virtio_net, or rtl8139 for an RTL test
 * (--net-model names the RTL8139 too). Waits for its registration: its
 * pid, or -1 with the reason written. */
/* The device index of the nth (from 0) virtio-net NIC, or -1. */
static int nth_virtio_net(int nth)
{
	struct myrmex_pci_info info;
	for (uint32_t i = 0; myrmex_dev_info(i, &info) >= 0; i++)
		if (info.vendor == 0x1af4 && (info.device == 0x1041 || info.device == 0x1000) &&
		    nth-- == 0)
			return (int)i;
	return -1;
}

static long net_driver_start(int rtl, int inet, char *reason, size_t size)
{
	static const uint16_t rtl_ids[] = { 0x8139 };
	const char *name = rtl ? "rtl8139" : "virtio_net";
	/* An INET test's NIC is the second virtio-net one, on QEMU's user
	 * network (run_tests.py --net-model ...,user). */
	int index = rtl ? myrmex_dev_find(0x10ec, rtl_ids, 1, NULL) : nth_virtio_net(inet ? 1 : 0);
	if (index < 0) {
		snprintf(reason, size, "no %s NIC (run_tests.py --net --net-model %s attaches it)",
		         rtl ? "RTL8139" : "virtio-net", rtl ? "virtio,rtl8139" : "virtio");
		return -1;
	}
	char arg[16];
	snprintf(arg, sizeof arg, "%d", index);
	char *argv[] = { (char *)name, arg, NULL };
	long pid = myrmex_spawn_flags(name, argv, test_envp, TEST_PRIO,
	                              MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_DEVICE(index));
	if (pid <= 0) {
		snprintf(reason, size, "cannot start %s: %ld (%s)", name, pid, error_name(pid));
		return -1;
	}
	return server_registered(name, MYRMEX_COREID_NIC, pid, reason, size);
}

/* Starts the Ethernet server (eth) for an ETH test, with the server right
 * and the right to call the driver and nothing else, and waits for its
 * registration: its pid, or -1 with the reason written. */
static long eth_server_start(char *reason, size_t size)
{
	struct myrmex_rights rights = { { 0 } };
	myrmex_rights_add(&rights, MYRMEX_COREID_NIC);
	char *argv[] = { "eth", NULL };
	long pid = myrmex_spawn_rights("eth", argv, test_envp, TEST_PRIO, MYRMEX_SPAWN_SERVER,
	                               &rights);
	if (pid <= 0) {
		snprintf(reason, size, "cannot start eth: %ld (%s)", pid, error_name(pid));
		return -1;
	}
	return server_registered("eth", MYRMEX_COREID_ETH, pid, reason, size);
}

/* Starts the TCP/IP server (tcpip) for an INET test, with the server right
 * and the right to call the Ethernet server, the driver and itself, at QEMU's
 * user-network address (wire: the host peer's wire, 10.0.3.15/24; dhcp: by
 * DHCP), and waits for its registration. */
static long inet_server_start(int wire, int dhcp, char *reason, size_t size)
{
	struct myrmex_rights rights = { { 0 } };
	myrmex_rights_add(&rights, MYRMEX_COREID_NIC);
	myrmex_rights_add(&rights, MYRMEX_COREID_ETH);
	myrmex_rights_add(&rights, MYRMEX_COREID_INET);   /* its ticker calls it */
	char *fixed[] = { "tcpip", wire ? "10.0.3.15/24" : "10.0.2.15/24",
	                  wire ? "10.0.3.1" : "10.0.2.2", NULL };
	char *leased[] = { "tcpip", "dhcp", NULL };
	char **argv = dhcp ? leased : fixed;
	long pid = myrmex_spawn_rights("tcpip", argv, test_envp, TEST_PRIO, MYRMEX_SPAWN_SERVER,
	                               &rights);
	if (pid <= 0) {
		snprintf(reason, size, "cannot start tcpip: %ld (%s)", pid, error_name(pid));
		return -1;
	}
	return server_registered("tcpip", MYRMEX_COREID_INET, pid, reason, size);
}

/* Starts the console server (uart) with COM1 and the server right, for a
 * CONSOLE test, and waits for its registration: its pid, or -1 with the
 * reason written. */
static long console_server_start(char *reason, size_t size)
{
	int index = com1_index();
	if (index < 0) {
		snprintf(reason, size, "no COM1 in the device list");
		return -1;
	}
	char arg[16];
	snprintf(arg, sizeof arg, "%d", index);
	char *argv[] = { "uart", arg, NULL };
	long pid = myrmex_spawn_flags("uart", argv, test_envp, TEST_PRIO,
	                              MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_DEVICE(index));
	if (pid <= 0) {
		snprintf(reason, size, "cannot start uart: %ld (%s)", pid, error_name(pid));
		return -1;
	}
	return server_registered("uart", MYRMEX_COREID_CONSOLE, pid, reason, size);
}

/* Starts a server that takes no argument and no device (module `name`)
 * with the server right and waits until it has registered coreid, so that
 * the test's first call reaches it: its pid, or -1 with the reason written. */
static long plain_server_start(const char *name, unsigned coreid, char *reason, size_t size)
{
	char *argv[] = { (char *)name, NULL };
	long pid = myrmex_spawn_flags(name, argv, test_envp, TEST_PRIO, MYRMEX_SPAWN_SERVER);
	if (pid <= 0) {
		snprintf(reason, size, "cannot start %s: %ld (%s)", name, pid, error_name(pid));
		return -1;
	}
	return server_registered(name, coreid, pid, reason, size);
}

/* The time server (timed) for a TIME test. */
static long time_server_start(char *reason, size_t size)
{
	return plain_server_start("timed", MYRMEX_COREID_TIME, reason, size);
}

/* The process manager (pm) for a PM test, after the file manager it uses. */
static long pm_start(char *reason, size_t size)
{
	return plain_server_start("pm", MYRMEX_COREID_PM, reason, size);
}

/* Stops a server after its test (it serves until killed): the disk
 * driver, the console server, the time server, the process manager. 1
 * when it was still running and is reaped now; 0 with the reason added
 * otherwise (a server that ended during the test was killed, or gave up:
 * the test broke it). */
static int server_stop(const char *name, long pid, char *reason, size_t size)
{
	int status = 0;
	if (wait_nohang(pid, &status) == pid) {
		char how[64];
		describe_status(status, how, sizeof how);
		add_reason(reason, size, "%s ended during the test (%s)", name, how);
		return 0;
	}
	myrmex_syscall6(SYS_kill, pid, SIGKILL, 0, 0, 0, 0);
	if (wait_with_timeout(pid, &status, REAP_AFTER_KILL_NS) != pid) {
		add_reason(reason, size, "%s did not end after SIGKILL", name);
		return 0;
	}
	return 1;
}

/* Starts the file manager (it registers, then waits for the driver and
 * mounts the disk; calls queue meanwhile) and waits for its registration:
 * its pid, or -1 with the reason written. */
static long fileman_start(char *reason, size_t size)
{
	char *argv[] = { "fileman", FS_CACHE_MIB, fsconf, NULL };
	long pid = myrmex_spawn_flags("fileman", argv, test_envp, TEST_PRIO, MYRMEX_SPAWN_SERVER);
	if (pid <= 0) {
		snprintf(reason, size, "cannot start fileman: %ld (%s)", pid, error_name(pid));
		return -1;
	}
	return server_registered("fileman", MYRMEX_COREID_FS, pid, reason, size);
}

/* FS_SHUTDOWN, made on a thread of ours so that the init can give up on a
 * file manager that does not answer (killing it ends the call, -EPIPE). */
struct shutdown_call {
	volatile int done;
	int status;
};

static void shutdown_thread(void *arg)
{
	struct shutdown_call *c = arg;
	int r = -ESRCH;
	/* It registers at once when it starts; allow for a slow start. A full
	 * queue (-EAGAIN) empties as it serves. */
	for (int tries = 0; tries < 1000 && (r == -ESRCH || r == -EAGAIN); tries++) {
		r = myrmex_fs_shutdown();
		if (r == -ESRCH || r == -EAGAIN)
			myrmex_sleep_ns(POLL_NS);
	}
	c->status = r;
	__atomic_store_n(&c->done, 1, __ATOMIC_RELEASE);
	myrmex_futex_wake(&c->done, 1);
}

/* Shuts the file manager down; its answer, or -ETIMEDOUT when it gave none
 * within FS_SHUTDOWN_NS (it has been killed then). */
static int fileman_shutdown(long pid)
{
	static struct shutdown_call call;
	struct myrmex_thread thread;
	call.done = 0;
	call.status = -ETIMEDOUT;
	if (myrmex_thread_create(&thread, shutdown_thread, &call, 0) < 0)
		return myrmex_fs_shutdown();
	uint64_t start = myrmex_now_ns();
	int killed = 0;
	while (!__atomic_load_n(&call.done, __ATOMIC_ACQUIRE)) {
		if (!killed && myrmex_now_ns() - start >= FS_SHUTDOWN_NS) {
			myrmex_syscall6(SYS_kill, pid, SIGKILL, 0, 0, 0, 0);
			killed = 1;
		}
		myrmex_futex_wait(&call.done, 0, (int64_t)POLL_NS);
	}
	myrmex_thread_join(&thread);
	return killed ? -ETIMEDOUT : call.status;
}

/* After an FS test: FS_SHUTDOWN (it must answer 0), then SIGKILL (it
 * serves until killed) and reap. 1 when all went so; 0 with the reason
 * added otherwise. */
static int fileman_stop(long pid, char *reason, size_t size)
{
	int status = 0, ok = 1;
	if (wait_nohang(pid, &status) == pid) {
		char how[64];
		describe_status(status, how, sizeof how);
		add_reason(reason, size, "the file manager ended during the test (%s)", how);
		return 0;
	}
	int r = fileman_shutdown(pid);
	if (r != 0) {
		add_reason(reason, size, "FS_SHUTDOWN answered %d%s", r,
		           r == -ETIMEDOUT ? " (no answer: killed)" : "");
		ok = 0;
	}
	myrmex_syscall6(SYS_kill, pid, SIGKILL, 0, 0, 0, 0);
	if (wait_with_timeout(pid, &status, REAP_AFTER_KILL_NS) != pid) {
		add_reason(reason, size, "the file manager did not end after SIGKILL");
		ok = 0;
	}
	return ok;
}

/*
 * Runs t once and judges it, with the kernel's counts compared around it
 * (the servers of a DISK or FS test are started and stopped inside that
 * window, so their teardown is checked too). Writes the failure reason
 * (empty when it passed) to reason and returns 1 for a pass.
 */
static int run_and_judge(const struct test *t, char *reason, size_t size)
{
	struct counts before = { 0, 0 };
	int check_leaks = native && read_counts(&before) == 0;
	reason[0] = '\0';

	long driver = 0, fileman = 0, console = 0, timed = 0, pm = 0;
	if (native && (t->spawn_flags & TIME) && (timed = time_server_start(reason, size)) < 0)
		return 0;
	if (native && (t->spawn_flags & (DISK | FS)) &&
	    (driver = disk_driver_start(DISK_OF(t->spawn_flags), (t->spawn_flags & FS) != 0, reason,
	                                size)) < 0) {
		if (timed > 0)
			server_stop("timed", timed, reason, size);
		return 0;
	}
	if (native && (t->spawn_flags & FS) && (fileman = fileman_start(reason, size)) < 0) {
		server_stop("virtio_blk", driver, reason, size);
		if (timed > 0)
			server_stop("timed", timed, reason, size);
		return 0;
	}
	if (native && (t->spawn_flags & CONSOLE) && (console = console_server_start(reason, size)) < 0) {
		if (fileman > 0)
			fileman_stop(fileman, reason, size);
		if (driver > 0)
			server_stop("virtio_blk", driver, reason, size);
		if (timed > 0)
			server_stop("timed", timed, reason, size);
		return 0;
	}
	if (native && (t->spawn_flags & PM) && (pm = pm_start(reason, size)) < 0) {
		if (console > 0)
			server_stop("uart", console, reason, size);
		if (fileman > 0)
			fileman_stop(fileman, reason, size);
		if (driver > 0)
			server_stop("virtio_blk", driver, reason, size);
		if (timed > 0)
			server_stop("timed", timed, reason, size);
		return 0;
	}
	long nic = 0, eth = 0, inet = 0;
	if (native && (t->spawn_flags & NET))
		nic = net_driver_start((t->spawn_flags & RTL) != 0,
		                       (t->spawn_flags & (INET | WIRE)) == INET, reason, size);
	if (nic > 0 && (t->spawn_flags & ETH))
		eth = eth_server_start(reason, size);
	if (eth > 0 && (t->spawn_flags & INET))
		inet = inet_server_start((t->spawn_flags & WIRE) != 0, (t->spawn_flags & DHCP) != 0,
		                         reason, size);
	int ok = nic < 0 || eth < 0 || inet < 0 ? -1 : run_once(t, reason, size);
	/* The TCP/IP server before the Ethernet server before the driver. */
	if (inet > 0 && !server_stop("tcpip", inet, reason, size) && ok > 0)
		ok = 0;
	if (eth > 0 && !server_stop("eth", eth, reason, size) && ok > 0)
		ok = 0;
	if (nic > 0 && !server_stop((t->spawn_flags & RTL) ? "rtl8139" : "virtio_net", nic, reason,
	                            size) && ok > 0)
		ok = 0;
	/* The process manager first: it calls the file manager. */
	if (pm > 0 && !server_stop("pm", pm, reason, size) && ok > 0)
		ok = 0;
	if (console > 0 && !server_stop("uart", console, reason, size) && ok > 0)
		ok = 0;
	if (fileman > 0 && !fileman_stop(fileman, reason, size) && ok > 0)
		ok = 0;
	if (driver > 0 && !server_stop("virtio_blk", driver, reason, size) && ok > 0)
		ok = 0;
	if (timed > 0 && !server_stop("timed", timed, reason, size) && ok > 0)
		ok = 0;
	if (native)
		reap_adopted();
	if (ok < 0)
		return 0;
	if (check_leaks) {
		char leak[128];
		if (find_leak(&before, leak, sizeof leak)) {
			size_t used = strlen(reason);
			snprintf(reason + used, size - used, "%s%s", ok ? "" : "; ", leak);
			ok = 0;
		}
	}
	return ok;
}

/* Arguments given on the command line ("name=a,b,c") for table entry i,
 * or NULL: the table's. */
static char *arg_override[TEST_COUNT];

/* t with its arguments replaced by the comma-separated list text (into
 * *copy, whose argument strings live in buf). */
static const struct test *with_args(const struct test *t, const char *text, struct test *copy,
                                    char *buf, size_t size)
{
	*copy = *t;
	snprintf(buf, size, "%s", text);
	for (int i = 0; i < MAX_ARGS; i++)
		copy->args[i] = NULL;
	int n = 0;
	for (char *p = buf; *p && n < MAX_ARGS; n++) {
		copy->args[n] = p;
		char *comma = strchr(p, ',');
		if (!comma)
			break;
		*comma = '\0';
		p = comma + 1;
	}
	return copy;
}

/* Runs t (with the command line's arguments `args` instead of its own,
 * when not NULL) and reports it as name. */
static void run_test(const struct test *t, const char *name, const char *args)
{
	char reason[LINE_MAX_LEN - 64];
	struct test copy;
	char buf[LINE_MAX_LEN];
	if (args)
		t = with_args(t, args, &copy, buf, sizeof buf);
	if (verbose)
		emit("testinit: running %s (%s%s%s%s%s)", name, t->module,
		     t->args[0] ? " " : "", t->args[0] ? t->args[0] : "",
		     t->args[1] ? " " : "", t->args[1] ? t->args[1] : "");
	int ok = run_and_judge(t, reason, sizeof reason);
	report(name, ok, reason);
}

/* ------------------------------------------------------------ selection */

static int pattern_matches(const char *pattern, const char *name)
{
	size_t len = strlen(pattern);
	if (len > 0 && pattern[len - 1] == '*')
		return strncmp(pattern, name, len - 1) == 0;
	return strcmp(pattern, name) == 0;
}

/* A command-line name chooses a test by its own name or its program's;
 * what follows a '=' in it is the arguments, not part of the name. */
static int name_matches(const char *word, const struct test *t)
{
	char pattern[128];
	size_t len = strcspn(word, "=");
	if (len >= sizeof pattern)
		return 0;
	memcpy(pattern, word, len);
	pattern[len] = '\0';
	return pattern_matches(pattern, t->name) || pattern_matches(pattern, t->module);
}

/* selected[i] is set for each table entry a name chooses (all with none). */
static void select_tests(int argc, char **argv, int *selected, int *unknown_names)
{
	int any_name = 0;
	*unknown_names = 0;
	for (int a = 1; a < argc; a++) {
		if (argv[a][0] == '-')
			continue;
		any_name = 1;
		int found = 0;
		char *args = strchr(argv[a], '=');
		for (size_t i = 0; i < TEST_COUNT; i++) {
			if (name_matches(argv[a], &tests[i])) {
				selected[i] = 1;
				found = 1;
				if (args)
					arg_override[i] = args + 1;
			}
		}
		if (!found)
			(*unknown_names)++;
	}
	if (!any_name)
		for (size_t i = 0; i < TEST_COUNT; i++)
			selected[i] = 1;
}

static void report_unknown_names(int argc, char **argv)
{
	for (int a = 1; a < argc; a++) {
		if (argv[a][0] == '-')
			continue;
		int found = 0;
		for (size_t i = 0; i < TEST_COUNT; i++)
			found |= name_matches(argv[a], &tests[i]);
		if (!found)
			report(argv[a], 0, "unknown test name");
	}
}

static void parse_options(int argc, char **argv)
{
	for (int a = 1; a < argc; a++) {
		if (strcmp(argv[a], "-v") == 0)
			verbose = 1;
		else if (strncmp(argv[a], "-t", 2) == 0 && argv[a][2] >= '1' && argv[a][2] <= '9')
			timeout_ns = strtoull(argv[a] + 2, NULL, 10) * 1000000000ULL;
		else if (strncmp(argv[a], "-fsconf=", 8) == 0)
			fsconf = argv[a] + 8;   /* the file manager's configuration */
		else if (argv[a][0] == '-')
			emit("testinit: ignoring unknown option %s", argv[a]);
	}
}

/* ------------------------------------------------------------ main */

/* Makes the stack pages the run uses present now, so that the init's own
 * page faults do not show up between two kstats readings. */
static void prefault_stack(void)
{
	volatile char area[32 * 1024];
	for (size_t i = 0; i < sizeof area; i += 512)
		area[i] = 0;
}

static void warm_thread(void *arg)
{
	(void)arg;
}

/* One run of t_alive that is not counted: the kernel's first-use caches
 * (slabs, tables) get filled before the first leak check; and what the
 * init itself keeps after its first use is made now. */
static void warm_up(void)
{
	/* The library's file channel (its control ICA, kept for good) is made
	 * by the first file call; make it now, outside every leak window. No
	 * file manager runs yet: -ESRCH. Init's own calls carry no data, so
	 * the channel's data ICAs are never made here. */
	uint64_t counters[8];
	myrmex_fs_stats(counters);
	/* So are the page tables under the stack of the init's first thread
	 * (fileman_shutdown makes one for each FS test); they stay. */
	struct myrmex_thread thread;
	if (myrmex_thread_create(&thread, warm_thread, NULL, 0) == 0)
		myrmex_thread_join(&thread);
	char reason[LINE_MAX_LEN - 64];
	if (!run_and_judge(&alive_test, reason, sizeof reason))
		emit("testinit: warm-up run of t_alive: %s", reason[0] ? reason : "failed");
}

static void find_program_dir(const char *argv0)
{
	static char dir[LINE_MAX_LEN];
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;
	if (!slash)
		return;
	size_t len = (size_t)(slash - argv0);
	if (len >= sizeof dir)
		return;
	memcpy(dir, argv0, len);
	dir[len] = '\0';
	program_dir = len ? dir : "/";
}

int main(int argc, char **argv)
{
	int selected[TEST_COUNT] = { 0 };
	int unknown_names;

	native = myrmex_is_native();
	find_program_dir(argc > 0 ? argv[0] : NULL);
	parse_options(argc, argv);
	select_tests(argc, argv, selected, &unknown_names);
	prefault_stack();

	int plan = unknown_names;
	for (size_t i = 0; i < TEST_COUNT; i++)
		if (selected[i])
			plan += 1 + tests[i].hostile;
	emit("TEST-PLAN %d", plan);
	if (!native)
		emit("testinit: not on Myrmex: programs from %s, no leak check", program_dir);

	if (native)
		warm_up();
	report_unknown_names(argc, argv);
	for (size_t i = 0; i < TEST_COUNT; i++) {
		if (!selected[i])
			continue;
		run_test(&tests[i], tests[i].name, arg_override[i]);
		if (tests[i].hostile) {
			char name[128];
			snprintf(name, sizeof name, "alive-after-%s", tests[i].name);
			run_test(&alive_test, name, NULL);
		}
	}
	emit("TEST-SUMMARY %d %d", passed, failed);

	long r = myrmex_poweroff(failed ? 1 : 0);
	if (native)
		emit("testinit: poweroff returned %ld", r);
	return failed ? 1 : 0;
}
