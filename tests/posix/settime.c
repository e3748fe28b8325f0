/*
 * Setting the clock (as root): clock_settime and settimeofday move
 * CLOCK_REALTIME (read by the system call, the vDSO, gettimeofday and
 * time alike) and leave CLOCK_MONOTONIC alone; an absolute REALTIME sleep
 * ends when the clock is set past its time; the clock is put back at the
 * end. Then bad input: clocks that cannot be set (EINVAL, EPERM for the
 * CPU-time clocks), bad pointers, times and time zones, a time before the
 * system started. Only relations are printed.
 */
#include "posix_test.h"

#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>

#define NS 1000000000ll

static long long raw_ns(clockid_t clock)
{
	struct timespec ts;
	if (syscall(SYS_clock_gettime, clock, &ts) < 0)
		return -1;
	return (long long)ts.tv_sec * NS + ts.tv_nsec;
}

static long long vdso_ns(clockid_t clock)
{
	struct timespec ts;
	if (clock_gettime(clock, &ts) < 0)
		return -1;
	return (long long)ts.tv_sec * NS + ts.tv_nsec;
}

static int set_ns(long long ns)
{
	struct timespec ts = { ns / NS, ns % NS };
	return clock_settime(CLOCK_REALTIME, &ts);
}

/* Moves REALTIME by delta seconds: 0 or -1. */
static int shift(long long delta)
{
	return set_ns(raw_ns(CLOCK_REALTIME) + delta * NS);
}

static volatile long long abs_sleep_wall;
static volatile int abs_sleep_result = -2;

static void *abs_sleeper(void *arg)
{
	long long target = *(long long *)arg;
	struct timespec ts = { target / NS, target % NS };
	long long w0 = raw_ns(CLOCK_MONOTONIC);
	abs_sleep_result = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL);
	abs_sleep_wall = raw_ns(CLOCK_MONOTONIC) - w0;
	return NULL;
}

static void moves(void)
{
	long long r0 = raw_ns(CLOCK_REALTIME), m0 = raw_ns(CLOCK_MONOTONIC);
	outcome("clock_settime REALTIME +1000 s", shift(1000));
	long long r1 = raw_ns(CLOCK_REALTIME), v1 = vdso_ns(CLOCK_REALTIME);
	long long m1 = raw_ns(CLOCK_MONOTONIC), vm1 = vdso_ns(CLOCK_MONOTONIC);
	long long el = m1 - m0;
	say("REALTIME (system call) moved by 1000 s: %s\n",
	    yes(r1 - r0 >= 1000 * NS && r1 - r0 <= 1000 * NS + el + NS / 10));
	say("REALTIME (vDSO) agrees: %s\n", yes(v1 >= r1 && v1 - r1 < NS));
	say("MONOTONIC did not move: %s\n", yes(el >= 0 && el < 100 * NS && vm1 >= m1));
	struct timeval tv;
	gettimeofday(&tv, NULL);
	long long g = (long long)tv.tv_sec * NS + (long long)tv.tv_usec * 1000;
	say("gettimeofday agrees: %s\n", yes(g >= r1 - 1000 && g - r1 < NS));
	time_t t = time(NULL);
	say("time agrees: %s\n", yes((long long)t >= r1 / NS && (long long)t - r1 / NS <= 1));
	struct timespec coarse;
	clock_gettime(CLOCK_REALTIME_COARSE, &coarse);
	say("REALTIME_COARSE moved too: %s\n", yes((long long)coarse.tv_sec >= r1 / NS - 1));

	/* settimeofday back by 1000 s. */
	long long now = raw_ns(CLOCK_REALTIME) - 1000 * NS;
	struct timeval back = { now / NS, now % NS / 1000 };
	outcome("settimeofday -1000 s", settimeofday(&back, NULL));
	long long r2 = raw_ns(CLOCK_REALTIME), m2 = raw_ns(CLOCK_MONOTONIC);
	say("REALTIME back where it was: %s\n",
	    yes(r2 - r0 >= 0 && r2 - r0 <= (m2 - m0) + NS / 10));
	say("vDSO agrees: %s\n", yes(vdso_ns(CLOCK_REALTIME) >= r2));
	outcome("settimeofday NULL, NULL", syscall(SYS_settimeofday, NULL, NULL));
	struct timezone tz = { 0, 0 };
	outcome("settimeofday time zone only", syscall(SYS_settimeofday, NULL, &tz));
}

static void absolute_sleep(void)
{
	long long target = raw_ns(CLOCK_REALTIME) + 60 * NS;
	pthread_t th;
	pthread_create(&th, NULL, abs_sleeper, &target);
	struct timespec nap = { 0, 200 * 1000000 };
	nanosleep(&nap, NULL);
	int r = shift(120);
	outcome("clock_settime +120 s past a sleeper's time", r);
	pthread_join(th, NULL);
	say("the absolute REALTIME sleep ended: %d, before its minute: %s\n", abs_sleep_result,
	    yes(abs_sleep_wall < 30 * NS));
	outcome("clock_settime -120 s", shift(-120));
}

