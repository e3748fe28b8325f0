/*
 * t_time_server: the time server (servers/time/timed, include/myrmex/time.h)
 * through the real path: Linux time calls of POSIX processes, which the
 * kernel forwards to it (docs/posix.md), and its own protocol. Modes:
 *
 *   posix   a POSIX process (timed, the file manager and the console run;
 *           messages go to /dev/console): every clock answered by the
 *           server (one IPC each, counted by the server) and equal to the
 *           kernel's formula read just before and just after; MONOTONIC
 *           never goes back; clock_getres; bad clock ids -EINVAL, bad
 *           pointers -EFAULT, bad timespecs -EINVAL, all without an IPC;
 *           sleeps last at least as asked (relative, TIMER_ABSTIME on
 *           MONOTONIC and REALTIME, a time in the past, zero, four threads
 *           at once); a signal ends nanosleep with -EINTR and the time left
 *           (with and without SA_RESTART; an absolute sleep leaves rem
 *           alone), and the server has dropped the sleep (TIME_CANCEL).
 *   forged  native (timed runs): the protocol's refusals; a user's
 *           TIME_CANCEL is refused even with the origin forged, for every
 *           handle, while a POSIX sleeper sleeps on undisturbed; a flood of
 *           sleeps meets the per-process limit while a POSIX sleeper still
 *           sleeps its time; a POSIX sleeper killed leaves nothing parked.
 *   death   native with the server right: starts its own timed, kills it
 *           while a POSIX child sleeps in it; the child's sleep still lasts
 *           its time (the kernel sleeps out the rest), and its clock calls
 *           go on without an IPC, never going back.
 *   sleeper <ms>, death-child   the POSIX children of forged and death.
 *           Without a file manager they have nowhere to print: the exit
 *           status is the verdict (0, or the number of the failed check).
 */
#define _GNU_SOURCE
#define TEST_NAME "t_time_server"
#include "test_check.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <myrmex/time.h>

#define MS          1000000ull
#define NS_PER_S    1000000000ull
#define BAD_PTR     0x1L
#define KERNEL_PTR  (long)0xffff800000001000ull
#define WAIT_TRIES  5000           /* 1 ms polls for something to happen */

static char *const child_envp[] = { "MYRMEX_TEST=1", NULL };

/* ------------------------------------------------------------ helpers */

static struct myrmex_clock_info info;

static int clock_info_read(void)
{
	return (int)myrmex_syscall6(MYRMEX_SYS_CLOCK_INFO, (long)&info, 0, 0, 0, 0, 0);
}

/* The kernel's monotonic clock, by its own formula: no system call. */
static uint64_t kmono(void)
{
	return myrmex_clock_monotonic(&info, myrmex_rdtsc());
}

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * NS_PER_S + (uint64_t)ts->tv_nsec;
}

static uint64_t ipc_calls(void)
{
	struct myrmex_kstats ks;
	return myrmex_kstats(&ks) == (long)sizeof ks ? ks.ipc_calls : 0;
}

/* One native call to the time server: the result's status (or callsync's
 * error), its arguments in res. forge_origin writes MYRMEX_ORIGIN_KERNEL
 * into our frame first (the kernel must overwrite it). */
static long time_call(uint32_t opcode, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                      uint64_t res[8], int forge_origin)
{
	static long handle = -1;
	if (handle < 0 && (handle = myrmex_ica_alloc(1)) < 0)
		return handle;
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr((uint32_t)handle));
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_TIME, opcode);
	f->arg[0] = a0;
	f->arg[1] = a1;
	f->arg[2] = a2;
	f->arg[3] = a3;
	if (forge_origin)
		f->reserved = MYRMEX_ORIGIN_KERNEL;
	long r = myrmex_callsync(h);
	if (r < 0)
		return r;
	struct myrmex_frame *res_frame = myrmex_ctl_result(h);
	if (!res_frame)
		return -EIO;
	if (res)
		memcpy(res, res_frame->arg, sizeof res_frame->arg);
	return (long)res_frame->status;
}

static uint64_t stat_of(int index)
{
	uint64_t res[8] = { 0 };
	long r = time_call(TIME_STATS, 0, 0, 0, 0, res, 0);
	if (r != 0) {
		test_fail("TIME_STATS: %ld", r);
		return 0;
	}
	return res[index];
}

