/*
 * Time on the SH7751R's timer unit: channel 0 interrupts hz times a second
 * (the scheduler's clock, INTEVT 0x400), channel 1 counts down freely and
 * stands in for a time-stamp counter. Both count the peripheral clock / 4.
 * The r2d's RTC is not used: the epoch starts at 0.
 */
#include <kernel/arch.h>
#include <kernel/sched.h>
#include <kernel/stats.h>
#include <arch/sh4.h>

/* The free-running counter extended to 64 bits; read at least once per
 * wrap (286 s), which the timer interrupt guarantees. */
static uint32_t tsc_last;
static uint64_t tsc_high;

uint64_t arch_read_tsc(void)
{
	uint32_t elapsed = ~mmio_read32(SH4_TCNT1);   /* it counts down from ~0 */
	if (elapsed < tsc_last)
		tsc_high += 1ull << 32;
	tsc_last = elapsed;
	return tsc_high | elapsed;
}

uint64_t arch_tsc_calibrate(void)
{
	return SH4_TMU_HZ / 1000;
}

void arch_timer_start(unsigned hz)
{
	uint32_t count = SH4_TMU_HZ / hz - 1;
	mmio_write8(SH4_TSTR, 0);
	mmio_write32(SH4_TCOR0, count);
	mmio_write32(SH4_TCNT0, count);
	mmio_write16(SH4_TCR0, TCR_UNIE);             /* Pφ/4, interrupt on underflow */
	mmio_write32(SH4_TCOR1, 0xffffffffu);
	mmio_write32(SH4_TCNT1, 0xffffffffu);
	mmio_write16(SH4_TCR1, 0);
	mmio_write16(SH4_IPRA, (uint16_t)((mmio_read16(SH4_IPRA) & 0x0fff) | (10u << 12)));
	mmio_write8(SH4_TSTR, 3);
}

void sh4_timer_interrupt(void)
{
	mmio_write16(SH4_TCR0, (uint16_t)(mmio_read16(SH4_TCR0) & ~TCR_UNF));
	(void)arch_read_tsc();
	STAT_INC(timer_ticks);
	sched_tick();
}

uint64_t arch_rtc_epoch_seconds(void)
{
	return 0;
}

bool arch_random64(uint64_t *out)
{
	(void)out;
	return false;   /* no generator on the SH-4: the caller uses its own */
}
