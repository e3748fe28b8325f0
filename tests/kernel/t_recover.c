/*
 * t_recover: servers that die under load come back by themselves (issue
 * 14). The test starts the service manager (svcman) with the table
 * tests/kernel/services.test (timed, the virtio-blk driver on fs.img, the
 * console server, the file manager), then POSIX programs that work through
 * the kernel's channels as any program does:
 *
 *   files <n>   writes /recover.<n> (FILE_BLOCKS blocks of a pattern of its
 *               own, with fsync), reads it back and compares, round after
 *               round; a call that fails (the driver died under it) is made
 *               again; every round must read back what it wrote.
 *   sleeps      CLOCK_MONOTONIC sleeps of SLEEP_MS, each at least that long
 *               by the clock (a sleep the time server died with is finished
 *               by the kernel); EINTR sleeps the time left.
 *   console     writes lines to /dev/console; EINTR (the console server is
 *               being restarted) writes the line again.
 *   reader      reads /dev/console as a shell does, through the console
 *               kills (EINTR: it reads again), until the line the test has
 *               the host type after the kills arrives: the restarted console
 *               serves the same reader on the same terminal.
 * Each works until the test has made all its kills (it then creates
 * /recover.stop, with the program `stop`), and at least MIN_ROUNDS rounds.
 *
 * Meanwhile the test kills the disk driver, the time server and the
 * console server, KILLS times each (SIGKILL), waiting each time until the
 * service manager has a new one registered, and prints how long that took
 * (RECOVER-RESTART lines). Every program must end with 0; the file
 * manager's recovery counters are printed. Last, the test kills the process
 * manager, whose state cannot be rebuilt (restart=reboot): the service
 * manager must stop the system in order by itself, shutting the file
 * manager down cleanly (the runner's e2fsck of fs.img follows) and ending
 * with status 3, which sysinit turns into a message and a power-off.
 *
 * "net" (the entry recover-net) does the same for the network, with the
 * table tests/kernel/services.net: two POSIX programs move NET_BYTES (4 MiB) each
 * over TCP to and from the host peer (tools/inet_peer.py `sink` and
 * `source`, the pattern checked at both ends) through the TCP/IP server,
 * the Ethernet server and the virtio-net driver, while the test kills the
 * driver and then the Ethernet server, KILLS times each: the service
 * manager restarts them, lwIP sends the lost segments again, and both
 * transfers must end complete and intact.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_recover"
#include "test_check.h"
#include "ipc_test.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <myrmex/console.h>
#include <myrmex/disk.h>
#include <myrmex/fs.h>
#include <myrmex/inet.h>
#include <myrmex/net.h>
#include <myrmex/time.h>

#define KILLS 3
#define MIN_ROUNDS 4
#define MAX_ROUNDS 100000   /* bounds every loop, should the stop never come */
#define FILE_BLOCKS 32
#define SLEEP_MS 5
#define LINE_MS 20
#define STOP_FILE "/recover.stop"
#define TRIES 2000          /* a call that keeps failing: the program gives up */
#define LOAD_MS 40          /* work between kills */
#define REGISTER_WAIT_MS 20000

static uint8_t block[4096];

/* Whether the test has made its kills and this program its rounds. */
static int done(unsigned round)
{
	return round >= MAX_ROUNDS || (round >= MIN_ROUNDS && access(STOP_FILE, F_OK) == 0);
}

/* ------------------------------------------------------------ programs */

static void fill(uint8_t *buf, unsigned seed, unsigned round, unsigned b)
{
	for (unsigned i = 0; i < sizeof block; i++)
		buf[i] = (uint8_t)(seed * 31 + round * 7 + b * 13 + i * 3);
}

static int retry_pwrite(int fd, const void *buf, size_t n, off_t off)
{
	for (int t = 0; t < TRIES; t++)
		if (pwrite(fd, buf, n, off) == (ssize_t)n)
			return 0;
	return -1;
}

static int retry_pread(int fd, void *buf, size_t n, off_t off)
{
	for (int t = 0; t < TRIES; t++)
		if (pread(fd, buf, n, off) == (ssize_t)n)
			return 0;
	return -1;
}

