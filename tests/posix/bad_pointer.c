/*
 * Bad pointers: every call given an address it may not use must fail with
 * EFAULT and the process must go on. The addresses: 8 (the unmapped first
 * page), a kernel-half address, a page just unmapped, and a path that runs
 * into an inaccessible page before its NUL. Calls are made with syscall() so
 * that the C library passes the pointer through untouched (musl's
 * clock_gettime would read the vDSO itself).
 */
#include "posix_test.h"

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>

#define PAGE 4096

static void expect(const char *what, long ret)
{
	if (ret < 0)
		say("%s: %s\n", what, err_name(errno));
	else
		say("%s: succeeded (%ld)\n", what, ret);
}

int main(void)
{
	void *low = (void *)(uintptr_t)8;
	void *kernel = (void *)(uintptr_t)0xffff800000001000ULL;
	char *gone = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(gone, PAGE);
	/* A path of 100 'a's ending where a PROT_NONE page begins. */
	char *two = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(two, 'a', PAGE);
	mprotect(two + PAGE, PAGE, PROT_NONE);
	char *unterminated = two + PAGE - 100;

	scratch_enter("bad_pointer");
	write_file("file", "0123456789", 0644);
	int fd = open("file", O_RDWR);
	int p[2];
	if (fd < 0 || pipe(p) < 0)
		return 1;

	/* Each read starts at offset 0: a failed read must not move it. */
	expect("read into address 8", syscall(SYS_read, fd, low, 10));
	lseek(fd, 0, SEEK_SET);
	expect("read into a kernel address", syscall(SYS_read, fd, kernel, 10));
	lseek(fd, 0, SEEK_SET);
	expect("read into an unmapped page", syscall(SYS_read, fd, gone, 10));
	say("the failed read left the offset at 0: %s\n", yes(lseek(fd, 0, SEEK_CUR) == 0));
	lseek(fd, 0, SEEK_SET);
	if (write(p[1], "abc", 3) != 3)
		return 1;
	expect("read from a pipe into address 8", syscall(SYS_read, p[0], low, 3));
	expect("write from address 8 to a file", syscall(SYS_write, fd, low, 10));
	expect("write from a kernel address to a pipe", syscall(SYS_write, p[1], kernel, 10));
	expect("write from an unmapped page to the console", syscall(SYS_write, 1, gone, 10));
	expect("pread into address 8", syscall(SYS_pread64, fd, low, 10, 0));
	expect("pwrite from address 8", syscall(SYS_pwrite64, fd, low, 10, 0));
	struct iovec iov = { low, 10 };
	expect("readv with an iovec at address 8", syscall(SYS_readv, fd, low, 1));
	lseek(fd, 0, SEEK_SET);
	expect("readv into an iovec base of 8", syscall(SYS_readv, fd, &iov, 1));
	expect("writev from an iovec base of 8", syscall(SYS_writev, fd, &iov, 1));

	expect("open of a path at address 8", syscall(SYS_open, low, O_RDONLY));
	expect("open of a kernel address", syscall(SYS_open, kernel, O_RDONLY));
	expect("open of a path running into a PROT_NONE page", syscall(SYS_open, unterminated, O_RDONLY));
	expect("openat of a path at address 8", syscall(SYS_openat, AT_FDCWD, low, O_RDONLY));
	expect("stat of a path at address 8", syscall(SYS_stat, low, two));
	expect("stat into address 8", syscall(SYS_stat, "file", low));
	expect("lstat into a kernel address", syscall(SYS_lstat, "file", kernel));
	expect("fstat into address 8", syscall(SYS_fstat, fd, low));
	expect("newfstatat into an unmapped page", syscall(SYS_newfstatat, AT_FDCWD, "file", gone, 0));
	expect("mkdir of a path at address 8", syscall(SYS_mkdir, low, 0755));
	expect("unlink of a path at address 8", syscall(SYS_unlink, low));
	expect("rename from a path at address 8", syscall(SYS_rename, low, "x"));
	expect("rename to a path at address 8", syscall(SYS_rename, "file", low));
	expect("chdir to a path at address 8", syscall(SYS_chdir, low));
	expect("access of a path at address 8", syscall(SYS_access, low, F_OK));
	expect("getcwd into address 8", syscall(SYS_getcwd, low, 100));
	expect("getdents64 into address 8", syscall(SYS_getdents64, open(".", O_RDONLY | O_DIRECTORY), low, 4096));
	expect("pipe into address 8", syscall(SYS_pipe, low));
	expect("pipe2 into a kernel address", syscall(SYS_pipe2, kernel, 0));
	expect("poll of pollfds at address 8", syscall(SYS_poll, low, 1, 0));

	char *const good_argv[] = { "x", NULL };
	char *const bad_arg[] = { "x", low, NULL };
	expect("execve of a path at address 8", syscall(SYS_execve, low, good_argv, good_argv + 1));
	expect("execve with argv at address 8", syscall(SYS_execve, "/bin/true", low, good_argv + 1));
	expect("execve with an argument at address 8", syscall(SYS_execve, "/bin/true", bad_arg, good_argv + 1));
	expect("execve with envp at a kernel address", syscall(SYS_execve, "/bin/true", good_argv, kernel));

	pid_t pid = fork();
	if (pid == 0)
		_exit(3);
	expect("wait4 with the status at address 8", syscall(SYS_wait4, pid, low, 0, NULL));
	while (waitpid(-1, NULL, 0) > 0)
		;	/* reap the child if that wait4 left it */
	pid = fork();
	if (pid == 0)
		_exit(3);
	expect("wait4 with the rusage at address 8", syscall(SYS_wait4, pid, NULL, 0, low));
	while (waitpid(-1, NULL, 0) > 0)
		;

	expect("rt_sigaction with the new action at address 8",
	       syscall(SYS_rt_sigaction, SIGUSR1, low, NULL, 8));
	expect("rt_sigaction with the old action at a kernel address",
	       syscall(SYS_rt_sigaction, SIGUSR1, NULL, kernel, 8));
	expect("rt_sigprocmask with the set at address 8",
	       syscall(SYS_rt_sigprocmask, SIG_BLOCK, low, NULL, 8));
	expect("rt_sigpending into address 8", syscall(SYS_rt_sigpending, low, 8));
	expect("clock_gettime into address 8", syscall(SYS_clock_gettime, CLOCK_MONOTONIC, low));
	expect("gettimeofday into address 8", syscall(SYS_gettimeofday, low, NULL));
	expect("nanosleep of a request at address 8", syscall(SYS_nanosleep, low, NULL));
	expect("uname into address 8", syscall(SYS_uname, low));
	expect("setitimer with the value at address 8", syscall(SYS_setitimer, ITIMER_REAL, low, NULL));

	close(fd);
	close(p[0]);
	close(p[1]);
	scratch_leave();
	say("the process is still alive: yes\n");
	return 0;
}
