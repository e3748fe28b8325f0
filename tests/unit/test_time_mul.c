/*
 * Host unit test of the clock formula in include/myrmex/clock.h: the
 * 64-bit multiply-shift myrmex_mul_shift32 (which replaced a 128-bit
 * product so that 32-bit targets can include the header) gives exactly
 * what (t * mult) >> 32 of the 128-bit product gave, over edge values,
 * random values of every magnitude, and realistic TSC calibrations.
 */
/* unit-sources: */
#define UNIT_SUITE "time_mul"
#include "unit.h"

#include <myrmex/clock.h>

/* The formula as it was: the reference, host-only. */
static uint64_t reference(uint64_t t, uint64_t m)
{
	return (uint64_t)(((unsigned __int128)t * m) >> 32);
}

static uint64_t state = 88172645463325252ull;

static uint64_t rnd(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

/* Values of every size: full, shifted down, near the top, small, powers
 * of two, 32-bit. */
static uint64_t pick(void)
{
	uint64_t r = rnd();
	switch (rnd() % 6) {
	case 0: return r;
	case 1: return r >> (rnd() % 64);
	case 2: return UINT64_MAX - r % 1000;
	case 3: return r % 1000;
	case 4: return 1ull << (rnd() % 64);
	default: return (uint32_t)r;
	}
}

UNIT_TEST(edges)
{
	static const uint64_t v[] = { 0, 1, 2, 0xffffffffull, 0x100000000ull, 0x100000001ull,
	                              UINT64_MAX, UINT64_MAX - 1, 1ull << 63, (1ull << 63) - 1 };
	unsigned n = sizeof(v) / sizeof(v[0]);
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < n; j++)
			CHECK_EQ(myrmex_mul_shift32(v[i], v[j]), reference(v[i], v[j]));
}

UNIT_TEST(random)
{
	unsigned bad = 0;
	for (unsigned long i = 0; i < 2000000ul; i++) {
		uint64_t t = pick(), m = pick();
		bad += myrmex_mul_shift32(t, m) != reference(t, m);
	}
	CHECK_EQ(bad, 0);
}

UNIT_TEST(clocks)
{
	unsigned bad = 0;
	for (uint64_t khz = 1000; khz < 10000000; khz += 997) {
		struct myrmex_clock_info c = { khz, rnd(), (1000000ull << 32) / khz, 0 };
		for (int j = 0; j < 20; j++) {
			uint64_t tsc = c.tsc_boot + pick();
			bad += myrmex_clock_monotonic(&c, tsc) != reference(tsc - c.tsc_boot, c.mult);
		}
	}
	CHECK_EQ(bad, 0);
}
