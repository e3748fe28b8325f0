/*
 * timed's counters and TIME_STATS. Each counter has one writer (the main
 * thread or the alarm thread), so none needs a lock; a reading may be a
 * moment old.
 */
#include "timesvc.h"

struct timed_counts counts_main, counts_alarm;

int64_t do_time_stats(struct server_request *rq)
{
	uint64_t *v = SERVER_OUT(rq, struct time_stats_result)->v;
	v[TIME_STAT_GETS] = counts_main.gets;
	v[TIME_STAT_SLEEPS] = counts_main.sleeps;
	v[TIME_STAT_PARKED] = sleep_parked();
	v[TIME_STAT_WOKEN] = __atomic_load_n(&counts_alarm.woken, __ATOMIC_RELAXED);
	v[TIME_STAT_CANCELLED] = counts_main.cancelled;
	v[TIME_STAT_REFUSED] = counts_main.refused;
	return 0;
}
