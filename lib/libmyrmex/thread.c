/*
 * Kernel threads without libc's pthread: myrmex_thread_create maps a stack,
 * starts the thread with a raw clone system call (arch/<port>/clone.c) and
 * makes it run fn(arg) then the exit system call; myrmex_thread_join waits
 * for the kernel to clear the thread's tid (CLONE_CHILD_CLEARTID) and
 * unmaps the stack.
 */
#define _GNU_SOURCE
#include "myrmex.h"
#include "arch_ops.h"

#include <errno.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/syscall.h>

/* mmap with its offset in pages on 32-bit ports (the offset here is 0). */
#ifdef SYS_mmap2
#define SYS_MAP_ANON SYS_mmap2
#else
#define SYS_MAP_ANON SYS_mmap
#endif

/* The largest stack: 1 TiB, or half the address space of a 32-bit port. */
#define STACK_MAX (SIZE_MAX > 0xffffffffu ? (uint64_t)1 << 40 : (uint64_t)(SIZE_MAX / 2))

#define PAGE_SIZE 4096u
#define GUARD_SIZE PAGE_SIZE

#define THREAD_CLONE_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | \
                            CLONE_THREAD | CLONE_SYSVSEM | CLONE_PARENT_SETTID | \
                            CLONE_CHILD_CLEARTID)

static size_t round_up_to_page(size_t n)
{
	return (n + PAGE_SIZE - 1) & ~(size_t)(PAGE_SIZE - 1);
}

long myrmex_thread_create(struct myrmex_thread *t, void (*fn)(void *), void *arg,
                          size_t stack_size)
{
	if (stack_size == 0)
		stack_size = MYRMEX_THREAD_STACK_DEFAULT;
	if ((uint64_t)stack_size > STACK_MAX)
		return -EINVAL;
	size_t map_size = round_up_to_page(stack_size) + GUARD_SIZE;

	long base = myrmex_syscall6(SYS_MAP_ANON, 0, (long)map_size, PROT_READ | PROT_WRITE,
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

	long tid = myrmex_clone_thread(THREAD_CLONE_FLAGS, top, &t->tid);
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