/* Waits (1 ms polls) until the server has at least n sleeps parked. */
static int wait_parked(uint64_t n)
{
	for (int i = 0; i < WAIT_TRIES; i++) {
		if (stat_of(TIME_STAT_PARKED) >= n)
			return 0;
		myrmex_sleep_ns(MS);
	}
	test_fail("the server never had %llu sleeps parked", (unsigned long long)n);
	return -1;
}

static long spawn_child(const char *mode, const char *arg)
{
	char *argv[] = { "t_time_server", (char *)mode, (char *)arg, NULL };
	long pid = myrmex_spawn_flags("t_time_server", argv, child_envp, -1, MYRMEX_SPAWN_POSIX);
	if (pid <= 0)
		test_fail("spawn %s: %ld", mode, pid);
	return pid;
}

static int reap(long pid)
{
	int status = 0;
	long r = raw4(SYS_wait4, pid, (long)&status, 0, 0);
	if (r != pid)
		test_fail("wait4(%ld): %ld", pid, r);
	return status;
}

static void check_child_passed(const char *what, int status)
{
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: %s %d", what,
	      WIFEXITED(status) ? "failed check" : "killed by signal",
	      WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

/* ------------------------------------------------- posix: the clocks */

static const uint32_t clocks[] = {
	TIME_CLOCK_REALTIME, TIME_CLOCK_MONOTONIC, TIME_CLOCK_MONOTONIC_RAW,
	TIME_CLOCK_REALTIME_COARSE, TIME_CLOCK_MONOTONIC_COARSE, TIME_CLOCK_BOOTTIME,
};
#define NCLOCKS (sizeof clocks / sizeof clocks[0])

/* Each call is one IPC to the server, which counts it. */
static void calls_are_forwarded(void)
{
	struct timespec ts;
	struct timeval tv;
	uint64_t gets = stat_of(TIME_STAT_GETS);
	uint64_t calls = ipc_calls();
	for (unsigned i = 0; i < NCLOCKS; i++)
		CHECK_EQ(raw2(SYS_clock_gettime, clocks[i], (long)&ts), 0);
	CHECK_EQ(raw2(SYS_clock_getres, TIME_CLOCK_MONOTONIC, (long)&ts), 0);
	CHECK_EQ(raw2(SYS_gettimeofday, (long)&tv, 0), 0);
	CHECK(raw1(SYS_time, 0) > 0, "time() not positive");
	uint64_t n = NCLOCKS + 3;
	uint64_t made = ipc_calls() - calls;
	CHECK(made >= n, "%u time calls made %llu IPCs", (unsigned)n, (unsigned long long)made);
	uint64_t served = stat_of(TIME_STAT_GETS) - gets;
	CHECK(served == n, "%u time calls, the server answered %llu", (unsigned)n,
	      (unsigned long long)served);

	/* Refused by the kernel before any IPC: the server sees nothing. */
	gets = stat_of(TIME_STAT_GETS);
	uint64_t refused = stat_of(TIME_STAT_REFUSED);
	CHECK_EQ(raw2(SYS_clock_gettime, 99, (long)&ts), -EINVAL);
	CHECK_EQ(raw2(SYS_clock_gettime, TIME_CLOCK_MONOTONIC, BAD_PTR), -EFAULT);
	CHECK_EQ(stat_of(TIME_STAT_GETS), gets + 1);   /* the EFAULT one was read */
	CHECK_EQ(stat_of(TIME_STAT_REFUSED), refused);
}

/* Every clock equals the kernel's formula between a reading before and one
 * after: the server and the kernel read one clock. */
static void clocks_agree_with_kernel(void)
{
	for (unsigned i = 0; i < NCLOCKS; i++) {
		uint32_t c = clocks[i];
		uint64_t base = time_clock_is_realtime(c) ? info.epoch_ns : 0;
		struct timespec ts = { -1, -1 };
		uint64_t before = kmono() + base;
		long r = raw2(SYS_clock_gettime, c, (long)&ts);
		uint64_t after = kmono() + base;
		CHECK(r == 0 && ts.tv_nsec >= 0 && ts.tv_nsec < (long)NS_PER_S,
		      "clock %u: %ld, tv_nsec %ld", c, r, ts.tv_nsec);
		CHECK(before <= ts_ns(&ts) && ts_ns(&ts) <= after,
		      "clock %u read %llu, not within the kernel's %llu..%llu", c,
		      (unsigned long long)ts_ns(&ts), (unsigned long long)before,
		      (unsigned long long)after);
	}
	struct timeval tv;
	uint64_t before = info.epoch_ns + kmono();
	CHECK_EQ(raw2(SYS_gettimeofday, (long)&tv, 0), 0);
	uint64_t after = info.epoch_ns + kmono();
	uint64_t us = (uint64_t)tv.tv_sec * 1000000u + (uint64_t)tv.tv_usec;
	CHECK(before / 1000 <= us && us <= after / 1000 && tv.tv_usec < 1000000,
	      "gettimeofday %llu us not within %llu..%llu", (unsigned long long)us,
	      (unsigned long long)(before / 1000), (unsigned long long)(after / 1000));
	int64_t t2 = 0;
	before = info.epoch_ns + kmono();
	long t = raw1(SYS_time, (long)&t2);
	after = info.epoch_ns + kmono();
	CHECK(t == t2 && (uint64_t)t >= before / NS_PER_S && (uint64_t)t <= after / NS_PER_S,
	      "time() %ld (%lld) not within %llu..%llu", t, (long long)t2,
	      (unsigned long long)(before / NS_PER_S), (unsigned long long)(after / NS_PER_S));
	CHECK(t > 1577836800, "the date is before 2020: %ld", t);
}

static void monotonic_never_goes_back(void)
{
	static const uint32_t mono[] = { TIME_CLOCK_MONOTONIC, TIME_CLOCK_BOOTTIME,
	                                 TIME_CLOCK_MONOTONIC_COARSE, TIME_CLOCK_MONOTONIC_RAW };
	uint64_t previous = 0;
	for (int i = 0; i < 400; i++) {
		struct timespec ts;
		if (raw2(SYS_clock_gettime, mono[i % 4], (long)&ts) != 0) {
			test_fail("clock_gettime(%u) failed at read %d", mono[i % 4], i);
			return;
		}
		if (ts_ns(&ts) < previous) {
			test_fail("clock %u went back by %llu ns at read %d", mono[i % 4],
			          (unsigned long long)(previous - ts_ns(&ts)), i);
			return;
		}
		previous = ts_ns(&ts);
	}
}

static void resolution(void)
{
	for (unsigned i = 0; i < NCLOCKS; i++) {
		struct timespec ts = { -1, -1 };
		CHECK_EQ(raw2(SYS_clock_getres, clocks[i], (long)&ts), 0);
		CHECK(ts.tv_sec == 0 && ts.tv_nsec == 1, "clock %u: resolution %ld.%09ld", clocks[i],
		      (long)ts.tv_sec, ts.tv_nsec);
	}
	CHECK_EQ(raw2(SYS_clock_getres, TIME_CLOCK_MONOTONIC, 0), 0);
	CHECK_EQ(raw2(SYS_clock_getres, 99, 0), -EINVAL);
	CHECK_EQ(raw2(SYS_clock_getres, TIME_CLOCK_REALTIME, KERNEL_PTR), -EFAULT);
}

/* ------------------------------------------------- posix: bad calls */

static void bad_calls(void)
{
	/* Ids Linux has no clock for either (2, 3, 8, 9, 11 are clocks Myrmex
	 * lacks: not tested here). */
	static const long bad_clocks[] = { 10, 12, 16, 1000, 0x7fffffff };
	struct timespec ts, ok = { 0, 1000 };
	for (unsigned i = 0; i < sizeof bad_clocks / sizeof bad_clocks[0]; i++) {
		CHECK_EQ(raw2(SYS_clock_gettime, bad_clocks[i], (long)&ts), -EINVAL);
		CHECK_EQ(raw2(SYS_clock_gettime, bad_clocks[i], BAD_PTR), -EINVAL);
		CHECK_EQ(raw4(SYS_clock_nanosleep, bad_clocks[i], 0, (long)&ok, 0), -EINVAL);
	}
	CHECK_EQ(raw4(SYS_clock_nanosleep, TIME_CLOCK_MONOTONIC_RAW, 0, (long)&ok, 0), -EINVAL);
	CHECK_EQ(raw4(SYS_clock_nanosleep, TIME_CLOCK_MONOTONIC, 2, (long)&ok, 0), -EINVAL);
	CHECK_EQ(raw4(SYS_clock_nanosleep, TIME_CLOCK_MONOTONIC, ~1L, (long)&ok, 0), -EINVAL);

	/* Pointers. */
	CHECK_EQ(raw2(SYS_clock_gettime, TIME_CLOCK_MONOTONIC, 0), -EFAULT);
	CHECK_EQ(raw2(SYS_clock_gettime, TIME_CLOCK_REALTIME, KERNEL_PTR), -EFAULT);
	CHECK_EQ(raw2(SYS_gettimeofday, BAD_PTR, 0), -EFAULT);
	CHECK_EQ(raw2(SYS_gettimeofday, 0, KERNEL_PTR), -EFAULT);
	CHECK_EQ(raw1(SYS_time, BAD_PTR), -EFAULT);
	CHECK_EQ(raw2(SYS_nanosleep, 0, 0), -EFAULT);
	CHECK_EQ(raw2(SYS_nanosleep, KERNEL_PTR, 0), -EFAULT);
	CHECK_EQ(raw2(SYS_nanosleep, (long)&ok, KERNEL_PTR), -EFAULT);
	CHECK_EQ(raw4(SYS_clock_nanosleep, TIME_CLOCK_MONOTONIC, 0, BAD_PTR, 0), -EFAULT);

	/* Timespecs. */
	static const struct timespec bad_ts[] = { { 0, -1 }, { 0, 1000000000 }, { -1, 0 },
	                                          { 1, -5 }, { (time_t)1 << 62, 2000000000 } };
	for (unsigned i = 0; i < sizeof bad_ts / sizeof bad_ts[0]; i++) {
		CHECK_EQ(raw2(SYS_nanosleep, (long)&bad_ts[i], 0), -EINVAL);
		CHECK_EQ(raw4(SYS_clock_nanosleep, TIME_CLOCK_REALTIME, 0, (long)&bad_ts[i], 0),
		         -EINVAL);
		CHECK_EQ(raw4(SYS_clock_nanosleep, TIME_CLOCK_MONOTONIC, TIMER_ABSTIME,
		              (long)&bad_ts[i], 0), -EINVAL);
	}
}

/* ------------------------------------------------- posix: sleeps */

static void check_slept(const char *what, long r, uint64_t start, uint64_t asked)
{
	uint64_t slept = kmono() - start;
	CHECK(r == 0, "%s returned %ld", what, r);
	CHECK(slept >= asked, "%s of %llu ns lasted %llu ns", what, (unsigned long long)asked,
	      (unsigned long long)slept);
}

static void sleeps(void)
{
	uint64_t sleeps0 = stat_of(TIME_STAT_SLEEPS), woken0 = stat_of(TIME_STAT_WOKEN);
	struct timespec req = { 0, 30 * MS };
	uint64_t start = kmono();
	check_slept("nanosleep(30 ms)", raw2(SYS_nanosleep, (long)&req, 0), start, 30 * MS);

	req.tv_nsec = 20 * MS;
	start = kmono();
	check_slept("clock_nanosleep(REALTIME, 20 ms)",
	            raw4(SYS_clock_nanosleep, TIME_CLOCK_REALTIME, 0, (long)&req, 0), start, 20 * MS);
	start = kmono();
	check_slept("clock_nanosleep(BOOTTIME, 20 ms)",
	            raw4(SYS_clock_nanosleep, TIME_CLOCK_BOOTTIME, 0, (long)&req, 0), start, 20 * MS);

	/* TIMER_ABSTIME on MONOTONIC and REALTIME: awake only once the clock
	 * has reached the time. */
	struct timespec now, target;
	raw2(SYS_clock_gettime, TIME_CLOCK_MONOTONIC, (long)&now);
	uint64_t t = ts_ns(&now) + 30 * MS;
	target.tv_sec = (time_t)(t / NS_PER_S);
	target.tv_nsec = (long)(t % NS_PER_S);
	CHECK_EQ(raw4(SYS_clock_nanosleep, TIME_CLOCK_MONOTONIC, TIMER_ABSTIME, (long)&target, 0), 0);
	raw2(SYS_clock_gettime, TIME_CLOCK_MONOTONIC, (long)&now);
	CHECK(ts_ns(&now) >= t, "absolute MONOTONIC sleep woke %llu ns early",
	      (unsigned long long)(t - ts_ns(&now)));
	raw2(SYS_clock_gettime, TIME_CLOCK_REALTIME, (long)&now);
	t = ts_ns(&now) + 30 * MS;
	target.tv_sec = (time_t)(t / NS_PER_S);
	target.tv_nsec = (long)(t % NS_PER_S);
	CHECK_EQ(raw4(SYS_clock_nanosleep, TIME_CLOCK_REALTIME, TIMER_ABSTIME, (long)&target, 0), 0);
	raw2(SYS_clock_gettime, TIME_CLOCK_REALTIME, (long)&now);
	CHECK(ts_ns(&now) >= t, "absolute REALTIME sleep woke %llu ns early",
	      (unsigned long long)(t - ts_ns(&now)));
	uint64_t sleeps_now = stat_of(TIME_STAT_SLEEPS), woken_now = stat_of(TIME_STAT_WOKEN);
	CHECK(sleeps_now - sleeps0 == 5 && woken_now - woken0 == 5,
	      "5 sleeps: the server took %llu and answered %llu at their time",
	      (unsigned long long)(sleeps_now - sleeps0), (unsigned long long)(woken_now - woken0));

	/* A time already past, and zero: answered at once, nothing parked. */
	target.tv_sec = 0;
	target.tv_nsec = 1;
	CHECK_EQ(raw4(SYS_clock_nanosleep, TIME_CLOCK_MONOTONIC, TIMER_ABSTIME, (long)&target, 0), 0);
	CHECK_EQ(raw4(SYS_clock_nanosleep, TIME_CLOCK_REALTIME, TIMER_ABSTIME, (long)&target, 0), 0);
	req.tv_sec = 0;
	req.tv_nsec = 0;
	CHECK_EQ(raw2(SYS_nanosleep, (long)&req, 0), 0);
	CHECK_EQ(stat_of(TIME_STAT_WOKEN), woken_now);
	CHECK_EQ(stat_of(TIME_STAT_SLEEPS), sleeps_now + 3);
	CHECK_EQ(stat_of(TIME_STAT_PARKED), 0);
}

/* Four threads sleep at once, in another order than they end. */
struct sleeper_thread {
	uint64_t ms;
	long result;
	uint64_t slept;
};

static void sleeper_main(void *arg)
{
	struct sleeper_thread *s = arg;
	struct timespec req = { 0, (long)(s->ms * MS) };
	uint64_t start = kmono();
	s->result = raw2(SYS_nanosleep, (long)&req, 0);
	s->slept = kmono() - start;
}

static void sleeps_at_once(void)
{
	static struct sleeper_thread s[4] = { { 40, -1, 0 }, { 10, -1, 0 }, { 30, -1, 0 },
	                                      { 20, -1, 0 } };
	struct myrmex_thread threads[4];
	int made = 0;
	for (int i = 0; i < 4; i++) {
		long r = myrmex_thread_create(&threads[i], sleeper_main, &s[i], 0);
		CHECK(r == 0, "thread %d: %ld", i, r);
		if (r != 0)
			break;
		made++;
	}
	for (int i = 0; i < made; i++) {
		myrmex_thread_join(&threads[i]);
		CHECK(s[i].result == 0 && s[i].slept >= s[i].ms * MS,
		      "thread sleeping %llu ms: %ld after %llu ns", (unsigned long long)s[i].ms,
		      s[i].result, (unsigned long long)s[i].slept);
	}
}

/* ------------------------------------------------- posix: signals */

static volatile int handled;

static void on_alarm(int sig)
{
	(void)sig;
	handled++;
}

static void arm_alarm(int restart)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sa.sa_flags = restart ? SA_RESTART : 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 0 }, { 0, 50000 } };
	CHECK_EQ(raw3(SYS_setitimer, ITIMER_REAL, (long)&it, 0), 0);
}

