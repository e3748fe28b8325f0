/*
 * t_badsys: every system call with hostile arguments. Kernel addresses
 * (the kernel image and the map of physical memory), non-canonical and
 * unmapped addresses, buffers that run off the end of a mapping, huge,
 * negative and wrapping lengths, bad flags, ids and numbers. Each call must
 * fail with the Linux error (or, where Linux itself varies, one of the
 * listed ones) and the kernel must survive. Native Myrmex calls and checks
 * whose Linux result differs by design run only on Myrmex.
 *
 * On Linux, stdout must not be /dev/null: writes there never read the
 * buffer, so they cannot fail with EFAULT.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_badsys"
#include "test_check.h"

#include <myrmex/console.h>
#include <myrmex/procfs.h>

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>

#define PAGE 4096L
#define KERNEL_IMAGE_ADDR 0xffffffff80100000L
#define PHYSMAP_ADDR      ((long)0xffff800000100000UL)
#define NONCANONICAL_ADDR 0x0000800000000000L
#define UNMAPPED_LOW_ADDR 0x1000L
#define LAST_USER_PAGE    0x00007ffffffff000L
#define ARCH_SET_GS 0x1001
#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
#define ARCH_GET_GS 0x1004
#define MAX_IOVCNT 1024

/* Addresses no call may read or write. fresh_page is set up in main. */
struct bad_address {
	const char *name;
	long addr;
};
static struct bad_address bad_addresses[] = {
	{ "kernel image", KERNEL_IMAGE_ADDR },
	{ "physical map", PHYSMAP_ADDR },
	{ "non-canonical", NONCANONICAL_ADDR },
	{ "unmapped low", UNMAPPED_LOW_ADDR },
	{ "top of address space", -4096L },
	{ "freshly unmapped page", 0 },
};
#define BAD_ADDRESSES (sizeof bad_addresses / sizeof bad_addresses[0])

static long mapped_page;  /* readable and writable; the page after it is unmapped */
static int native;        /* running on Myrmex */

/* The last `bytes` bytes of mapped_page: a buffer of more bytes runs off
 * the end of the mapping. */
static long page_tail(long bytes)
{
	return mapped_page + PAGE - bytes;
}

static void setup_pages(void)
{
	mapped_page = myrmex_syscall6(SYS_mmap, 0, 2 * PAGE, PROT_READ | PROT_WRITE,
	                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mapped_page < 0) {
		test_fail("setup: mmap: %ld", mapped_page);
		raw1(SYS_exit_group, 1);
	}
	CHECK_EQ(raw2(SYS_munmap, mapped_page + PAGE, PAGE), 0);
	bad_addresses[BAD_ADDRESSES - 1].addr = mapped_page + PAGE;
	/* Whatever a partial write prints from here is only newlines. */
	memset((void *)mapped_page, '\n', PAGE);
}

/* ------------------------------------------------------------ write, writev */

static void check_write(void)
{
	static const char line[] = "t_badsys: write check\n";

	for (size_t i = 0; i < BAD_ADDRESSES; i++) {
		const struct bad_address *b = &bad_addresses[i];
		test_expect(raw3(SYS_write, 1, b->addr, 10), (const long[]){ -EFAULT }, 1,
		            "write(1, %s, 10)", b->name);
		test_expect(raw3(SYS_write, 2, b->addr, 1), (const long[]){ -EFAULT }, 1,
		            "write(2, %s, 1)", b->name);
	}
	CHECK_EQ(raw3(SYS_write, 1, 0, 10), -EFAULT);
	/* One good byte, then the unmapped page: nothing or the good byte. */
	CHECK_ONE_OF(raw3(SYS_write, 1, page_tail(1), 16), -EFAULT, 1);
	CHECK_EQ(raw3(SYS_write, 1, (long)line, 1L << 62), -EFAULT);
	CHECK_EQ(raw3(SYS_write, 1, (long)line, -1L), -EFAULT);
	/* buf + len wraps around to a small address. */
	CHECK_EQ(raw3(SYS_write, 1, (long)line, -(long)(uintptr_t)line + 16), -EFAULT);
	CHECK_EQ(raw3(SYS_write, 1000, (long)line, 1), -EBADF);
	CHECK_EQ(raw3(SYS_write, -1, (long)line, 1), -EBADF);
	if (native) {
		CHECK_EQ(raw3(SYS_write, 0, (long)line, 1), -EBADF);
		CHECK_EQ(raw3(SYS_write, 3, (long)line, 1), -EBADF);
	}
	CHECK_EQ(raw3(SYS_write, 1, (long)line, 0), 0);
	CHECK_EQ(raw3(SYS_write, 1, (long)line, sizeof line - 1), (long)sizeof line - 1);
}

