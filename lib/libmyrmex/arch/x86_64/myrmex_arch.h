/*
 * myrmex.h's x86-64 part: the time-stamp counter. Included by myrmex.h only.
 */
#ifndef MYRMEX_ARCH_X86_64_H
#define MYRMEX_ARCH_X86_64_H

#include <stdint.h>

/* Time-stamp counter. Under QEMU's -icount shift=0 one tick = one instruction. */
static inline uint64_t myrmex_rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

#endif
