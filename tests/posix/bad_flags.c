/*
 * Bad flags and arguments: each call fails with EINVAL (or the error Linux
 * gives) and the process goes on. Raw syscall() with every argument of the
 * kernel's width (musl's mprotect would round the address): lseek whence and negative offsets, mmap
 * length 0, without MAP_PRIVATE/MAP_SHARED, unaligned MAP_FIXED, munmap and
 * mprotect unaligned, mprotect of an unmapped range, pipe2 and dup3 flags,
 * fcntl commands, signals that cannot be caught, signal numbers out of range,
 * the sigset size, sigprocmask's how, kill's signal, wait4's options, clocks,
 * nanosleep's fields, setitimer's timer, access's mode, setpgid's group,
 * clone's flag combination, futex's operation, arch_prctl's code, readv's
 * count, an unknown system call.
 */
#include "posix_test.h"

#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>

#define PAGE 4096

static void expect(const char *what, long ret)
{
	if (ret < 0)
		say("%s: %s\n", what, err_name(errno));
	else
		say("%s: succeeded\n", what);
}

static long mmap_call(void *addr, size_t len, int prot, int flags)
{
	void *p = mmap(addr, len, prot, flags, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	munmap(p, len);
	return 0;
}

int main(void)
{
	scratch_enter("bad_flags");
	write_file("file", "0123456789", 0644);
	int fd = open("file", O_RDWR);
	char buf[16];

	expect("lseek whence 99", syscall(SYS_lseek, fd, 0, 99));
	expect("lseek to -1", syscall(SYS_lseek, fd, (long)-1, SEEK_SET));
	expect("lseek SEEK_CUR to before 0", syscall(SYS_lseek, fd, (long)-100, SEEK_CUR));

	char *page = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	expect("mmap of length 0", mmap_call(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS));
	expect("mmap without MAP_PRIVATE or MAP_SHARED", mmap_call(NULL, PAGE, PROT_READ, MAP_ANONYMOUS));
	expect("mmap MAP_FIXED at an unaligned address",
	       mmap_call(page + 1, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED));
	expect("munmap of an unaligned address", syscall(SYS_munmap, page + 1, PAGE));
	expect("munmap of length 0", syscall(SYS_munmap, page, 0));
	expect("mprotect of an unaligned address", syscall(SYS_mprotect, page + 1, PAGE, PROT_READ));
	munmap(page + PAGE, PAGE);
	expect("mprotect of a range with an unmapped page", syscall(SYS_mprotect, page, 2 * PAGE, PROT_READ));
	munmap(page, PAGE);

	int p[2];
	expect("pipe2 with an unknown flag", syscall(SYS_pipe2, p, 0x1));
	expect("dup3 onto the same descriptor", syscall(SYS_dup3, fd, fd, 0));
	expect("dup3 with an unknown flag", syscall(SYS_dup3, fd, 30, 0x1));
	expect("fcntl with command 9999", syscall(SYS_fcntl, fd, 9999, 0));
	expect("fcntl F_DUPFD below 0", syscall(SYS_fcntl, fd, F_DUPFD, -1));

	struct sigaction act = { .sa_handler = SIG_IGN };
	expect("rt_sigaction of SIGKILL", syscall(SYS_rt_sigaction, SIGKILL, &act, NULL, 8));
	expect("rt_sigaction of SIGSTOP", syscall(SYS_rt_sigaction, SIGSTOP, &act, NULL, 8));
	expect("rt_sigaction of signal 0", syscall(SYS_rt_sigaction, 0, &act, NULL, 8));
	expect("rt_sigaction of signal 65", syscall(SYS_rt_sigaction, 65, &act, NULL, 8));
	expect("rt_sigaction with sigset size 16", syscall(SYS_rt_sigaction, SIGUSR1, &act, NULL, 16));
	sigset_t set;
	sigemptyset(&set);
	expect("rt_sigprocmask with how 99", syscall(SYS_rt_sigprocmask, 99, &set, NULL, 8));
	expect("rt_sigprocmask with sigset size 4", syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, NULL, 4));
	expect("kill with signal 999", syscall(SYS_kill, getpid(), 999));
	expect("kill with signal 0 (a probe)", syscall(SYS_kill, getpid(), 0));
	expect("wait4 with unknown options", syscall(SYS_wait4, -1, NULL, 0x100, NULL));

	struct timespec ts;
	expect("clock_gettime of clock 999", syscall(SYS_clock_gettime, 999, &ts));
	struct timespec bad_ns = { 0, 1000000000 }, neg = { -1, 0 };
	expect("nanosleep with tv_nsec 1000000000", syscall(SYS_nanosleep, &bad_ns, NULL));
	expect("nanosleep with tv_sec -1", syscall(SYS_nanosleep, &neg, NULL));
	struct itimerval it = { { 0, 0 }, { 0, 0 } };
	expect("setitimer of timer 99", syscall(SYS_setitimer, 99, &it, NULL));
	expect("access with mode 0x100", syscall(SYS_access, "file", 0x100));
	expect("setpgid to group -1", syscall(SYS_setpgid, 0, -1));

	long r = syscall(SYS_clone, CLONE_THREAD, 0, 0, 0, 0);
	if (r == 0)
		_exit(0);
	expect("clone with CLONE_THREAD alone", r);
	int word = 0;
	expect("futex with operation 99", syscall(SYS_futex, &word, 99, 0, NULL, NULL, 0));
	expect("arch_prctl with code 0x9999", syscall(SYS_arch_prctl, 0x9999, 0));
	struct iovec iov = { buf, 1 };
	expect("readv of -1 iovecs", syscall(SYS_readv, fd, &iov, (long)-1));
	expect("readv of IOV_MAX + 1 iovecs", syscall(SYS_readv, fd, &iov, IOV_MAX + 1));
	expect("getcwd into 1 byte", syscall(SYS_getcwd, buf, 1));
	expect("execve of a directory", syscall(SYS_execve, ".", (char *[]){ "x", NULL }, (char *[]){ NULL }));
	expect("mkdir of an empty path", syscall(SYS_mkdir, "", 0755));
	expect("system call 1000", syscall(1000));
	close(fd);
	scratch_leave();
	say("the process is still alive: yes\n");
	return 0;
}
