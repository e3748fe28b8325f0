/*
 * libmyrmex: the user-side library for Myrmex's native system calls and for
 * the small helpers that test and benchmark programs share. Programs are
 * built with musl-gcc -static and link this library; everything that is not
 * a native call works unchanged on Linux.
 */
#ifndef MYRMEX_H
#define MYRMEX_H

#include <stddef.h>
#include <stdint.h>
#include <myrmex/syscall.h>

/* Native calls (see include/myrmex/syscall.h for the contracts).
 * Each returns the kernel's result: >= 0 on success, -errno on failure. */
long myrmex_spawn(const char *module, char *const argv[], char *const envp[], int prio);
long myrmex_kstats(struct myrmex_kstats *out);
long myrmex_poweroff(int code);
long myrmex_setprio(int tid, int prio);

/* Raw Linux system call, returning -errno instead of setting errno. */
long myrmex_syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6);

/*
 * Kernel-scheduled threads of the calling process, made with Linux clone()
 * (CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|
 * CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID). The thread runs fn(arg) on a
 * stack of stack_size bytes taken from mmap and ends with the exit system
 * call when fn returns. It shares the creator's TLS, so it must not rely on
 * errno. Returns 0 and fills *t, or -errno (e.g. -EAGAIN at the thread limit).
 * stack_size 0 means MYRMEX_THREAD_STACK_DEFAULT; it is rounded up to whole
 * pages, and one inaccessible guard page below the stack catches overflow.
 */
#define MYRMEX_THREAD_STACK_DEFAULT (64 * 1024)
struct myrmex_thread {
	volatile int tid;   /* set by the kernel at creation, cleared at exit */
	int created_tid;    /* the tid as returned by clone */
	void *stack;        /* the stack mapping, guard page first */
	size_t stack_size;  /* bytes of that mapping, guard page included */
};
long myrmex_thread_create(struct myrmex_thread *t, void (*fn)(void *), void *arg,
                          size_t stack_size);
/* Waits until the thread has exited, then frees its stack. */
void myrmex_thread_join(struct myrmex_thread *t);

/*
 * futex(2) without libc: FUTEX_WAIT on addr while *addr == expected, for at
 * most timeout_ns nanoseconds (negative: no timeout), and FUTEX_WAKE of up to
 * count waiters. Both use the shared (non-private) form and return the
 * kernel's result: 0 or -EAGAIN/-ETIMEDOUT/-EINTR for wait, the number woken
 * for wake, -errno on failure.
 */
#define MYRMEX_FUTEX_WAIT    0
#define MYRMEX_FUTEX_WAKE    1
#define MYRMEX_FUTEX_PRIVATE 128   /* FUTEX_PRIVATE_FLAG, or-ed into the op */
long myrmex_futex_wait(volatile int *addr, int expected, int64_t timeout_ns);
long myrmex_futex_wake(volatile int *addr, int count);

/* CLOCK_MONOTONIC in nanoseconds (0 if the clock is refused), and a relative
 * nanosleep; raw system calls, safe in threads. */
uint64_t myrmex_now_ns(void);
long myrmex_sleep_ns(uint64_t ns);

/* 1 when running on Myrmex (kstats answers), 0 on Linux (-ENOSYS). */
int myrmex_is_native(void);

/* Time-stamp counter. Under QEMU's -icount shift=0 one tick = one instruction. */
static inline uint64_t myrmex_rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* Writes a string to fd 1 with one write system call (no stdio buffering). */
void myrmex_puts(const char *s);

#endif
