/*
 * svcman: the service manager (docs/services.md). sysinit starts it first,
 * with every right and the power to give devices (MYRMEX_SPAWN_MANAGER):
 *
 *     svcman [table [fsconf=<name>]]   (table: a boot module, default services.conf)
 *
 * fsconf=<name>, sysinit's boot argument (the file service's configuration,
 * docs/fs.md), reaches every service as FSCONF=<name> in its environment.
 *
 * It starts the table's services in order, each with the server right,
 * exactly the call rights its `calls` names and its device, and waits until
 * each has registered its coreid. Then it watches them: a service that ends
 * is started again at once, then with a growing back-off (10 ms doubling,
 * at most 1 s) when it dies again within SVC_STABLE_NS, and given up after
 * SVC_RESTART_LIMIT restarts in a row; the kernel grants the device and the
 * coreid anew (both were freed with the dead process). A service whose
 * state cannot be rebuilt (restart=reboot: the file manager, the process
 * manager) stops the system in order instead: svcman shuts the file manager
 * down if it still runs, stops the others and exits with SVC_EXIT_REBOOT,
 * and sysinit powers the machine off with a message.
 *
 * SIGTERM stops every service (the file manager first, with FS_SHUTDOWN, so
 * that what was written reaches the disk) and exits 0. Exit 1: a bad table
 * or a service that could not start.
 */
#include "svcman.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <myrmex/device.h>
#include <myrmex/fs.h>

#define SVC_EXIT_REBOOT 3
#define SVC_RESTART_LIMIT 5
#define SVC_STABLE_NS (1000ull * 1000 * 1000)
#define SVC_BACKOFF_NS (10ull * 1000 * 1000)
#define SVC_BACKOFF_MAX_NS (1000ull * 1000 * 1000)
#define SVC_REGISTER_WAIT_MS 10000
#define TABLE_MAX 8192

static struct svc_table table;
static volatile sig_atomic_t stopping;
static char fsconf_env[32];
static const char *fsconf = "split";   /* the file service's configuration */

/* Whether s runs in this configuration (its fsconf= list names it). */
static bool runs_here(const struct service *s)
{
	if (!s->fsconf[0])
		return true;
	size_t n = strlen(fsconf);
	for (const char *p = s->fsconf;;) {
		size_t len = strcspn(p, ",");
		if (len == n && strncmp(p, fsconf, n) == 0)
			return true;
		if (!p[len])
			return false;
		p += len + 1;
	}
}
static char *service_env[] = { "HOME=/", NULL, NULL };

static void on_term(int sig)
{
	(void)sig;
	stopping = 1;
}

/* The n-th device (0 the first, in the kernel's list order) of vendor
 * with one of the device ids: its index, or -1. */
static int nth_device(uint16_t vendor, const uint16_t *ids, unsigned nids, unsigned nth)
{
	struct myrmex_pci_info info;
	for (unsigned i = 0; i < MYRMEX_MAX_DEVICES; i++) {
		if (myrmex_syscall6(MYRMEX_SYS_DEV_INFO, i, (long)&info, 0, 0, 0, 0) < 0)
			break;
		if (info.vendor != vendor)
			continue;
		for (unsigned k = 0; k < nids; k++)
			if (info.device == ids[k] && nth-- == 0)
				return (int)i;
	}
	return -1;
}

/* spec is kind or kind:<n>: n (0 without), or -1 when spec names another kind. */
static int nth_of(const char *spec, const char *kind)
{
	size_t n = strlen(kind);
	if (strncmp(spec, kind, n) || (spec[n] != '\0' && spec[n] != ':'))
		return -1;
	return spec[n] == ':' ? atoi(spec + n + 1) : 0;
}

/* The device a table entry names: its index, or -1. "virtio-blk:n" is the
 * n-th virtio-blk disk (0 the first), "virtio-net:n" the n-th virtio-net
 * NIC, in the kernel's list order. */
static int device_index(const char *spec)
{
	if (!strcmp(spec, "com1")) {
		static const uint16_t com1[] = { MYRMEX_DEV_LEGACY_COM1 };
		return myrmex_dev_find(MYRMEX_DEV_VENDOR_LEGACY, com1, 1, NULL);
	}
	static const uint16_t net[] = { 0x1041, 0x1000 };   /* modern, transitional */
	static const uint16_t blk[] = { 0x1042, 0x1001 };
	int nth = nth_of(spec, "virtio-net");
	if (nth >= 0)
		return nth_device(0x1af4, net, 2, (unsigned)nth);
	nth = nth_of(spec, "virtio-blk");
	if (nth >= 0)
		return nth_device(0x1af4, blk, 2, (unsigned)nth);
	return -1;
}

/* Whether s may call a service that was skipped at boot. */
static bool calls_skipped(const struct service *s)
{
	for (unsigned i = 0; i < table.n; i++) {
		const struct service *o = &table.s[i];
		if (o->skipped && o->coreid >= 0 && myrmex_rights_has(&s->calls, (unsigned)o->coreid))
			return true;
	}
	return false;
}

/* Waits until s's process has registered its coreid: 0, or -1. */
static int await_registration(const struct service *s)
{
	if (s->coreid < 0)
		return 0;
	for (int ms = 0; ms < SVC_REGISTER_WAIT_MS; ms++) {
		if (myrmex_server_pid((unsigned)s->coreid) == s->pid)
			return 0;
		myrmex_sleep_ns(1000 * 1000);
	}
	return -1;
}

