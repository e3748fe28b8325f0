/*
 * CPU-time clocks and accounting: CLOCK_PROCESS_CPUTIME_ID and
 * CLOCK_THREAD_CPUTIME_ID (resolution, advance while spinning, not while
 * sleeping), clock_getcpuclockid of this process and of a child,
 * pthread_getcpuclockid, a thread's own clock; times() and getrusage
 * (self, children, thread) and wait4's rusage counting the same time;
 * then bad clock ids (another process's thread, a bad kind, no such
 * process), bad pointers and getrusage's who. Only relations are printed:
 * a busy loop's CPU time is at least half its wall time (one CPU, nothing
 * else runs), a sleep's is under half.
 */
#include "posix_test.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>

#define MS 1000000ll

static long long ns_of(clockid_t clock)
{
	struct timespec ts;
	if (clock_gettime(clock, &ts) < 0)
		return -1;
	return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static long long tv_ns(struct timeval tv)
{
	return (long long)tv.tv_sec * 1000000000ll + (long long)tv.tv_usec * 1000;
}

/* Spins until ms of monotonic time have passed. */
static void spin(long ms)
{
	long long end = ns_of(CLOCK_MONOTONIC) + ms * MS;
	volatile unsigned long x = 0;
	while (ns_of(CLOCK_MONOTONIC) < end)
		for (int i = 0; i < 1000; i++)
			x += (unsigned long)i;
}

static void *thread_spin(void *arg)
{
	long long *out = arg;
	long long t0 = ns_of(CLOCK_THREAD_CPUTIME_ID), w0 = ns_of(CLOCK_MONOTONIC);
	spin(150);
	long long t1 = ns_of(CLOCK_THREAD_CPUTIME_ID), w1 = ns_of(CLOCK_MONOTONIC);
	out[0] = t1 - t0;
	out[1] = w1 - w0;
	clockid_t mine;
	out[2] = pthread_getcpuclockid(pthread_self(), &mine) == 0 &&
	         ns_of(mine) >= t1;
	return NULL;
}

static void resolutions(void)
{
	struct timespec res;
	outcome("clock_getres process CPU clock", clock_getres(CLOCK_PROCESS_CPUTIME_ID, &res));
	say("  resolution %lld s %ld ns\n", (long long)res.tv_sec, res.tv_nsec);
	outcome("clock_getres thread CPU clock", clock_getres(CLOCK_THREAD_CPUTIME_ID, &res));
	say("  resolution %lld s %ld ns\n", (long long)res.tv_sec, res.tv_nsec);
	outcome("clock_getres process CPU clock, NULL", clock_getres(CLOCK_PROCESS_CPUTIME_ID, NULL));
}

static void spinning_and_sleeping(void)
{
	long long p0 = ns_of(CLOCK_PROCESS_CPUTIME_ID), t0 = ns_of(CLOCK_THREAD_CPUTIME_ID);
	long long w0 = ns_of(CLOCK_MONOTONIC);
	spin(200);
	long long t1 = ns_of(CLOCK_THREAD_CPUTIME_ID);
	long long p1 = ns_of(CLOCK_PROCESS_CPUTIME_ID);
	long long w1 = ns_of(CLOCK_MONOTONIC);
	say("spin 200 ms: process CPU time at least half the wall time: %s\n",
	    yes(p1 - p0 >= (w1 - w0) / 2));
	say("spin 200 ms: thread CPU time at least half the wall time: %s\n",
	    yes(t1 - t0 >= (w1 - w0) / 2));
	say("thread CPU time (read first) at most the process's: %s\n", yes(t1 <= p1));

	struct timespec nap = { 0, 200 * MS };
	p0 = ns_of(CLOCK_PROCESS_CPUTIME_ID);
	w0 = ns_of(CLOCK_MONOTONIC);
	nanosleep(&nap, NULL);
	p1 = ns_of(CLOCK_PROCESS_CPUTIME_ID);
	w1 = ns_of(CLOCK_MONOTONIC);
	say("sleep 200 ms: process CPU time under half the wall time: %s\n",
	    yes(p1 - p0 < (w1 - w0) / 2));

	clockid_t mine;
	int e = clock_getcpuclockid(getpid(), &mine);
	say("clock_getcpuclockid(getpid()): %s\n", e ? err_name(e) : "ok");
	long long via_id = ns_of(mine), direct = ns_of(CLOCK_PROCESS_CPUTIME_ID);
	say("its reading is the process's CPU time: %s\n", yes(via_id > 0 && via_id <= direct));
	e = clock_getcpuclockid(0, &mine);
	say("clock_getcpuclockid(0): %s\n", e ? err_name(e) : "ok");
	e = pthread_getcpuclockid(pthread_self(), &mine);
	say("pthread_getcpuclockid(self): %s, reads the thread's time: %s\n", e ? err_name(e) : "ok",
	    yes(ns_of(mine) >= t1));
}

static void with_thread(void)
{
	long long out[3] = { 0, 0, 0 };
	pthread_t th;
	long long main0 = ns_of(CLOCK_THREAD_CPUTIME_ID), p0 = ns_of(CLOCK_PROCESS_CPUTIME_ID);
	long long w0 = ns_of(CLOCK_MONOTONIC);
	pthread_create(&th, NULL, thread_spin, out);
	pthread_join(th, NULL);
	long long main1 = ns_of(CLOCK_THREAD_CPUTIME_ID), p1 = ns_of(CLOCK_PROCESS_CPUTIME_ID);
	long long w1 = ns_of(CLOCK_MONOTONIC);
	say("a thread spinning 150 ms: its clock at least half its wall time: %s\n",
	    yes(out[0] >= out[1] / 2));
	say("its clock id from pthread_getcpuclockid reads it: %s\n", yes(out[2]));
	say("the main thread's clock, waiting in join, under half the wall time: %s\n",
	    yes(main1 - main0 < (w1 - w0) / 2));
	say("the process's clock counts the ended thread: %s\n", yes(p1 - p0 >= out[0]));
	struct rusage ru;
	outcome("getrusage RUSAGE_THREAD", getrusage(RUSAGE_THREAD, &ru));
	long long thread_ru = tv_ns(ru.ru_utime) + tv_ns(ru.ru_stime);
	say("  at most the thread clock (to the microsecond): %s\n",
	    yes(thread_ru <= ns_of(CLOCK_THREAD_CPUTIME_ID)));
}

static void times_and_rusage(void)
{
	struct tms t;
	clock_t r = times(&t);
	say("times: returned a positive count: %s\n", yes(r > 0));
	long long hz = sysconf(_SC_CLK_TCK);
	long long times_ns = (long long)(t.tms_utime + t.tms_stime) * (1000000000ll / hz);
	struct rusage ru;
	outcome("getrusage RUSAGE_SELF", getrusage(RUSAGE_SELF, &ru));
	long long ru_ns = tv_ns(ru.ru_utime) + tv_ns(ru.ru_stime);
	long long cpu = ns_of(CLOCK_PROCESS_CPUTIME_ID);
	say("times counted the spins (at least 150 ms): %s\n", yes(times_ns >= 150 * MS));
	say("getrusage counted the spins (at least 150 ms): %s\n", yes(ru_ns >= 150 * MS));
	say("times and getrusage agree to 30 ms: %s\n",
	    yes(ru_ns - times_ns < 30 * MS && times_ns - ru_ns < 30 * MS));
	say("getrusage at most the CPU clock: %s\n", yes(ru_ns <= cpu));
	say("no children's time yet: %s\n", yes(t.tms_cutime == 0 && t.tms_cstime == 0));

	/* A child's time: seen by its clock id while it lives, counted for the
	 * parent once reaped, and in wait4's rusage. */
	int gate[2];
	pipe(gate);
	pid_t pid = fork();
	if (pid == 0) {
		close(gate[0]);
		spin(200);
		write(gate[1], "x", 1);
		pause();
		_exit(0);
	}
	close(gate[1]);
	char c;
	read(gate[0], &c, 1);
	clockid_t child_clock;
	int e = clock_getcpuclockid(pid, &child_clock);
	say("clock_getcpuclockid(child): %s\n", e ? err_name(e) : "ok");
	say("the child's clock shows its spin (at least 100 ms): %s\n",
	    yes(ns_of(child_clock) >= 100 * MS));
	kill(pid, SIGKILL);
	struct rusage cru;
	int status;
	say("wait4 with rusage reaped it: %s\n", yes(wait4(pid, &status, 0, &cru) == pid));
	long long child_ns = tv_ns(cru.ru_utime) + tv_ns(cru.ru_stime);
	say("wait4's rusage shows the child's spin (at least 100 ms): %s\n", yes(child_ns >= 100 * MS));
	outcome("getrusage RUSAGE_CHILDREN", getrusage(RUSAGE_CHILDREN, &ru));
	long long children_ns = tv_ns(ru.ru_utime) + tv_ns(ru.ru_stime);
	say("  equals wait4's: %s\n", yes(children_ns == child_ns));
	times(&t);
	long long ctimes = (long long)(t.tms_cutime + t.tms_cstime) * (1000000000ll / hz);
	say("times' children's time agrees to 30 ms: %s\n",
	    yes(ctimes - children_ns < 30 * MS && children_ns - ctimes < 30 * MS));
	e = clock_getcpuclockid(pid, &child_clock);
	say("clock_getcpuclockid(reaped child): %s\n", e ? err_name(e) : "ok");
}

static long raw_gettime(long clock, struct timespec *ts)
{
	return syscall(SYS_clock_gettime, clock, ts);
}

static void hostile(void)
{
	struct timespec ts;
	pid_t pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	long other_thread = (-(long)pid - 1) * 8 + 6;
	long other_process = (-(long)pid - 1) * 8 + 2;
	outcome("clock_gettime another process's SCHED clock", raw_gettime(other_process, &ts));
	outcome("clock_gettime another process's thread clock", raw_gettime(other_thread, &ts));
	outcome("clock_gettime own PROF clock", raw_gettime(-8 + 0, &ts));
	outcome("clock_gettime own VIRT clock", raw_gettime(-8 + 1, &ts));
	outcome("clock_gettime own thread VIRT clock", raw_gettime(-8 + 5, &ts));
	outcome("clock_gettime kind 3", raw_gettime(-8 + 3, &ts));
	outcome("clock_gettime thread kind 3", raw_gettime(-8 + 7, &ts));
	long nobody = (-(long)0x3ffffff0 - 1) * 8 + 2;
	outcome("clock_gettime no such process", raw_gettime(nobody, &ts));
	outcome("clock_getres no such process", syscall(SYS_clock_getres, nobody, &ts));
	outcome("clock_getres another process's thread clock",
	        syscall(SYS_clock_getres, other_thread, &ts));
	outcome("clock_gettime process CPU clock, bad pointer",
	        raw_gettime(CLOCK_PROCESS_CPUTIME_ID, (struct timespec *)8));
	outcome("clock_getres thread CPU clock, bad pointer",
	        syscall(SYS_clock_getres, CLOCK_THREAD_CPUTIME_ID, (struct timespec *)8));
	clockid_t id;
	int e = clock_getcpuclockid(0x3ffffff0, &id);
	say("clock_getcpuclockid no such process: %s\n", e ? err_name(e) : "ok");
	outcome("getrusage who 5", syscall(SYS_getrusage, 5, &(struct rusage){ 0 }));
	outcome("getrusage who -2", syscall(SYS_getrusage, -2, &(struct rusage){ 0 }));
	outcome("getrusage bad pointer", syscall(SYS_getrusage, RUSAGE_SELF, (void *)8));
	outcome("times bad pointer", syscall(SYS_times, (void *)8));
	outcome("times NULL", syscall(SYS_times, NULL));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

int main(void)
{
	resolutions();
	spinning_and_sleeping();
	with_thread();
	times_and_rusage();
	hostile();
	return 0;
}
