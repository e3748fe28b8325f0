/*
 * timed: the time server (coreid MYRMEX_COREID_TIME, protocol
 * include/myrmex/time.h; paper 003 splits it from the file server). It
 * keeps the clocks and the sleeps of POSIX processes, whose Linux time
 * calls the kernel forwards here (docs/posix.md), and answers any program
 * that calls it. The init starts it with the server right, before the
 * first POSIX process:
 *
 *     timed
 *
 * It learns once how the kernel makes its clocks from the TSC
 * (clock_info), starts the alarm thread (alarm.c), registers, publishes
 * its clock for the vDSO of POSIX processes (clock_publish) and serves.
 * The main thread runs the server library's loop (lib/libmyrmex/server.h,
 * table.c): it answers each request at once, except a sleep, which is
 * parked for the alarm thread. Exits with 1 when it cannot start.
 */
/* server-libraries: servers/time/timesvc */
#include "timed.h"

int main(void)
{
	int err = clock_start();
	if (err < 0) {
		myrmex_log(TIMED_NAME, "clock_info: %d", err);
		return 1;
	}
	err = alarm_start();
	if (err < 0) {
		myrmex_log(TIMED_NAME, "cannot start the alarm thread: %d", err);
		return 1;
	}
	long r = myrmex_registserver(MYRMEX_COREID_TIME);
	if (r < 0) {
		myrmex_log(TIMED_NAME, "registserver(%u): %ld", MYRMEX_COREID_TIME, r);
		return 1;
	}
	myrmex_log(TIMED_NAME, "clocks from the TSC at %llu kHz; time server on coreid %u",
	           (unsigned long long)clock_tsc_khz(), MYRMEX_COREID_TIME);
	/* Without it POSIX processes still get the time, by a call each. */
	err = clock_publish();
	if (err < 0)
		myrmex_log(TIMED_NAME, "clock_publish: %d (the vDSO makes system calls)", err);

	server_run(&timed_server);
}
