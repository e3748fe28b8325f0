/*
 * Kernel threads without libc's pthread: myrmex_thread_create maps a stack,
 * starts the thread with a raw clone system call and makes it run fn(arg)
 * then the exit system call; myrmex_thread_join waits for the kernel to
 * clear the thread's tid (CLONE_CHILD_CLEARTID) and unmaps the stack.
 */
#define _GNU_SOURCE
#include "myrmex.h"

#include <errno.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#define PAGE_SIZE 4096u
#define GUARD_SIZE PAGE_SIZE

#define THREAD_CLONE_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
                            CLONE_THREAD | CLONE_SYSVSEM | CLONE_PARENT_SETTID | \
                            CLONE_CHILD_CLEARTID)

/*
 * clone(flags, stack_top, tid_word, tid_word, 0). The new thread starts on
 * stack_top, where the caller stored fn and arg: it pops them, calls fn(arg)
 * with a 16-byte aligned stack and ends with exit(0). It never returns into
 * this function, whose frame belongs to the creator's stack. The creator
 * gets clone's result.
 */
static long clone_thread(void *stack_top, volatile int *tid_word)
{
	register long r10 __asm__("r10") = (long)tid_word; /* child_tid */
	register long r8 __asm__("r8") = 0;                  /* tls (unused) */
	long ret;

	__asm__ volatile(
		"syscall\n\t"
		"test %%rax, %%rax\n\t"
		"jnz 1f\n\t"
		"xor %%ebp, %%ebp\n\t"   /* new thread: outermost frame */
		"pop %%rax\n\t"          /* fn */
		"pop %%rdi\n\t"          /* arg */
		"call *%%rax\n\t"
		"mov %[exit_nr], %%eax\n\t"
		"xor %%edi, %%edi\n\t"
		"syscall\n\t"
		"ud2\n"                  /* exit does not return */
		"1:"
		: "=a"(ret)
		: "0"((long)SYS_clone), "D"((long)THREAD_CLONE_FLAGS), "S"(stack_top),
		  "d"(tid_word), "r"(r10), "r"(r8), [exit_nr] "i"(SYS_exit)
		: "rcx", "r11", "memory");
	return ret;
}

static size_t round_up_to_page(size_t n)
{
	return (n + PAGE_SIZE - 1) & ~(size_t)(PAGE_SIZE - 1);
}

long myrmex_thread_create(struct myrmex_thread *t, void (*fn)(void *), void *arg,
                          size_t stack_size)
{
	if (stack_size == 0)
		stack_size = MYRMEX_THREAD_STACK_DEFAULT;
	if (stack_size > ((size_t)1 << 40))
		return -EINVAL;
	size_t map_size = round_up_to_page(stack_size) + GUARD_SIZE;

	long base = myrmex_syscall6(SYS_mmap, 0, (long)map_size, PROT_READ | PROT_WRITE,
	                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base < 0)
		return base;
	long err = myrmex_syscall6(SYS_mprotect, base, GUARD_SIZE, PROT_NONE, 0, 0, 0);
	if (err < 0) {
		myrmex_syscall6(SYS_munmap, base, (long)map_size, 0, 0, 0, 0);
		return err;
	}

	t->stack = (void *)base;
	t->stack_size = map_size;
	/* Nonzero until the kernel stores the real tid (CLONE_PARENT_SETTID) and
	 * clears it at exit, so a join can never mistake "not yet set" for "gone". */
	t->tid = -1;

	uintptr_t *top = (uintptr_t *)((char *)t->stack + map_size);
	*--top = (uintptr_t)arg;
	*--top = (uintptr_t)fn;

	long tid = clone_thread(top, &t->tid);
	if (tid < 0) {
		t->tid = 0;
		myrmex_syscall6(SYS_munmap, base, (long)map_size, 0, 0, 0, 0);
		t->stack = NULL;
		t->stack_size = 0;
		return tid;
	}
	t->created_tid = (int)tid;
	return 0;
}

void myrmex_thread_join(struct myrmex_thread *t)
{
	int tid;

	while ((tid = t->tid) != 0) {
		if (myrmex_futex_wait(&t->tid, tid, -1) == -ENOSYS)
			myrmex_syscall6(SYS_sched_yield, 0, 0, 0, 0, 0, 0);
	}
	if (t->stack) {
		myrmex_syscall6(SYS_munmap, (long)t->stack, (long)t->stack_size, 0, 0, 0, 0);
		t->stack = NULL;
		t->stack_size = 0;
	}
}