static void interrupted(void)
{
	for (int restart = 0; restart <= 1; restart++) {
		uint64_t cancelled = stat_of(TIME_STAT_CANCELLED);
		int before = handled;
		arm_alarm(restart);
		struct timespec req = { 2, 0 }, rem = { 77, 77 };
		uint64_t start = kmono();
		long r = raw2(SYS_nanosleep, (long)&req, (long)&rem);
		uint64_t slept = kmono() - start;
		CHECK(r == -EINTR, "nanosleep(2 s) under SIGALRM%s: %ld",
		      restart ? " (SA_RESTART)" : "", r);
		CHECK(handled == before + 1, "the handler ran %d times", handled - before);
		uint64_t left = ts_ns(&rem);
		CHECK(rem.tv_nsec >= 0 && rem.tv_nsec < (long)NS_PER_S && left > 0 &&
		      left <= 2 * NS_PER_S && left + slept >= 2 * NS_PER_S,
		      "rem %ld.%09ld after %llu ns of 2 s", (long)rem.tv_sec, rem.tv_nsec,
		      (unsigned long long)slept);
		/* The time left counts from the kernel's deadline, which it set
		 * after our first reading: left + slept is at least 2 s. The
		 * cancel went to the server before we came back; our call queues
		 * behind it. */
		CHECK_EQ(stat_of(TIME_STAT_PARKED), 0);
		CHECK_EQ(stat_of(TIME_STAT_CANCELLED), cancelled + 1);
	}

	/* clock_nanosleep, relative: rem filled; absolute: rem untouched. */
	arm_alarm(0);
	struct timespec req = { 2, 0 }, rem = { 77, 77 };
	CHECK_EQ(raw4(SYS_clock_nanosleep, TIME_CLOCK_MONOTONIC, 0, (long)&req, (long)&rem), -EINTR);
	CHECK(rem.tv_sec < 2 && (rem.tv_sec > 0 || rem.tv_nsec > 0), "clock_nanosleep rem %ld.%09ld",
	      (long)rem.tv_sec, rem.tv_nsec);
	arm_alarm(0);
	struct timespec now;
	raw2(SYS_clock_gettime, TIME_CLOCK_REALTIME, (long)&now);
	req.tv_sec = now.tv_sec + 3;
	req.tv_nsec = 0;
	rem.tv_sec = rem.tv_nsec = 77;
	CHECK_EQ(raw4(SYS_clock_nanosleep, TIME_CLOCK_REALTIME, TIMER_ABSTIME, (long)&req, (long)&rem),
	         -EINTR);
	CHECK(rem.tv_sec == 77 && rem.tv_nsec == 77, "an absolute sleep wrote rem");
	CHECK_EQ(stat_of(TIME_STAT_PARKED), 0);
}

