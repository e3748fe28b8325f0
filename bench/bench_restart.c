/*
 * Restart of a server that died (suite restart; issue 14): the time from
 * SIGKILL to the first request the new server answers, with the service
 * manager (svcman, table bench/services.bench) doing the restart:
 *   restart.disk     the virtio-blk driver (DISK_INFO answered)
 *   restart.time     the time server (TIME_GET answered)
 *   restart.console  the console server (CONSOLE_POLL answered)
 * Each kill comes after the service has lived SVC_STABLE (1 s), so that it
 * is a first restart, without back-off. Meanwhile a POSIX program writes a
 * file, fsyncs and reads it back, round after round (the load); after the
 * runs it reports the fault-injection count:
 *   BENCH-RECOVERY kills=<n> recovered=<n> rounds=<n> lost=<n>
 * (lost: rounds whose read-back differed from what was written, plus calls
 * that failed for good). The kernel counts on the BENCH lines are per kill
 * (with the waiting for stability around it).
 * Myrmex only: on Linux it prints nothing and exits 0.
 */
#define _GNU_SOURCE
#include "bench.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <myrmex/console.h>
#include <myrmex/disk.h>
#include <myrmex/fs.h>
#include <myrmex/time.h>

static const char prog[] = "bench_restart";

#define STABLE_NS (1100ull * 1000 * 1000)   /* svcman's SVC_STABLE_NS, and a little */
#define LOAD_FILE "/restart.load"
#define STOP_FILE "/restart.stop"
#define LOAD_BLOCKS 16
#define TRIES 2000

struct target {
	unsigned coreid;
	uint32_t opcode;
	unsigned kills, recovered;
};

static struct target targets[] = {
	{ MYRMEX_COREID_DISK, DISK_INFO, 0, 0 },
	{ MYRMEX_COREID_TIME, TIME_GET, 0, 0 },
	{ MYRMEX_COREID_CONSOLE, CONSOLE_POLL, 0, 0 },
};
#define NTARGETS (sizeof targets / sizeof targets[0])

static uint32_t ctl;

/* One trivial request to coreid: 0 when it was answered (any status). */
static long ask(unsigned coreid, uint32_t opcode)
{
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr(ctl));
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, coreid, opcode);
	f->arg[0] = TIME_CLOCK_MONOTONIC;
	return myrmex_callsync(h);
}

static void kill_body(void *unused, uint64_t iters, uint64_t *ticks)
{
	(void)unused;
	for (uint64_t i = 0; i < iters; i++) {
		for (unsigned t = 0; t < NTARGETS; t++) {
			struct target *tg = &targets[t];
			myrmex_sleep_ns(STABLE_NS);
			long pid = myrmex_server_pid(tg->coreid);
			if (pid <= 0) {
				bench_fail(prog, "no server before the kill", (long)tg->coreid);
				continue;
			}
			tg->kills++;
			uint64_t t0 = myrmex_rdtsc();
			myrmex_syscall6(SYS_kill, pid, SIGKILL, 0, 0, 0, 0);
			long r = -1;
			for (long tries = 0; tries < 10000000 && r != 0; tries++) {
				r = ask(tg->coreid, tg->opcode);
				if (r != 0)
					bench_yield();   /* let svcman and the new server run */
			}
			ticks[t] += myrmex_rdtsc() - t0;
			tg->recovered += r == 0 && myrmex_server_pid(tg->coreid) != pid;
		}
	}
}

/* ------------------------------------------------------------ the load */

static void fill(uint8_t *buf, unsigned round, unsigned b)
{
	for (unsigned i = 0; i < 4096; i++)
		buf[i] = (uint8_t)(round * 7 + b * 13 + i * 3);
}

/* The POSIX load: exits with the number of rounds lost (at most 250). */
static int load(void)
{
	static uint8_t buf[4096], want[4096];
	int fd = -1;
	for (int t = 0; t < TRIES && fd < 0; t++)
		fd = open(LOAD_FILE, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 250;
	unsigned lost = 0, round = 0;
	for (; round < 1000000 && access(STOP_FILE, F_OK) != 0; round++) {
		for (unsigned b = 0; b < LOAD_BLOCKS; b++) {
			fill(buf, round, b);
			int t = 0;
			while (t < TRIES && pwrite(fd, buf, sizeof buf, (off_t)b * 4096) != 4096)
				t++;
			lost += t == TRIES;
		}
		for (int t = 0; t < TRIES && fsync(fd) != 0; t++)
			;
		for (unsigned b = 0; b < LOAD_BLOCKS; b++) {
			int t = 0;
			while (t < TRIES && pread(fd, buf, sizeof buf, (off_t)b * 4096) != 4096)
				t++;
			fill(want, round, b);
			lost += t == TRIES || memcmp(buf, want, sizeof buf) != 0;
		}
	}
	close(fd);
	unlink(LOAD_FILE);
	unlink(STOP_FILE);
	printf("BENCH-RECOVERY-ROUNDS %u\n", round);
	return lost > 250 ? 250 : (int)lost;
}

static int touch_stop(void)
{
	int fd = open(STOP_FILE, O_WRONLY | O_CREAT, 0644);
	return fd < 0 ? 1 : close(fd);
}

static char *const env[] = { NULL };

static long spawn_posix(const char *mode)
{
	char *argv[] = { (char *)prog, (char *)mode, NULL };
	return myrmex_spawn_flags(prog, argv, env, -1, MYRMEX_SPAWN_POSIX);
}

static int reap(long pid)
{
	int status = 0;
	if (pid <= 0 || myrmex_syscall6(SYS_wait4, pid, (long)&status, 0, 0, 0, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "load"))
		return load();
	if (argc > 1 && !strcmp(argv[1], "stop"))
		return touch_stop();
	if (!myrmex_is_native())
		return 0;
	char *svc_argv[] = { "svcman", "services.bench", NULL };
	long svcman = myrmex_spawn_flags("svcman", svc_argv, env, -1,
	                                 MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_MANAGER);
	if (svcman < 0) {
		bench_fail(prog, "spawn svcman", svcman);
		return 1;
	}
	for (int ms = 0; ms < 20000 && myrmex_server_pid(MYRMEX_COREID_FS) < 0; ms++)
		myrmex_sleep_ns(1000000);
	long h = myrmex_ica_alloc(1);
	if (h < 0) {
		bench_fail(prog, "ica_alloc", h);
		return 1;
	}
	ctl = (uint32_t)h;
	long loader = spawn_posix("load");
	struct bench_parts b = {
		.suite = "restart",
		.names = { "restart.disk", "restart.time", "restart.console" },
		.nparts = NTARGETS,
		.runs = 3,
		.iters = 1,
		.body = kill_body,
	};
	int ret = bench_run_parts(&b);
	ret |= reap(spawn_posix("stop")) != 0;
	int lost = reap(loader);
	unsigned kills = 0, recovered = 0;
	for (unsigned t = 0; t < NTARGETS; t++) {
		kills += targets[t].kills;
		recovered += targets[t].recovered;
	}
	printf("BENCH-RECOVERY kills=%u recovered=%u lost=%d (disk %u/%u, time %u/%u, console %u/%u)\n",
	       kills, recovered, lost, targets[0].recovered, targets[0].kills, targets[1].recovered,
	       targets[1].kills, targets[2].recovered, targets[2].kills);
	fflush(stdout);
	myrmex_syscall6(SYS_kill, svcman, SIGTERM, 0, 0, 0, 0);
	ret |= reap(svcman) != 0;
	return ret || lost != 0;
}
