/*
 * timecalls.c - the time calls answered by the file manager itself, in the
 * configurations where no time server runs (fsconf.h: one, klt, ult; paper
 * 003's one server and multi-threaded server). The time service is the
 * time server's own library (servers/time/timesvc): the same clocks,
 * sleeps and counters, with its alarm thread; the file manager registers
 * MYRMEX_COREID_TIME as a second coreid on its queue, and the server
 * library dispatches what the kernel routed by it on fm_time_ops
 * (table.c). The handlers take no gate (lock.h), so in klt a time call is
 * answered while other threads wait for the disk.
 */
#include "fileman.h"
#include "fsconf.h"
#include "../../time/timesvc/timesvc.h"

int timecalls_start(void)
{
	if (fsconf == FSCONF_SPLIT)
		return 0;
	int err = clock_start();
	if (err < 0)
		return err;
	err = alarm_start();
	if (err < 0)
		return err;
	long r = myrmex_registserver(MYRMEX_COREID_TIME | MYRMEX_REGIST_MORE);
	if (r < 0)
		return (int)r;   /* -EBUSY: a time server runs */
	err = clock_publish();
	if (err < 0)
		fm_log("clock_publish: %d (the vDSO makes system calls)", err);
	fm_log("%s: the time calls are answered here too (coreid %u)", fsconf_name(),
	       MYRMEX_COREID_TIME);
	return 0;
}
