/*
 * Time: CLOCK_MONOTONIC advances and never goes back, nanosleep sleeps at
 * least the time asked, a nanosleep interrupted by a signal reports EINTR and
 * a remainder, CLOCK_REALTIME, gettimeofday and time agree, the date is
 * after 2020, clock_getres. Printed as booleans: no times.
 */
#include "posix_test.h"

#include <signal.h>
#include <sys/time.h>
#include <time.h>

static long long ns(const struct timespec *t)
{
	return t->tv_sec * 1000000000LL + t->tv_nsec;
}

static void on_alarm(int sig)
{
	(void)sig;
}

int main(void)
{
	struct timespec a, b, c;
	outcome("clock_gettime CLOCK_MONOTONIC", clock_gettime(CLOCK_MONOTONIC, &a));
	int monotonic = 1;
	for (int i = 0; i < 1000; i++) {
		clock_gettime(CLOCK_MONOTONIC, &b);
		monotonic &= ns(&b) >= ns(&a);
		a = b;
	}
	say("1000 readings never go back: %s\n", yes(monotonic));
	clock_gettime(CLOCK_MONOTONIC, &a);
	struct timespec req = { 0, 50 * 1000000 }, rem = { 7, 7 };
	outcome("nanosleep 50 ms", nanosleep(&req, &rem));
	clock_gettime(CLOCK_MONOTONIC, &b);
	say("monotonic advanced by at least 50 ms: %s\n", yes(ns(&b) - ns(&a) >= 50000000LL));
	req.tv_sec = 1;
	req.tv_nsec = 0;
	nanosleep(&req, NULL);
	clock_gettime(CLOCK_MONOTONIC, &c);
	say("nanosleep 1 s: monotonic advanced by at least 1 s: %s\n",
	    yes(ns(&c) - ns(&b) >= 1000000000LL));
	outcome("clock_nanosleep CLOCK_MONOTONIC 20 ms",
		-clock_nanosleep(CLOCK_MONOTONIC, 0, &(struct timespec){ 0, 20000000 }, NULL));

	struct sigaction sa = { .sa_handler = on_alarm };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 0 }, { 0, 100000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	req.tv_sec = 5;
	req.tv_nsec = 0;
	errno = 0;
	int r = nanosleep(&req, &rem);
	say("nanosleep 5 s interrupted by SIGALRM: %d %s, remainder between 0 and 5 s: %s\n", r,
	    err_name(errno), yes(rem.tv_sec < 5 && (rem.tv_sec > 0 || rem.tv_nsec > 0)));

	struct timespec rt;
	struct timeval tv;
	outcome("clock_gettime CLOCK_REALTIME", clock_gettime(CLOCK_REALTIME, &rt));
	outcome("gettimeofday", gettimeofday(&tv, NULL));
	time_t t = time(NULL);
	time_t t2;
	time(&t2);
	say("time() agrees with time(&t): %s\n", yes(t2 - t >= 0 && t2 - t <= 1));
	say("realtime, gettimeofday and time within 2 s: %s\n",
	    yes(llabs((long long)rt.tv_sec - tv.tv_sec) <= 2 && llabs((long long)t - tv.tv_sec) <= 2));
	say("gettimeofday microseconds below 1000000: %s\n", yes(tv.tv_usec >= 0 && tv.tv_usec < 1000000));
	say("date after 2020-01-01: %s\n", yes(t > 1577836800));
	struct timespec res;
	outcome("clock_getres CLOCK_MONOTONIC", clock_getres(CLOCK_MONOTONIC, &res));
	say("resolution between 1 ns and 10 ms: %s\n", yes(ns(&res) >= 1 && ns(&res) <= 10000000));
	return 0;
}
