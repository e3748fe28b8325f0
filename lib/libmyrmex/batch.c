/*
 * Wrapped system calls and the trap-gate entry from user space: storing an
 * entry of a batch area, running a batch (include/myrmex/syscall.h,
 * MYRMEX_SYS_BATCH), and a raw call through int $0x81.
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

void myrmex_batch_store(struct myrmex_batch_area *area, unsigned i, long nr, const long *a)
{
	struct myrmex_batch_entry *e = &area->entry[i];
	e->nr = (uint64_t)nr;
	for (int k = 0; k < 6; k++)
		e->arg[k] = a ? (uint64_t)a[k] : 0;
	e->result = 0;
	e->reserved = 0;
	e->state = MYRMEX_BATCH_STORED;
}

long myrmex_batch(struct myrmex_batch_area *area, uint64_t n)
{
	return myrmex_syscall6(MYRMEX_SYS_BATCH, (long)area, (long)n, 0, 0, 0, 0);
}

long myrmex_batch_trap(struct myrmex_batch_area *area, uint64_t n)
{
	return myrmex_trapcall6(MYRMEX_SYS_BATCH, (long)area, (long)n, 0, 0, 0, 0);
}