static int start(struct service *s)
{
	char device_arg[16];
	char *argv[SVC_ARGS_MAX + 3];
	unsigned argc = 0;
	argv[argc++] = s->program;
	unsigned flags = MYRMEX_SPAWN_SERVER;
	if (s->device[0]) {
		int index = device_index(s->device);
		if (index < 0) {
			myrmex_log("svcman", "%s: no device %s", s->name, s->device);
			return -1;
		}
		snprintf(device_arg, sizeof device_arg, "%d", index);
		argv[argc++] = device_arg;
		flags |= MYRMEX_SPAWN_DEVICE(index);
	}
	for (unsigned i = 0; i < s->nargs; i++)
		argv[argc++] = s->args[i];
	argv[argc] = NULL;
	long pid = myrmex_spawn_rights(s->program, argv, service_env, -1, flags, &s->calls);
	if (pid < 0) {
		myrmex_log("svcman", "%s: cannot start %s: error %ld", s->name, s->program, -pid);
		return -1;
	}
	s->pid = pid;
	s->started_ns = myrmex_now_ns();
	if (await_registration(s) < 0) {
		myrmex_log("svcman", "%s (pid %ld) did not register coreid %d", s->name, pid, s->coreid);
		return -1;
	}
	return 0;
}

static struct service *by_pid(long pid)
{
	for (unsigned i = 0; i < table.n; i++)
		if (table.s[i].pid == pid)
			return &table.s[i];
	return NULL;
}

/* Stops every running service: the file manager first, in order (its
 * dirty blocks written, the file system marked clean), then the others,
 * last started first. */
static void stop_all(void)
{
	struct service *fs = table_find_coreid(&table, MYRMEX_COREID_FS);
	if (fs && fs->pid > 0) {
		long r = myrmex_fs_shutdown();
		myrmex_log("svcman", "file manager shut down: %ld", r);
	}
	for (unsigned i = table.n; i-- > 0;) {
		struct service *s = &table.s[i];
		if (s->pid <= 0)
			continue;
		kill((pid_t)s->pid, SIGKILL);
		waitpid((pid_t)s->pid, NULL, 0);
		s->pid = 0;
	}
}

static const char *how_it_ended(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exit %d", WEXITSTATUS(status));
	else
		snprintf(buf, size, "signal %d", WTERMSIG(status));
	return buf;
}

/* s has ended: start it again, or stop the system, or leave it. Returns
 * SVC_EXIT_REBOOT when the system must stop, else 0. */
static int ended(struct service *s, int status)
{
	char how[32];
	how_it_ended(status, how, sizeof how);
	uint64_t now = myrmex_now_ns();
	s->pid = 0;
	if (s->restart == RESTART_REBOOT) {
		myrmex_log("svcman", "%s ended (%s); its state cannot be rebuilt: stopping the system",
		           s->name, how);
		return SVC_EXIT_REBOOT;
	}
	if (s->restart == RESTART_NEVER) {
		myrmex_log("svcman", "%s ended (%s); not restarted", s->name, how);
		return 0;
	}
	s->restarts = now - s->started_ns >= SVC_STABLE_NS ? 1 : s->restarts + 1;
	if (s->restarts > SVC_RESTART_LIMIT) {
		myrmex_log("svcman", "%s ended (%s) %u times in a row: given up", s->name, how,
		           s->restarts - 1);
		return 0;
	}
	if (s->restarts > 1) {
		uint64_t delay = SVC_BACKOFF_NS << (s->restarts - 2);
		myrmex_sleep_ns(delay < SVC_BACKOFF_MAX_NS ? delay : SVC_BACKOFF_MAX_NS);
	}
	s->total_restarts++;
	if (start(s) == 0)
		myrmex_log("svcman", "%s ended (%s); restarted as pid %ld in %llu us (restart %u)",
		           s->name, how, s->pid,
		           (unsigned long long)((myrmex_now_ns() - now) / 1000), s->total_restarts);
	return 0;
}

static int read_table(const char *module)
{
	static char text[TABLE_MAX];
	long n = myrmex_module_read(module, 0, text, sizeof text - 1);
	if (n < 0) {
		myrmex_log("svcman", "cannot read the service table %s: error %ld", module, -n);
		return -1;
	}
	text[n] = '\0';
	return table_parse(text, &table);
}

int main(int argc, char **argv)
{
	const char *module = argc > 1 ? argv[1] : "services.conf";
	if (argc > 2 && strncmp(argv[2], "fsconf=", 7) == 0) {
		snprintf(fsconf_env, sizeof fsconf_env, "FSCONF=%s", argv[2] + 7);
		service_env[1] = fsconf_env;
		fsconf = argv[2] + 7;
	}
	if (read_table(module) < 0)
		return 1;
	struct sigaction sa = { .sa_handler = on_term };   /* no SA_RESTART: waitpid stops */
	sigaction(SIGTERM, &sa, NULL);
	for (unsigned i = 0; i < table.n; i++) {
		struct service *s = &table.s[i];
		if (!runs_here(s)) {
			myrmex_log("svcman", "%s: not in configuration %s", s->name, fsconf);
			continue;
		}
		if (s->optional && calls_skipped(s)) {
			s->skipped = true;
			myrmex_log("svcman", "%s skipped: a service it calls did not start", s->name);
			continue;
		}
		if (start(s) < 0) {
			if (s->optional) {
				s->skipped = true;
				if (s->pid > 0)
					kill((pid_t)s->pid, SIGKILL);
				s->pid = 0;
				myrmex_log("svcman", "%s skipped (optional)", s->name);
				continue;
			}
			stop_all();
			return 1;
		}
	}
	int code = 0;
	while (!stopping && code == 0) {
		int status = 0;
		long pid = waitpid(-1, &status, 0);
		if (pid < 0) {
			if (errno != EINTR)
				myrmex_sleep_ns(SVC_BACKOFF_NS);   /* no children: nothing to watch */
			continue;
		}
		struct service *s = by_pid(pid);
		if (s)
			code = ended(s, status);
	}
	stop_all();
	return code;
}
