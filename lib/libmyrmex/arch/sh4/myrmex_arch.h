/*
 * myrmex.h's SH-4 part. The port has no cycle counter a program can read
 * (the TMU's registers are in P4, kernel only): the stand-in for x86-64's
 * time-stamp counter is CLOCK_MONOTONIC, which the kernel reads from the
 * TMU's free-running channel (docs/sh4.md), in nanoseconds; under QEMU's
 * -icount shift=0 one nanosecond is one instruction, as one TSC tick is on
 * x86-64. Included by myrmex.h only, after myrmex_syscall6.
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

#endif