static void console_for_messages(void)
{
	long fd = raw3(SYS_open, (long)"/dev/console", O_RDWR, 0);
	if (fd >= 0) {
		raw2(SYS_dup2, fd, 1);
		raw2(SYS_dup2, fd, 2);
	}
}

static int posix_mode(void)
{
	if (myrmex_server_pid(MYRMEX_COREID_TIME) < 0) {
		test_fail("no time server runs");
		return 1;
	}
	calls_are_forwarded();
	clocks_agree_with_kernel();
	monotonic_never_goes_back();
	resolution();
	bad_calls();
	sleeps();
	sleeps_at_once();
	interrupted();
	return test_exit_code();
}

/* ------------------------------------------------- forged requests */

/* What the protocol refuses, asked natively. */
static void protocol_refusals(void)
{
	uint64_t res[8];
	CHECK_EQ(time_call(TIME_GET, 99, 0, 0, 0, res, 0), -EINVAL);
	CHECK_EQ(time_call(TIME_GETRES, 3, 0, 0, 0, res, 0), -EINVAL);
	uint64_t before = info.epoch_ns + kmono();
	CHECK_EQ(time_call(TIME_GET, TIME_CLOCK_REALTIME, 0, 0, 0, res, 0), 0);
	uint64_t after = info.epoch_ns + kmono(), got = res[0] * NS_PER_S + res[1];
	CHECK(res[1] < NS_PER_S && before <= got && got <= after, "TIME_GET: %llu not in %llu..%llu",
	      (unsigned long long)got, (unsigned long long)before, (unsigned long long)after);
	CHECK_EQ(time_call(TIME_SLEEP, TIME_CLOCK_MONOTONIC_RAW, 0, 0, 1000, res, 0), -EINVAL);
	CHECK_EQ(time_call(TIME_SLEEP, TIME_CLOCK_MONOTONIC, 2, 0, 1000, res, 0), -EINVAL);
	CHECK_EQ(time_call(TIME_SLEEP, TIME_CLOCK_MONOTONIC, 0, (uint64_t)-1, 0, res, 0), -EINVAL);
	CHECK_EQ(time_call(TIME_SLEEP, TIME_CLOCK_MONOTONIC, 0, 0, NS_PER_S, res, 0), -EINVAL);
	CHECK_EQ(time_call(TIME_SLEEP, 42, 0, 0, 1, res, 0), -EINVAL);
	uint64_t start = kmono();
	CHECK_EQ(time_call(TIME_SLEEP, TIME_CLOCK_MONOTONIC, 0, 0, 10 * MS, res, 0), 0);
	CHECK(kmono() - start >= 10 * MS, "a native 10 ms TIME_SLEEP was short");
	CHECK_EQ(time_call(0, 0, 0, 0, 0, res, 0), -ENOSYS);
	CHECK_EQ(time_call(77, 0, 0, 0, 0, res, 0), -ENOSYS);
	CHECK_EQ(time_call(TIME_CANCEL, 0, 0, 0, 0, res, 0), -EPERM);
	CHECK_EQ(time_call(TIME_CANCEL, 0, 0, 0, 0, res, 1), -EPERM);
	/* Setting the clock is the kernel's to ask (it checks the caller):
	 * refused natively, origin forged or not, and the clock unmoved. */
	uint64_t epoch = info.epoch_ns;
	CHECK_EQ(time_call(TIME_SET, 1, 0, 0, 0, res, 0), -EPERM);
	CHECK_EQ(time_call(TIME_SET, 4000000000ull, 0, 0, 0, res, 1), -EPERM);
	CHECK_EQ(time_call(TIME_GET, TIME_CLOCK_REALTIME, 0, 0, 0, res, 0), 0);
	got = res[0] * NS_PER_S + res[1];
	CHECK(got >= epoch && got - epoch <= kmono(), "TIME_SET refused, yet REALTIME moved");
}

