/*
 * profile_calls: not a benchmark but the POSIX half of tools/ipc_profile.py
 * (--posix), which single-steps forwarded system calls under QEMU's gdb
 * stub and attributes every instruction to a function (docs/benchmarks.md,
 * "Where the instructions go"). The runner does not run it. It opens the
 * read4k data file, warms the path up, and brackets each traced call with
 * a marker: the native kstats call with address PROFILE_MARK + n and size
 * 0, which copies nothing and which the tracer's breakpoint recognises.
 * On Linux (no such call) it only checks that the calls work.
 */
#define _DEFAULT_SOURCE /* pread with -std=gnu17 */
#include "bench.h"
#include "posix.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROFILE_MARK 0x5ca1ab1e000ul
#define WARMUP 200

static void mark(unsigned which)
{
	myrmex_syscall6(MYRMEX_SYS_KSTATS, (long)(PROFILE_MARK + which), 0, 0, 0, 0, 0);
}

int main(void)
{
	static char buf[4096];
	int fd = open("/bench/posix/data4k", O_RDONLY);
	if (fd < 0) {
		perror("profile_calls: /bench/posix/data4k");
		return 1;
	}
	long bad = 0;
	for (int i = 0; i < WARMUP; i++)
		bad |= lseek(fd, 0, SEEK_SET) != 0 || pread(fd, buf, sizeof buf, 0) != 4096;
	/* Traced (the tracer opens at 1, 3 and 5; 2 measures the markers):
	 * 1..2 an lseek (a forwarded call without data), 3..4 a pread
	 * of 4 KiB (a forwarded call with a data ICA and the kernel's copy). */
	mark(1);
	bad |= lseek(fd, 0, SEEK_SET) != 0;
	mark(2);
	mark(3);
	bad |= pread(fd, buf, sizeof buf, 0) != 4096;
	mark(4);

	/* 5..6: one round trip of posix.pipe_pingpong: a byte to a child over
	 * one pipe and back over another (four forwarded calls). */
	int to_child[2], to_parent[2];
	if (pipe(to_child) != 0 || pipe(to_parent) != 0)
		return 1;
	pid_t child = fork();
	if (child == 0) {
		char c;
		while (read(to_child[0], &c, 1) == 1)
			if (write(to_parent[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	char c = 'x';
	for (int i = 0; i < WARMUP; i++)
		bad |= write(to_child[1], &c, 1) != 1 || read(to_parent[0], &c, 1) != 1;
	mark(5);
	bad |= write(to_child[1], &c, 1) != 1 || read(to_parent[0], &c, 1) != 1;
	mark(6);
	close(to_child[1]);
	waitpid(child, NULL, 0);
	printf("BENCH-PROFILE-DONE %ld\n", bad);
	return bad ? 1 : 0;
}
