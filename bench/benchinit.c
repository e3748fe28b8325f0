/*
 * Benchmark init (pid 1 of a benchmark boot): prints the TSC frequency, runs
 * each benchmark module in turn and waits for it, reports failed ones, prints
 * BENCH-DONE and powers off. With arguments it runs only the named modules,
 * in the order given. On Linux (no spawn, no kstats, no poweroff) it runs the
 * benchmarks as programs next to itself and measures the TSC frequency, so
 * `./benchinit` gives the Linux figures with the same output.
 *
 * bench_fs needs the file manager: on Myrmex benchinit starts the virtio-blk
 * driver (with the disk device: only the init may give one) and the file
 * manager before it, and stops them after it. On Linux the harness has
 * mounted the disk (tools/linux_guest.py). Without the disk (no virtio-blk
 * device on Myrmex, no file on Linux) it prints `BENCH-SKIP bench_fs <why>`
 * instead, and the skip is no failure. bench_restart starts its own service
 * manager (with the power to give devices) and servers. bench_eth needs a
 * NIC driver with its NIC (bench.py --net, --net-model) and the Ethernet
 * server over it, which benchinit starts around it on Myrmex: once over the
 * virtio-net NIC (virtio_net) and once over the RTL8139 (rtl8139, with the
 * argument "rtl8139"), for each that is attached; without a NIC it is
 * skipped. On Linux it runs once, over eth0 with a packet socket (the
 * harness gave the guest one NIC and brought eth0 up).
 */
#define _DEFAULT_SOURCE /* wait4, clock_gettime, kill with -std=c17 */
#include <myrmex.h>
#include <myrmex/fs.h>
#include <myrmex/net.h>

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* The benchmarks run by default. bench_yield_partner and bench_ipcsrv are
 * not: they are the partner and the server the benchmarks start themselves. */
static const char *const all_benchmarks[] = {
	"bench_getpid",
	"bench_wsc",
	"bench_thread_switch",
	"bench_process_switch",
	"bench_ica",
	"bench_ipc_sync",
	"bench_ipc_async",
	"bench_ipc_remap",
	"bench_ipc_stages",
	"bench_fs",
	"bench_restart",
	"bench_eth",
};

/* The benchmark of paper 004's figure 10, over the NIC driver and the
 * Ethernet server. */
static const char eth_benchmark[] = "bench_eth";

/* It starts the service manager, which gives devices: it needs that power. */
static const char restart_benchmark[] = "bench_restart";

/* The benchmark that reads files, and the file manager's cache for it (MiB):
 * more than the 64 MiB file, so the warm runs find all of it cached. On
 * Linux its file is FS_LINUX_FILE (bench_fs.c's FS_LINUX_MOUNT FS_FILE). */
static const char fs_benchmark[] = "bench_fs";
#define FILEMAN_CACHE_MIB "96"
#define FS_LINUX_FILE "/mnt/benchfs/bench/file64m"

