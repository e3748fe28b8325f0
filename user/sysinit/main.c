/*
 * sysinit: the init (pid 1) of a Myrmex running POSIX programs. It starts
 * the service manager (svcman, docs/services.md), which starts the servers
 * from the service table (the time server, the virtio-blk driver, the
 * console server on COM1, the file manager, the process manager) with the
 * rights the table gives them and restarts the ones that die; then the first
 * POSIX process with its arguments:
 *
 *     sysinit [fsconf=<name>] [calls=<coreid>,...] /bin/sh [args...]
 *                                                   (make run: an interactive shell)
 *
 * fsconf=<name> (one of the file service's configurations, docs/fs.md:
 * split, the default, one or klt) is handed to the service manager, which
 * gives it to every service as FSCONF=<name> in its environment.
 *
 * calls=<coreid>,... gives the first POSIX process (and so what it forks)
 * the right to call those servers natively, which POSIX processes otherwise
 * lack (docs/services.md): the benchmark boot uses calls=10 so that
 * bench/posix/net_send.c can measure paper 002's send path, a program
 * calling the TCP/IP server itself.
 *
 * When that process ends, sysinit stops the service manager (which shuts
 * the file manager down: everything written reaches the disk, the file
 * system is marked clean) and powers the machine off with the program's exit
 * status. When the service manager ends first (a server whose state cannot
 * be rebuilt died: the file manager or the process manager), sysinit says
 * so and powers off with status 1.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <myrmex.h>
#include <myrmex/fs.h>
#include <myrmex/proc.h>

static char *const env[] = { "HOME=/", NULL };

/* Waits until server coreid is registered. */
static void await_server(unsigned coreid)
{
	for (int i = 0; i < 10000 && myrmex_server_pid(coreid) < 0; i++)
		myrmex_sleep_ns(1000000);
}

static int code_of(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* calls=<coreid>,...: the rights named (coreids, decimal). false when a
 * word is not one, or the list is empty. */
static bool parse_calls(const char *list, struct myrmex_rights *rights)
{
	if (!*list)
		return false;
	while (*list) {
		char *end;
		unsigned long c = strtoul(list, &end, 10);
		if (end == list || c > MYRMEX_MAX_COREID || (*end && *end != ',') ||
		    (*end == ',' && !end[1]))
			return false;
		myrmex_rights_add(rights, (unsigned)c);
		list = *end ? end + 1 : end;
	}
	return true;
}

int main(int argc, char **argv)
{
	char *fsconf = NULL;
	struct myrmex_rights first_rights = { { 0 } };
	bool named_rights = false;
	for (;;) {
		if (argc > 1 && strncmp(argv[1], "fsconf=", 7) == 0) {
			fsconf = argv[1];
		} else if (argc > 1 && strncmp(argv[1], "calls=", 6) == 0) {
			if (!parse_calls(argv[1] + 6, &first_rights)) {
				printf("sysinit: %s: not a list of coreids\n", argv[1]);
				myrmex_poweroff(2);
			}
			named_rights = true;
		} else {
			break;
		}
		argv++;
		argc--;
	}
	if (argc < 2) {
		printf("usage: sysinit [fsconf=<name>] [calls=<coreid>,...] program [args...]\n");
		myrmex_poweroff(2);
	}
	char *const svc_argv[] = { "svcman", "services.conf", fsconf, NULL };
	long svcman = myrmex_spawn_flags("svcman", svc_argv, env, -1,
	                                 MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_MANAGER);
	if (svcman < 0) {
		printf("sysinit: cannot start the service manager: error %ld\n", -svcman);
		myrmex_poweroff(1);
	}
	await_server(MYRMEX_COREID_FS);
	await_server(MYRMEX_COREID_PM);
	fflush(stdout);

	char *first_argv[64] = { "posix_start" };
	for (int i = 1; i < argc && i < 63; i++)
		first_argv[i] = argv[i];
	long pid = named_rights ? myrmex_spawn_rights("posix_start", first_argv, env, -1,
	                                              MYRMEX_SPAWN_POSIX, &first_rights)
	                        : myrmex_spawn_flags("posix_start", first_argv, env, -1,
	                                             MYRMEX_SPAWN_POSIX);
	int status = 0, code = 1;
	if (pid < 0) {
		printf("sysinit: cannot start posix_start: error %ld\n", -pid);
	} else {
		/* The first of the two to end decides. */
		long who;
		do
			who = waitpid(-1, &status, 0);
		while (who != pid && who != svcman && who >= 0);
		if (who == svcman) {
			printf("sysinit: the service manager stopped (status %d): a server that cannot be "
			       "restarted died; powering off\n", code_of(status));
			fflush(stdout);
			myrmex_poweroff(1);
		}
		code = code_of(status);
	}
	kill((pid_t)svcman, SIGTERM);
	int svc_status = 0;
	waitpid((pid_t)svcman, &svc_status, 0);
	printf("sysinit: %s ended with status %d; services stopped: %d\n", argv[1], code,
	       code_of(svc_status));
	fflush(stdout);
	myrmex_poweroff(code);
	return code;
}
