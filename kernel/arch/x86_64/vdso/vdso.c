/*
 * The vDSO of x86-64 POSIX processes (include/myrmex/vdso.h, docs/posix.md):
 * clock_gettime, gettimeofday, time and clock_getres read without a system
 * call, from the time server's clock in the clock page the kernel maps just
 * below this image. Built freestanding and position-independent into a
 * small shared object (vdso.lds), which the kernel embeds (vdso_image.S)
 * and maps into every POSIX process; musl and glibc find it through
 * AT_SYSINFO_EHDR.
 *
 * Whatever this code cannot answer goes to the real system call, as on
 * Linux: a clock it does not know (CPU-time clocks, bad ids: the kernel
 * says -EINVAL), and every call while no time server has published its
 * clock (before it starts, after it ends). The results are the kernel's
 * raw ones (-errno), as Linux's vDSO returns them.
 *
 * No relocations, no data of its own: the clock page is reached
 * RIP-relative through a hidden symbol the linker script places one page
 * before the image.
 */
#include <stdint.h>
#include <myrmex/time.h>
#include <myrmex/vdso.h>

#define NS_PER_S 1000000000ull
/* Readings of seq tried before giving up on a writer and making the
 * system call instead (a writer is never seen on one CPU: the kernel writes
 * the page with interrupts off). */
#define READ_TRIES 64

#define SYS_gettimeofday  96
#define SYS_time          201
#define SYS_clock_gettime 228
#define SYS_clock_getres  229

struct vdso_timespec { int64_t sec, nsec; };
struct vdso_timeval { int64_t sec, usec; };
struct vdso_timezone { int32_t minuteswest, dsttime; };

extern const volatile struct myrmex_vdso_data vdso_data __attribute__((visibility("hidden")));

static inline long syscall2(long nr, long a, long b)
{
	long r;
	__asm__ volatile("syscall" : "=a"(r) : "a"(nr), "D"(a), "S"(b) : "rcx", "r11", "memory");
	return r;
}

/* The time-stamp counter, not read before the loads that precede it
 * (Linux's rdtsc_ordered; the time server reads it the same way). */
static inline uint64_t rdtsc_ordered(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* The clocks the page answers, as bit masks over Linux's clock ids (the
 * same set as time_clock_valid and time_clock_is_realtime of
 * include/myrmex/time.h, checked below), so that the hot path tests a
 * clock with one shift. */
#define CLOCKS_SERVED ((1u << TIME_CLOCK_REALTIME) | (1u << TIME_CLOCK_MONOTONIC) | \
                       (1u << TIME_CLOCK_MONOTONIC_RAW) | (1u << TIME_CLOCK_REALTIME_COARSE) | \
                       (1u << TIME_CLOCK_MONOTONIC_COARSE) | (1u << TIME_CLOCK_BOOTTIME))
#define CLOCKS_REALTIME ((1u << TIME_CLOCK_REALTIME) | (1u << TIME_CLOCK_REALTIME_COARSE))

static inline int served(int clock)
{
	return (unsigned)clock < 32 && (CLOCKS_SERVED >> clock) & 1;
}

/* MONOTONIC from a TSC reading: (tsc - tsc_boot) * mult >> 32 with the
 * whole 128-bit product, which is exactly myrmex_clock_monotonic's
 * 64-bit-only form (tests/unit/test_time_mul.c checks the two agree), in
 * one multiply. */
static inline uint64_t monotonic_at(uint64_t tsc, uint64_t boot, uint64_t mult)
{
	return (uint64_t)(((unsigned __int128)(tsc - boot) * mult) >> 32);
}

/* The clock's nanoseconds (REALTIME when realtime, else MONOTONIC) into
 * *ns: 0, or -1 when no clock is published (or a writer held the page for
 * all our tries). */
static inline __attribute__((always_inline)) int read_ns(int realtime, uint64_t *ns)
{
	for (int i = 0; i < READ_TRIES; i++) {
		uint32_t seq = __atomic_load_n(&vdso_data.seq, __ATOMIC_ACQUIRE);
		if (seq & 1)
			continue;
		if (!vdso_data.published)
			return -1;
		uint64_t boot = vdso_data.clock.tsc_boot;
		uint64_t mult = vdso_data.clock.mult;
		uint64_t epoch = realtime ? vdso_data.clock.epoch_ns : 0;
		uint64_t tsc = rdtsc_ordered();
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&vdso_data.seq, __ATOMIC_RELAXED) != seq)
			continue;
		*ns = epoch + monotonic_at(tsc, boot, mult);
		return 0;
	}
	return -1;
}

/* Out of the hot path: the real call. */
static __attribute__((noinline, cold)) int clock_gettime_call(int clock, struct vdso_timespec *ts)
{
	return (int)syscall2(SYS_clock_gettime, clock, (long)ts);
}

int __vdso_clock_gettime(int clock, struct vdso_timespec *ts)
{
	uint64_t ns;
	if (!served(clock) || read_ns((CLOCKS_REALTIME >> clock) & 1, &ns) < 0)
		return clock_gettime_call(clock, ts);
	ts->sec = (int64_t)(ns / NS_PER_S);
	ts->nsec = (int64_t)(ns % NS_PER_S);
	return 0;
}

int __vdso_gettimeofday(struct vdso_timeval *tv, struct vdso_timezone *tz)
{
	uint64_t ns = 0;
	if (tv && read_ns(1, &ns) < 0)
		return (int)syscall2(SYS_gettimeofday, (long)tv, (long)tz);
	if (tv) {
		tv->sec = (int64_t)(ns / NS_PER_S);
		tv->usec = (int64_t)(ns % NS_PER_S / 1000);
	}
	if (tz) {
		tz->minuteswest = 0;
		tz->dsttime = 0;
	}
	return 0;
}

int64_t __vdso_time(int64_t *t)
{
	uint64_t ns;
	if (read_ns(1, &ns) < 0)
		return syscall2(SYS_time, (long)t, 0);
	int64_t now = (int64_t)(ns / NS_PER_S);
	if (t)
		*t = now;
	return now;
}

/* Every clock counts nanoseconds from the TSC: the page says the
 * resolution the time server gives (1 ns). */
int __vdso_clock_getres(int clock, struct vdso_timespec *res)
{
	uint32_t seq = __atomic_load_n(&vdso_data.seq, __ATOMIC_ACQUIRE);
	uint64_t ns = vdso_data.res_ns;
	int published = vdso_data.published;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (!served(clock) || !published || (seq & 1) ||
	    __atomic_load_n(&vdso_data.seq, __ATOMIC_RELAXED) != seq)
		return (int)syscall2(SYS_clock_getres, clock, (long)res);
	if (res) {
		res->sec = (int64_t)(ns / NS_PER_S);
		res->nsec = (int64_t)(ns % NS_PER_S);
	}
	return 0;
}