static int files_program(unsigned seed)
{
	char path[32];
	snprintf(path, sizeof path, "/recover.%u", seed);
	int fd = -1;
	for (int t = 0; t < TRIES && fd < 0; t++)
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 2;
	uint8_t want[sizeof block];
	for (unsigned r = 0; !done(r); r++) {
		for (unsigned b = 0; b < FILE_BLOCKS; b++) {
			fill(block, seed, r, b);
			if (retry_pwrite(fd, block, sizeof block, (off_t)b * sizeof block) < 0)
				return 3;
		}
		for (int t = 0; t < TRIES && fsync(fd) != 0; t++)
			;
		for (unsigned b = 0; b < FILE_BLOCKS; b++) {
			if (retry_pread(fd, block, sizeof block, (off_t)b * sizeof block) < 0)
				return 4;
			fill(want, seed, r, b);
			if (memcmp(block, want, sizeof block))
				return 5;   /* data lost or mixed up */
		}
	}
	close(fd);
	for (int t = 0; t < TRIES; t++)
		if (unlink(path) == 0)
			return 0;
	return 6;
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int sleeps_program(void)
{
	for (unsigned i = 0; !done(i); i++) {
		uint64_t start = monotonic_ns();
		struct timespec d = { 0, SLEEP_MS * 1000000L };
		int t = 0;
		for (; t < TRIES && clock_nanosleep(CLOCK_MONOTONIC, 0, &d, &d) != 0; t++)
			;   /* EINTR: the time left is in d; sleep that */
		if (t == TRIES)
			return 2;
		if (monotonic_ns() - start < SLEEP_MS * 1000000ull)
			return 3;   /* woke early: a sleep went missing */
	}
	return 0;
}

static int console_program(void)
{
	int fd = -1;
	for (int t = 0; t < TRIES && fd < 0; t++)
		fd = open("/dev/console", O_WRONLY);
	if (fd < 0)
		return 2;
	for (unsigned i = 0; !done(i); i++) {
		char line[64];
		int n = snprintf(line, sizeof line, "t_recover: console line %u\n", i);
		int t = 0;
		for (; t < TRIES && write(fd, line, (size_t)n) != n; t++)
			usleep(1000);
		if (t == TRIES)
			return 3;
		usleep(LINE_MS * 1000);
	}
	return 0;
}

#define READER_LINE "recover-line"

static int reader_program(void)
{
	int fd = -1;
	for (int t = 0; t < TRIES && fd < 0; t++)
		fd = open("/dev/console", O_RDONLY);
	if (fd < 0)
		return 2;
	char line[64];
	for (unsigned i = 0; i < MAX_ROUNDS; i++) {
		ssize_t n = read(fd, line, sizeof line - 1);
		if (n < 0) {
			if (errno != EINTR)
				return 3;
			continue;   /* the console server died with our read: read again */
		}
		line[n] = '\0';
		if (!strcmp(line, READER_LINE "\n"))
			return 0;
	}
	return 4;
}

static int stop_program(void)
{
	int fd = open(STOP_FILE, O_WRONLY | O_CREAT, 0644);
	if (fd < 0)
		return 2;
	close(fd);
	return 0;
}

static int unstop_program(void)
{
	return unlink(STOP_FILE) == 0 ? 0 : 2;
}

/* The host peer's pattern (tools/inet_peer.py): byte i is (i * 7 + 3) mod 256. */
#define NET_BYTES (4u << 20)
#define NET_WAIT_MS 90000u   /* then the transfers are ended and the test fails: the
                                service manager must still be stopped in order, or
                                every later test of the boot finds the network taken */
#define NET_CHUNK 65536u

static uint8_t net_buf[NET_CHUNK];

static uint8_t peer_byte(uint64_t i)
{
	return (uint8_t)(i * 7 + 3);
}

/* A connection to the host peer with its first line said: the socket. */
static int peer_connect(const char *line)
{
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(7) };
	to.sin_addr.s_addr = inet_addr("10.0.2.100");
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (void *)&to, sizeof to) != 0)
		return -1;
	size_t n = strlen(line);
	return write(fd, line, n) == (ssize_t)n ? fd : -1;
}

