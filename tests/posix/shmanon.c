/*
 * shmanon: MAP_SHARED|MAP_ANONYMOUS memory is shared with a forked child.
 * The child's writes are seen by the parent and the parent's by the child;
 * a private anonymous mapping made beside it stays copy-on-fork; munmap in
 * the child leaves the parent's mapping intact; a futex word in the shared
 * page works across the processes (the parent waits without
 * FUTEX_PRIVATE_FLAG, the child wakes it); the memory stays usable once
 * the child is gone; and bad calls: MAP_SHARED without MAP_ANONYMOUS's fd,
 * length 0.
 */
#include "posix_test.h"

#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#define PAGES 3
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_PRIVATE_FLAG 128
#define PAGE 4096

static long futex(volatile uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, word, op, val, ts, NULL, 0);
}

static int fill_is(const volatile char *p, size_t len, char c)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != c)
			return 0;
	return 1;
}

static int child_status(pid_t pid)
{
	int st;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 100 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

static void read_byte(int fd)
{
	char c;
	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
}

static void write_byte(int fd)
{
	char c = 'x';
	while (write(fd, &c, 1) < 0 && errno == EINTR)
		;
}

int main(void)
{
	volatile char *sh = mmap(NULL, PAGES * PAGE, PROT_READ | PROT_WRITE,
				 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	volatile char *pv = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED || pv == MAP_FAILED) {
		say("setup failed: %s\n", err_name(errno));
		return 1;
	}
	say("shared mapping zero-filled: %s\n", yes(fill_is(sh, PAGES * PAGE, 0)));

	/* 1. The child writes every page, exits; the parent sees the writes. */
	sh[0] = 'p';
	pv[0] = 'p';
	pid_t pid = fork();
	if (pid == 0) {
		int ok = sh[0] == 'p' && pv[0] == 'p';
		for (int i = 0; i < PAGES; i++)
			memset((char *)sh + i * PAGE, 'a' + i, PAGE);
		pv[0] = 'c';
		_exit(ok ? 0 : 1);
	}
	say("child 1 saw the parent's values: %s\n", yes(child_status(pid) == 0));
	int all = 1;
	for (int i = 0; i < PAGES; i++)
		all &= fill_is(sh + i * PAGE, PAGE, 'a' + i);
	say("parent sees the child's writes in every page: %s\n", yes(all));
	say("private mapping kept the parent's value: %s\n", yes(pv[0] == 'p'));

	/* 2. Both alive: the parent writes, the child sees; the child writes back. */
	int p2c[2], c2p[2];
	if (pipe(p2c) < 0 || pipe(c2p) < 0) {
		say("pipe failed: %s\n", err_name(errno));
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		close(p2c[1]);
		close(c2p[0]);
		read_byte(p2c[0]);   /* the parent has written */
		int ok = sh[PAGE + 5] == 'P' && sh[2 * PAGE - 1] == 'Q';
		sh[2 * PAGE + 7] = 'C';
		pv[0] = 'c';
		write_byte(c2p[1]);
		read_byte(p2c[0]);   /* the parent has looked */
		/* munmap here leaves the parent's mapping alone. */
		int un = munmap((void *)sh, PAGES * PAGE) == 0;
		write_byte(c2p[1]);
		read_byte(p2c[0]);
		_exit(ok && un ? 0 : 1);
	}
	close(p2c[0]);
	close(c2p[1]);
	sh[PAGE + 5] = 'P';
	sh[2 * PAGE - 1] = 'Q';
	write_byte(p2c[1]);
	read_byte(c2p[0]);
	say("parent sees the running child's write: %s\n", yes(sh[2 * PAGE + 7] == 'C'));
	say("private mapping not shared with the running child: %s\n", yes(pv[0] == 'p'));
	write_byte(p2c[1]);
	read_byte(c2p[0]);   /* the child has unmapped */
	sh[0] = 'z';
	say("parent's mapping intact after the child's munmap: %s\n",
	    yes(sh[0] == 'z' && sh[PAGE + 5] == 'P' && sh[2 * PAGE + 7] == 'C'));
	write_byte(p2c[1]);
	say("child 2 saw the parent's writes and unmapped: %s\n", yes(child_status(pid) == 0));
	close(p2c[1]);
	close(c2p[0]);

	/* 3. A futex across the processes: the parent waits (shared), the child
	 * sets the word and wakes it. */
	volatile uint32_t *word = (volatile uint32_t *)(sh + PAGE + 64);
	*word = 0;
	pid = fork();
	if (pid == 0) {
		/* Give the parent time to sleep; the parent checks the word
		 * anyway, so an early wake is no failure. */
		struct timespec d = { 0, 200 * 1000 * 1000 };
		nanosleep(&d, NULL);
		*word = 1;
		futex(word, FUTEX_WAKE, 1, NULL);
		_exit(0);
	}
	struct timespec limit = { 10, 0 };
	int woke = 0, timed_out = 0;
	while (*word == 0) {
		long r = futex(word, FUTEX_WAIT, 0, &limit);
		if (r < 0 && errno == ETIMEDOUT) {
			timed_out = 1;
			break;
		}
	}
	woke = *word == 1;
	say("futex wait in the shared page woken by the child: %s\n", yes(woke && !timed_out));
	say("child 3 exited: %s\n", yes(child_status(pid) == 0));

	/* A private futex in the shared page is not the shared one: a wait
	 * with FUTEX_PRIVATE_FLAG times out (nobody else wakes it). */
	struct timespec shortly = { 0, 50 * 1000 * 1000 };
	errno = 0;
	long r = futex(word, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 1, &shortly);
	say("private futex wait on the shared word: %s\n", r < 0 ? err_name(errno) : "woken");

	/* 4. After the children: still usable, then unmapped. */
	sh[2 * PAGE] = 'e';
	say("shared mapping usable after the children: %s\n", yes(sh[2 * PAGE] == 'e'));
	outcome("munmap shared", munmap((void *)sh, PAGES * PAGE));
	outcome("munmap private", munmap((void *)pv, PAGE));

	/* 5. Bad calls. */
	void *bad = mmap(NULL, 0, PROT_READ, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	say("length 0: %s\n", bad == MAP_FAILED ? err_name(errno) : "mapped");
	bad = mmap(NULL, PAGE, PROT_READ, MAP_ANONYMOUS, -1, 0);
	say("neither shared nor private: %s\n", bad == MAP_FAILED ? err_name(errno) : "mapped");
	return 0;
}
