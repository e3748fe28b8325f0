/*
 * Signal handlers with sigaction: delivery of a raised and a killed signal,
 * the old action read back, SA_SIGINFO (si_signo, si_code, si_pid),
 * SA_RESETHAND, the signal and sa_mask blocked during the handler and the
 * mask restored after it, SA_RESTART (a read on a pipe interrupted by SIGALRM
 * goes on) against EINTR without it, SIG_IGN, a default action that kills, an
 * alternate signal stack, and floating-point state kept across a handler.
 */
#include "posix_test.h"

#include <signal.h>
#include <stdint.h>
#include <sys/wait.h>

static volatile sig_atomic_t count, last_sig, usr1_was_blocked, usr2_was_blocked;
static volatile int info_signo, info_code, info_pid;
static int restart_pipe[2];
static char *alt_stack;
static volatile int on_alt_stack;
static volatile double fp_result;

static void on_signal(int sig)
{
	sigset_t now;
	sigprocmask(SIG_BLOCK, NULL, &now);
	usr1_was_blocked = sigismember(&now, SIGUSR1);
	usr2_was_blocked = sigismember(&now, SIGUSR2);
	last_sig = sig;
	count++;
}

static void on_info(int sig, siginfo_t *info, void *ctx)
{
	(void)ctx;
	info_signo = info->si_signo;
	info_code = info->si_code;
	info_pid = info->si_pid;
	last_sig = sig;
	count++;
}

static void on_alarm(int sig)
{
	(void)sig;
	count++;
	/* With SA_RESTART the interrupted read goes on and gets this byte. */
	if (write(restart_pipe[1], "r", 1) != 1)
		count += 100;
}

static void on_alt(int sig)
{
	char here;
	(void)sig;
	uintptr_t p = (uintptr_t)&here, base = (uintptr_t)alt_stack;
	on_alt_stack = p >= base && p < base + SIGSTKSZ * 4;
	count++;
}

static void on_fp(int sig)
{
	(void)sig;
	volatile double x = 1.0;
	for (int i = 0; i < 10; i++)
		x = x * 3.5 + 0.25;
	fp_result = x;
	count++;
}

static void set(int sig, void (*handler)(int), int flags)
{
	struct sigaction sa = { .sa_handler = handler, .sa_flags = flags };
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void restart_case(const char *what, int flags)
{
	count = 0;
	set(SIGALRM, on_alarm, flags);
	if (pipe(restart_pipe) < 0)
		return;
	alarm(1);
	char c = 0;
	errno = 0;
	ssize_t n = read(restart_pipe[0], &c, 1);
	say("%s: handler ran: %s, read returned %zd%s%s\n", what, yes(count == 1), n,
	    n < 0 ? " " : "", n < 0 ? err_name(errno) : "");
	close(restart_pipe[0]);
	close(restart_pipe[1]);
	set(SIGALRM, SIG_DFL, 0);
}

int main(void)
{
	set(SIGUSR1, on_signal, 0);
	raise(SIGUSR1);
	say("raise(SIGUSR1): handler ran once: %s, with SIGUSR1: %s\n", yes(count == 1),
	    yes(last_sig == SIGUSR1));
	say("SIGUSR1 blocked inside its handler: %s\n", yes(usr1_was_blocked));
	sigset_t now;
	sigprocmask(SIG_BLOCK, NULL, &now);
	say("SIGUSR1 unblocked after the handler: %s\n", yes(!sigismember(&now, SIGUSR1)));
	kill(getpid(), SIGUSR1);
	say("kill(getpid(), SIGUSR1): handler ran again: %s\n", yes(count == 2));

	struct sigaction old;
	sigaction(SIGUSR1, NULL, &old);
	say("old action reads back the handler: %s\n", yes(old.sa_handler == on_signal));

	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	sigaction(SIGUSR1, &sa, NULL);
	usr2_was_blocked = 0;
	raise(SIGUSR1);
	say("sa_mask's SIGUSR2 blocked inside the handler: %s\n", yes(usr2_was_blocked));

	struct sigaction si = { .sa_sigaction = on_info, .sa_flags = SA_SIGINFO };
	sigemptyset(&si.sa_mask);
	sigaction(SIGUSR2, &si, NULL);
	kill(getpid(), SIGUSR2);
	say("SA_SIGINFO from kill: si_signo %d, si_code %d (SI_USER %d), si_pid is the sender: %s\n",
	    info_signo, info_code, SI_USER, yes(info_pid == getpid()));
	pid_t parent = getpid();
	info_pid = 0;   /* before fork: the child's signal may come before fork returns */
	pid_t pid = fork();
	if (pid == 0) {
		kill(parent, SIGUSR2);
		_exit(0);
	}
	while (info_pid == 0)
		pause();
	waitpid(pid, NULL, 0);
	say("SA_SIGINFO from a child's kill: si_pid is the child: %s\n", yes(info_pid == pid));

	count = 0;
	set(SIGUSR1, on_signal, SA_RESETHAND);
	raise(SIGUSR1);
	sigaction(SIGUSR1, NULL, &old);
	say("SA_RESETHAND: handler ran: %s, action reset to default: %s\n", yes(count == 1),
	    yes(old.sa_handler == SIG_DFL));

	restart_case("read interrupted by SIGALRM with SA_RESTART", SA_RESTART);
	restart_case("read interrupted by SIGALRM without SA_RESTART", 0);

	signal(SIGUSR1, SIG_IGN);
	raise(SIGUSR1);
	say("ignored SIGUSR1: process goes on: yes\n");

	pid = fork();
	if (pid == 0) {
		signal(SIGUSR1, SIG_DFL);
		raise(SIGUSR1);
		_exit(0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	say("default action of SIGUSR1 kills: %s (signal %d)\n", yes(WIFSIGNALED(status)),
	    WIFSIGNALED(status) ? WTERMSIG(status) : 0);

	alt_stack = malloc(SIGSTKSZ * 4);
	stack_t ss = { .ss_sp = alt_stack, .ss_size = SIGSTKSZ * 4 };
	outcome("sigaltstack", sigaltstack(&ss, NULL));
	set(SIGUSR1, on_alt, SA_ONSTACK);
	raise(SIGUSR1);
	say("SA_ONSTACK handler ran on the alternate stack: %s\n", yes(on_alt_stack));

	volatile double x = 2.0;
	for (int i = 0; i < 5; i++)
		x = x * 1.5;
	set(SIGUSR1, on_fp, 0);
	raise(SIGUSR1);
	say("floating point kept across a handler: %s (handler computed %.4f)\n",
	    yes(x == 15.1875), fp_result);
	return 0;
}