static void check_writev(void)
{
	static const char newline[] = "\n";
	struct iovec good = { (void *)newline, 1 };
	struct iovec iov[2];

	for (size_t i = 0; i < BAD_ADDRESSES; i++) {
		const struct bad_address *b = &bad_addresses[i];
		test_expect(raw3(SYS_writev, 1, b->addr, 1), (const long[]){ -EFAULT }, 1,
		            "writev(1, iov at %s, 1)", b->name);
		iov[0].iov_base = (void *)b->addr;
		iov[0].iov_len = 10;
		test_expect(raw3(SYS_writev, 1, (long)iov, 1), (const long[]){ -EFAULT }, 1,
		            "writev(1, {iov_base at %s}, 1)", b->name);
	}
	CHECK_EQ(raw3(SYS_writev, 1, 0, 1), -EFAULT);
	/* The iovec array itself runs off the mapping. */
	struct iovec *tail = (struct iovec *)page_tail(sizeof(struct iovec));
	*tail = good;
	CHECK_EQ(raw3(SYS_writev, 1, (long)tail, 2), -EFAULT);
	/* A good iovec, then a bad one: nothing, or only the good part. */
	iov[0] = good;
	iov[1].iov_base = (void *)KERNEL_IMAGE_ADDR;
	iov[1].iov_len = 10;
	CHECK_ONE_OF(raw3(SYS_writev, 1, (long)iov, 2), -EFAULT, 1);
	/* Huge and negative lengths. */
	iov[0].iov_base = (void *)newline;
	iov[0].iov_len = (size_t)-1;
	CHECK_ONE_OF(raw3(SYS_writev, 1, (long)iov, 1), -EFAULT, -EINVAL);
	iov[0].iov_len = (size_t)1 << 62;
	iov[1].iov_base = (void *)newline;
	iov[1].iov_len = (size_t)1 << 62;
	CHECK_ONE_OF(raw3(SYS_writev, 1, (long)iov, 2), -EFAULT, -EINVAL);
	CHECK_EQ(raw3(SYS_writev, 1, (long)&good, -1), -EINVAL);
	CHECK_EQ(raw3(SYS_writev, 1, (long)&good, MAX_IOVCNT + 1), -EINVAL);
	CHECK_EQ(raw3(SYS_writev, 1000, (long)&good, 1), -EBADF);
	CHECK_EQ(raw3(SYS_writev, 1, (long)&good, 0), 0);
	CHECK_EQ(raw3(SYS_writev, 1, (long)&good, 1), 1);
}

/* ------------------------------------------------------------ time */

static void check_clock_gettime(void)
{
	struct timespec ts;

	for (size_t i = 0; i < BAD_ADDRESSES; i++)
		test_expect(raw2(SYS_clock_gettime, CLOCK_MONOTONIC, bad_addresses[i].addr),
		            (const long[]){ -EFAULT }, 1, "clock_gettime(MONOTONIC, %s)",
		            bad_addresses[i].name);
	CHECK_EQ(raw2(SYS_clock_gettime, CLOCK_REALTIME, 0), -EFAULT);
	CHECK_EQ(raw2(SYS_clock_gettime, CLOCK_MONOTONIC, page_tail(8)), -EFAULT);
	CHECK_EQ(raw2(SYS_clock_gettime, 1000, (long)&ts), -EINVAL);
	CHECK_EQ(raw2(SYS_clock_gettime, 1000, KERNEL_IMAGE_ADDR), -EINVAL);
	CHECK_EQ(raw2(SYS_clock_gettime, CLOCK_MONOTONIC, page_tail(sizeof ts)), 0);
}

static void check_sleeps(void)
{
	struct timespec ts;

	for (size_t i = 0; i < BAD_ADDRESSES; i++) {
		const struct bad_address *b = &bad_addresses[i];
		test_expect(raw2(SYS_nanosleep, b->addr, 0), (const long[]){ -EFAULT }, 1,
		            "nanosleep(%s, NULL)", b->name);
		test_expect(raw4(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, b->addr, 0),
		            (const long[]){ -EFAULT }, 1, "clock_nanosleep(MONOTONIC, 0, %s)",
		            b->name);
		test_expect(raw4(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, b->addr, 0),
		            (const long[]){ -EFAULT }, 1,
		            "clock_nanosleep(MONOTONIC, TIMER_ABSTIME, %s)", b->name);
	}
	CHECK_EQ(raw2(SYS_nanosleep, 0, 0), -EFAULT);
	CHECK_EQ(raw2(SYS_nanosleep, page_tail(8), 0), -EFAULT);

	ts.tv_sec = 0;
	ts.tv_nsec = -1;
	CHECK_EQ(raw2(SYS_nanosleep, (long)&ts, 0), -EINVAL);
	CHECK_EQ(raw4(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, (long)&ts, 0), -EINVAL);
	ts.tv_nsec = 1000000000;
	CHECK_EQ(raw2(SYS_nanosleep, (long)&ts, 0), -EINVAL);
	CHECK_EQ(raw4(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, (long)&ts, 0), -EINVAL);
	ts.tv_sec = -1;
	ts.tv_nsec = 0;
	CHECK_EQ(raw2(SYS_nanosleep, (long)&ts, 0), -EINVAL);

	ts.tv_sec = 0;
	ts.tv_nsec = 1000;
	CHECK_EQ(raw4(SYS_clock_nanosleep, 1000, 0, (long)&ts, 0), -EINVAL);
	/* A bad rem is only written when interrupted: 0 or refused up front. */
	CHECK_ONE_OF(raw2(SYS_nanosleep, (long)&ts, KERNEL_IMAGE_ADDR), 0, -EFAULT);
	CHECK_ONE_OF(raw4(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, (long)&ts,
	                  KERNEL_IMAGE_ADDR), 0, -EFAULT);
}

