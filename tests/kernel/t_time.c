/*
 * t_time: clocks and sleeps. CLOCK_MONOTONIC never goes backwards, sleeps
 * last at least as long as asked (relative nanosleep and clock_nanosleep,
 * and an absolute clock_nanosleep), the wall clock is past 2020, every
 * supported clock answers with a normalised value, and unknown clocks are
 * refused with EINVAL. All through raw system calls (no vDSO).
 */
#define _GNU_SOURCE
#define TEST_NAME "t_time"
#include "test_check.h"

#include <errno.h>
#include <stdint.h>
#include <time.h>

#define NS_PER_SEC 1000000000LL
#define MS 1000000LL
#define JAN_1_2020 1577836800LL  /* seconds since the epoch */
#define MONOTONIC_READS 20000

static long get_clock(long clock_id, struct timespec *ts)
{
	return raw2(SYS_clock_gettime, clock_id, (long)ts);
}

static int64_t to_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * NS_PER_SEC + ts->tv_nsec;
}

static int64_t monotonic_ns(void)
{
	struct timespec ts = { 0, 0 };
	get_clock(CLOCK_MONOTONIC, &ts);
	return to_ns(&ts);
}

static void check_monotonic_never_goes_back(void)
{
	struct timespec ts;
	int64_t previous = 0;

	for (int i = 0; i < MONOTONIC_READS; i++) {
		long r = get_clock(CLOCK_MONOTONIC, &ts);
		if (r != 0) {
			test_fail("clock_gettime(CLOCK_MONOTONIC) returned %ld", r);
			return;
		}
		if (ts.tv_nsec < 0 || ts.tv_nsec >= NS_PER_SEC) {
			test_fail("CLOCK_MONOTONIC tv_nsec %ld out of range", ts.tv_nsec);
			return;
		}
		int64_t now = to_ns(&ts);
		if (now < previous) {
			test_fail("CLOCK_MONOTONIC went back by %lld ns at read %d",
			          (long long)(previous - now), i);
			return;
		}
		previous = now;
	}
	int64_t later = monotonic_ns();
	CHECK(later >= previous, "CLOCK_MONOTONIC went back after the loop");
}

static void check_sleep_lasts(const char *what, int64_t asked_ns, int64_t start,
                              long result)
{
	int64_t slept = monotonic_ns() - start;
	CHECK(result == 0, "%s returned %ld", what, result);
	CHECK(slept >= asked_ns, "%s of %lld ns lasted only %lld ns", what,
	      (long long)asked_ns, (long long)slept);
}

static void check_sleeps(void)
{
	struct timespec req = { 0, 20 * MS };
	int64_t start = monotonic_ns();
	check_sleep_lasts("nanosleep(20 ms)", 20 * MS, start,
	                  raw2(SYS_nanosleep, (long)&req, 0));

	struct timespec rem = { 99, 99 };
	req.tv_nsec = 10 * MS;
	start = monotonic_ns();
	check_sleep_lasts("clock_nanosleep(MONOTONIC, relative 10 ms)", 10 * MS, start,
	                  raw4(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, (long)&req,
	                       (long)&rem));

	req.tv_nsec = 10 * MS;
	start = monotonic_ns();
	check_sleep_lasts("clock_nanosleep(REALTIME, relative 10 ms)", 10 * MS, start,
	                  raw4(SYS_clock_nanosleep, CLOCK_REALTIME, 0, (long)&req, 0));

	/* Absolute: sleep until now + 15 ms on the monotonic clock. */
	struct timespec until;
	get_clock(CLOCK_MONOTONIC, &until);
	int64_t deadline = to_ns(&until) + 15 * MS;
	until.tv_sec = deadline / NS_PER_SEC;
	until.tv_nsec = deadline % NS_PER_SEC;
	long r = raw4(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, (long)&until, 0);
	int64_t woke = monotonic_ns();
	CHECK(r == 0, "clock_nanosleep(MONOTONIC, TIMER_ABSTIME) returned %ld", r);
	CHECK(woke >= deadline, "absolute clock_nanosleep woke %lld ns before the deadline",
	      (long long)(deadline - woke));

	/* An absolute time in the past returns at once. */
	until.tv_sec = 0;
	until.tv_nsec = 0;
	CHECK_EQ(raw4(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, (long)&until, 0), 0);

	/* A zero relative sleep is allowed. */
	req.tv_sec = 0;
	req.tv_nsec = 0;
	CHECK_EQ(raw2(SYS_nanosleep, (long)&req, 0), 0);
}

static void check_wall_clock(void)
{
	struct timespec ts = { 0, 0 };
	CHECK_EQ(get_clock(CLOCK_REALTIME, &ts), 0);
	CHECK(ts.tv_sec > JAN_1_2020, "CLOCK_REALTIME is %lld s, before 2020-01-01",
	      (long long)ts.tv_sec);
}

static void check_all_clocks(void)
{
	static const struct { long id; const char *name; } clocks[] = {
		{ CLOCK_REALTIME, "CLOCK_REALTIME" },
		{ CLOCK_MONOTONIC, "CLOCK_MONOTONIC" },
		{ CLOCK_MONOTONIC_RAW, "CLOCK_MONOTONIC_RAW" },
		{ CLOCK_REALTIME_COARSE, "CLOCK_REALTIME_COARSE" },
		{ CLOCK_MONOTONIC_COARSE, "CLOCK_MONOTONIC_COARSE" },
		{ CLOCK_BOOTTIME, "CLOCK_BOOTTIME" },
	};
	for (size_t i = 0; i < sizeof clocks / sizeof clocks[0]; i++) {
		struct timespec a = { -1, -1 }, b = { -1, -1 };
		long r1 = get_clock(clocks[i].id, &a);
		long r2 = get_clock(clocks[i].id, &b);
		if (r1 != 0 || r2 != 0) {
			test_fail("clock_gettime(%s) returned %ld", clocks[i].name,
			          r1 != 0 ? r1 : r2);
			continue;
		}
		CHECK(a.tv_sec >= 0 && a.tv_nsec >= 0 && a.tv_nsec < NS_PER_SEC,
		      "%s gave {%lld, %ld}", clocks[i].name, (long long)a.tv_sec, a.tv_nsec);
		if (clocks[i].id != CLOCK_REALTIME && clocks[i].id != CLOCK_REALTIME_COARSE)
			CHECK(to_ns(&b) >= to_ns(&a), "%s went backwards", clocks[i].name);
	}
}

static void check_bad_clock_ids(void)
{
	struct timespec ts;
	CHECK_EQ(get_clock(1000, &ts), -EINVAL);
	CHECK_EQ(get_clock(100, &ts), -EINVAL);
	CHECK_EQ(get_clock(16, &ts), -EINVAL);
	struct timespec req = { 0, 1000 };
	CHECK_EQ(raw4(SYS_clock_nanosleep, 1000, 0, (long)&req, 0), -EINVAL);
}

int main(void)
{
	check_monotonic_never_goes_back();
	check_sleeps();
	check_wall_clock();
	check_all_clocks();
	check_bad_clock_ids();
	return test_exit_code();
}