/* Every handle a forged TIME_CANCEL could name, origin forged too: all
 * refused, and the POSIX sleeper sleeps its whole time. */
static void forged_cancels(void)
{
	uint64_t cancelled = stat_of(TIME_STAT_CANCELLED);
	long child = spawn_child("sleeper", "1500");
	if (child <= 0)
		return;
	wait_parked(1);
	long refused = 0, other = 0;
	for (uint32_t slot = 0; slot < MYRMEX_ICA_SLOTS; slot++) {
		for (uint32_t gen = 1; gen <= 4; gen++) {
			long r = time_call(TIME_CANCEL, slot | gen << MYRMEX_ICA_GEN_SHIFT, 0, 0, 0,
			                   NULL, 1);
			if (r == -EPERM)
				refused++;
			else
				other++;
		}
	}
	CHECK(other == 0, "%ld forged cancels were not refused with -EPERM", other);
	CHECK(refused == MYRMEX_ICA_SLOTS * 4, "only %ld cancels refused", refused);
	check_child_passed("the sleeper beside forged cancels", reap(child));
	CHECK_EQ(stat_of(TIME_STAT_CANCELLED), cancelled);
}

/* More sleeps than a process may park: the rest -EAGAIN; a POSIX sleeper
 * beside them still sleeps its time. */
