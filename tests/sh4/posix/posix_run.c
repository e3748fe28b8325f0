/*
 * posix_run: the SH-4 runner of the POSIX conformance suite (docs/sh4.md,
 * "POSIX programs"), what tests/posix/run.sh does under busybox on
 * x86-64, for a port that has no shell: a plain static musl program that
 * sh4init starts as a POSIX process ("+posix_run@...,pm") beside the disk
 * driver, the file manager and the process manager. It reads the program
 * names from /posix/LIST on the CF disk (white space between them) and,
 * in /tmp with PATH=/bin, HOME=/tmp and umask 022 as run.sh, forks and
 * execs each /posix/<name> from the disk, waits for it and writes
 *
 *     POSIX-SUITE-START <count>
 *     === <name>
 *     <what the program printed>
 *     --- exit <status>             (128 + the signal for a killed one)
 *     POSIX-SUITE-DONE
 *
 * to /sh4-posix.out on the disk (there is no console server on SH-4 yet:
 * the host reads the file from the image after the boot and compares each
 * section with Linux's, tools/sh4_posix.py). The programs get /dev/null
 * as standard input and the output file as standard output and error.
 * Exits 0 when every program could be started and waited for, else 1.
 * It sets the real-time clock first (CLOCK_START, below).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OUT_PATH  "/sh4-posix.out"
#define LIST_PATH "/posix/LIST"
#define MAX_LIST  4096
#define MAX_NAMES 128
/* The r2d's clock starts at the epoch (the port reads no RTC), and the suite
 * runs in under a second of guest time: an inode deleted at time 0 has
 * dtime 0, which e2fsck takes for damage. The runner sets the clock first
 * (2026-01-01 00:00:00 UTC). */
#define CLOCK_START 1767225600

static char *const child_env[] = { "PATH=/bin", "HOME=/tmp", NULL };

/* Writes the string to fd 1 (the output file), whole. */
static void say(const char *s)
{
	size_t len = strlen(s);
	while (len > 0) {
		ssize_t n = write(1, s, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		s += n;
		len -= (size_t)n;
	}
}

/* Reads the list file into buf and cuts it into names; their count. */
static int read_list(char *buf, size_t size, char **names)
{
	int fd = open(LIST_PATH, O_RDONLY);
	if (fd < 0)
		return -1;
	size_t got = 0;
	for (;;) {
		ssize_t n = read(fd, buf + got, size - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	int count = 0;
	char *p = buf;
	while (*p && count < MAX_NAMES) {
		while (*p == ' ' || *p == '\n' || *p == '\t')
			*p++ = '\0';
		if (!*p)
			break;
		names[count++] = p;
		while (*p && *p != ' ' && *p != '\n' && *p != '\t')
			p++;
	}
	return count;
}

/* Runs /posix/<name> with the runner's descriptors; its run.sh status
 * (the exit code, or 128 + the signal), or -1 when it could not run. */
static int run_one(const char *name)
{
	char path[128];
	snprintf(path, sizeof(path), "/posix/%s", name);
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char *argv[] = { path, NULL };
		execve(path, argv, child_env);
		_exit(127);   /* as a shell says of a program it cannot run */
	}
	int status = 0;
	pid_t r;
	do
		r = waitpid(pid, &status, 0);
	while (r < 0 && errno == EINTR);
	if (r != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(void)
{
	/* Descriptors 0, 1 and 2: the runner starts with none. */
	int in = open("/dev/null", O_RDONLY);
	int out = open(OUT_PATH, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
	if (in != 0 || out != 1 || dup2(1, 2) != 2)
		return 1;
	const struct timespec start = { .tv_sec = CLOCK_START };
	if (clock_settime(CLOCK_REALTIME, &start) != 0) {
		say("posix_run: cannot set the clock\n");
		return 1;
	}
	umask(022);
	mkdir("/tmp", 01777);
	if (chdir("/tmp") < 0) {
		say("posix_run: no /tmp\n");
		return 1;
	}
	static char list[MAX_LIST];
	char *names[MAX_NAMES];
	int count = read_list(list, sizeof(list), names);
	if (count < 0) {
		say("posix_run: no " LIST_PATH "\n");
		return 1;
	}
	char line[160];
	snprintf(line, sizeof(line), "POSIX-SUITE-START %d\n", count);
	say(line);
	int failed = 0;
	for (int i = 0; i < count; i++) {
		snprintf(line, sizeof(line), "=== %s\n", names[i]);
		say(line);
		int status = run_one(names[i]);
		if (status < 0)
			failed++;
		snprintf(line, sizeof(line), "--- exit %d\n", status);
		say(line);
		fsync(1);   /* on the disk now: a boot that hangs later shows where */
	}
	say("POSIX-SUITE-DONE\n");
	fsync(1);
	return failed ? 1 : 0;
}
