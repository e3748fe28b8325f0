/*
 * Time: the monotonic clock counts nanoseconds since boot from the calibrated
 * time-stamp counter; the real-time clock adds the epoch time read from the
 * RTC at boot.
 */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include <kernel/types.h>

void time_init(void);
uint64_t time_monotonic_ns(void);
uint64_t time_realtime_ns(void);
uint64_t time_tsc_khz(void);

#endif