#define FLOOD 40
static void flood(void)
{
	long handles[FLOOD];
	int made = 0;
	for (int i = 0; i < FLOOD; i++) {
		handles[i] = myrmex_ica_alloc(1);
		if (handles[i] < 0) {
			test_fail("ica_alloc for the flood: %ld", handles[i]);
			break;
		}
		struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr((uint32_t)handles[i]));
		struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_TIME, TIME_SLEEP);
		f->arg[0] = TIME_CLOCK_MONOTONIC;
		f->arg[3] = 300 * MS;
		long r = myrmex_callasync(h);
		CHECK(r == 0, "callasync %d: %ld", i, r);
		if (r != 0) {
			myrmex_ica_free((uint32_t)handles[i]);
			break;
		}
		made++;
	}
	long child = spawn_child("sleeper", "100");
	int ok = 0, again = 0, other = 0;
	for (int i = 0; i < made; i++) {
		struct myrmex_delivery d;
		long r = myrmex_get(NULL, &d);
		if (r <= 0 || d.kind != MYRMEX_DELIVERY_RESULT) {
			test_fail("get for the flood: %ld kind %u", r, d.kind);
			break;
		}
		if (d.status == 0)
			ok++;
		else if (d.status == -EAGAIN)
			again++;
		else
			other++;
	}
	CHECK(ok == (int)TIME_MAX_SLEEPS_PER_PROCESS && again == made - ok && other == 0,
	      "flood of %d sleeps: %d slept, %d -EAGAIN, %d other", made, ok, again, other);
	for (int i = 0; i < made; i++)
		myrmex_ica_free((uint32_t)handles[i]);
	if (child > 0)
		check_child_passed("the sleeper beside the flood", reap(child));
}

