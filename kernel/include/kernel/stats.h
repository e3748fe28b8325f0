/*
 * Kernel event counters, exported to benchmarks through the kstats system
 * call (struct myrmex_kstats in include/myrmex/syscall.h).
 */
#ifndef KERNEL_STATS_H
#define KERNEL_STATS_H

#include <myrmex/syscall.h>

/* Counter fields are updated with plain increments: each CPU will get its own
 * copy when SMP arrives; the gauges (free pages, objects) are filled on read. */
extern struct myrmex_kstats kstats;

#define STAT_INC(field) (kstats.field++)
#define STAT_ADD(field, n) (kstats.field += (n))

/* Fills out with the counters and the current gauges. */
void stats_snapshot(struct myrmex_kstats *out);

#endif