/* ------------------------------------------------------------ memory */

static void check_brk(void)
{
	long current = raw1(SYS_brk, 0);
	static const long targets[] = {
		KERNEL_IMAGE_ADDR, PHYSMAP_ADDR, NONCANONICAL_ADDR, -1L, -4096L, 1,
		NONCANONICAL_ADDR - 4096,
	};

	CHECK(current > 0, "brk(0) returned %ld", current);
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
		test_expect(raw1(SYS_brk, targets[i]), &current, 1, "brk(%#lx)",
		            (unsigned long)targets[i]);
	}
	CHECK_EQ(raw1(SYS_brk, 0), current);
}

static long mmap6(long addr, long len, long prot, long flags, long fd, long off)
{
	return myrmex_syscall6(SYS_mmap, addr, len, prot, flags, fd, off);
}

#define RW (PROT_READ | PROT_WRITE)
#define ANON (MAP_PRIVATE | MAP_ANONYMOUS)

static void check_mmap(void)
{
	CHECK_EQ(mmap6(0, 0, RW, ANON, -1, 0), -EINVAL);
	CHECK_EQ(mmap6(0, 1L << 62, RW, ANON, -1, 0), -ENOMEM);
	CHECK_EQ(mmap6(0, -1L, RW, ANON, -1, 0), -ENOMEM);
	CHECK_EQ(mmap6(0, -4096L, RW, ANON, -1, 0), -ENOMEM);
	CHECK_EQ(mmap6(0, NONCANONICAL_ADDR, RW, ANON, -1, 0), -ENOMEM);

	static const long kernel_side[] = { KERNEL_IMAGE_ADDR, PHYSMAP_ADDR, NONCANONICAL_ADDR };
	for (size_t i = 0; i < sizeof kernel_side / sizeof kernel_side[0]; i++) {
		long a = kernel_side[i];
		test_expect(mmap6(a, PAGE, RW, ANON | MAP_FIXED, -1, 0),
		            (const long[]){ -ENOMEM, -EINVAL }, 2, "mmap(%#lx, MAP_FIXED)",
		            (unsigned long)a);
		test_expect(mmap6(a, PAGE, RW, ANON | MAP_FIXED_NOREPLACE, -1, 0),
		            (const long[]){ -ENOMEM, -EINVAL }, 2,
		            "mmap(%#lx, MAP_FIXED_NOREPLACE)", (unsigned long)a);
		/* Only a hint: the kernel must pick a user address instead. */
		long got = mmap6(a, PAGE, RW, ANON, -1, 0);
		CHECK(got > 0 && got < NONCANONICAL_ADDR,
		      "mmap with the hint %#lx returned %#lx", (unsigned long)a,
		      (unsigned long)got);
		if (got > 0 && got < NONCANONICAL_ADDR)
			raw2(SYS_munmap, got, PAGE);
	}
	/* A fixed range that crosses the end of user space. */
	CHECK_ONE_OF(mmap6(NONCANONICAL_ADDR - 2 * PAGE, 16 * PAGE, RW, ANON | MAP_FIXED, -1, 0),
	             -ENOMEM, -EINVAL);
	CHECK_ONE_OF(mmap6(PAGE * 16, -PAGE * 8, RW, ANON | MAP_FIXED, -1, 0), -ENOMEM, -EINVAL);
	CHECK_EQ(mmap6(0x10000001L, PAGE, RW, ANON | MAP_FIXED, -1, 0), -EINVAL);
	CHECK_EQ(mmap6(0, PAGE, RW, MAP_ANONYMOUS, -1, 0), -EINVAL);
	CHECK_EQ(mmap6(0, PAGE, RW, ANON, -1, 1), -EINVAL);
	CHECK_EQ(mmap6(0, PAGE, RW, MAP_PRIVATE, -1, 0), -EBADF);
	CHECK_EQ(mmap6(0, PAGE, RW, MAP_PRIVATE, 5, 0), -EBADF);
	CHECK_EQ(mmap6(0, PAGE, RW, MAP_SHARED, 1000, 0), -EBADF);
}

