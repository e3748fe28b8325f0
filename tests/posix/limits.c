/*
 * Linux-sized limits: RLIMIT_AS unlimited, a 256 MiB anonymous mapping
 * made and touched, a 128 MiB MAP_NORESERVE one, a 4 GiB PROT_NONE
 * reservation (part of it made writable and touched), 4 MiB of a child's stack
 * used (stacks are committed as they grow, not 8 MiB up front), and 120
 * processes alive at once (each forked child waits on a pipe), all reaped.
 */
#include "posix_test.h"

#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>

#define MIB (1ul << 20)
#define CHILDREN 120

static void touch(char *p, size_t len, size_t step)
{
	for (size_t off = 0; off < len; off += step)
		p[off] = (char)(off >> 12);
	p[len - 1] = 1;
}

static int touched(const char *p, size_t len, size_t step)
{
	for (size_t off = 0; off + 1 < len; off += step)
		if (p[off] != (char)(off >> 12))
			return 0;
	return p[len - 1] == 1;
}

/* Uses about depth KiB of stack. */
static int __attribute__((noinline)) deep(int depth)
{
	volatile char frame[1024];
	frame[0] = (char)depth;
	frame[1023] = (char)depth;
	if (depth == 0)
		return frame[0];
	return deep(depth - 1) + frame[1023] - (char)depth;
}

int main(void)
{
	struct rlimit rl;
	getrlimit(RLIMIT_AS, &rl);
	say("RLIMIT_AS unlimited: %s\n", yes(rl.rlim_cur == RLIM_INFINITY && rl.rlim_max == RLIM_INFINITY));

	size_t big = 256 * MIB;
	char *p = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	say("mmap 256 MiB: %s\n", p == MAP_FAILED ? err_name(errno) : "ok");
	if (p != MAP_FAILED) {
		touch(p, big, 16 * 4096);
		say("touched every 16th page: %s\n", yes(touched(p, big, 16 * 4096)));
		say("munmap: %s\n", munmap(p, big) == 0 ? "ok" : err_name(errno));
	}
	char *q = mmap(NULL, 128 * MIB, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	say("mmap 128 MiB MAP_NORESERVE: %s\n", q == MAP_FAILED ? err_name(errno) : "ok");
	if (q != MAP_FAILED) {
		touch(q, 8 * MIB, 4096);
		say("its first 8 MiB touched: %s\n", yes(touched(q, 8 * MIB, 4096)));
		munmap(q, 128 * MIB);
	}

	size_t huge = 4096 * MIB;
	char *r = mmap(NULL, huge, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	say("a 4 GiB PROT_NONE reservation: %s\n", r == MAP_FAILED ? err_name(errno) : "ok");
	if (r != MAP_FAILED) {
		int m = mprotect(r + 64 * MIB, 4 * MIB, PROT_READ | PROT_WRITE);
		say("4 MiB of it made writable: %s\n", m == 0 ? "ok" : err_name(errno));
		if (m == 0) {
			touch(r + 64 * MIB, 4 * MIB, 4096);
			say("  and touched: %s\n", yes(touched(r + 64 * MIB, 4 * MIB, 4096)));
		}
		munmap(r, huge);
	}

	pid_t pid = fork();
	if (pid == 0)
		_exit(deep(4096) == 0 ? 0 : 1);
	int status = -1;
	waitpid(pid, &status, 0);
	say("a child used 4 MiB of stack: %s\n", yes(WIFEXITED(status) && WEXITSTATUS(status) == 0));

	int gate[2];
	pipe(gate);
	int made = 0;
	for (int i = 0; i < CHILDREN; i++) {
		pid_t c = fork();
		if (c == 0) {
			close(gate[1]);
			char ch;
			read(gate[0], &ch, 1);   /* end of file when the parent lets go */
			_exit(7);
		}
		if (c < 0) {
			say("fork %d: %s\n", i, err_name(errno));
			break;
		}
		made++;
	}
	say("%d processes forked and alive at once: %s\n", CHILDREN, yes(made == CHILDREN));
	close(gate[1]);
	int reaped = 0, clean = 1;
	while ((pid = wait(&status)) > 0) {
		reaped++;
		clean &= WIFEXITED(status) && WEXITSTATUS(status) == 7;
	}
	say("all reaped, each exit 7: %s\n", yes(reaped == made && clean));
	return 0;
}
