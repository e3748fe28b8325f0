/*
 * Time: the monotonic clock counts nanoseconds since boot from the calibrated
 * time-stamp counter; the real-time clock adds the epoch time read from the
 * RTC at boot. The time server (servers/time/timed) reads the same clocks
 * from the numbers time_clock_info gives it (include/myrmex/time.h).
 */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include <kernel/types.h>
#include <myrmex/clock.h>

void time_init(void);
uint64_t time_monotonic_ns(void);
uint64_t time_realtime_ns(void);
uint64_t time_tsc_khz(void);
/* How the clocks are made from the TSC (for the native call clock_info). */
void time_clock_info(struct myrmex_clock_info *out);

#endif