/* NET_BYTES of the pattern to the peer's sink, which answers "ok N". */
static int net_sink_program(void)
{
	char line[64];
	snprintf(line, sizeof line, "sink %u\n", NET_BYTES);
	int fd = peer_connect(line);
	if (fd < 0)
		return 2;
	for (uint64_t sent = 0; sent < NET_BYTES;) {
		size_t n = NET_BYTES - sent < NET_CHUNK ? NET_BYTES - sent : NET_CHUNK;
		for (size_t i = 0; i < n; i++)
			net_buf[i] = peer_byte(sent + i);
		ssize_t w = write(fd, net_buf, n);
		if (w <= 0)
			return 3;   /* the connection did not survive */
		sent += (uint64_t)w;
	}
	char answer[64] = { 0 }, want[64];
	size_t got = 0;
	while (got < sizeof answer - 1 && !memchr(answer, '\n', got)) {
		ssize_t r = read(fd, answer + got, sizeof answer - 1 - got);
		if (r <= 0)
			return 4;
		got += (size_t)r;
	}
	snprintf(want, sizeof want, "ok %u\n", NET_BYTES);
	close(fd);
	return strcmp(answer, want) == 0 ? 0 : 5;
}

/* NET_BYTES from the peer's source, checked byte by byte, then its close. */
static int net_source_program(void)
{
	char line[64];
	snprintf(line, sizeof line, "source %u\n", NET_BYTES);
	int fd = peer_connect(line);
	if (fd < 0)
		return 2;
	uint64_t got = 0;
	for (;;) {
		ssize_t r = read(fd, net_buf, sizeof net_buf);
		if (r < 0)
			return 3;
		if (r == 0)
			break;
		for (ssize_t i = 0; i < r; i++)
			if (net_buf[i] != peer_byte(got + (uint64_t)i))
				return 4;   /* lost, doubled or mixed-up bytes */
		got += (uint64_t)r;
	}
	close(fd);
	return got == NET_BYTES ? 0 : 5;
}

/* ------------------------------------------------------------ the test */

static char *const env[] = { "MYRMEX_TEST=1", NULL };

static long spawn_program(char *const argv[])
{
	long pid = myrmex_spawn_flags("t_recover", argv, env, -1, MYRMEX_SPAWN_POSIX);
	if (pid <= 0)
		test_fail("spawn %s: %ld", argv[1], pid);
	return pid;
}

static long await_new(unsigned coreid, long old)
{
	for (int ms = 0; ms < REGISTER_WAIT_MS; ms++) {
		long pid = myrmex_server_pid(coreid);
		if (pid > 0 && pid != old)
			return pid;
		myrmex_sleep_ns(IPC_MS);
	}
	return -1;
}

static void kill_and_wait(const char *name, unsigned coreid)
{
	for (int k = 0; k < KILLS; k++) {
		myrmex_sleep_ns(LOAD_MS * IPC_MS);
		long pid = myrmex_server_pid(coreid);
		if (pid <= 0) {
			test_fail("%s is not running before kill %d", name, k);
			return;
		}
		uint64_t start = myrmex_now_ns();
		raw2(SYS_kill, pid, SIGKILL);
		long now = await_new(coreid, pid);
		if (now < 0) {
			test_fail("%s did not come back after kill %d", name, k);
			return;
		}
		printf("RECOVER-RESTART %s %llu us (pid %ld -> %ld)\n", name,
		       (unsigned long long)((myrmex_now_ns() - start) / 1000), pid, now);
		fflush(stdout);
	}
}

/* The file manager's recovery counters (FS_RSTAT_*) into v; 0 or -1. */
static int recovery_stats(uint64_t v[8])
{
	uint32_t ctl;
	struct myrmex_ctl_header *h = ipc_new_ctl(&ctl);
	if (!h)
		return -1;
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_FS, FS_STATS);
	f->arg[0] = FS_STATS_RECOVERY;
	long r = myrmex_callsync(h);
	struct myrmex_frame *res = myrmex_ctl_result(h);
	int ok = r == 0 && res && res->status == 0;
	if (ok)
		memcpy(v, res->arg, 8 * sizeof(uint64_t));
	else
		test_fail("FS_STATS recovery: %ld / %lld", r, res ? (long long)res->status : 0LL);
	myrmex_ica_free(ctl);
	return ok ? 0 : -1;
}