static void check_munmap(void)
{
	CHECK_EQ(raw2(SYS_munmap, mapped_page + 1, PAGE), -EINVAL);
	CHECK_EQ(raw2(SYS_munmap, mapped_page, 0), -EINVAL);
	CHECK_EQ(raw2(SYS_munmap, KERNEL_IMAGE_ADDR, PAGE), -EINVAL);
	CHECK_EQ(raw2(SYS_munmap, PHYSMAP_ADDR, PAGE), -EINVAL);
	CHECK_EQ(raw2(SYS_munmap, NONCANONICAL_ADDR, PAGE), -EINVAL);
	CHECK_EQ(raw2(SYS_munmap, PAGE * 16, -PAGE * 16), -EINVAL);          /* wraps */
	CHECK_EQ(raw2(SYS_munmap, LAST_USER_PAGE - PAGE, 1L << 47), -EINVAL); /* leaves */
	CHECK_EQ(raw2(SYS_munmap, PAGE * 16, -1L), -EINVAL);
	CHECK_EQ(raw2(SYS_munmap, UNMAPPED_LOW_ADDR, PAGE), 0); /* nothing there: fine */
	CHECK(*(volatile char *)mapped_page == '\n', "a refused munmap changed memory");
}

static void check_mprotect(void)
{
	CHECK_EQ(raw3(SYS_mprotect, mapped_page + 1, PAGE, PROT_READ), -EINVAL);
	CHECK_ONE_OF(raw3(SYS_mprotect, KERNEL_IMAGE_ADDR, PAGE, PROT_READ), -ENOMEM, -EINVAL);
	CHECK_ONE_OF(raw3(SYS_mprotect, PHYSMAP_ADDR, PAGE, RW), -ENOMEM, -EINVAL);
	CHECK_ONE_OF(raw3(SYS_mprotect, NONCANONICAL_ADDR, PAGE, RW), -ENOMEM, -EINVAL);
	CHECK_ONE_OF(raw3(SYS_mprotect, PAGE * 16, -PAGE * 16, RW), -ENOMEM, -EINVAL);
	CHECK_EQ(raw3(SYS_mprotect, UNMAPPED_LOW_ADDR, PAGE, PROT_READ), -ENOMEM);
	/* Partly mapped: the page after mapped_page is gone. */
	CHECK_EQ(raw3(SYS_mprotect, mapped_page, 2 * PAGE, PROT_READ), -ENOMEM);
	CHECK_EQ(raw3(SYS_mprotect, mapped_page, PAGE, 0x80), -EINVAL);
	CHECK_EQ(raw3(SYS_mprotect, mapped_page, 0, PROT_READ), 0);
	CHECK_EQ(raw3(SYS_mprotect, mapped_page, PAGE, RW), 0);
	*(volatile char *)mapped_page = '\n'; /* still writable */
}

/* ------------------------------------------------------------ threads, processes */

/*
 * Raw clone whose new thread (if one is made by mistake) ends at once with
 * exit(0) without touching its stack or TLS. Returns clone's result.
 */
static long clone_exit_at_once(long flags, long stack, long tls)
{
	register long r10 __asm__("r10") = 0;
	register long r8 __asm__("r8") = tls;
	long ret;
	__asm__ volatile("syscall\n\t"
	                 "test %%rax, %%rax\n\t"
	                 "jnz 1f\n\t"
	                 "mov $60, %%eax\n\t"
	                 "xor %%edi, %%edi\n\t"
	                 "syscall\n"
	                 "1:"
	                 : "=a"(ret)
	                 : "0"((long)SYS_clone), "D"(flags), "S"(stack), "d"(0), "r"(r10),
	                   "r"(r8)
	                 : "rcx", "r11", "memory");
	return ret;
}

static void check_clone(void)
{
	long stack = page_tail(64);
	long thread = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
	              CLONE_SYSVSEM;

	/* Linux refuses these combinations too, so they are safe to try there. */
	CHECK_ONE_OF(clone_exit_at_once(CLONE_VM | CLONE_THREAD, stack, 0), -EINVAL, -ENOSYS);
	CHECK_ONE_OF(clone_exit_at_once(CLONE_SIGHAND | CLONE_THREAD, stack, 0), -EINVAL,
	             -ENOSYS);
	/* A thread whose TLS would be a kernel or non-canonical address. */
	CHECK_ONE_OF(clone_exit_at_once(thread | CLONE_SETTLS, stack, KERNEL_IMAGE_ADDR),
	             -EPERM, -EINVAL, -ENOSYS);
	CHECK_ONE_OF(clone_exit_at_once(thread | CLONE_SETTLS, stack, NONCANONICAL_ADDR),
	             -EPERM, -EINVAL, -ENOSYS);
	if (native) {
		/* fork and vfork would make a process on Linux. */
		CHECK_EQ(clone_exit_at_once(SIGCHLD, 0, 0), -ENOSYS);
		CHECK_EQ(clone_exit_at_once(CLONE_VM | CLONE_VFORK | SIGCHLD, stack, 0), -ENOSYS);
		/* A flag outside the supported set: refused, or a thread that ends. */
		long r = clone_exit_at_once(thread | 0x80000000L /* CLONE_IO */, stack, 0);
		CHECK(r > 0 || r == -ENOSYS || r == -EINVAL,
		      "clone with CLONE_IO returned %ld, not a tid, -ENOSYS or -EINVAL", r);
	}
}

