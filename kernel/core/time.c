/*
 * The clocks (see kernel/time.h). Nanoseconds come from TSC ticks by a
 * fixed-point multiply, ns = ticks * mult >> 32, with mult = 10^6 * 2^32 / kHz,
 * which needs no division on the read path. The formula is the one of
 * include/myrmex/time.h, which the time server uses with the same numbers
 * (clock_info), so the two read one clock.
 */
#include <kernel/time.h>
#include <kernel/arch.h>
#include <kernel/printk.h>

static struct myrmex_clock_info clock;

void time_init(void)
{
	clock.tsc_khz = arch_tsc_calibrate();
	clock.tsc_boot = arch_read_tsc();
	clock.mult = (1000000ull << 32) / clock.tsc_khz;
	clock.epoch_ns = arch_rtc_epoch_seconds() * 1000000000ull;
}

uint64_t time_monotonic_ns(void)
{
	return myrmex_clock_monotonic(&clock, arch_read_tsc());
}

uint64_t time_realtime_ns(void)
{
	return clock.epoch_ns + time_monotonic_ns();
}

void time_set_epoch(uint64_t epoch_ns)
{
	clock.epoch_ns = epoch_ns;
}

void time_set_realtime(uint64_t ns)
{
	uint64_t mono = time_monotonic_ns();
	clock.epoch_ns = ns > mono ? ns - mono : 0;
}

uint64_t time_tsc_to_ns(uint64_t ticks)
{
	return myrmex_mul_shift32(ticks, clock.mult);
}

uint64_t time_tsc_khz(void)
{
	return clock.tsc_khz;
}

void time_clock_info(struct myrmex_clock_info *out)
{
	*out = clock;
}
