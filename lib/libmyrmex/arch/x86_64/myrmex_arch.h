/*
 * myrmex.h's x86-64 part: the time-stamp counter and the DMA cache hooks.
 * Included by myrmex.h only.
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

/* DMA cache hooks (the SH-4's do work): x86-64's caches are coherent with
 * device DMA, so there is nothing to write back before a device reads
 * memory, nor to drop before the CPU reads what a device wrote. A driver
 * that tests MYRMEX_DMA_COHERENT skips whatever it would do only for them. */
#define MYRMEX_DMA_COHERENT 1
static inline void myrmex_dma_to_device(const void *p, unsigned long n) { (void)p; (void)n; }
static inline void myrmex_dma_from_device(void *p, unsigned long n) { (void)p; (void)n; }

#endif
