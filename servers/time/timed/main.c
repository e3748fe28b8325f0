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
 * (clock_info), starts the alarm thread (alarm.c), registers and serves.
 * The main thread answers each request at once, except a sleep, which is
 * parked for the alarm thread; an answer goes back with the next get(),
 * which returns it and takes the next request in one kernel entry. Exits
 * with 1 when it cannot start.
 */
#include "timed.h"

#include <errno.h>
#include <string.h>

#define GET_RETRY_NS (1000ull * 1000)

static struct myrmex_frame *frame_of(const struct myrmex_delivery *d)
{
	return (struct myrmex_frame *)(uintptr_t)(d->control + d->frame);
}

/* Reads the arguments once and runs the handler: its status, or
 * TIME_LATER for a parked sleep. */
static int64_t serve(struct request *rq)
{
	const volatile struct myrmex_frame *f = frame_of(&rq->d);
	for (int i = 0; i < 4; i++)
		rq->arg[i] = f->arg[i];
	rq->origin = rq->d.origin;   /* the kernel's word, not the frame's */
	time_handler handler = table_lookup(rq->d.opcode);
	return handler ? handler(rq) : -ENOSYS;
}

static void put_result(const struct request *rq, int64_t status)
{
	struct myrmex_frame *f = frame_of(&rq->d);
	for (int i = 0; i < 8; i++)
		f->arg[i] = rq->res[i];
	f->status = status;
	f->ndata = 0;
}

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

	/* The request answered last, returned by the next get(). */
	void *answered = NULL;
	struct myrmex_delivery answered_d;
	int64_t answered_status = 0;
	for (;;) {
		struct myrmex_delivery d;
		r = myrmex_get(answered, &d);
		if (r == -EINVAL && answered) {
			/* ret refused it (a frame rewritten by the caller's other
			 * thread): myrmex_reply mends and returns it. */
			myrmex_reply(TIMED_NAME, &answered_d, answered_status);
			answered = NULL;
			continue;
		}
		answered = NULL;
		if (r < 0) {
			myrmex_log(TIMED_NAME, "get: %ld", r);
			myrmex_sleep_ns(GET_RETRY_NS);
			continue;
		}
		if (d.kind != MYRMEX_DELIVERY_REQUEST)
			continue;   /* results cannot come: timed calls no one */
		struct request rq;
		memset(&rq, 0, sizeof rq);
		rq.d = d;
		int64_t status = serve(&rq);
		if (status == TIME_LATER)
			continue;
		put_result(&rq, status);
		if (d.ndata) {
			/* Data ICAs go back as they came: myrmex_reply lists them. */
			myrmex_reply(TIMED_NAME, &d, status);
			continue;
		}
		answered = (void *)(uintptr_t)d.control;
		answered_d = d;
		answered_status = status;
	}
}
