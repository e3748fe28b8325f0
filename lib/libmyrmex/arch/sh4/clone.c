/*
 * myrmex_clone_thread on SH-4 (arch_ops.h): SH Linux's clone(flags, stack,
 * parent_tid, child_tid, tls) through trapa; the child, on its new stack
 * with r0 = 0, pops fn and arg, calls fn(arg) (argument in r4) and makes
 * the exit call. The parent only sees r0 change.
 */
#include <sys/syscall.h>
#include "myrmex.h"
#include "arch_ops.h"

_Static_assert(SYS_exit == 1, "the child's exit below is call 1");

long myrmex_clone_thread(unsigned long flags, void *stack_top, volatile int *tid_word)
{
	register long r3 __asm__("r3") = SYS_clone;
	register long r4 __asm__("r4") = (long)flags;
	register long r5 __asm__("r5") = (long)stack_top;
	register long r6 __asm__("r6") = (long)tid_word;   /* parent_tid */
	register long r7 __asm__("r7") = (long)tid_word;   /* child_tid */
	register long r0 __asm__("r0") = 0;                /* tls (unused) */

	__asm__ volatile(
		"trapa #0x15\n\t"
		"tst r0, r0\n\t"
		"bf 1f\n\t"
		"mov.l @r15+, r1\n\t"    /* the new thread: fn */
		"mov.l @r15+, r4\n\t"    /* arg */
		"mov #0, r14\n\t"        /* outermost frame */
		"jsr @r1\n\t"
		"nop\n\t"
		"mov #1, r3\n\t"         /* exit(0) */
		"mov #0, r4\n\t"
		"trapa #0x11\n"
		"2:\tbra 2b\n\t"          /* exit does not return */
		"nop\n"
		"1:"
		: "+r"(r0)
		: "r"(r3), "r"(r4), "r"(r5), "r"(r6), "r"(r7)
		: "memory", "t");
	return r0;
}