/* A POSIX process killed in its sleep: the kernel cancels the sleep. */
static void killed_sleeper(void)
{
	uint64_t cancelled = stat_of(TIME_STAT_CANCELLED);
	uint64_t parked = stat_of(TIME_STAT_PARKED);
	long child = spawn_child("sleeper", "60000");
	if (child <= 0)
		return;
	if (wait_parked(parked + 1) == 0) {
		raw2(SYS_kill, child, SIGKILL);
		int status = reap(child);
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "killed sleeper: status %#x",
		      status);
		CHECK_EQ(stat_of(TIME_STAT_PARKED), parked);
		CHECK_EQ(stat_of(TIME_STAT_CANCELLED), cancelled + 1);
	} else {
		raw2(SYS_kill, child, SIGKILL);
		reap(child);
	}
}

static int forged_mode(void)
{
	protocol_refusals();
	forged_cancels();
	flood();
	killed_sleeper();
	return test_exit_code();
}

/* ------------------------------------------------- the server dies */

static int death_mode(void)
{
	char *argv[] = { "timed", NULL };
	long timed = myrmex_spawn_flags("timed", argv, child_envp, -1, MYRMEX_SPAWN_SERVER);
	if (timed <= 0) {
		test_fail("spawn timed: %ld", timed);
		return 1;
	}
	for (int i = 0; i < WAIT_TRIES && myrmex_server_pid(MYRMEX_COREID_TIME) != timed; i++)
		myrmex_sleep_ns(MS);
	CHECK_EQ(myrmex_server_pid(MYRMEX_COREID_TIME), timed);
	long child = spawn_child("death-child", NULL);
	if (child > 0 && wait_parked(1) == 0) {
		raw2(SYS_kill, timed, SIGKILL);
		reap(timed);
		timed = 0;
		check_child_passed("the POSIX child whose time server died", reap(child));
	} else if (child > 0) {
		raw2(SYS_kill, child, SIGKILL);
		reap(child);
	}
	if (timed > 0) {
		raw2(SYS_kill, timed, SIGKILL);
		reap(timed);
	}
	CHECK_EQ(myrmex_server_pid(MYRMEX_COREID_TIME), -ESRCH);
	CHECK_EQ(time_call(TIME_GET, TIME_CLOCK_MONOTONIC, 0, 0, 0, NULL, 0), -ESRCH);
	return test_exit_code();
}

