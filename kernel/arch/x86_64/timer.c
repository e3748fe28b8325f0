/*
 * Time sources: the TSC, calibrated against the PIT (channel 2, gated by
 * port 0x61); the local APIC timer, calibrated against the TSC and run
 * periodically for the scheduler; and the CMOS real-time clock for the epoch.
 * The legacy 8259 PICs are remapped out of the exception range and masked.
 */
#include <kernel/arch.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <arch/x86.h>

#define PIT_HZ 1193182u
#define CALIBRATE_MS 10u

#define LAPIC_TPR     0x080
#define LAPIC_EOI     0x0b0
#define LAPIC_SVR     0x0f0
#define LAPIC_LVT_TIMER 0x320
#define LAPIC_TIMER_INIT 0x380
#define LAPIC_TIMER_CUR  0x390
#define LAPIC_TIMER_DIV  0x3e0
#define LVT_PERIODIC (1u << 17)
#define LVT_MASKED   (1u << 16)

static uint64_t tsc_khz;

static volatile uint32_t *lapic_reg(uint32_t offset)
{
	return (volatile uint32_t *)(DIRECT_MAP + 0xfee00000ull + offset);
}

void lapic_eoi(void)
{
	*lapic_reg(LAPIC_EOI) = 0;
}

static void pic_disable(void)
{
	outb(0x20, 0x11); outb(0xa0, 0x11);               /* init, expect ICW4 */
	outb(0x21, VEC_PIC_BASE); outb(0xa1, VEC_PIC_BASE + 8);
	outb(0x21, 4); outb(0xa1, 2);                     /* cascade */
	outb(0x21, 1); outb(0xa1, 1);                     /* 8086 mode */
	outb(0x21, 0xff); outb(0xa1, 0xff);               /* mask everything */
}

uint64_t arch_tsc_calibrate(void)
{
	uint32_t count = PIT_HZ / (1000 / CALIBRATE_MS);
	outb(0x61, (uint8_t)((inb(0x61) & ~0x02) | 0x01));   /* gate on, speaker off */
	outb(0x43, 0xb0);                                     /* channel 2, lo/hi, mode 0 */
	outb(0x42, (uint8_t)count);
	outb(0x42, (uint8_t)(count >> 8));
	uint64_t t0 = rdtsc();
	while (!(inb(0x61) & 0x20))
		;
	uint64_t t1 = rdtsc();
	tsc_khz = (t1 - t0) / CALIBRATE_MS;
	if (tsc_khz == 0)
		panic("timer: TSC calibration failed");
	return tsc_khz;
}

void arch_timer_start(unsigned hz)
{
	pic_disable();
	uint64_t base = rdmsr(MSR_APIC_BASE);
	if ((base & ~0xfffull) != 0xfee00000ull)
		panic("timer: local APIC at %#lx, expected 0xfee00000", (unsigned long)(base & ~0xfffull));
	wrmsr(MSR_APIC_BASE, base | (1u << 11));             /* globally enabled */
	*lapic_reg(LAPIC_SVR) = 0x100 | VEC_SPURIOUS;         /* software enable */
	*lapic_reg(LAPIC_TPR) = 0;

	/* Count APIC timer ticks over CALIBRATE_MS of TSC time. */
	*lapic_reg(LAPIC_TIMER_DIV) = 0x3;                    /* divide by 16 */
	*lapic_reg(LAPIC_LVT_TIMER) = LVT_MASKED | VEC_TIMER;
	*lapic_reg(LAPIC_TIMER_INIT) = 0xffffffffu;
	uint64_t end = rdtsc() + tsc_khz * CALIBRATE_MS;
	while (rdtsc() < end)
		;
	uint32_t elapsed = 0xffffffffu - *lapic_reg(LAPIC_TIMER_CUR);
	uint64_t per_tick = (uint64_t)elapsed * 1000 / CALIBRATE_MS / hz;
	if (per_tick == 0)
		panic("timer: APIC timer calibration failed");
	*lapic_reg(LAPIC_LVT_TIMER) = LVT_PERIODIC | VEC_TIMER;
	*lapic_reg(LAPIC_TIMER_INIT) = (uint32_t)per_tick;
	printk("timer: TSC %lu kHz, APIC timer %u Hz (%lu counts)\n",
	       (unsigned long)tsc_khz, hz, (unsigned long)per_tick);
}

static uint8_t cmos_read(uint8_t reg)
{
	outb(0x70, reg);
	return inb(0x71);
}

static unsigned from_bcd(uint8_t v, bool bcd)
{
	return bcd ? (v & 0x0f) + (v >> 4) * 10 : v;
}

/* Days from 1970-01-01 to the given civil date (proleptic Gregorian). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

uint64_t arch_rtc_epoch_seconds(void)
{
	while (cmos_read(0x0a) & 0x80)   /* an update is in progress */
		;
	uint8_t status_b = cmos_read(0x0b);
	bool bcd = !(status_b & 0x04);
	unsigned sec = from_bcd(cmos_read(0x00), bcd);
	unsigned min = from_bcd(cmos_read(0x02), bcd);
	uint8_t hour_raw = cmos_read(0x04);
	unsigned hour = from_bcd(hour_raw & 0x7f, bcd);
	if (!(status_b & 0x02) && (hour_raw & 0x80))   /* 12-hour clock, PM */
		hour = (hour % 12) + 12;
	unsigned day = from_bcd(cmos_read(0x07), bcd);
	unsigned month = from_bcd(cmos_read(0x08), bcd);
	unsigned year = from_bcd(cmos_read(0x09), bcd) + 2000;
	int64_t days = days_from_civil(year, month, day);
	return (uint64_t)(days * 86400 + hour * 3600 + min * 60 + sec);
}