static char *const alive_argv[] = { "t_alive", NULL };
static char *const test_envp[] = { "MYRMEX_TEST=1", NULL };

static void check_wait4(void)
{
	int status;

	CHECK_EQ(raw4(SYS_wait4, -1, (long)&status, 0, 0), -ECHILD);
	CHECK_EQ(raw4(SYS_wait4, -1, (long)&status, WNOHANG, 0), -ECHILD);
	CHECK_EQ(raw4(SYS_wait4, 1, (long)&status, 0, 0), -ECHILD);
	CHECK_EQ(raw4(SYS_wait4, 1 << 30, (long)&status, 0, 0), -ECHILD);
	CHECK_EQ(raw4(SYS_wait4, -1, (long)&status, 0x100, 0), -EINVAL);
	if (!native)
		return;

	long pid = myrmex_spawn("t_alive", alive_argv, test_envp, -1);
	if (pid < 0) {
		test_fail("spawn(t_alive) for the wait4 checks: %ld", pid);
		return;
	}
	CHECK_EQ(raw4(SYS_wait4, pid, KERNEL_IMAGE_ADDR, 0, 0), -EFAULT);
	/* Either the failed wait4 left the child to be reaped, or it reaped it. */
	long again = raw4(SYS_wait4, pid, (long)&status, 0, 0);
	CHECK(again == pid || again == -ECHILD, "wait4 after a faulting wait4: %ld", again);
	CHECK_EQ(raw4(SYS_wait4, pid, (long)&status, 0, 0), -ECHILD);
}

static void check_kill(void)
{
	long self = raw0(SYS_getpid);

	CHECK_EQ(raw2(SYS_kill, 1 << 30, 0), -ESRCH);
	CHECK_EQ(raw2(SYS_kill, 1 << 30, SIGKILL), -ESRCH);
	CHECK_EQ(raw2(SYS_kill, self, 0), 0);
	CHECK_EQ(raw2(SYS_kill, self, 65), -EINVAL);
	CHECK_EQ(raw2(SYS_kill, self, -1), -EINVAL);
	if (native) {
		/* The init is neither a child nor the caller: it may be probed at
		 * most. Groups are probed only (signal 0): the caller's group holds
		 * it, kill(-1) reaches the others, and no group has the caller's
		 * pid as its id (it never called setpgid or setsid). */
		CHECK_ONE_OF(raw2(SYS_kill, 1, SIGKILL), -EPERM, -ESRCH);
		CHECK_ONE_OF(raw2(SYS_kill, 1, 0), 0, -EPERM, -ESRCH);
		CHECK_EQ(raw2(SYS_kill, 0, 0), 0);
		CHECK_ONE_OF(raw2(SYS_kill, -1, 0), 0, -ESRCH);
		CHECK_EQ(raw2(SYS_kill, -self, 0), -ESRCH);
		CHECK_EQ(raw2(SYS_kill, -0x7fffffff - 1, 0), -ESRCH);
		CHECK_EQ(raw2(SYS_kill, 0, 65), -EINVAL);
	}
}

/* ------------------------------------------------------------ arch_prctl */

/* Tries ARCH_SET_FS with a bad base and puts the good one back at once if
 * the kernel took it (no libc in between: TLS and the stack guard use %fs). */
static long set_fs_and_restore(long bad, long good)
{
	long r = raw2(SYS_arch_prctl, ARCH_SET_FS, bad);
	if (r == 0)
		raw2(SYS_arch_prctl, ARCH_SET_FS, good);
	return r;
}

static void check_arch_prctl(void)
{
	unsigned long fs = 0;
	CHECK_EQ(raw2(SYS_arch_prctl, ARCH_GET_FS, (long)&fs), 0);
	CHECK(fs != 0, "ARCH_GET_FS gave 0");

	static const long bad_bases[] = {
		KERNEL_IMAGE_ADDR, PHYSMAP_ADDR, NONCANONICAL_ADDR, -1L, 0x8000000000000000L,
	};
	for (size_t i = 0; i < sizeof bad_bases / sizeof bad_bases[0]; i++)
		test_expect(set_fs_and_restore(bad_bases[i], (long)fs), (const long[]){ -EPERM },
		            1, "arch_prctl(ARCH_SET_FS, %#lx)", (unsigned long)bad_bases[i]);
	unsigned long now = 0;
	raw2(SYS_arch_prctl, ARCH_GET_FS, (long)&now);
	CHECK(now == fs, "the FS base changed from %#lx to %#lx", fs, now);

	CHECK_ONE_OF(raw2(SYS_arch_prctl, ARCH_SET_GS, KERNEL_IMAGE_ADDR), -EPERM, -EINVAL);
	CHECK_ONE_OF(raw2(SYS_arch_prctl, ARCH_SET_GS, NONCANONICAL_ADDR), -EPERM, -EINVAL);
	CHECK_ONE_OF(raw2(SYS_arch_prctl, ARCH_GET_GS, KERNEL_IMAGE_ADDR), -EFAULT, -EINVAL);
	CHECK_EQ(raw2(SYS_arch_prctl, 0x9999, (long)&now), -EINVAL);
	CHECK_EQ(raw2(SYS_arch_prctl, -1, (long)&now), -EINVAL);
	for (size_t i = 0; i < BAD_ADDRESSES; i++)
		test_expect(raw2(SYS_arch_prctl, ARCH_GET_FS, bad_addresses[i].addr),
		            (const long[]){ -EFAULT }, 1, "arch_prctl(ARCH_GET_FS, %s)",
		            bad_addresses[i].name);
	CHECK_EQ(raw2(SYS_arch_prctl, ARCH_GET_FS, 0), -EFAULT);
	CHECK_EQ(raw2(SYS_arch_prctl, ARCH_GET_FS, page_tail(4)), -EFAULT);
}

