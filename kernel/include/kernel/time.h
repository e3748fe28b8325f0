/*
 * Time: the monotonic clock counts nanoseconds since boot from the calibrated
 * time-stamp counter; the real-time clock adds the epoch time read from the
 * RTC at boot, moved when the clock is set (clock_settime). The time server (servers/time/timed) reads the same clocks
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
/* Setting REALTIME (MONOTONIC never moves): the epoch, REALTIME at
 * MONOTONIC 0, as the time server publishes it; or REALTIME now. */
void time_set_epoch(uint64_t epoch_ns);
void time_set_realtime(uint64_t ns);
/* A count of TSC ticks in nanoseconds. */
uint64_t time_tsc_to_ns(uint64_t ticks);
/* How the clocks are made from the TSC (for the native call clock_info). */
void time_clock_info(struct myrmex_clock_info *out);

#endif
