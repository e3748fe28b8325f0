/*
 * How the kernel makes its clocks from the time-stamp counter, and the one
 * formula the kernel and the time server (servers/time/timed) both use, so
 * that a time read from either agrees to the nanosecond. Part of the native
 * ABI; fixed-width fields, and no 128-bit arithmetic, so that a 32-bit port
 * computes the same numbers.
 *
 * clock_info(struct myrmex_clock_info *out) -> 0, or -EFAULT
 * Anyone: how the kernel turns the TSC into its clocks. Fixed from boot
 * (the TSC is calibrated once against the PIT, the RTC read once).
 */
#ifndef MYRMEX_CLOCK_H
#define MYRMEX_CLOCK_H

#include <stdint.h>
#include <myrmex/syscall.h>

#define MYRMEX_SYS_CLOCK_INFO (MYRMEX_SYS_BASE + 48)

struct myrmex_clock_info {
	uint64_t tsc_khz;    /* calibrated TSC frequency */
	uint64_t tsc_boot;   /* the TSC at monotonic time 0 */
	uint64_t mult;       /* ns = ticks * mult >> 32, mult = 10^6 * 2^32 / tsc_khz */
	uint64_t epoch_ns;   /* REALTIME at monotonic time 0: ns since 1970 (the RTC) */
};
_Static_assert(sizeof(struct myrmex_clock_info) == 32, "clock info layout");

/* (a * b) >> 32, truncated to 64 bits, from 32-bit halves: with
 * a = ah:al and b = bh:bl the product is ah*bh<<64 + (ah*bl + al*bh)<<32 +
 * al*bl, so after the shift it is ah*bh<<32 + ah*bl + al*bh + (al*bl >> 32);
 * every bit a 64-bit sum loses lies above bit 63 of the result. */
static inline uint64_t myrmex_mul_shift32(uint64_t a, uint64_t b)
{
	uint64_t ah = a >> 32, al = a & 0xffffffffu, bh = b >> 32, bl = b & 0xffffffffu;
	return ((ah * bh) << 32) + ah * bl + al * bh + ((al * bl) >> 32);
}

/* CLOCK_MONOTONIC in nanoseconds at TSC value tsc. */
static inline uint64_t myrmex_clock_monotonic(const struct myrmex_clock_info *c, uint64_t tsc)
{
	return myrmex_mul_shift32(tsc - c->tsc_boot, c->mult);
}

#endif
