/*
 * Stop and continue signals (job control): SIGSTOP, SIGTSTP, SIGTTIN and
 * SIGTTOU stop a child, SIGCONT continues it; waitpid reports a stop once
 * with WUNTRACED and a continuation once with WCONTINUED; the parent gets
 * SIGCHLD with CLD_STOPPED / CLD_CONTINUED (none with SA_NOCLDSTOP); a
 * stopped child runs no code; SIGKILL kills a stopped child, other fatal
 * signals wait until it continues; a caught SIGTSTP runs its handler; a
 * blocked stop signal is discarded by SIGCONT; a stop signal sent to one
 * thread (tgkill) stops every thread; bad signal numbers and wait options
 * give EINVAL.
 *
 * Each child leads its own process group: a group whose members' parents
 * are all outside the session or inside the group is orphaned, and Linux
 * drops SIGTSTP, SIGTTIN and SIGTTOU sent to it.
 */
#include "posix_test.h"

#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

static volatile sig_atomic_t chld_count, chld_code, chld_status;

static void on_chld(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	chld_count++;
	chld_code = si->si_code;
	chld_status = si->si_status;
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Linux's child may send SIGCHLD for a continue after the parent's wait
 * saw it (the child tells when it runs): wait for it, a second at most. */
static void await_chld(int count)
{
	for (int i = 0; i < 100 && chld_count < count; i++)
		nap_ms(10);
}

static const char *code_name(int code)
{
	switch (code) {
	case CLD_EXITED: return "CLD_EXITED";
	case CLD_KILLED: return "CLD_KILLED";
	case CLD_STOPPED: return "CLD_STOPPED";
	case CLD_CONTINUED: return "CLD_CONTINUED";
	default: return "other";
	}
}

static const char *describe(int status)
{
	static char buf[64];
	if (WIFSTOPPED(status))
		snprintf(buf, sizeof buf, "stopped by %d", WSTOPSIG(status));
	else if (WIFCONTINUED(status))
		snprintf(buf, sizeof buf, "continued");
	else if (WIFSIGNALED(status))
		snprintf(buf, sizeof buf, "killed by %d", WTERMSIG(status));
	else if (WIFEXITED(status))
		snprintf(buf, sizeof buf, "exited %d", WEXITSTATUS(status));
	else
		snprintf(buf, sizeof buf, "status %#x", status);
	return buf;
}

/* A child in a group of its own that sleeps until killed. */
static pid_t sleeper(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		for (;;)
			pause();
	}
	setpgid(pid, pid);
	return pid;
}

/* waitpid with options, described ("none" for 0, the errno name on failure). */
static const char *wait_says(pid_t pid, int options)
{
	int status = 0;
	pid_t r = waitpid(pid, &status, options);
	if (r < 0)
		return err_name(errno);
	if (r == 0)
		return "none";
	return r == pid ? describe(status) : "another child";
}

static void stop_and_continue(void)
{
	pid_t pid = sleeper();
	chld_count = 0;
	kill(pid, SIGSTOP);
	say("SIGSTOP, waitpid WUNTRACED: %s\n", wait_says(pid, WUNTRACED));
	await_chld(1);
	say("SIGCHLD for the stop: %s, code %s, status %d\n", yes(chld_count == 1),
	    code_name(chld_code), (int)chld_status);
	say("the stop is reported once: %s\n", wait_says(pid, WUNTRACED | WNOHANG));
	say("without WUNTRACED nothing is reported: %s\n", wait_says(pid, WNOHANG));
	say("stopped again: kill gives %d\n", kill(pid, SIGSTOP));
	say("a second stop adds no report: %s\n", wait_says(pid, WUNTRACED | WNOHANG));
	chld_count = 0;
	kill(pid, SIGCONT);
	say("SIGCONT, waitpid WCONTINUED: %s\n", wait_says(pid, WCONTINUED));
	await_chld(1);
	say("SIGCHLD for the continue: %s, code %s, status %d\n", yes(chld_count == 1),
	    code_name(chld_code), (int)chld_status);
	say("the continue is reported once: %s\n", wait_says(pid, WCONTINUED | WNOHANG));
	kill(pid, SIGCONT);
	say("SIGCONT to a running child: %s\n", wait_says(pid, WCONTINUED | WNOHANG));

	static const int stops[] = { SIGTSTP, SIGTTIN, SIGTTOU };
	for (unsigned i = 0; i < 3; i++) {
		kill(pid, stops[i]);
		say("signal %d, waitpid WUNTRACED: %s\n", stops[i], wait_says(pid, WUNTRACED));
		kill(pid, SIGCONT);
		say("and SIGCONT: %s\n", wait_says(pid, WCONTINUED));
	}

	kill(pid, SIGSTOP);
	wait_says(pid, WUNTRACED);
	kill(pid, SIGKILL);
	say("SIGKILL to a stopped child: %s\n", wait_says(pid, 0));
}

