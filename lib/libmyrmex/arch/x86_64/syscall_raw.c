/*
 * myrmex_syscall6: the one place that executes the syscall instruction for
 * the library. Linux x86-64 convention (number in rax, arguments in rdi, rsi,
 * rdx, r10, r8, r9; the CPU clobbers rcx and r11); the result is returned as
 * the kernel gave it, -errno on failure, without touching errno.
 */
#include "myrmex.h"

long myrmex_syscall6(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	register long r9 __asm__("r9") = a6;
	long ret;

	__asm__ volatile("syscall"
	                 : "=a"(ret)
	                 : "0"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8), "r"(r9)
	                 : "rcx", "r11", "memory");
	return ret;
}
