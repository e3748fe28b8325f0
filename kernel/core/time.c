/*
 * The clocks (see kernel/time.h). Nanoseconds come from TSC ticks by a
 * fixed-point multiply, ns = ticks * mult >> 32, with mult = 10^6 * 2^32 / kHz,
 * which needs no division on the read path.
 */
#include <kernel/time.h>
#include <kernel/arch.h>
#include <kernel/printk.h>

static uint64_t tsc_khz, tsc_boot, mult, epoch_ns_at_boot;

void time_init(void)
{
	tsc_khz = arch_tsc_calibrate();
	tsc_boot = arch_read_tsc();
	mult = (1000000ull << 32) / tsc_khz;
	epoch_ns_at_boot = arch_rtc_epoch_seconds() * 1000000000ull;
}

uint64_t time_monotonic_ns(void)
{
	uint64_t ticks = arch_read_tsc() - tsc_boot;
	return (uint64_t)(((unsigned __int128)ticks * mult) >> 32);
}

uint64_t time_realtime_ns(void)
{
	return epoch_ns_at_boot + time_monotonic_ns();
}

uint64_t time_tsc_khz(void)
{
	return tsc_khz;
}
