/*
 * sysinit: the init (pid 1) of a Myrmex running POSIX programs. It starts
 * the servers from the boot modules (the time server, the virtio-blk driver
 * on the first disk, the console server on COM1, the file manager on that
 * disk, the process manager), then the first POSIX process with its
 * arguments:
 *
 *     sysinit /bin/sh [args...]     (make run: an interactive shell)
 *
 * When that process ends, sysinit shuts the file manager down (everything
 * written reaches the disk, the file system is marked clean) and powers the
 * machine off with the program's exit status. Without a time server (no
 * module timed) the kernel answers the time calls itself.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <myrmex.h>
#include <myrmex/proc.h>
#include <myrmex/time.h>

static char *const env[] = { "HOME=/", NULL };

/* Starts a server from its boot module; device >= 0 gives it that device. */
static long start(const char *module, char *const argv[], int device)
{
	unsigned flags = MYRMEX_SPAWN_SERVER | (device >= 0 ? MYRMEX_SPAWN_DEVICE(device) : 0);
	long pid = myrmex_spawn_flags(module, argv, env, -1, flags);
	if (pid < 0)
		printf("sysinit: cannot start %s: error %ld\n", module, -pid);
	return pid;
}

static int device_arg(int index, char *buf, size_t size)
{
	snprintf(buf, size, "%d", index);
	return index;
}

/* Waits until server coreid is registered (it registers as it starts). */
static void await_server(unsigned coreid)
{
	for (int i = 0; i < 1000 && myrmex_server_pid(coreid) < 0; i++)
		myrmex_sleep_ns(1000000);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		printf("usage: sysinit program [args...]\n");
		myrmex_poweroff(2);
	}
	static const uint16_t blk_ids[] = { 0x1042, 0x1001 };
	static const uint16_t com1[] = { MYRMEX_DEV_LEGACY_COM1 };
	int disk = myrmex_dev_find(0x1af4, blk_ids, 2, NULL);
	int uart = myrmex_dev_find(MYRMEX_DEV_VENDOR_LEGACY, com1, 1, NULL);
	if (disk < 0 || uart < 0) {
		printf("sysinit: need a virtio-blk disk and COM1 (disk %d, COM1 %d)\n", disk, uart);
		myrmex_poweroff(1);
	}
	char disk_arg[16], uart_arg[16];
	/* The driver serves the file manager alone (its client coreid). */
	_Static_assert(MYRMEX_COREID_FS == 3, "virtio_blk's client argument below");
	char *const blk_argv[] = { "virtio_blk", disk_arg, "3", NULL };
	char *const uart_argv[] = { "uart", uart_arg, NULL };
	char *const fm_argv[] = { "fileman", "64", NULL };
	char *const pm_argv[] = { "pm", NULL };
	char *const timed_argv[] = { "timed", NULL };
	if (start("timed", timed_argv, -1) > 0)
		await_server(MYRMEX_COREID_TIME);
	start("virtio_blk", blk_argv, device_arg(disk, disk_arg, sizeof disk_arg));
	start("uart", uart_argv, device_arg(uart, uart_arg, sizeof uart_arg));
	await_server(MYRMEX_COREID_CONSOLE);
	start("fileman", fm_argv, -1);
	start("pm", pm_argv, -1);
	await_server(MYRMEX_COREID_FS);
	await_server(MYRMEX_COREID_PM);
	fflush(stdout);

	char *first_argv[64] = { "posix_start" };
	for (int i = 1; i < argc && i < 63; i++)
		first_argv[i] = argv[i];
	long pid = myrmex_spawn_flags("posix_start", first_argv, env, -1, MYRMEX_SPAWN_POSIX);
	int status = 0;
	if (pid < 0) {
		printf("sysinit: cannot start posix_start: error %ld\n", -pid);
		status = 1 << 8;
	} else {
		waitpid((pid_t)pid, &status, 0);
	}
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	printf("sysinit: %s ended with status %d; file manager shut down: %d\n", argv[1], code,
	       myrmex_fs_shutdown());
	fflush(stdout);
	myrmex_poweroff(code);
	return code;
}