static void hostile(void)
{
	struct timespec ts = { 1700000000, 0 };
	outcome("clock_settime MONOTONIC", clock_settime(CLOCK_MONOTONIC, &ts));
	outcome("clock_settime MONOTONIC_RAW", clock_settime(CLOCK_MONOTONIC_RAW, &ts));
	outcome("clock_settime REALTIME_COARSE", clock_settime(CLOCK_REALTIME_COARSE, &ts));
	outcome("clock_settime BOOTTIME", clock_settime(CLOCK_BOOTTIME, &ts));
	outcome("clock_settime clock 99", syscall(SYS_clock_settime, 99, &ts));
	outcome("clock_settime process CPU clock", clock_settime(CLOCK_PROCESS_CPUTIME_ID, &ts));
	outcome("clock_settime thread CPU clock", clock_settime(CLOCK_THREAD_CPUTIME_ID, &ts));
	long nobody = (-(long)0x3ffffff0 - 1) * 8 + 2;
	outcome("clock_settime CPU clock of no process", syscall(SYS_clock_settime, nobody, &ts));
	clockid_t own;
	clock_getcpuclockid(getpid(), &own);
	outcome("clock_settime own clock_getcpuclockid clock", clock_settime(own, &ts));
	outcome("clock_settime own clock_getcpuclockid clock, bad pointer",
	        syscall(SYS_clock_settime, own, (void *)8));
	outcome("clock_settime CPU clock, bad pointer",
	        syscall(SYS_clock_settime, CLOCK_PROCESS_CPUTIME_ID, (void *)8));
	outcome("clock_settime MONOTONIC, bad pointer",
	        syscall(SYS_clock_settime, CLOCK_MONOTONIC, (void *)8));
	outcome("clock_settime REALTIME, bad pointer",
	        syscall(SYS_clock_settime, CLOCK_REALTIME, (void *)8));
	struct timespec bad = { 1700000000, 1000000000 };
	outcome("clock_settime nsec 1e9", clock_settime(CLOCK_REALTIME, &bad));
	bad = (struct timespec){ 1700000000, -1 };
	outcome("clock_settime nsec -1", clock_settime(CLOCK_REALTIME, &bad));
	bad = (struct timespec){ -1, 0 };
	outcome("clock_settime seconds -1", clock_settime(CLOCK_REALTIME, &bad));
	bad = (struct timespec){ 0x7fffffffffffffffll, 0 };
	outcome("clock_settime seconds 2^63-1", clock_settime(CLOCK_REALTIME, &bad));
	bad = (struct timespec){ 0, 0 };
	outcome("clock_settime to 1970, before the system started", clock_settime(CLOCK_REALTIME, &bad));
	struct timeval tv = { 1700000000, 1000000 };
	outcome("settimeofday usec 1000000", settimeofday(&tv, NULL));
	tv = (struct timeval){ 1700000000, 1000001 };
	outcome("settimeofday usec 1000001", settimeofday(&tv, NULL));
	tv = (struct timeval){ 1700000000, -1 };
	outcome("settimeofday usec -1", settimeofday(&tv, NULL));
	tv = (struct timeval){ -5, 0 };
	outcome("settimeofday seconds -5", settimeofday(&tv, NULL));
	outcome("settimeofday bad pointer", syscall(SYS_settimeofday, (void *)8, NULL));
	outcome("settimeofday bad time zone pointer", syscall(SYS_settimeofday, NULL, (void *)8));
	struct timezone tz = { 16 * 60, 0 };
	outcome("settimeofday time zone 16 h west", syscall(SYS_settimeofday, NULL, &tz));
	tz.tz_minuteswest = -16 * 60;
	outcome("settimeofday time zone 16 h east", syscall(SYS_settimeofday, NULL, &tz));
}

/* As another user: EPERM, the clock unmoved. */
static void not_root(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (setgid(65534) < 0 || setuid(65534) < 0) {
			say("setuid 65534: %s\n", err_name(errno));
			_exit(1);
		}
		struct timespec ts = { 1700000000, 0 };
		outcome("clock_settime as uid 65534", clock_settime(CLOCK_REALTIME, &ts));
		struct timeval tv = { 1700000000, 0 };
		outcome("settimeofday as uid 65534", settimeofday(&tv, NULL));
		struct timespec bad = { 0, 1000000000 };
		outcome("clock_settime as uid 65534, bad time", clock_settime(CLOCK_REALTIME, &bad));
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

int main(void)
{
	long long r0 = raw_ns(CLOCK_REALTIME), m0 = raw_ns(CLOCK_MONOTONIC);
	moves();
	absolute_sleep();
	hostile();
	not_root();
	long long r1 = raw_ns(CLOCK_REALTIME), m1 = raw_ns(CLOCK_MONOTONIC);
	say("at the end REALTIME is where it would have been: %s\n",
	    yes(r1 - r0 >= 0 && r1 - r0 <= (m1 - m0) + NS / 2));
	return 0;
}