/* ------------------------------------------------- the POSIX children */

/* sleeper <ms>: 0 when nanosleep returned 0 after at least ms. */
static int sleeper_mode(const char *arg)
{
	uint64_t ms = arg ? strtoull(arg, NULL, 10) : 0;
	struct timespec req = { (time_t)(ms / 1000), (long)(ms % 1000 * MS) };
	uint64_t start = kmono();
	long r = raw2(SYS_nanosleep, (long)&req, 0);
	if (r != 0)
		return 1;
	return kmono() - start >= ms * MS ? 0 : 2;
}

/* death-child: served by the server, then sleeping while it dies. */
static int death_child_mode(void)
{
	struct timespec ts;
	uint64_t calls = ipc_calls();
	if (raw2(SYS_clock_gettime, TIME_CLOCK_MONOTONIC, (long)&ts) != 0)
		return 10;
	if (ipc_calls() == calls)
		return 11;   /* not through the server */
	uint64_t last = ts_ns(&ts);
	struct timespec req = { 0, 500 * MS };
	uint64_t start = kmono();
	if (raw2(SYS_nanosleep, (long)&req, 0) != 0)
		return 12;
	if (kmono() - start < 500 * MS)
		return 13;
	/* The server is gone now: the kernel answers, without an IPC. */
	if (myrmex_server_pid(MYRMEX_COREID_TIME) != -ESRCH)
		return 14;
	calls = ipc_calls();
	if (raw2(SYS_clock_gettime, TIME_CLOCK_MONOTONIC, (long)&ts) != 0)
		return 15;
	if (ipc_calls() != calls)
		return 16;
	if (ts_ns(&ts) < last)
		return 17;   /* went back */
	req.tv_nsec = 10 * MS;
	start = kmono();
	if (raw2(SYS_nanosleep, (long)&req, 0) != 0 || kmono() - start < 10 * MS)
		return 18;
	if (raw2(SYS_clock_gettime, 99, (long)&ts) != -EINVAL)
		return 19;
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "posix") == 0)
		console_for_messages();
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	if (clock_info_read() != 0) {
		test_fail("clock_info failed");
		return 1;
	}
	if (strcmp(mode, "posix") == 0)
		return posix_mode();
	if (strcmp(mode, "forged") == 0)
		return forged_mode();
	if (strcmp(mode, "death") == 0)
		return death_mode();
	if (strcmp(mode, "sleeper") == 0)
		return sleeper_mode(argc > 2 ? argv[2] : NULL);
	if (strcmp(mode, "death-child") == 0)
		return death_child_mode();
	test_fail("unknown mode %s", mode);
	return 1;
}