/* A stopped child runs no code: one that writes a byte every 10 ms writes
 * none while stopped. */
static void stopped_runs_nothing(void)
{
	int fds[2];
	if (pipe(fds) < 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		close(fds[0]);
		for (;;) {
			if (write(fds[1], "x", 1) != 1)
				_exit(1);
			nap_ms(10);
		}
	}
	setpgid(pid, pid);
	close(fds[1]);
	char c;
	say("the child writes: %s\n", yes(read(fds[0], &c, 1) == 1));
	kill(pid, SIGSTOP);
	wait_says(pid, WUNTRACED);
	nap_ms(100);   /* a write under way when it stopped finishes */
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	char buf[256];
	while (read(fds[0], buf, sizeof buf) > 0)
		;
	nap_ms(300);
	errno = 0;
	ssize_t n = read(fds[0], buf, sizeof buf);
	say("while stopped it writes nothing: %s\n", yes(n < 0 && errno == EAGAIN));
	kill(pid, SIGCONT);
	fcntl(fds[0], F_SETFL, 0);
	say("once continued it writes again: %s\n", yes(read(fds[0], &c, 1) == 1));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(fds[0]);
}

static int writer_fd;
static volatile pid_t second_tid;
static volatile int writers_go;   /* the tid is in the pipe first */

static void *writer(void *arg)
{
	(void)arg;
	second_tid = (pid_t)syscall(SYS_gettid);
	while (!writers_go)
		nap_ms(1);
	for (;;) {
		if (write(writer_fd, "t", 1) != 1)
			_exit(1);
		nap_ms(10);
	}
	return NULL;
}

/* Two threads write; tgkill of SIGSTOP to the second stops both, SIGCONT
 * makes both go on. */
static void threads_stop(void)
{
	int fds[2];
	if (pipe(fds) < 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		close(fds[0]);
		writer_fd = fds[1];
		pthread_t th;
		if (pthread_create(&th, NULL, writer, NULL) != 0)
			_exit(2);
		while (!second_tid)
			nap_ms(1);
		long tid = second_tid;
		if (write(fds[1], &tid, sizeof tid) != sizeof tid)
			_exit(3);
		writers_go = 1;
		for (;;) {
			if (write(fds[1], "m", 1) != 1)
				_exit(1);
			nap_ms(10);
		}
	}
	setpgid(pid, pid);
	close(fds[1]);
	long tid = 0;
	if (read(fds[0], &tid, sizeof tid) != sizeof tid)
		return;
	nap_ms(100);
	syscall(SYS_tgkill, pid, (pid_t)tid, SIGSTOP);
	say("tgkill SIGSTOP to the second thread, waitpid WUNTRACED: %s\n",
	    wait_says(pid, WUNTRACED));
	nap_ms(100);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	char buf[512];
	while (read(fds[0], buf, sizeof buf) > 0)
		;
	nap_ms(300);
	errno = 0;
	ssize_t n = read(fds[0], buf, sizeof buf);
	say("while stopped neither thread writes: %s\n", yes(n < 0 && errno == EAGAIN));
	kill(pid, SIGCONT);
	say("SIGCONT: %s\n", wait_says(pid, WCONTINUED));
	fcntl(fds[0], F_SETFL, 0);
	int main_wrote = 0, thread_wrote = 0;
	for (int i = 0; i < 100 && !(main_wrote && thread_wrote); i++) {
		char c;
		if (read(fds[0], &c, 1) != 1)
			break;
		main_wrote |= c == 'm';
		thread_wrote |= c == 't';
	}
	say("once continued both threads write: %s\n", yes(main_wrote && thread_wrote));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(fds[0]);
}

/* SIGTERM to a stopped child waits until it continues. */
static void fatal_waits(void)
{
	pid_t pid = sleeper();
	kill(pid, SIGSTOP);
	wait_says(pid, WUNTRACED);
	kill(pid, SIGTERM);
	nap_ms(100);
	say("SIGTERM to a stopped child, before SIGCONT: %s\n", wait_says(pid, WNOHANG));
	kill(pid, SIGCONT);
	say("after SIGCONT: %s\n", wait_says(pid, 0));
}

