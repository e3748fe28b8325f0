/*
 * fork: the child gets a copy-on-write copy of the parent's memory (globals,
 * heap, stack, a larger anonymous mapping): each side sees the values as they
 * were at fork and then only its own writes. Also fork's return values, the
 * child's getpid/getppid, a file offset shared through an inherited
 * descriptor, and several children reaped with their exit codes.
 */
#include "posix_test.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>

#define BIG_PAGES 16
#define PAGE 4096

static int global_value = 1;

/* Child result bits, sent back as the exit status. */
enum {
	SAW_INITIAL = 1,	/* saw the parent's values of fork time */
	KEPT_OWN = 2,		/* its own writes survived the parent's writes */
	BIG_INITIAL = 4,	/* the big mapping had the parent's pattern */
	BIG_KEPT = 8,		/* its writes to the big mapping survived */
	PID_RIGHT = 16,		/* getppid() is the parent */
};

int main(void)
{
	int c2p[2], p2c[2];
	volatile int stack_value = 3;
	char *heap = malloc(64);
	char *big = mmap(NULL, BIG_PAGES * PAGE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!heap || big == MAP_FAILED || pipe(c2p) < 0 || pipe(p2c) < 0) {
		say("setup failed: %s\n", err_name(errno));
		return 1;
	}
	strcpy(heap, "parent");
	for (int i = 0; i < BIG_PAGES; i++)
		big[i * PAGE] = 'P';

	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		say("fork: error %s\n", err_name(errno));
		return 1;
	}
	if (pid == 0) {
		int bits = 0;
		char c;
		if (global_value == 1 && !strcmp(heap, "parent") && stack_value == 3)
			bits |= SAW_INITIAL;
		int big_ok = 1;
		for (int i = 0; i < BIG_PAGES; i++)
			big_ok &= big[i * PAGE] == 'P';
		if (big_ok)
			bits |= BIG_INITIAL;
		if (getppid() == parent && getpid() != parent)
			bits |= PID_RIGHT;
		global_value = 200;
		strcpy(heap, "child");
		stack_value = 300;
		for (int i = 0; i < BIG_PAGES; i++)
			big[i * PAGE] = 'C';
		pid_t me = getpid();
		if (write(c2p[1], &me, sizeof me) != sizeof me)
			_exit(100);
		if (read(p2c[0], &c, 1) != 1)   /* the parent has written its copies */
			_exit(101);
		if (global_value == 200 && !strcmp(heap, "child") && stack_value == 300)
			bits |= KEPT_OWN;
		big_ok = 1;
		for (int i = 0; i < BIG_PAGES; i++)
			big_ok &= big[i * PAGE] == 'C';
		if (big_ok)
			bits |= BIG_KEPT;
		_exit(bits);
	}

	say("fork returned a positive pid in the parent: %s\n", yes(pid > 0));
	say("child pid differs from parent: %s\n", yes(pid != getpid()));
	pid_t reported = 0;
	if (read(c2p[0], &reported, sizeof reported) != sizeof reported)
		say("child report: missing\n");
	say("child's getpid equals fork's return: %s\n", yes(reported == pid));
	/* The child has written its copies: ours must be unchanged. */
	say("parent's values unchanged by the child's writes: %s\n",
	    yes(global_value == 1 && !strcmp(heap, "parent") && stack_value == 3));
	int big_ok = 1;
	for (int i = 0; i < BIG_PAGES; i++)
		big_ok &= big[i * PAGE] == 'P';
	say("parent's big mapping unchanged by the child's writes: %s\n", yes(big_ok));
	global_value = 10;
	strcpy(heap, "other");
	stack_value = 30;
	for (int i = 0; i < BIG_PAGES; i++)
		big[i * PAGE] = 'Q';
	if (write(p2c[1], "g", 1) != 1)
		say("cannot wake the child\n");
	int status = 0;
	pid_t waited = waitpid(pid, &status, 0);
	say("waitpid returned the child: %s\n", yes(waited == pid));
	int bits = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	say("child exited normally: %s\n", yes(WIFEXITED(status)));
	say("fork returned 0 in the child: %s\n", yes(bits >= 0 && bits < 64));
	say("child saw the parent's values of fork time: %s\n", yes(bits >= 0 && (bits & SAW_INITIAL)));
	say("child's big mapping had the parent's contents: %s\n", yes(bits >= 0 && (bits & BIG_INITIAL)));
	say("child's getppid is the parent: %s\n", yes(bits >= 0 && (bits & PID_RIGHT)));
	say("child's values unchanged by the parent's writes: %s\n", yes(bits >= 0 && (bits & KEPT_OWN)));
	say("child's big mapping unchanged by the parent's writes: %s\n", yes(bits >= 0 && (bits & BIG_KEPT)));
	say("parent's values after its own writes: %d %s %d\n", global_value, heap, stack_value);

	/* An inherited descriptor shares the file offset. */
	scratch_enter("fork");
	int fd = open("shared", O_RDWR | O_CREAT | O_TRUNC, 0644);
	pid = fork();
	if (pid == 0) {
		_exit(write(fd, "abc", 3) == 3 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	if (write(fd, "def", 3) != 3)
		say("parent write failed\n");
	char buf[16] = { 0 };
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
	say("file written by child then parent: %zd bytes \"%s\"\n", n, buf);
	say("the child's write moved the parent's offset: %s\n",
	    yes(lseek(fd, 0, SEEK_CUR) == 6));
	close(fd);
	scratch_leave();

	/* Several children, each with its own exit code. */
	pid_t kids[5];
	for (int i = 0; i < 5; i++) {
		kids[i] = fork();
		if (kids[i] == 0)
			_exit(10 + i);
	}
	int sum = 0, distinct = 1;
	for (int i = 0; i < 5; i++) {
		waitpid(kids[i], &status, 0);
		sum += WIFEXITED(status) ? WEXITSTATUS(status) : 1000;
		for (int j = 0; j < i; j++)
			distinct &= kids[i] != kids[j];
	}
	say("five children: distinct pids: %s, sum of exit codes: %d\n", yes(distinct), sum);
	return 0;
}
