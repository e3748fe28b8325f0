/*
 * The clocks: CLOCK_MONOTONIC from the TSC with the kernel's calibration
 * and formula (learnt once with clock_info), CLOCK_REALTIME the epoch (the
 * RTC's time at boot, moved by TIME_SET) plus that; TIME_GET, TIME_GETRES
 * and TIME_SET; and the same clock published to the vDSO's clock page.
 * Reading a clock makes no system call: rdtsc, a multiply and a shift.
 */
#include "timesvc.h"

#include <errno.h>

#define NS_PER_S 1000000000ull

static struct myrmex_clock_info info;

int clock_start(void)
{
	long r = myrmex_syscall6(MYRMEX_SYS_CLOCK_INFO, (long)&info, 0, 0, 0, 0, 0);
	if (r < 0)
		return (int)r;
	return info.mult ? 0 : -EINVAL;
}

/* The vDSO of every POSIX process reads the clock from the page the kernel
 * writes for us (include/myrmex/vdso.h): the same parameters, so the same
 * answers as do_get's, without a call. Only once registered (the kernel
 * takes it only from the registered time server). */
int clock_publish(void)
{
	return (int)myrmex_syscall6(MYRMEX_SYS_CLOCK_PUBLISH, (long)&info, 0, 0, 0, 0, 0);
}

uint64_t clock_monotonic(void)
{
	return myrmex_clock_monotonic(&info, myrmex_rdtsc());
}

uint64_t clock_epoch_ns(void)
{
	return info.epoch_ns;
}

uint64_t clock_tsc_khz(void)
{
	return info.tsc_khz;
}

static void put_ns(struct server_request *rq, uint64_t ns)
{
	struct time_get_result *res = SERVER_OUT(rq, struct time_get_result);
	res->sec = ns / NS_PER_S;
	res->nsec = ns % NS_PER_S;
}

int64_t do_get(struct server_request *rq)
{
	uint64_t clock = SERVER_IN(rq, struct time_get_args)->clock;
	if (!time_clock_valid(clock)) {
		counts_main.refused++;
		return -EINVAL;
	}
	uint64_t ns = clock_monotonic();
	put_ns(rq, time_clock_is_realtime(clock) ? info.epoch_ns + ns : ns);
	counts_main.gets++;
	return 0;
}

/* TIME_SET (only from the kernel, which checked the caller and the time):
 * the new epoch, published at once so that the vDSO, the kernel and this
 * server keep one REALTIME. */
int64_t do_set(struct server_request *rq)
{
	const struct time_set_args *a = SERVER_IN(rq, struct time_set_args);
	if (a->nsec >= NS_PER_S || a->sec > UINT64_MAX / NS_PER_S - 1) {
		counts_main.refused++;
		return -EINVAL;
	}
	uint64_t ns = a->sec * NS_PER_S + a->nsec;
	uint64_t now = clock_monotonic();
	if (ns < now) {
		counts_main.refused++;
		return -EINVAL;
	}
	info.epoch_ns = ns - now;
	int err = clock_publish();
	if (err < 0)
		myrmex_log(TIMED_NAME, "clock_publish after TIME_SET: %d", err);
	sleep_clock_set();
	return 0;
}

int64_t do_getres(struct server_request *rq)
{
	if (!time_clock_valid(SERVER_IN(rq, struct time_get_args)->clock)) {
		counts_main.refused++;
		return -EINVAL;
	}
	put_ns(rq, 1);
	counts_main.gets++;
	return 0;
}
