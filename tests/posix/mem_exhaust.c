/*
 * Memory exhaustion: a child maps and touches anonymous memory 8 MiB at a
 * time until mmap refuses (ENOMEM) or the system kills it; another does the
 * same with brk. Either outcome is a clean end: the parent prints that class
 * and, on a line of its own (different on Linux, which overcommits and lets
 * its OOM killer end the child, and on a system that refuses the mapping:
 * see EXCEPTIONS), which it was. Then 64 MiB can be mapped and touched again:
 * the memory came back.
 */
#include "posix_test.h"

#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define CHUNK (8UL << 20)
#define PAGE 4096
#define CAP_CHUNKS 8192        /* 64 GiB: more than any test machine has */

enum { REFUSED = 10, NEVER_REFUSED = 11 };

static void touch(char *p, size_t n)
{
	for (size_t off = 0; off < n; off += PAGE)
		p[off] = 1;
}

static void eat_mmap(void)
{
	for (int i = 0; i < CAP_CHUNKS; i++) {
		char *p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			_exit(errno == ENOMEM ? REFUSED : 12);
		touch(p, CHUNK);
	}
	_exit(NEVER_REFUSED);
}

static void eat_brk(void)
{
	uintptr_t cur = (uintptr_t)syscall(SYS_brk, 0);
	for (int i = 0; i < CAP_CHUNKS; i++) {
		uintptr_t want = cur + CHUNK;
		if ((uintptr_t)syscall(SYS_brk, want) != want)
			_exit(REFUSED);
		touch((char *)cur, CHUNK);
		cur = want;
	}
	_exit(NEVER_REFUSED);
}

static void run(const char *what, void (*eat)(void))
{
	pid_t pid = fork();
	if (pid == 0)
		eat();
	int status = 0;
	if (waitpid(pid, &status, 0) != pid) {
		say("%s: waitpid error %s\n", what, err_name(errno));
		return;
	}
	int refused = WIFEXITED(status) && WEXITSTATUS(status) == REFUSED;
	int killed = WIFSIGNALED(status) && (WTERMSIG(status) == SIGKILL ||
					     WTERMSIG(status) == SIGSEGV || WTERMSIG(status) == SIGBUS);
	say("%s: ended by ENOMEM or a kill: %s\n", what, yes(refused || killed));
	if (refused)
		say("%s: outcome: refused with ENOMEM\n", what);
	else if (killed)
		say("%s: outcome: killed by signal %d\n", what, WTERMSIG(status));
	else if (WIFEXITED(status))
		say("%s: outcome: exited with %d\n", what, WEXITSTATUS(status));
	else
		say("%s: outcome: killed by signal %d\n", what, WTERMSIG(status));
}

int main(void)
{
	run("mmap and touch until refused", eat_mmap);
	run("brk and touch until refused", eat_brk);
	size_t n = 64UL << 20;
	char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	say("afterwards 64 MiB can be mapped: %s\n", yes(p != MAP_FAILED));
	if (p != MAP_FAILED) {
		touch(p, n);
		say("and touched: yes\n");
		munmap(p, n);
	}
	return 0;
}
