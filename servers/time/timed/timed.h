/*
 * timed's shared declarations: the handlers (table.c maps opcodes to
 * them for the server library, lib/libmyrmex/server.h), the clocks (clock.c), the table of
 * parked sleeps (sleep.c), the alarm thread (alarm.c) and the counters
 * (stats.c). Protocol: include/myrmex/time.h.
 *
 * Two threads: the main thread runs the server library's loop (main.c); the alarm thread waits for the earliest parked sleep's time and
 * answers the sleeps that are due. The table of sleeps, the only state they
 * share, is behind a lock (sleep.c).
 */
#ifndef TIMED_H
#define TIMED_H

#include <stdint.h>
#include <myrmex.h>
#include <myrmex/time.h>
#include <myrmex/vdso.h>
#include <server.h>

#define TIMED_NAME "timed"

/* table.c: the server (its operations and callbacks) for server_run. */
extern const struct server timed_server;

/* clock.c: the clocks, from the kernel's clock_info. */
int clock_start(void);                    /* 0, or -errno of clock_info */
int clock_publish(void);                  /* into the vDSO's page: 0 or -errno */
uint64_t clock_monotonic(void);           /* ns since boot */
uint64_t clock_epoch_ns(void);            /* REALTIME at monotonic 0 */
uint64_t clock_tsc_khz(void);
int64_t do_get(struct server_request *rq);
int64_t do_getres(struct server_request *rq);
int64_t do_set(struct server_request *rq);

/* sleep.c: parked sleeps, under a lock. */
int64_t do_sleep(struct server_request *rq);
int64_t do_cancel(struct server_request *rq);
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

/* stats.c: counters, each written by one thread only. */
struct timed_counts {
	uint64_t gets, sleeps, woken, cancelled, refused;
};
extern struct timed_counts counts_main;   /* the main thread's */
extern struct timed_counts counts_alarm;  /* the alarm thread's (woken) */
int64_t do_stats(struct server_request *rq);

#endif
