/*
 * sigwait, sigwaitinfo, sigtimedwait (rt_sigtimedwait) and sigqueue
 * (rt_sigqueueinfo, rt_tgsigqueueinfo): a blocked signal taken by sigwait
 * with its siginfo (code, sender), one sent by another process while the
 * waiter sleeps, a zero and a short timeout (EAGAIN), a handled signal
 * outside the set (EINTR, raw system call: musl's sigtimedwait retries),
 * a blocked signal with a fatal default action taken instead of killing,
 * sigqueue's value in si_value for an SA_SIGINFO handler and for
 * sigwaitinfo, in this process, a child and one thread; real-time signals
 * queued (each instance delivered, in order) and standard ones not, and
 * SIG_IGN dropping the queued ones; then bad input:
 * sizes, pointers, timespecs, codes a caller may not claim (EPERM), pids,
 * tids and signal numbers.
 */
#include "posix_test.h"

#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

static volatile sig_atomic_t usr2_count;
static volatile sig_atomic_t info_code, info_value, info_from_self, info_signo;

static void on_usr2(int sig)
{
	(void)sig;
	usr2_count++;
}

static void on_info(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	info_signo = sig;
	info_code = si->si_code;
	info_value = si->si_value.sival_int;
	info_from_self = si->si_pid == getpid();
}

static volatile sig_atomic_t rt_count, rt_values;

static void on_rt(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	rt_count++;
	rt_values = rt_values * 10 + si->si_value.sival_int;
}

static sigset_t set_of(int sig)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, sig);
	return s;
}

static int pending(int sig)
{
	sigset_t s;
	sigpending(&s);
	return sigismember(&s, sig);
}

static long raw_timedwait(const sigset_t *set, siginfo_t *si, const struct timespec *ts,
                          long size)
{
	return syscall(SYS_rt_sigtimedwait, set, si, ts, size);
}

static const char *code_name(int code)
{
	switch (code) {
	case SI_USER: return "SI_USER";
	case SI_QUEUE: return "SI_QUEUE";
	case SI_TKILL: return "SI_TKILL";
	default: return "other";
	}
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void basics(void)
{
	sigset_t usr1 = set_of(SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	raise(SIGUSR1);
	int sig = 0;
	int r = sigwait(&usr1, &sig);
	say("sigwait: returned %d, signal SIGUSR1: %s, still pending: %s\n", r,
	    yes(sig == SIGUSR1), yes(pending(SIGUSR1)));

	kill(getpid(), SIGUSR1);
	siginfo_t si;
	memset(&si, 0x55, sizeof si);
	int w = sigwaitinfo(&usr1, &si);
	say("sigwaitinfo after kill: returned SIGUSR1: %s, si_signo %s, si_code %s, "
	    "si_pid is ours: %s, si_uid is ours: %s\n", yes(w == SIGUSR1),
	    yes(si.si_signo == SIGUSR1) ? "SIGUSR1" : "other", code_name(si.si_code),
	    yes(si.si_pid == getpid()), yes(si.si_uid == getuid()));

	struct timespec zero = { 0, 0 };
	errno = 0;
	outcome("sigtimedwait zero timeout, nothing pending", sigtimedwait(&usr1, &si, &zero));
	struct timespec short_wait = { 0, 50 * 1000 * 1000 };
	double t0 = now_s();
	long tr = sigtimedwait(&usr1, &si, &short_wait);
	double waited = now_s() - t0;
	outcome("sigtimedwait 50 ms, nothing pending", tr);
	say("sigtimedwait waited at least 50 ms: %s\n", yes(waited >= 0.049));

	/* A signal pending before the wait, not blocked, in the set: taken by
	 * the wait rather than its handler? It is blocked here, so yes. */
	sigset_t both = usr1;
	sigaddset(&both, SIGUSR2);
	sigprocmask(SIG_BLOCK, &both, NULL);
	raise(SIGUSR2);
	raise(SIGUSR1);
	w = sigwaitinfo(&both, &si);
	say("two pending: the lower first: %s\n", yes(w == SIGUSR1));
	w = sigwaitinfo(&both, &si);
	say("then the other: %s\n", yes(w == SIGUSR2));
	sigset_t usr2 = set_of(SIGUSR2);
	sigprocmask(SIG_UNBLOCK, &usr2, NULL);
}

/* A child sends while the parent sleeps in sigwaitinfo. */
static void from_child(void)
{
	sigset_t usr1 = set_of(SIGUSR1);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		usleep(100 * 1000);
		kill(parent, SIGUSR1);
		_exit(0);
	}
	siginfo_t si;
	int w = sigwaitinfo(&usr1, &si);
	say("signal from a child while waiting: taken: %s, si_pid is the child: %s, code %s\n",
	    yes(w == SIGUSR1), yes(si.si_pid == pid), code_name(si.si_code));
	waitpid(pid, NULL, 0);
}

/* SIGTERM (default: terminate) blocked and waited for does not kill. */
static void fatal_default(void)
{
	sigset_t term = set_of(SIGTERM);
	sigprocmask(SIG_BLOCK, &term, NULL);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		usleep(50 * 1000);
		kill(parent, SIGTERM);
		_exit(0);
	}
	int sig = 0;
	sigwait(&term, &sig);
	say("blocked SIGTERM with its default action taken by sigwait: %s\n", yes(sig == SIGTERM));
	waitpid(pid, NULL, 0);
	sigprocmask(SIG_UNBLOCK, &term, NULL);
}