/* Prints the counters, after waiting for one periodic write-back (every
 * 5 s: the file manager's own FS_SYNC, made by its second thread). */
static void print_recovery(void)
{
	uint64_t v[8];
	if (recovery_stats(v) < 0)
		return;
	uint64_t first = v[FS_RSTAT_WRITEBACKS];
	for (int i = 0; i < 80 && v[FS_RSTAT_WRITEBACKS] == first; i++) {
		myrmex_sleep_ns(100 * IPC_MS);
		if (recovery_stats(v) < 0)
			return;
	}
	CHECK(v[FS_RSTAT_WRITEBACKS] > first, "no periodic write-back in 8 s");
	printf("RECOVER-FILEMAN disk-retries %llu writebacks %llu\n",
	       (unsigned long long)v[FS_RSTAT_DISK_RETRIES],
	       (unsigned long long)v[FS_RSTAT_WRITEBACKS]);
}

static int run_test(void)
{
	char *svc_argv[] = { "svcman", "services.test", NULL };
	long svcman = myrmex_spawn_flags("svcman", svc_argv, env, -1,
	                                 MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_MANAGER);
	if (svcman <= 0) {
		test_fail("spawn svcman: %ld", svcman);
		return test_exit_code();
	}
	static const unsigned needed[] = { MYRMEX_COREID_TIME, MYRMEX_COREID_DISK,
	                                   MYRMEX_COREID_CONSOLE, MYRMEX_COREID_FS,
	                                   MYRMEX_COREID_PM };
	for (unsigned i = 0; i < sizeof needed / sizeof needed[0]; i++)
		if (await_new(needed[i], 0) < 0)
			test_fail("coreid %u never registered", needed[i]);
	char *files0[] = { "t_recover", "files", "0", NULL };
	char *files1[] = { "t_recover", "files", "1", NULL };
	char *sleeps[] = { "t_recover", "sleeps", NULL };
	char *console[] = { "t_recover", "console", NULL };
	char *reader[] = { "t_recover", "reader", NULL };
	long pids[] = { spawn_program(files0), spawn_program(files1), spawn_program(sleeps),
	                spawn_program(console), spawn_program(reader) };
	kill_and_wait("virtio_blk", MYRMEX_COREID_DISK);
	kill_and_wait("timed", MYRMEX_COREID_TIME);
	kill_and_wait("uart", MYRMEX_COREID_CONSOLE);
	/* The host types the reader's line into the restarted console. */
	myrmex_sleep_ns(LOAD_MS * IPC_MS);
	printf("CONSOLE-TYPE 7265636f7665722d6c696e650a\n");   /* "recover-line\n" */
	fflush(stdout);
	char *stop[] = { "t_recover", "stop", NULL };
	long stopper = spawn_program(stop);
	if (stopper > 0)
		CHECK_EQ(ipc_reap(stopper), 0);
	for (unsigned i = 0; i < sizeof pids / sizeof pids[0]; i++) {
		if (pids[i] <= 0)
			continue;
		int status = ipc_reap(pids[i]);
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "program %u ended with %#x", i,
		      status);
	}
	char *unstop[] = { "t_recover", "unstop", NULL };
	long unstopper = spawn_program(unstop);
	if (unstopper > 0)
		CHECK_EQ(ipc_reap(unstopper), 0);
	print_recovery();
	raw2(SYS_kill, myrmex_server_pid(MYRMEX_COREID_PM), SIGKILL);
	int status = ipc_reap(svcman);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 3,
	      "svcman ended with %#x after the process manager died (expected exit 3)", status);
	CHECK_EQ(myrmex_server_pid(MYRMEX_COREID_FS), -ESRCH);   /* stopped, in order */
	return test_exit_code();
}

/* The eight counter words of `op` at coreid (arg0 `which`) on one line. */
static void print_counters(const char *name, unsigned coreid, uint32_t op, uint64_t which)
{
	uint32_t ctl;
	struct myrmex_ctl_header *h = ipc_new_ctl(&ctl);
	if (!h)
		return;
	const uint64_t args[4] = { which, 0, 0, 0 };
	uint64_t v[8];
	long r = myrmex_call(h, coreid, op, args, 0, v, NULL);
	if (r == 0)
		printf("RECOVER-NET %s %llu %llu %llu %llu %llu %llu %llu %llu\n", name,
		       (unsigned long long)v[0], (unsigned long long)v[1], (unsigned long long)v[2],
		       (unsigned long long)v[3], (unsigned long long)v[4], (unsigned long long)v[5],
		       (unsigned long long)v[6], (unsigned long long)v[7]);
	else
		printf("RECOVER-NET %s: %ld\n", name, r);
	fflush(stdout);
	myrmex_ica_free(ctl);
}

