/*
 * execve: the new program sees the argv, envp and auxiliary vector it was
 * given (argc, every argument, a chosen variable, AT_PAGESZ); the pid stays;
 * descriptors without close-on-exec stay open and those with it are closed;
 * a caught signal is reset to its default while an ignored one stays ignored;
 * the blocked mask is kept. Also execve's errors (ENOENT, EACCES, ENOEXEC)
 * and a "#!" script run by /bin/sh.
 *
 * The program runs itself again with argv[1] = "child" (argv[0] as the shell
 * gave it, an absolute path: run.sh runs /posix/execve).
 */
#include "posix_test.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/auxv.h>
#include <sys/wait.h>

#define KEPT_FD 10
#define CLOEXEC_FD 11

extern char **environ;

static void on_usr1(int sig)
{
	(void)sig;
}

static int child_side(int argc, char **argv)
{
	say("child: argc %d\n", argc);
	for (int i = 0; i < argc; i++)
		say("child: argv[%d] [%s]\n", i, argv[i]);
	say("child: argv[argc] is NULL: %s\n", yes(argv[argc] == NULL));
	int envc = 0;
	while (environ[envc])
		envc++;
	say("child: environment entries: %d\n", envc);
	const char *v = getenv("POSIX_VAR");
	say("child: POSIX_VAR [%s]\n", v ? v : "(unset)");
	say("child: HOME unset: %s\n", yes(getenv("HOME") == NULL));
	say("child: AT_PAGESZ %lu\n", getauxval(AT_PAGESZ));
	const char *pre = getenv("PRE_EXEC_PID");
	say("child: pid kept across execve: %s\n", yes(pre && atol(pre) == (long)getpid()));
	say("child: descriptor without close-on-exec open: %s\n", yes(fcntl(KEPT_FD, F_GETFD) >= 0));
	errno = 0;
	int r = fcntl(CLOEXEC_FD, F_GETFD);
	say("child: close-on-exec descriptor closed: %s (%s)\n", yes(r < 0), err_name(errno));
	char buf[32] = { 0 };
	ssize_t n = pread(KEPT_FD, buf, sizeof buf - 1, 0);
	say("child: kept descriptor reads [%s] (%zd bytes)\n", buf, n);
	struct sigaction sa;
	sigaction(SIGUSR1, NULL, &sa);
	say("child: caught SIGUSR1 reset to default: %s\n", yes(sa.sa_handler == SIG_DFL));
	sigaction(SIGUSR2, NULL, &sa);
	say("child: ignored SIGUSR2 still ignored: %s\n", yes(sa.sa_handler == SIG_IGN));
	sigset_t mask;
	sigprocmask(SIG_BLOCK, NULL, &mask);
	say("child: SIGHUP still blocked: %s\n", yes(sigismember(&mask, SIGHUP)));
	return 7;
}

static void try_exec(const char *what, const char *path)
{
	char *const args[] = { (char *)path, NULL };
	char *const env[] = { NULL };
	execve(path, args, env);
	say("%s: error %s\n", what, err_name(errno));
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "child"))
		return child_side(argc, argv);

	scratch_enter("execve");
	try_exec("execve of a missing file", "./missing");
	write_file("plain", "not executable\n", 0644);
	try_exec("execve of a file without execute permission", "./plain");
	write_file("garbage", "neither ELF nor script\n", 0755);
	try_exec("execve of a file that is no program", "./garbage");
	try_exec("execve of a directory", ".");
	write_file("script", "#!/bin/sh\necho \"script: $# argument(s): $1\"\nexit 4\n", 0755);
	write_file("data", "kept descriptor", 0644);

	int fd = open("data", O_RDONLY);
	if (fd < 0 || dup2(fd, KEPT_FD) < 0 || dup3(fd, CLOEXEC_FD, O_CLOEXEC) < 0) {
		say("setup failed: %s\n", err_name(errno));
		return 1;
	}
	close(fd);
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGUSR2, SIG_IGN);
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);

	pid_t pid = fork();
	if (pid == 0) {
		char pidvar[64];
		snprintf(pidvar, sizeof pidvar, "PRE_EXEC_PID=%ld", (long)getpid());
		char *const args[] = { "execve", "child", "two words", "", "last", NULL };
		char *const env[] = { "POSIX_VAR=hello world", "OTHER=1", pidvar, NULL };
		execve(argv[0], args, env);
		say("execve of itself: error %s\n", err_name(errno));
		_exit(99);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	say("child exit status: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);

	pid = fork();
	if (pid == 0) {
		char *const args[] = { "script", "first", NULL };
		char *const env[] = { "PATH=/bin", NULL };
		execve("./script", args, env);
		say("execve of a script: error %s\n", err_name(errno));
		_exit(99);
	}
	waitpid(pid, &status, 0);
	say("script exit status: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	scratch_leave();
	return 0;
}