/* A handled signal outside the set ends the wait with EINTR. */
static void interrupted(void)
{
	struct sigaction sa = { .sa_handler = on_usr2 };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	sigset_t usr1 = set_of(SIGUSR1);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		usleep(100 * 1000);
		kill(parent, SIGUSR2);
		_exit(0);
	}
	struct timespec ts = { 20, 0 };
	usr2_count = 0;
	errno = 0;
	long r = raw_timedwait(&usr1, NULL, &ts, 8);
	outcome("rt_sigtimedwait interrupted by a handled signal", r);
	say("handler ran: %s\n", yes(usr2_count == 1));
	waitpid(pid, NULL, 0);
}

static void queued(void)
{
	/* To an SA_SIGINFO handler. */
	struct sigaction sa = { .sa_sigaction = on_info, .sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	union sigval v = { .sival_int = 42 };
	outcome("sigqueue to self", sigqueue(getpid(), SIGUSR2, v));
	say("handler: signal SIGUSR2: %s, code %s, value %d, from us: %s\n",
	    yes(info_signo == SIGUSR2), code_name(info_code), (int)info_value,
	    yes(info_from_self));

	/* To sigwaitinfo, a real-time signal. */
	int rt = SIGRTMIN + 1;
	sigset_t rts = set_of(rt);
	sigprocmask(SIG_BLOCK, &rts, NULL);
	v.sival_int = 7;
	sigqueue(getpid(), rt, v);
	siginfo_t si;
	int w = sigwaitinfo(&rts, &si);
	say("sigqueue SIGRTMIN+1 to self, sigwaitinfo: taken: %s, code %s, value %d\n",
	    yes(w == rt), code_name(si.si_code), si.si_value.sival_int);

	/* To a child waiting for it. */
	pid_t pid = fork();
	if (pid == 0) {
		siginfo_t csi;
		int cw = sigwaitinfo(&rts, &csi);
		int ok = cw == rt && csi.si_code == SI_QUEUE && csi.si_value.sival_int == 1234 &&
		         csi.si_pid == getppid();
		_exit(ok ? 0 : 1);
	}
	usleep(50 * 1000);
	v.sival_int = 1234;
	outcome("sigqueue to a child", sigqueue(pid, rt, v));
	int status = -1;
	waitpid(pid, &status, 0);
	say("the child took the value with sigwaitinfo: %s\n",
	    yes(WIFEXITED(status) && WEXITSTATUS(status) == 0));

	/* rt_tgsigqueueinfo to our own thread. */
	memset(&si, 0, sizeof si);
	si.si_signo = rt;
	si.si_code = SI_QUEUE;
	si.si_pid = getpid();
	si.si_uid = getuid();
	si.si_value.sival_int = 99;
	outcome("rt_tgsigqueueinfo to our thread",
	        syscall(SYS_rt_tgsigqueueinfo, getpid(), gettid(), rt, &si));
	siginfo_t got;
	w = sigwaitinfo(&rts, &got);
	say("taken: %s, code %s, value %d\n", yes(w == rt), code_name(got.si_code),
	    got.si_value.sival_int);

	/* A real-time signal queues: three sigqueues, three deliveries, in
	 * order, each with its value; a standard one does not. */
	for (int i = 1; i <= 3; i++) {
		v.sival_int = i * 10;
		sigqueue(getpid(), rt, v);
	}
	int order_ok = 1, taken = 0;
	struct timespec zero = { 0, 0 };
	while ((w = sigtimedwait(&rts, &got, &zero)) == rt) {
		taken++;
		order_ok &= got.si_value.sival_int == taken * 10;
	}
	say("three sigqueues of SIGRTMIN+1: taken %d times, values in order: %s\n", taken,
	    yes(order_ok));
	sigset_t usr1 = set_of(SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	v.sival_int = 1;
	sigqueue(getpid(), SIGUSR1, v);
	v.sival_int = 2;
	sigqueue(getpid(), SIGUSR1, v);
	taken = 0;
	int first_kept = 0;
	while (sigtimedwait(&usr1, &got, &zero) == SIGUSR1) {
		taken++;
		first_kept = got.si_value.sival_int == 1;
	}
	say("two sigqueues of SIGUSR1: taken %d time(s), the first one kept: %s\n", taken,
	    yes(first_kept));
	/* Queued to a handler: each instance runs it. */
	int rt2 = SIGRTMIN + 2;
	struct sigaction rsa = { .sa_sigaction = on_rt, .sa_flags = SA_SIGINFO };
	sigemptyset(&rsa.sa_mask);
	sigaction(rt2, &rsa, NULL);
	sigset_t rt2s = set_of(rt2);
	sigprocmask(SIG_BLOCK, &rt2s, NULL);
	for (int i = 1; i <= 4; i++) {
		v.sival_int = i;
		sigqueue(getpid(), rt2, v);
	}
	rt_count = 0;
	rt_values = 0;
	sigprocmask(SIG_UNBLOCK, &rt2s, NULL);
	say("four queued to a handler: it ran %d times, values 1234: %s\n", (int)rt_count,
	    yes(rt_values == 1234));
	/* Ignoring a real-time signal drops its queued instances. */
	sigprocmask(SIG_BLOCK, &rt2s, NULL);
	sigqueue(getpid(), rt2, v);
	sigqueue(getpid(), rt2, v);
	signal(rt2, SIG_IGN);
	signal(rt2, SIG_DFL);
	say("after SIG_IGN nothing pending: %s\n", yes(sigtimedwait(&rt2s, &got, &zero) < 0));
	sigprocmask(SIG_UNBLOCK, &rt2s, NULL);

	/* A code of kill's to ourselves is allowed. */
	si.si_code = SI_USER;
	outcome("rt_sigqueueinfo SI_USER to self", syscall(SYS_rt_sigqueueinfo, getpid(), rt, &si));
	w = sigwaitinfo(&rts, &got);
	say("taken: %s, code %s\n", yes(w == rt), code_name(got.si_code));
	sigprocmask(SIG_UNBLOCK, &rts, NULL);
}

static void hostile(void)
{
	sigset_t usr1 = set_of(SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	struct timespec zero = { 0, 0 };
	siginfo_t si;
	outcome("rt_sigtimedwait size 4", raw_timedwait(&usr1, &si, &zero, 4));
	outcome("rt_sigtimedwait size 16", raw_timedwait(&usr1, &si, &zero, 16));
	outcome("rt_sigtimedwait bad set", raw_timedwait((sigset_t *)8, &si, &zero, 8));
	outcome("rt_sigtimedwait bad timeout pointer",
	        raw_timedwait(&usr1, &si, (struct timespec *)8, 8));
	struct timespec bad_ns = { 0, 1000000000 };
	outcome("rt_sigtimedwait nsec 1e9", raw_timedwait(&usr1, &si, &bad_ns, 8));
	struct timespec neg = { -1, 0 };
	outcome("rt_sigtimedwait negative seconds", raw_timedwait(&usr1, &si, &neg, 8));
	struct timespec neg_ns = { 0, -1 };
	outcome("rt_sigtimedwait negative nanoseconds", raw_timedwait(&usr1, &si, &neg_ns, 8));
	sigset_t kill_stop;
	sigemptyset(&kill_stop);
	sigaddset(&kill_stop, SIGKILL);
	sigaddset(&kill_stop, SIGSTOP);
	outcome("rt_sigtimedwait for SIGKILL and SIGSTOP, zero timeout",
	        raw_timedwait(&kill_stop, &si, &zero, 8));
	sigset_t empty;
	sigemptyset(&empty);
	outcome("rt_sigtimedwait empty set, zero timeout", raw_timedwait(&empty, &si, &zero, 8));
	raise(SIGUSR1);
	outcome_value("rt_sigtimedwait pending, NULL info", raw_timedwait(&usr1, NULL, &zero, 8));
	raise(SIGUSR1);
	outcome("rt_sigtimedwait pending, bad info", raw_timedwait(&usr1, (siginfo_t *)8, &zero, 8));
	say("the signal was taken all the same: %s\n", yes(!pending(SIGUSR1)));

	memset(&si, 0, sizeof si);
	si.si_code = SI_QUEUE;
	outcome("rt_sigqueueinfo bad info", syscall(SYS_rt_sigqueueinfo, getpid(), SIGUSR1,
	                                            (siginfo_t *)8));
	outcome("rt_sigqueueinfo signal 65", syscall(SYS_rt_sigqueueinfo, getpid(), 65, &si));
	outcome("rt_sigqueueinfo signal -1", syscall(SYS_rt_sigqueueinfo, getpid(), -1, &si));
	outcome("rt_sigqueueinfo signal 0", syscall(SYS_rt_sigqueueinfo, getpid(), 0, &si));
	outcome("rt_sigqueueinfo no such pid", syscall(SYS_rt_sigqueueinfo, 0x3ffffff0, SIGUSR1, &si));
	outcome("rt_sigqueueinfo pid -1", syscall(SYS_rt_sigqueueinfo, -1, SIGUSR1, &si));
	pid_t pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	si.si_code = SI_USER;
	outcome("rt_sigqueueinfo SI_USER to another process",
	        syscall(SYS_rt_sigqueueinfo, pid, SIGUSR1, &si));
	si.si_code = SI_KERNEL;
	outcome("rt_sigqueueinfo SI_KERNEL to another process",
	        syscall(SYS_rt_sigqueueinfo, pid, SIGUSR1, &si));
	si.si_code = SI_TKILL;
	outcome("rt_sigqueueinfo SI_TKILL to another process",
	        syscall(SYS_rt_sigqueueinfo, pid, SIGUSR1, &si));
	si.si_code = 0x10000;
	outcome("rt_sigqueueinfo code 0x10000 to another process",
	        syscall(SYS_rt_sigqueueinfo, pid, SIGUSR1, &si));
	si.si_code = SI_QUEUE;
	outcome("rt_tgsigqueueinfo tgid 0", syscall(SYS_rt_tgsigqueueinfo, 0, gettid(), SIGUSR1, &si));
	outcome("rt_tgsigqueueinfo tid 0", syscall(SYS_rt_tgsigqueueinfo, getpid(), 0, SIGUSR1, &si));
	outcome("rt_tgsigqueueinfo wrong process",
	        syscall(SYS_rt_tgsigqueueinfo, pid, gettid(), SIGUSR1, &si));
	outcome("rt_tgsigqueueinfo signal 65",
	        syscall(SYS_rt_tgsigqueueinfo, getpid(), gettid(), 65, &si));
	outcome("rt_tgsigqueueinfo bad info",
	        syscall(SYS_rt_tgsigqueueinfo, getpid(), gettid(), SIGUSR1, (siginfo_t *)8));
	si.si_code = SI_USER;
	outcome("rt_tgsigqueueinfo SI_USER to another process's thread",
	        syscall(SYS_rt_tgsigqueueinfo, pid, pid, SIGUSR1, &si));
	kill(pid, SIGKILL);
	int status = 0;
	waitpid(pid, &status, 0);
	say("child killed: %s\n", yes(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));
	sigprocmask(SIG_UNBLOCK, &usr1, NULL);
}

int main(void)
{
	basics();
	from_child();
	fatal_default();
	interrupted();
	queued();
	hostile();
	return 0;
}
