/*
 * myrmex.h's SH-4 part. The port has no cycle counter a program can read
 * (the TMU's registers are in P4, kernel only): the stand-in for x86-64's
 * time-stamp counter is CLOCK_MONOTONIC, which the kernel reads from the
 * TMU's free-running channel (docs/sh4.md), in nanoseconds; under QEMU's
 * -icount shift=0 one nanosecond is one instruction, as one TSC tick is on
 * x86-64. And the DMA cache hooks a driver calls around a device's reads
 * and writes of memory. Included by myrmex.h only, after myrmex_syscall6.
 */
#ifndef MYRMEX_ARCH_SH4_H
#define MYRMEX_ARCH_SH4_H

#include <stdint.h>

#define MYRMEX_SH_CLOCK_GETTIME32 265   /* SH Linux's clock_gettime, 32-bit timespec */

static inline uint64_t myrmex_rdtsc(void)
{
	long ts[2] = { 0, 0 };
	myrmex_syscall6(MYRMEX_SH_CLOCK_GETTIME32, 1 /* CLOCK_MONOTONIC */, (long)ts, 0, 0, 0, 0);
	return (uint64_t)(unsigned long)ts[0] * 1000000000u + (unsigned long)ts[1];
}

/*
 * DMA cache hooks (docs/sh4.md, "Devices"). The operand cache is write-back
 * and the PCI bridge does not snoop it: before a device reads [p, p + n)
 * its dirty lines are written back (ocbwb); before the CPU reads what a
 * device wrote there, the lines are dropped (ocbi), so the next load comes
 * from memory. The instructions go through the TLB with the program's own
 * rights (a bad address is the program's fault, as a load's would be) and
 * need no system call. ocbi drops whole 32-byte lines: the range's first
 * and last lines must hold nothing the CPU wrote and still needs (a
 * receive ring the CPU only reads). The cache is indexed by virtual
 * address: an ICA lies at the same address (its handle's slot) in every
 * process, so the lines another process dirtied in it are the ones this
 * address names.
 */
#define MYRMEX_DMA_COHERENT 0
#define MYRMEX_DMA_LINE 32u
static inline void myrmex_dma_to_device(const void *p, unsigned long n)
{
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(MYRMEX_DMA_LINE - 1);
	for (; a < (uintptr_t)p + n; a += MYRMEX_DMA_LINE)
		__asm__ volatile("ocbwb @%0" :: "r"(a) : "memory");
}
static inline void myrmex_dma_from_device(void *p, unsigned long n)
{
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)(MYRMEX_DMA_LINE - 1);
	for (; a < (uintptr_t)p + n; a += MYRMEX_DMA_LINE)
		__asm__ volatile("ocbi @%0" :: "r"(a) : "memory");
}

#endif
