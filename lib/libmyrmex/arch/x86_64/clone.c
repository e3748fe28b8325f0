/*
 * myrmex_clone_thread on x86-64 (arch_ops.h): the raw clone system call
 * whose child pops fn and arg off its new stack, runs fn(arg) and exits.
 */
#include <sys/syscall.h>
#include "myrmex.h"
#include "arch_ops.h"

/*
 * clone(flags, stack_top, tid_word, tid_word, 0). The new thread starts on
 * stack_top, where the caller stored fn and arg: it pops them, calls fn(arg)
 * with a 16-byte aligned stack and ends with exit(0). It never returns into
 * this function, whose frame belongs to the creator's stack. The creator
 * gets clone's result.
 */
long myrmex_clone_thread(unsigned long flags, void *stack_top, volatile int *tid_word)
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
		: "0"((long)SYS_clone), "D"(flags), "S"(stack_top),
		  "d"(tid_word), "r"(r10), "r"(r8), [exit_nr] "i"(SYS_exit)
		: "rcx", "r11", "memory");
	return ret;
}
