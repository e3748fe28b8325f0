/*
 * alarm and setitimer: alarm interrupts pause with its SIGALRM; alarm(0)
 * cancels and returns the time left; SIGALRM's default action kills; an
 * interval timer of ITIMER_REAL delivers repeatedly, getitimer reads it back
 * and a zero value stops it. Printed as booleans: no times.
 */
#include "posix_test.h"

#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>

static volatile sig_atomic_t count;

static void on_alarm(int sig)
{
	(void)sig;
	count++;
}

static long elapsed_ms(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000L + (b->tv_nsec - a->tv_nsec) / 1000000L;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);

	say("alarm with none pending returns 0: %s\n", yes(alarm(1) == 0));
	errno = 0;
	int r = pause();
	say("pause interrupted by SIGALRM: %d %s, handler ran: %s\n", r, err_name(errno),
	    yes(count == 1));

	alarm(10);
	unsigned left = alarm(0);
	say("alarm(0) returns the time left (1 to 10 s): %s\n", yes(left >= 1 && left <= 10));
	say("alarm(0) again returns 0: %s\n", yes(alarm(0) == 0));

	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGALRM, SIG_DFL);
		alarm(1);
		for (;;)
			pause();
	}
	int status = 0;
	waitpid(pid, &status, 0);
	say("SIGALRM's default action kills: signal %d\n",
	    WIFSIGNALED(status) ? WTERMSIG(status) : 0);

	count = 0;
	sigset_t block, none;
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	sigemptyset(&none);
	sigprocmask(SIG_BLOCK, &block, NULL);
	struct itimerval it = { .it_interval = { 0, 100000 }, .it_value = { 0, 100000 } };
	struct timespec start, end;
	clock_gettime(CLOCK_MONOTONIC, &start);
	outcome("setitimer ITIMER_REAL 100 ms, repeating", setitimer(ITIMER_REAL, &it, NULL));
	struct itimerval cur;
	getitimer(ITIMER_REAL, &cur);
	say("getitimer: interval 100 ms: %s, value running: %s\n",
	    yes(cur.it_interval.tv_sec == 0 && cur.it_interval.tv_usec == 100000),
	    yes(cur.it_value.tv_sec > 0 || cur.it_value.tv_usec > 0));
	while (count < 3)
		sigsuspend(&none);
	clock_gettime(CLOCK_MONOTONIC, &end);
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, &cur);
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	say("three SIGALRMs from the interval timer: %s\n", yes(count >= 3));
	say("they took at least 300 ms: %s\n", yes(elapsed_ms(&start, &end) >= 300));
	say("the old value returned on stop was running: %s\n",
	    yes(cur.it_interval.tv_usec == 100000));
	getitimer(ITIMER_REAL, &cur);
	say("after a zero setitimer the timer is stopped: %s\n",
	    yes(cur.it_value.tv_sec == 0 && cur.it_value.tv_usec == 0));
	return 0;
}