/* ------------------------------------------------------------ futex */

static void check_futex(void)
{
	static int word;
	struct timespec ts = { 0, 1000000000 };

	for (size_t i = 0; i < BAD_ADDRESSES; i++) {
		test_expect(myrmex_futex_wait((volatile int *)bad_addresses[i].addr, 0, -1),
		            (const long[]){ -EFAULT }, 1, "FUTEX_WAIT(%s)", bad_addresses[i].name);
	}
	CHECK_EQ(myrmex_futex_wait(NULL, 0, -1), -EFAULT);
	CHECK_EQ(myrmex_futex_wake((volatile int *)KERNEL_IMAGE_ADDR, 1), -EFAULT);
	CHECK_EQ(myrmex_futex_wake((volatile int *)PHYSMAP_ADDR, 1), -EFAULT);
	CHECK_EQ(myrmex_futex_wait((volatile int *)((char *)&word + 1), 0, -1), -EINVAL);
	CHECK_EQ(myrmex_futex_wake((volatile int *)((char *)&word + 2), 1), -EINVAL);
	CHECK_EQ(raw4(SYS_futex, (long)&word, 99, 0, 0), -ENOSYS);
	CHECK_EQ(raw4(SYS_futex, (long)&word, 127, 0, 0), -ENOSYS);
	/* The value matches, so only the timeout decides. */
	CHECK_EQ(raw4(SYS_futex, (long)&word, MYRMEX_FUTEX_WAIT, 0, KERNEL_IMAGE_ADDR), -EFAULT);
	CHECK_EQ(raw4(SYS_futex, (long)&word, MYRMEX_FUTEX_WAIT, 0, (long)&ts), -EINVAL);
	ts.tv_sec = -1;
	ts.tv_nsec = 0;
	CHECK_EQ(raw4(SYS_futex, (long)&word, MYRMEX_FUTEX_WAIT, 0, (long)&ts), -EINVAL);
	CHECK_EQ(myrmex_futex_wake(&word, -1), 0);
}

/* ------------------------------------------------------------ the rest */

static void check_uname(void)
{
	struct utsname u;

	for (size_t i = 0; i < BAD_ADDRESSES; i++)
		test_expect(raw1(SYS_uname, bad_addresses[i].addr), (const long[]){ -EFAULT }, 1,
		            "uname(%s)", bad_addresses[i].name);
	CHECK_EQ(raw1(SYS_uname, 0), -EFAULT);
	CHECK_EQ(raw1(SYS_uname, page_tail(sizeof u / 2)), -EFAULT);
	CHECK_EQ(raw1(SYS_uname, (long)&u), 0);
	CHECK(u.sysname[0] != '\0', "uname gave an empty sysname");
}

static void check_signals_and_tid_address(void)
{
	CHECK_EQ(raw4(SYS_rt_sigaction, SIGINT, 0, 0, 8), 0);
	CHECK_ONE_OF(raw4(SYS_rt_sigaction, SIGINT, 0, KERNEL_IMAGE_ADDR, 8), 0, -EFAULT);
	CHECK_EQ(raw4(SYS_rt_sigprocmask, SIG_BLOCK, 0, 0, 8), 0);
	CHECK_ONE_OF(raw4(SYS_rt_sigprocmask, SIG_BLOCK, 0, KERNEL_IMAGE_ADDR, 8), 0, -EFAULT);
	/* Accepted; the kernel must not write there when this thread exits. */
	CHECK_EQ(raw1(SYS_set_tid_address, KERNEL_IMAGE_ADDR), raw0(SYS_gettid));
}

static void check_ioctl(void)
{
	struct winsize ws;

	CHECK_EQ(raw3(SYS_ioctl, 1000, TIOCGWINSZ, (long)&ws), -EBADF);
	if (!native)
		return; /* Linux's answers depend on where stdout goes */
	CHECK_EQ(raw3(SYS_ioctl, 1, TIOCGWINSZ, (long)&ws), 0);
	CHECK_EQ(raw3(SYS_ioctl, 1, TIOCGWINSZ, KERNEL_IMAGE_ADDR), -EFAULT);
	CHECK_EQ(raw3(SYS_ioctl, 2, TIOCGWINSZ, UNMAPPED_LOW_ADDR), -EFAULT);
	CHECK_EQ(raw3(SYS_ioctl, 1, 0x1234, (long)&ws), -ENOTTY);
	CHECK_ONE_OF(raw3(SYS_ioctl, 0, TIOCGWINSZ, (long)&ws), 0, -ENOTTY, -EBADF);
	CHECK_ONE_OF(raw3(SYS_ioctl, 3, TIOCGWINSZ, (long)&ws), -ENOTTY, -EBADF);
}