static int hand_fd;
static void on_tstp(int sig)
{
	(void)sig;
	if (write(hand_fd, "T", 1) != 1)
		_exit(3);
}

/* A caught SIGTSTP runs the handler; SIG_IGN drops it. */
static void caught_and_ignored(void)
{
	int fds[2];
	if (pipe(fds) < 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		hand_fd = fds[1];
		signal(SIGTSTP, on_tstp);
		signal(SIGTTIN, SIG_IGN);
		if (write(fds[1], "R", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	setpgid(pid, pid);
	char c = 0;
	if (read(fds[0], &c, 1) != 1)
		return;
	kill(pid, SIGTSTP);
	c = 0;
	say("caught SIGTSTP runs the handler: %s\n", yes(read(fds[0], &c, 1) == 1 && c == 'T'));
	say("and does not stop: %s\n", wait_says(pid, WUNTRACED | WNOHANG));
	kill(pid, SIGTTIN);
	nap_ms(100);
	say("ignored SIGTTIN does not stop: %s\n", wait_says(pid, WUNTRACED | WNOHANG));
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(fds[0]);
	close(fds[1]);
}

/* A blocked SIGTSTP stays pending; SIGCONT discards it, so the child never
 * stops when it unblocks. */
static void cont_discards_stop(void)
{
	int up[2], down[2];
	if (pipe(up) < 0 || pipe(down) < 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, SIGTSTP);
		sigprocmask(SIG_BLOCK, &set, NULL);
		char c = 'R';
		if (write(up[1], &c, 1) != 1 || read(down[0], &c, 1) != 1)
			_exit(1);
		sigpending(&set);
		c = sigismember(&set, SIGTSTP) ? 'P' : 'N';
		if (write(up[1], &c, 1) != 1)
			_exit(1);
		sigemptyset(&set);
		sigaddset(&set, SIGTSTP);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		_exit(7);
	}
	setpgid(pid, pid);
	char c = 0;
	if (read(up[0], &c, 1) != 1)
		return;
	kill(pid, SIGTSTP);
	say("blocked SIGTSTP does not stop: %s\n", wait_says(pid, WUNTRACED | WNOHANG));
	kill(pid, SIGCONT);
	if (write(down[1], "g", 1) != 1 || read(up[0], &c, 1) != 1)
		return;
	say("SIGCONT discarded the pending SIGTSTP: %s\n", yes(c == 'N'));
	say("the child then: %s\n", wait_says(pid, WUNTRACED));
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
}

/* SA_NOCLDSTOP: no SIGCHLD for a stop or a continue; the exit still sends one. */
static void nocldstop(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_chld;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	pid_t pid = sleeper();
	chld_count = 0;
	kill(pid, SIGSTOP);
	say("SA_NOCLDSTOP: the stop is reported: %s\n", wait_says(pid, WUNTRACED));
	kill(pid, SIGCONT);
	say("SA_NOCLDSTOP: the continue is reported: %s\n", wait_says(pid, WCONTINUED));
	nap_ms(100);
	say("SA_NOCLDSTOP: SIGCHLD for them: %d\n", (int)chld_count);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	await_chld(1);
	say("SA_NOCLDSTOP: SIGCHLD for the death: %s, code %s\n", yes(chld_count == 1),
	    code_name(chld_code));
}

static void bad_inputs(void)
{
	pid_t pid = sleeper();
	errno = 0;
	say("kill with signal 65: %s\n", kill(pid, 65) < 0 ? err_name(errno) : "succeeded");
	errno = 0;
	say("kill with signal -1: %s\n", kill(pid, -1) < 0 ? err_name(errno) : "succeeded");
	say("waitpid with option 0x1000: %s\n", wait_says(pid, 0x1000));
	say("waitpid with option 0x10: %s\n", wait_says(pid, 0x10));
	errno = 0;
	say("kill(pid, 0) of a stopped child: %d\n", (kill(pid, SIGSTOP), kill(pid, 0)));
	wait_says(pid, WUNTRACED);
	kill(pid, SIGKILL);
	say("killed while stopped: %s\n", wait_says(pid, 0));
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_chld;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);

	stop_and_continue();
	stopped_runs_nothing();
	threads_stop();
	fatal_waits();
	caught_and_ignored();
	cont_discards_stop();
	bad_inputs();
	nocldstop();
	return 0;
}
