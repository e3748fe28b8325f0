/*
 * myrmex_trapcall6 on x86-64: a raw system call through the trap gate
 * (int $0x81, MYRMEX_TRAP_VECTOR), the slow entry kept for comparison with
 * syscall (syscall_raw.c). Same registers and result.
 */
#include "myrmex.h"

long myrmex_trapcall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	register long r9 __asm__("r9") = a6;
	long ret;

	/* The gate keeps rcx and r11: nothing but rax changes. */
	__asm__ volatile("int $0x81"
	                 : "=a"(ret)
	                 : "0"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8), "r"(r9)
	                 : "memory");
	return ret;
}
