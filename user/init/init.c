/*
 * The demo init (pid 1) that `make run` boots: it greets, starts a few
 * programs from the boot modules, shows the communication mechanism at work
 * (the echo server and the three-stage chain, started with the server right
 * and stopped at the end), starts the disk driver when a virtio-blk disk is
 * attached (giving it the device) and lets a client read raw sectors from
 * it, starts the console server (giving it COM1) and the file manager on that
 * disk (the ext2 root image) and lets a client use files and /dev/console,
 * shuts the file manager down in order (everything
 * written reaches the disk), shows what the kernel counted, and powers the
 * machine off. The shell replaces it once
 * the POSIX personality exists.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <myrmex.h>

static char *const demo_envp[] = { "HOME=/", NULL };

static void run(const char *module, char *const argv[])
{
	long pid = myrmex_spawn(module, argv, demo_envp, -1);
	if (pid < 0) {
		printf("init: cannot start %s: error %ld\n", module, -pid);
		return;
	}
	int status = 0;
	waitpid((pid_t)pid, &status, 0);
	if (WIFEXITED(status))
		printf("init: %s (pid %ld) exited with status %d\n", module, pid, WEXITSTATUS(status));
	else
		printf("init: %s (pid %ld) was killed by signal %d\n", module, pid, WTERMSIG(status));
}

/* The demo servers, started with the server right at init's priority. */
static const char *const servers[] = { "echo_server", "stage_a", "stage_b", "stage_c" };
#define SERVER_COUNT (sizeof servers / sizeof servers[0])

static void start_servers(long *pids)
{
	for (size_t i = 0; i < SERVER_COUNT; i++) {
		char *const argv[] = { (char *)servers[i], NULL };
		pids[i] = myrmex_spawn_flags(servers[i], argv, demo_envp, -1, MYRMEX_SPAWN_SERVER);
		if (pids[i] < 0)
			printf("init: cannot start server %s: error %ld\n", servers[i], -pids[i]);
	}
	fflush(stdout);
}

/* The servers never end by themselves: kill and reap them (the kernel
 * unregisters a server when it ends). */
static void stop_servers(const long *pids)
{
	for (size_t i = 0; i < SERVER_COUNT; i++) {
		if (pids[i] <= 0)
			continue;
		kill((pid_t)pids[i], SIGKILL);
		int status = 0;
		waitpid((pid_t)pids[i], &status, 0);
	}
	printf("init: servers stopped\n");
}

/* Starts the virtio-blk driver with the server right and the device (only
 * the init may give a device), if a virtio-blk disk is attached. Returns its
 * pid, or 0 when there is no disk or it could not start. */
static long start_disk_driver(void)
{
	static const uint16_t ids[] = { 0x1042, 0x1001 };   /* modern, transitional */
	int index = myrmex_dev_find(0x1af4, ids, 2, NULL);
	if (index < 0) {
		printf("init: no virtio-blk disk attached\n");
		return 0;
	}
	char arg[16];
	snprintf(arg, sizeof arg, "%d", index);
	char *const argv[] = { "virtio_blk", arg, NULL };
	long pid = myrmex_spawn_flags("virtio_blk", argv, demo_envp, -1,
	                              MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_DEVICE(index));
	if (pid < 0) {
		printf("init: cannot start virtio_blk: error %ld\n", -pid);
		return 0;
	}
	fflush(stdout);
	return pid;
}

/* Starts the console server, giving it COM1 (the serial port's UART, which
 * the kernel lists after the PCI devices). Its pid, or 0. */
static long start_console(void)
{
	static const uint16_t com1[] = { MYRMEX_DEV_LEGACY_COM1 };
	int index = myrmex_dev_find(MYRMEX_DEV_VENDOR_LEGACY, com1, 1, NULL);
	if (index < 0)
		return 0;
	char arg[16];
	snprintf(arg, sizeof arg, "%d", index);
	char *const argv[] = { "uart", arg, NULL };
	long pid = myrmex_spawn_flags("uart", argv, demo_envp, -1,
	                              MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_DEVICE(index));
	if (pid < 0)
		printf("init: cannot start the console server: error %ld\n", -pid);
	fflush(stdout);
	return pid > 0 ? pid : 0;
}

int main(void)
{
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	printf("Hello from Myrmex user space! init is pid %d; the time is %lld s after the epoch.\n",
	       (int)getpid(), (long long)now.tv_sec);
	fflush(stdout);
	char *const hello_argv[] = { "hello", "one", "two", NULL };
	run("hello", hello_argv);

	long server_pids[SERVER_COUNT];
	start_servers(server_pids);
	char *const echo_argv[] = { "echo_client", "zero copies, one page moved twice", NULL };
	run("echo_client", echo_argv);
	char *const stage_argv[] = { "stage_client", NULL };
	run("stage_client", stage_argv);
	stop_servers(server_pids);

	long disk_driver = start_disk_driver();
	if (disk_driver > 0) {
		char *const disk_argv[] = { "disk_client", NULL };
		run("disk_client", disk_argv);
		long console = start_console();
		char *const fm_argv[] = { "fileman", "32", NULL };
		long fileman = myrmex_spawn_flags("fileman", fm_argv, demo_envp, -1, MYRMEX_SPAWN_SERVER);
		if (fileman > 0) {
			char *const fs_argv[] = { "fs_demo", NULL };
			run("fs_demo", fs_argv);
			printf("init: file manager shut down: %d\n", myrmex_fs_shutdown());
			kill((pid_t)fileman, SIGKILL);
			waitpid((pid_t)fileman, NULL, 0);
		} else {
			printf("init: cannot start fileman: error %ld\n", -fileman);
		}
		if (console > 0) {
			kill((pid_t)console, SIGKILL);
			waitpid((pid_t)console, NULL, 0);
		}
		kill((pid_t)disk_driver, SIGKILL);
		int status = 0;
		waitpid((pid_t)disk_driver, &status, 0);
		printf("init: disk driver stopped\n");
	}

	struct myrmex_kstats s;
	if (myrmex_kstats(&s) > 0)
		printf("init: %llu system calls, %llu context switches, %llu page faults, "
		       "%llu of %llu pages free, TSC %llu kHz\n",
		       (unsigned long long)s.syscalls, (unsigned long long)s.context_switches,
		       (unsigned long long)s.page_faults, (unsigned long long)s.free_pages,
		       (unsigned long long)s.total_pages, (unsigned long long)s.tsc_khz);
	printf("init: demo done, powering off\n");
	fflush(stdout);
	myrmex_poweroff(0);
	return 0;
}
