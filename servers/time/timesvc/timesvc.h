/*
 * timesvc: the time service as a library, linked by the time server
 * (servers/time/timed) and by the file manager in the configurations where
 * it answers the time calls itself (docs/fs.md, "Configurations"): the
 * handlers (each server's table maps opcodes to them for the server
 * library, lib/libmyrmex/server.h), the clocks (clock.c), the table of
 * parked sleeps (sleep.c), the alarm thread (alarm.c) and the counters
 * (stats.c). Protocol: include/myrmex/time.h.
 *
 * Two threads: the thread that serves (in the file manager, whichever
 * serving thread holds its lock); the alarm thread waits for the earliest
 * parked sleep's time and answers the sleeps that are due. The table of
 * sleeps, the only state they share, is behind a lock (sleep.c).
 */
#ifndef TIMESVC_H
#define TIMESVC_H

#include <stdint.h>
#include <myrmex.h>
#include <myrmex/time.h>
#include <myrmex/vdso.h>
#include <server.h>

#define TIMED_NAME "timed"

/* clock.c: the clocks, from the kernel's clock_info. */
int clock_start(void);                    /* 0, or -errno of clock_info */
int clock_publish(void);                  /* into the vDSO's page: 0 or -errno */
uint64_t clock_monotonic(void);           /* ns since boot */
uint64_t clock_epoch_ns(void);            /* REALTIME at monotonic 0 */
uint64_t clock_tsc_khz(void);
int64_t do_get(struct server_request *rq);
int64_t do_getres(struct server_request *rq);
int64_t do_set(struct server_request *rq);   /* TIME_SET: the kernel's only */

/* sleep.c: parked sleeps, under a lock. */
int64_t do_sleep(struct server_request *rq);
int64_t do_time_cancel(struct server_request *rq);
/* Answers every sleep due at monotonic now; returns the earliest time
 * still waited for (UINT64_MAX: none). The alarm thread's work. */
uint64_t sleep_answer_due(uint64_t now);
/* The number of sleeps parked now. */
unsigned sleep_parked(void);
/* REALTIME was set: the absolute REALTIME sleeps get their new monotonic
 * deadlines (the alarm thread is kicked when one moved earlier). */
void sleep_clock_set(void);

/* alarm.c */
int alarm_start(void);                    /* 0, or -errno (no thread) */
void alarm_kick(void);                    /* an earlier deadline is parked */

/* stats.c: counters, each written by one thread only. woken, read by the
 * other thread with an atomic load, is a native word: a 32-bit port has
 * no 64-bit atomics without libatomic. */
struct timed_counts {
	uint64_t gets, sleeps, cancelled, refused;
	unsigned long woken;
};
extern struct timed_counts counts_main;   /* the main thread's */
extern struct timed_counts counts_alarm;  /* the alarm thread's (woken) */
int64_t do_time_stats(struct server_request *rq);

#endif