/* What the network's servers counted (a transfer that does not end). */
static void print_network(void)
{
	print_counters("driver net_stats", MYRMEX_COREID_NIC, NET_STATS, NET_STATS_BASIC);
	print_counters("eth eth_stats", MYRMEX_COREID_ETH, NET_STATS, 0);
	print_counters("tcpip inet_stats", MYRMEX_COREID_INET, INET_STATS, 0);
	print_counters("tcpip inet_stats_more", MYRMEX_COREID_INET, INET_STATS, INET_STATS_MORE);
}

/* The network mode: transfers while the driver and the Ethernet server die. */
static int run_net_test(void)
{
	char *svc_argv[] = { "svcman", "services.net", NULL };
	long svcman = myrmex_spawn_flags("svcman", svc_argv, env, -1,
	                                 MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_MANAGER);
	if (svcman <= 0) {
		test_fail("spawn svcman: %ld", svcman);
		return test_exit_code();
	}
	static const unsigned needed[] = { MYRMEX_COREID_NIC, MYRMEX_COREID_ETH,
	                                   MYRMEX_COREID_INET, MYRMEX_COREID_FS,
	                                   MYRMEX_COREID_PM };
	for (unsigned i = 0; i < sizeof needed / sizeof needed[0]; i++)
		if (await_new(needed[i], 0) < 0)
			test_fail("coreid %u never registered", needed[i]);
	char *sink[] = { "t_recover", "net-sink", NULL };
	char *source[] = { "t_recover", "net-source", NULL };
	long pids[] = { spawn_program(sink), spawn_program(source) };
	kill_and_wait("virtio_net", MYRMEX_COREID_NIC);
	kill_and_wait("eth", MYRMEX_COREID_ETH);
	uint64_t deadline = myrmex_now_ns() + NET_WAIT_MS * 1000000ull;
	for (unsigned i = 0; i < sizeof pids / sizeof pids[0]; i++) {
		if (pids[i] <= 0)
			continue;
		int status = 0;
		long r;
		while ((r = myrmex_syscall6(SYS_wait4, pids[i], (long)&status, WNOHANG, 0, 0, 0)) == 0 &&
		       myrmex_now_ns() < deadline)
			myrmex_sleep_ns(10 * IPC_MS);
		if (r == 0) {
			test_fail("transfer %u still going after %u s: ended", i, NET_WAIT_MS / 1000);
			print_network();
			raw2(SYS_kill, pids[i], SIGKILL);
			ipc_reap(pids[i]);
			continue;
		}
		CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "transfer %u ended with %#x (2 connect, 3 the connection broke, 4 bad bytes, "
		      "5 short)", i, status);
	}
	raw2(SYS_kill, myrmex_server_pid(MYRMEX_COREID_PM), SIGKILL);
	int status = ipc_reap(svcman);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 3,
	      "svcman ended with %#x after the process manager died (expected exit 3)", status);
	return test_exit_code();
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	const char *mode = argc > 1 ? argv[1] : "";
	if (!strcmp(mode, "files"))
		return files_program((unsigned)atoi(argc > 2 ? argv[2] : "0"));
	if (!strcmp(mode, "sleeps"))
		return sleeps_program();
	if (!strcmp(mode, "console"))
		return console_program();
	if (!strcmp(mode, "stop"))
		return stop_program();
	if (!strcmp(mode, "reader"))
		return reader_program();
	if (!strcmp(mode, "unstop"))
		return unstop_program();
	if (!strcmp(mode, "test"))
		return run_test();
	if (!strcmp(mode, "net"))
		return run_net_test();
	if (!strcmp(mode, "net-sink"))
		return net_sink_program();
	if (!strcmp(mode, "net-source"))
		return net_source_program();
	test_fail("unknown mode '%s'", mode);
	return test_exit_code();
}
