/*
 * calls.c - calls of issue 20 that are not about names: times (the clock
 * advances, a busy loop counts as CPU time, a reaped child's time is the
 * parent's), sync/syncfs/fsync/fdatasync (EINVAL on a pipe or /dev/null,
 * EBADF), open of a directory for writing or with O_TRUNC (EISDIR), and
 * prctl's PR_SET_NAME/PR_GET_NAME (15 bytes kept, inherited by fork), each
 * with bad input.
 */
#include "posix_test.h"
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>

/* Computes (no system call inside) until ms of the monotonic clock passed. */
static void busy(long ms)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	volatile unsigned long x = 0;
	do {
		for (int i = 0; i < 2000000; i++)
			x += (unsigned long)i * 7;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

int main(void)
{
	scratch_enter("calls");

	say("== times\n");
	struct tms a, b;
	clock_t c0 = times(&a);
	busy(400);
	clock_t c1 = times(&b);
	say("clock advanced: %s\n", yes(c1 > c0));
	say("user+system time grew: %s\n", yes(b.tms_utime + b.tms_stime > a.tms_utime + a.tms_stime));
	say("no children's time yet: %s\n", yes(b.tms_cutime == 0 && b.tms_cstime == 0));
	pid_t child = fork();
	if (child == 0) {
		busy(400);
		_exit(0);
	}
	waitpid(child, NULL, 0);
	times(&b);
	say("children's time after wait: %s\n", yes(b.tms_cutime + b.tms_cstime > 0));
	outcome("times NULL", (long)syscall(SYS_times, NULL) == -1 ? -1 : 0);
	outcome("times bad pointer", syscall(SYS_times, (void *)1));

	say("== sync\n");
	write_file("f", "data\n", 0644);
	int fd = open("f", O_RDWR);
	sync();
	say("sync: done\n");
	outcome("syncfs", syncfs(fd));
	outcome("fsync", fsync(fd));
	outcome("fdatasync", fdatasync(fd));
	int dfd = open(".", O_RDONLY | O_DIRECTORY);
	outcome("fsync of a directory", fsync(dfd));
	int p[2];
	pipe(p);
	outcome("fsync of a pipe", fsync(p[0]));
	outcome("fdatasync of a pipe", fdatasync(p[1]));
	outcome("syncfs of a pipe", syncfs(p[0]));
	int null = open("/dev/null", O_RDWR);
	outcome("fsync of /dev/null", fsync(null));
	outcome("fsync 999", fsync(999));
	outcome("fdatasync -1", fdatasync(-1));
	outcome("syncfs 999", syncfs(999));
	close(null);
	close(p[0]);
	close(p[1]);

	say("== open of a directory\n");
	int r = open("..", O_RDONLY);
	outcome("O_RDONLY", r);
	close(r);
	outcome("O_RDONLY|O_TRUNC", open(".", O_RDONLY | O_TRUNC));
	outcome("O_WRONLY", open(".", O_WRONLY));
	outcome("O_RDWR", open(".", O_RDWR));
	outcome("O_RDONLY|O_CREAT", open(".", O_RDONLY | O_CREAT, 0644));
	outcome("O_RDONLY|O_DIRECTORY|O_TRUNC", open(".", O_RDONLY | O_DIRECTORY | O_TRUNC));
	close(dfd);

	say("== prctl names\n");
	char name[32] = { 0 };
	outcome("PR_GET_NAME", prctl(PR_GET_NAME, name));
	say("name: %s\n", name);
	outcome("PR_SET_NAME short", prctl(PR_SET_NAME, "worker"));
	memset(name, 'x', sizeof name);
	prctl(PR_GET_NAME, name);
	say("name: %s (NUL at 6: %s)\n", name, yes(name[6] == '\0'));
	outcome("PR_SET_NAME long", prctl(PR_SET_NAME, "a-much-longer-name-than-fits"));
	memset(name, 'x', sizeof name);
	prctl(PR_GET_NAME, name);
	say("name: %s (length %zu, byte 16 untouched: %s)\n", name, strlen(name), yes(name[16] == 'x'));
	child = fork();
	if (child == 0) {
		char n2[16] = { 0 };
		prctl(PR_GET_NAME, n2);
		say("child's name: %s\n", n2);
		_exit(0);
	}
	waitpid(child, NULL, 0);
	outcome("PR_SET_NAME bad pointer", prctl(PR_SET_NAME, (char *)1));
	outcome("PR_GET_NAME bad pointer", prctl(PR_GET_NAME, (char *)1));
	outcome("prctl unknown option", prctl(0x7fff1234, 0, 0, 0, 0));

	scratch_leave();
	return 0;
}
