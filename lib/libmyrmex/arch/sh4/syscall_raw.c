/*
 * myrmex_syscall6 on SH-4: the one place that executes trapa for the
 * library. SH Linux's convention, which the port's kernel takes
 * (docs/sh4.md, kernel/arch/sh4/include/arch/arch_types.h): the number in
 * r3, the arguments in r4-r7, r0, r1, the result in r0 (-errno on failure,
 * errno untouched). The kernel takes any trapa immediate; 0x16 is Linux's
 * "six arguments". It restores every other register, so only r0 and the
 * T bit are outputs.
 */
#include "myrmex.h"

long myrmex_syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	register long r3 __asm__("r3") = nr;
	register long r4 __asm__("r4") = a1;
	register long r5 __asm__("r5") = a2;
	register long r6 __asm__("r6") = a3;
	register long r7 __asm__("r7") = a4;
	register long r0 __asm__("r0") = a5;
	register long r1 __asm__("r1") = a6;

	__asm__ volatile("trapa #0x16"
	                 : "+r"(r0)
	                 : "r"(r3), "r"(r4), "r"(r5), "r"(r6), "r"(r7), "r"(r1)
	                 : "memory", "t");
	return r0;
}
