/*
 * writeback.c - the periodic write-back: a second thread that every
 * FM_WRITEBACK_NS calls FS_SYNC on ourselves. The main thread serves it in
 * its turn like any request, so the cache is never touched by two threads,
 * and dirty blocks reach the disk even if the system stops without a clean
 * shutdown (at most FM_WRITEBACK_NS of writes are lost).
 */
#include "fileman.h"

#include <errno.h>
#include <myrmex/fs.h>

#define FM_WRITEBACK_NS (5ull * 1000 * 1000 * 1000)

static void writeback_loop(void *unused)
{
	(void)unused;
	long h = myrmex_ica_alloc(1);
	if (h < 0) {
		fm_log("write-back thread: no control ICA (%ld): no periodic write-back", h);
		return;
	}
	for (;;) {
		myrmex_sleep_ns(FM_WRITEBACK_NS);
		struct myrmex_ctl_header *c = myrmex_ctl_init(myrmex_ica_addr((uint32_t)h));
		myrmex_ctl_push(c, 1, MYRMEX_COREID_FS, FS_SYNC);
		long r = myrmex_callsync(c);
		struct myrmex_frame *res = myrmex_ctl_result(c);
		if (r < 0 || (res && res->status < 0 && res->status != -ENODEV &&
		              res->status != -ESHUTDOWN && res->status != -EUCLEAN))
			fm_log("periodic write-back: %ld / %lld", r, res ? (long long)res->status : 0LL);
	}
}

int writeback_start(void)
{
	static struct myrmex_thread thread;
	return (int)myrmex_thread_create(&thread, writeback_loop, NULL, 0);
}