static void check_unknown_numbers(void)
{
	static const long numbers[] = {
		400, 512, 1000, 4095, MYRMEX_SYS_BASE + 100, -1, -4096,
	};
	for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++)
		test_expect(myrmex_syscall6(numbers[i], 1, 2, 3, 4, 5, 6),
		            (const long[]){ -ENOSYS }, 1, "system call %ld", numbers[i]);
	if (!native)
		return;
	/* Linux 6.11 and later use 335 for uretprobe (SIGILL outside a probe). */
	CHECK_EQ(myrmex_syscall6(335, 1, 2, 3, 4, 5, 6), -ENOSYS);
	/* Linux keeps only the low 32 bits of the number (this would be read). */
	CHECK_EQ(myrmex_syscall6(1L << 40, 1, 2, 3, 4, 5, 6), -ENOSYS);
	CHECK_EQ(myrmex_syscall6((1L << 32) + SYS_getpid, 1, 2, 3, 4, 5, 6), -ENOSYS);
}

/* ------------------------------------------------------------ native calls */

/* After a spawn that should have been refused: if it made a child after
 * all (the check has failed already), reap it so nothing is left behind. */
static void reap_if_spawned(long result)
{
	int status;
	if (result > 0)
		raw4(SYS_wait4, result, (long)&status, 0, 0);
}

/* A spawn that must be refused with one of the listed errors. */
#define CHECK_SPAWN_REFUSED(call, ...) reap_if_spawned(CHECK_ONE_OF(call, __VA_ARGS__))

static void check_spawn(void)
{
	char *const argv_kernel_entry[] = { (char *)KERNEL_IMAGE_ADDR, NULL };
	char *const argv_physmap_entry[] = { "t_alive", (char *)PHYSMAP_ADDR, NULL };
	char *const envp_kernel_entry[] = { (char *)KERNEL_IMAGE_ADDR, NULL };

	CHECK_SPAWN_REFUSED(myrmex_spawn(NULL, alive_argv, test_envp, -1), -EFAULT);
	for (size_t i = 0; i < BAD_ADDRESSES; i++) {
		long a = bad_addresses[i].addr;
		long r = myrmex_spawn((const char *)a, alive_argv, test_envp, -1);
		reap_if_spawned(test_expect(r, (const long[]){ -EFAULT }, 1,
		                            "spawn(module at %s)", bad_addresses[i].name));
		r = myrmex_spawn("t_alive", (char *const *)a, test_envp, -1);
		reap_if_spawned(test_expect(r, (const long[]){ -EFAULT }, 1, "spawn(argv at %s)",
		                            bad_addresses[i].name));
		r = myrmex_spawn("t_alive", alive_argv, (char *const *)a, -1);
		reap_if_spawned(test_expect(r, (const long[]){ -EFAULT }, 1, "spawn(envp at %s)",
		                            bad_addresses[i].name));
	}
	CHECK_SPAWN_REFUSED(myrmex_spawn("t_alive", argv_kernel_entry, test_envp, -1), -EFAULT);
	CHECK_SPAWN_REFUSED(myrmex_spawn("t_alive", argv_physmap_entry, test_envp, -1), -EFAULT);
	CHECK_SPAWN_REFUSED(myrmex_spawn("t_alive", alive_argv, envp_kernel_entry, -1), -EFAULT);

	/* A module name without its NUL before the unmapped page. */
	char *name_tail = (char *)page_tail(4);
	memcpy(name_tail, "t_al", 4);
	CHECK_SPAWN_REFUSED(myrmex_spawn(name_tail, alive_argv, test_envp, -1), -EFAULT);
	/* An argv array without its NULL before the unmapped page. */
	char **argv_tail = (char **)page_tail(sizeof(char *));
	argv_tail[0] = "t_alive";
	CHECK_SPAWN_REFUSED(myrmex_spawn("t_alive", argv_tail, test_envp, -1), -EFAULT);
	/* An argv string without its NUL before the unmapped page (the argv
	 * array above overwrote the name, so it is written again). */
	memcpy(name_tail, "t_al", 4);
	char *const argv_string_tail[] = { name_tail, NULL };
	CHECK_SPAWN_REFUSED(myrmex_spawn("t_alive", argv_string_tail, test_envp, -1), -EFAULT);
	memset((void *)mapped_page, '\n', PAGE);

	CHECK_SPAWN_REFUSED(myrmex_spawn("no_such_module", alive_argv, test_envp, -1), -ENOENT);
	CHECK_SPAWN_REFUSED(myrmex_spawn("", alive_argv, test_envp, -1), -ENOENT);
	CHECK_SPAWN_REFUSED(myrmex_spawn("t_alive", alive_argv, test_envp, MYRMEX_PRIO_MAX + 9),
	                    -EINVAL);
	CHECK_SPAWN_REFUSED(myrmex_spawn("t_alive", alive_argv, test_envp, -2), -EINVAL);
}