/* Prints one formatted line with a single write(). */
static void say(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	if (len > (int)sizeof line - 1)
		len = sizeof line - 1;
	if (write(1, line, (size_t)len) < 0)
		return;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The kernel's calibrated TSC frequency, or on Linux (no kstats) the TSC
 * measured against CLOCK_MONOTONIC over 100 ms. */
static uint64_t tsc_khz(void)
{
	struct myrmex_kstats ks;
	if (myrmex_kstats(&ks) == (long)sizeof ks)
		return ks.tsc_khz;

	uint64_t t0 = now_ns(), c0 = myrmex_rdtsc(), t1;
	do
		t1 = now_ns();
	while (t1 - t0 < 100000000u);
	uint64_t c1 = myrmex_rdtsc();
	return (c1 - c0) * 1000000u / (t1 - t0);
}

/* Starts benchmark `name`; returns its pid or -errno. self is our argv[0]. */
static long start(const char *self, const char *name, const char *arg)
{
	char *argv[] = { (char *)name, (char *)arg, NULL };
	char *envp[] = { NULL };

	/* With the server right: the IPC benchmarks start their own servers. */
	unsigned flags = MYRMEX_SPAWN_SERVER;
	if (strcmp(name, restart_benchmark) == 0)
		flags |= MYRMEX_SPAWN_MANAGER;
	long pid = myrmex_spawn_flags(name, argv, envp, -1, flags);
	if (pid != -ENOSYS)
		return pid;

	/* Linux: run <directory of self>/<name>. */
	char path[4096];
	const char *slash = strrchr(self, '/');
	int dirlen = slash ? (int)(slash - self) : 1;
	snprintf(path, sizeof path, "%.*s/%s", dirlen, slash ? self : ".", name);
	pid_t child = fork();
	if (child == 0) {
		execve(path, argv, environ);
		_exit(127);
	}
	return child < 0 ? -errno : child;
}

/* Stops a server we started (it serves until killed) and reaps it. */
static void stop_server(long pid)
{
	if (pid <= 0)
		return;
	kill((pid_t)pid, SIGKILL);
	int status;
	while (wait4((pid_t)pid, &status, 0, NULL) < 0 && errno == EINTR)
		;
}

/*
 * Myrmex: starts the virtio-blk driver on the disk and the file manager for
 * bench_fs; their pids in pids[0..1]. Returns 0 when both run, 1 after
 * printing BENCH-SKIP when there is no disk, -1 after printing BENCH-ERROR
 * when a server cannot start (none is left running).
 */
static int start_fs_servers(long pids[2])
{
	static const uint16_t ids[] = { 0x1042, 0x1001 };   /* modern, transitional */
	char *envp[] = { NULL };
	int index = myrmex_dev_find(0x1af4, ids, 2, NULL);
	pids[0] = pids[1] = 0;
	if (index < 0) {
		say("BENCH-SKIP %s no virtio-blk disk attached\n", fs_benchmark);
		return 1;
	}
	char arg[16];
	snprintf(arg, sizeof arg, "%d", index);
	/* The driver serves the file manager alone (its client coreid). */
	_Static_assert(MYRMEX_COREID_FS == 3, "virtio_blk's client argument below");
	char *driver_argv[] = { "virtio_blk", arg, "3", NULL };
	pids[0] = myrmex_spawn_flags("virtio_blk", driver_argv, envp, -1,
	                             MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_DEVICE(index));
	if (pids[0] < 0) {
		say("BENCH-ERROR %s virtio_blk spawn=%ld\n", fs_benchmark, pids[0]);
		return -1;
	}
	char *fileman_argv[] = { "fileman", FILEMAN_CACHE_MIB, NULL };
	pids[1] = myrmex_spawn_flags("fileman", fileman_argv, envp, -1, MYRMEX_SPAWN_SERVER);
	if (pids[1] < 0) {
		say("BENCH-ERROR %s fileman spawn=%ld\n", fs_benchmark, pids[1]);
		stop_server(pids[0]);
		return -1;
	}
	return 0;
}

/* The NICs bench_eth runs over: the driver (a boot module) and the device. */
struct nic_model {
	const char *name;        /* bench_eth's argument, the figures' <nic> */
	const char *driver;
	uint16_t vendor;
	uint16_t ids[2];
	unsigned nids;
};
static const struct nic_model nic_models[] = {
	{ "virtio", "virtio_net", 0x1af4, { 0x1041, 0x1000 }, 2 },   /* modern, transitional */
	{ "rtl8139", "rtl8139", 0x10ec, { 0x8139 }, 1 },
};

/*
 * Myrmex: starts the driver of NIC model m with its NIC (device index) and
 * the Ethernet server (allowed to call the driver only) for bench_eth;
 * their pids in pids[0..1]. 0 when both run, -1 after printing BENCH-ERROR
 * (none is left running).
 */
static int start_eth_servers(const struct nic_model *m, int index, long pids[2])
{
	char *envp[] = { NULL };
	pids[0] = pids[1] = 0;
	char arg[16];
	snprintf(arg, sizeof arg, "%d", index);
	char *driver_argv[] = { (char *)m->driver, arg, NULL };
	pids[0] = myrmex_spawn_flags(m->driver, driver_argv, envp, -1,
	                             MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_DEVICE(index));
	if (pids[0] < 0) {
		say("BENCH-ERROR %s %s spawn=%ld\n", eth_benchmark, m->driver, pids[0]);
		return -1;
	}
	struct myrmex_rights rights = { { 0 } };
	myrmex_rights_add(&rights, MYRMEX_COREID_NIC);
	char *eth_argv[] = { "eth", NULL };
	pids[1] = myrmex_spawn_rights("eth", eth_argv, envp, -1, MYRMEX_SPAWN_SERVER, &rights);
	if (pids[1] < 0) {
		say("BENCH-ERROR %s eth spawn=%ld\n", eth_benchmark, pids[1]);
		stop_server(pids[0]);
		return -1;
	}
	return 0;
}

/* Runs one benchmark to its end; returns 0 if it exited with status 0. */
static int run(const char *self, const char *name, const char *arg)
{
	long pid = start(self, name, arg);
	if (pid < 0) {
		say("BENCH-ERROR %s spawn=%ld\n", name, pid);
		return -1;
	}
	int status;
	while (wait4((pid_t)pid, &status, 0, NULL) < 0) {
		if (errno != EINTR) {
			say("BENCH-ERROR %s wait=%d\n", name, -errno);
			return -1;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFSIGNALED(status))
		say("BENCH-ERROR %s signal=%d\n", name, WTERMSIG(status));
	else
		say("BENCH-ERROR %s exit=%d\n", name, WEXITSTATUS(status));
	return -1;
}

/* Runs one benchmark, with the servers it needs on Myrmex around it. A
 * skipped benchmark counts as passed. */
static int run_with_servers(const char *self, const char *name)
{
	if (strcmp(name, eth_benchmark) == 0) {
		if (!myrmex_is_native())
			return run(self, name, NULL);   /* an AF_PACKET socket on eth0 */
		int ret = 0, ran = 0;
		for (size_t i = 0; i < sizeof nic_models / sizeof nic_models[0]; i++) {
			const struct nic_model *m = &nic_models[i];
			int index = myrmex_dev_find(m->vendor, m->ids, m->nids, NULL);
			if (index < 0)
				continue;
			long servers[2];
			ran++;
			if (start_eth_servers(m, index, servers) < 0) {
				ret = -1;
				continue;
			}
			if (run(self, name, m->name) < 0)
				ret = -1;
			stop_server(servers[1]);
			stop_server(servers[0]);
		}
		if (!ran)
			say("BENCH-SKIP %s no NIC attached (bench.py --net)\n", eth_benchmark);
		return ret;
	}
	if (strcmp(name, fs_benchmark) != 0)
		return run(self, name, NULL);
	if (!myrmex_is_native()) {
		if (access(FS_LINUX_FILE, R_OK) == 0)
			return run(self, name, NULL);
		say("BENCH-SKIP %s no %s (no disk mounted)\n", fs_benchmark, FS_LINUX_FILE);
		return 0;
	}
	long servers[2];
	int started = start_fs_servers(servers);
	if (started != 0)
		return started > 0 ? 0 : -1;
	int ret = run(self, name, NULL);
	myrmex_fs_shutdown();   /* unmounted clean, as the init may ask */
	stop_server(servers[1]);
	stop_server(servers[0]);
	return ret;
}

int main(int argc, char **argv)
{
	const char *self = argc > 0 ? argv[0] : "benchinit";
	int failed = 0;

	say("BENCH-TSC-KHZ %" PRIu64 "\n", tsc_khz());
	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			failed += run_with_servers(self, argv[i]) != 0;
	} else {
		for (size_t i = 0; i < sizeof all_benchmarks / sizeof all_benchmarks[0]; i++)
			failed += run_with_servers(self, all_benchmarks[i]) != 0;
	}
	say("BENCH-DONE\n");

	myrmex_poweroff(0); /* returns only on Linux or if we are not pid 1 */
	return failed ? 1 : 0;
}
