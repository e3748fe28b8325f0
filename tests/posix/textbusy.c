/*
 * textbusy.c - ETXTBSY, as Linux: while a process runs a program, opening
 * the file for writing (O_WRONLY, O_RDWR, O_TRUNC) and truncate fail with
 * ETXTBSY and the file keeps its bytes; reading it works; once the process
 * has ended, writing works again. A running program's name may be removed
 * and a new file of that name written. Exec of a file (a program or a
 * script) that is open for writing fails with ETXTBSY, and works once it
 * is closed.
 *
 * The program run is a copy of this one, started as "textbusy hold": it
 * says it runs on one pipe and waits for the end of another.
 */
#include "posix_test.h"
#include <sys/wait.h>

#define PROG "prog"

/* Copies the file at from to to (mode 0755); 0 or -1. */
static int copy_file(const char *from, const char *to)
{
	int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	static char chunk[65536];
	ssize_t n = 0;
	while (in >= 0 && out >= 0 && (n = read(in, chunk, sizeof chunk)) > 0)
		if (write(out, chunk, (size_t)n) != n) {
			n = -1;
			break;
		}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return in >= 0 && out >= 0 && n == 0 ? 0 : -1;
}

static off_t size_of(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 ? st.st_size : -1;
}

/* A running copy of PROG: its pid, and *release, the pipe whose closing
 * ends it. */
static pid_t start_prog(int *release)
{
	int ready[2], hold[2];
	if (pipe(ready) < 0 || pipe(hold) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(ready[0]);
		close(hold[1]);
		dup2(ready[1], 3);
		dup2(hold[0], 4);
		execl(PROG, PROG, "hold", (char *)NULL);
		_exit(100 + errno);
	}
	close(ready[1]);
	close(hold[0]);
	char c;
	if (read(ready[0], &c, 1) != 1)
		say("the copy did not start\n");
	close(ready[0]);
	*release = hold[1];
	return pid;
}

static int end_prog(pid_t pid, int release)
{
	close(release);
	int status = 0;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Runs path in a child; its exit status, or 100 + the errno of its exec. */
static int run(const char *path)
{
	pid_t pid = fork();
	if (pid == 0) {
		execl(path, path, "exit", (char *)NULL);
		_exit(100 + errno);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* "ran" (the copy's exit 7), its exec's error name, or the status. */
static const char *exec_outcome(int status)
{
	static char text[32];
	if (status == 7)
		return "ran";
	if (status > 100 && status < 100 + 128)
		return err_name(status - 100);
	snprintf(text, sizeof text, "status %d", status);
	return text;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "hold") == 0) {
		char c;
		if (write(3, "r", 1) != 1)
			return 1;
		while (read(4, &c, 1) > 0)
			;
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "exit") == 0)
		return 7;
	scratch_enter("textbusy");
	if (copy_file(argv[0], PROG) < 0) {
		say("cannot copy %s\n", argv[0]);
		scratch_leave();
		return 1;
	}
	off_t size = size_of(PROG);

	say("-- a running program\n");
	int release;
	pid_t pid = start_prog(&release);
	outcome("open O_WRONLY", open(PROG, O_WRONLY));
	outcome("open O_RDWR", open(PROG, O_RDWR));
	outcome("open O_WRONLY|O_TRUNC", open(PROG, O_WRONLY | O_TRUNC));
	outcome("truncate", truncate(PROG, 0));
	say("size kept: %s\n", yes(size_of(PROG) == size));
	int fd = open(PROG, O_RDONLY);
	outcome("open O_RDONLY", fd);
	if (fd >= 0)
		close(fd);
	say("a second copy runs too: %s\n", exec_outcome(run(PROG)));
	say("program exit: %d\n", end_prog(pid, release));
	fd = open(PROG, O_WRONLY);
	outcome("open O_WRONLY after it ended", fd);
	if (fd >= 0)
		close(fd);

	say("-- its name removed while it runs\n");
	pid = start_prog(&release);
	outcome("unlink", unlink(PROG));
	outcome("a new file of that name", write_file(PROG, "new\n", 0644));
	fd = open(PROG, O_WRONLY);
	outcome("open the new file O_WRONLY", fd);
	if (fd >= 0)
		close(fd);
	say("program exit: %d\n", end_prog(pid, release));

	say("-- exec of a file open for writing\n");
	unlink(PROG);
	outcome("a new copy", copy_file(argv[0], PROG));
	fd = open(PROG, O_WRONLY);
	outcome("open O_WRONLY", fd);
	say("exec while open for writing: %s\n", exec_outcome(run(PROG)));
	if (fd >= 0)
		close(fd);
	say("exec after the close: %s\n", exec_outcome(run(PROG)));
	fd = open("script", O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd >= 0 && write(fd, "#!/bin/sh\nexit 7\n", 17) == 17)
		say("script exec while open for writing: %s\n", exec_outcome(run("./script")));
	if (fd >= 0)
		close(fd);
	say("script exec after the close: %s\n", exec_outcome(run("./script")));
	scratch_leave();
	return 0;
}