/* 10 MiB of arguments must be refused (E2BIG), not copied. */
static void check_spawn_huge_argv(void)
{
	const long string_len = 1L << 20;
	long block = mmap6(0, string_len + PAGE, RW, ANON, -1, 0);
	if (block < 0) {
		test_fail("mmap for the huge argv: %ld", block);
		return;
	}
	memset((void *)block, 'a', (size_t)string_len);
	((char *)block)[string_len] = '\0';
	char *argv[12];
	argv[0] = "t_alive";
	for (int i = 1; i < 11; i++)
		argv[i] = (char *)block;
	argv[11] = NULL;
	CHECK_SPAWN_REFUSED(myrmex_spawn("t_alive", argv, test_envp, -1), -E2BIG, -ENOMEM);
	raw2(SYS_munmap, block, string_len + PAGE);
}

static void check_native_calls(void)
{
	struct myrmex_kstats stats;

	check_spawn();
	check_spawn_huge_argv();

	for (size_t i = 0; i < BAD_ADDRESSES; i++)
		test_expect(raw2(MYRMEX_SYS_KSTATS, bad_addresses[i].addr, sizeof stats),
		            (const long[]){ -EFAULT }, 1, "kstats(%s)", bad_addresses[i].name);
	CHECK_EQ(raw2(MYRMEX_SYS_KSTATS, 0, sizeof stats), -EFAULT);
	CHECK_EQ(raw2(MYRMEX_SYS_KSTATS, page_tail(64), sizeof stats), -EFAULT);
	CHECK_EQ(raw2(MYRMEX_SYS_KSTATS, (long)&stats, 0), 0);
	CHECK_EQ(raw2(MYRMEX_SYS_KSTATS, (long)&stats, 8), 8);
	CHECK_EQ(raw2(MYRMEX_SYS_KSTATS, (long)&stats, 1L << 40), (long)sizeof stats);
	CHECK_EQ(raw2(MYRMEX_SYS_KSTATS, (long)&stats, -1L), (long)sizeof stats);

	CHECK_EQ(myrmex_poweroff(0), -EPERM);
	CHECK_EQ(myrmex_poweroff(1), -EPERM);

	/* The /proc server's calls: nobody else's, whatever the arguments. */
	struct myrmex_region regions[4];
	char env[64];
	long me = raw0(SYS_getpid);
	CHECK_EQ(raw2(MYRMEX_SYS_PROC_INFO, me, (long)env), -EPERM);
	CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_PROC_ENVIRON, me, 0, (long)env, sizeof env, 0, 0), -EPERM);
	CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_PROC_ENVIRON, -1, -1, KERNEL_IMAGE_ADDR, -1, 0, 0), -EPERM);
	CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_PROC_MAPS, me, (long)regions, 4, 0, 0, 0), -EPERM);
	CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_PROC_MAPS, 0, KERNEL_IMAGE_ADDR, -1, 0, 0, 0), -EPERM);
	/* The file manager's rename for /proc/<pid>/comm: nobody else's. */
	CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_PROC_SET_NAME, me, (long)env, 4, 0, 0, 0), -EPERM);
	CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_PROC_SET_NAME, -1, KERNEL_IMAGE_ADDR, -1, 0, 0, 0), -EPERM);
	/* The console server's job-control check: nobody else's. */
	CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_TTY_SIGNAL, me, SIGTTOU, 0, 0, 0, 0), -EPERM);
	CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_TTY_SIGNAL, -1, 99, 0, 0, 0, 0), -EPERM);

	CHECK_EQ(myrmex_setprio(0, 40), -EINVAL);
	CHECK_EQ(myrmex_setprio(0, -1), -EINVAL);
	CHECK_EQ(myrmex_setprio(0, 1 << 30), -EINVAL);
	CHECK_EQ(myrmex_setprio(1 << 29, 10), -ESRCH);
}

int main(void)
{
	native = myrmex_is_native();
	setup_pages();

	check_write();
	check_writev();
	check_clock_gettime();
	check_sleeps();
	check_brk();
	check_mmap();
	check_munmap();
	check_mprotect();
	check_clone();
	check_wait4();
	check_kill();
	check_arch_prctl();
	check_futex();
	check_uname();
	check_signals_and_tid_address();
	check_ioctl();
	check_unknown_numbers();
	if (native)
		check_native_calls();
	else
		test_note("not on Myrmex: native-call checks skipped");

	myrmex_puts(test_exit_code() ? "t_badsys: FAILED\n" : "t_badsys: all checks passed\n");
	return test_exit_code();
}
