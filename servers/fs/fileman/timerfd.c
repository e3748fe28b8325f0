/*
 * timerfd.c - timerfd timers (include/myrmex/fsevent.h) on CLOCK_REALTIME
 * or CLOCK_MONOTONIC: a deadline on the timer's clock, an interval, and the
 * expirations not read yet, brought up to date whenever the timer is
 * looked at (a read, a poll, settime, gettime, a tick).
 *
 * A read with no expiration parks (park.c). The file manager's thread
 * serves one request at a time and cannot sleep, so a second thread
 * ("ticker", started with the first timer) sleeps until the earliest
 * deadline of a timer with a parked read, in steps of at most TICK_STEP_NS
 * (a deadline set while it sleeps is seen at the next step), and then
 * calls FS_TIMERFD_TICK on ourselves; the main thread serves it in its turn
 * and answers the reads. The two threads share one word, tick_due (the
 * monotonic time the ticker is wanted, 0: nothing parked), written by the
 * main thread only.
 */
#include "fileman.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <raw_time.h>

#define TFD_TIMER_ABSTIME 1u
#define TICK_STEP_NS 10000000ull   /* 10 ms */

struct timerfd {
	uint64_t clock;               /* CLOCK_REALTIME or CLOCK_MONOTONIC */
	bool armed;
	uint64_t deadline;            /* the next expiration, on clock (ns) */
	uint64_t interval;            /* ns; 0: once */
	uint64_t expirations;         /* not read yet */
	uint64_t wakes;               /* expirations counted (epoll's EPOLLET) */
	bool polled;                  /* looked at by a poll since the last notice (notice.c) */
	struct park_queue q;
	struct open_file *f;          /* its description (one: dup shares it) */
	struct timerfd *next;         /* every timer, for the tick */
};

static struct timerfd *timers;
static volatile uint64_t tick_due;

static uint64_t clock_now(uint64_t clock)
{
	/* The kernel's two-long timespec (raw_time.h): on a 32-bit port
	 * libc's has a 64-bit tv_sec. */
	struct myrmex_raw_timespec ts;
	if (myrmex_syscall6(MYRMEX_SYS_RAW_CLOCK_GETTIME, (long)clock, (long)&ts, 0, 0, 0, 0) < 0)
		return 0;
	return (uint64_t)ts.sec * 1000000000u + (uint64_t)ts.nsec;
}

/* Counts the expirations up to now. */
static void update(struct timerfd *t)
{
	if (!t->armed)
		return;
	uint64_t now = clock_now(t->clock);
	if (now < t->deadline)
		return;
	uint64_t n = 1;
	if (t->interval) {
		n += (now - t->deadline) / t->interval;
		t->deadline += n * t->interval;
	} else {
		t->armed = false;
	}
	t->expirations += n;
	t->wakes++;
}

/* Answers t's parked reads if it expired; then tick_due for every timer.
 * The last answer may drop the last reference to t's description: t is
 * held until the end, and may be gone after. */
static void serve(struct timerfd *t)
{
	uint64_t len;
	struct server_request *r;
	struct open_file *f = t->f;
	ofd_ref(f);
	update(t);
	while (t->expirations && (r = park_first(&t->q, false, &len))) {
		memcpy(r->data, &t->expirations, sizeof(t->expirations));
		t->expirations = 0;
		park_finish(&t->q, false, sizeof(uint64_t));
	}
	uint64_t due = 0, mono = clock_now(CLOCK_MONOTONIC);
	for (struct timerfd *s = timers; s; s = s->next) {
		if (!s->armed || !park_first(&s->q, false, &len))
			continue;
		uint64_t now = clock_now(s->clock);
		uint64_t at = mono + (s->deadline > now ? s->deadline - now : 0);
		if (due == 0 || at < due)
			due = at ? at : 1;
	}
	tick_due = due;
	ofd_unref(f);
}

static void ticker(void *unused)
{
	(void)unused;
	long h = myrmex_ica_alloc(1);
	if (h < 0) {
		fm_log("timerfd thread: no control ICA (%ld): blocking timerfd reads wait for a poll", h);
		return;
	}
	for (;;) {
		uint64_t due = tick_due, now = myrmex_now_ns();
		if (due == 0 || now < due) {
			uint64_t step = due && due - now < TICK_STEP_NS ? due - now : TICK_STEP_NS;
			myrmex_sleep_ns(step);
			continue;
		}
		struct myrmex_ctl_header *c = myrmex_ctl_init(myrmex_ica_addr((uint32_t)h));
		myrmex_ctl_push(c, 1, MYRMEX_COREID_FS, FS_TIMERFD_TICK);
		myrmex_callsync(c);
		if (tick_due == due)
			myrmex_sleep_ns(TICK_STEP_NS);   /* not served yet (a clock refused): no spin */
	}
}

int64_t do_timerfd_tick(struct server_request *rq)
{
	if (rq->d.requester != getpid())
		return -EPERM;
	for (struct timerfd *t = timers, *next; t; t = next) {
		next = t->next;   /* serve may free t, never another timer */
		serve(t);
	}
	if (!timers)
		tick_due = 0;
	return 0;
}

int64_t do_timerfd_create(struct server_request *rq)
{
	static bool started;
	const struct fs_timerfd_create_args *a = SERVER_IN(rq, struct fs_timerfd_create_args);
	if (a->clock != CLOCK_REALTIME && a->clock != CLOCK_MONOTONIC && a->clock != CLOCK_BOOTTIME)
		return -EINVAL;
	if (a->flags & ~(uint64_t)(O_NONBLOCK | O_CLOEXEC))
		return -EINVAL;
	int rc = files_room(rq->d.requester);
	if (rc < 0)
		return rc;
	if (!started) {
		static struct myrmex_thread thread;
		if (myrmex_thread_create(&thread, ticker, NULL, 0) < 0)
			return -ENOMEM;
		started = true;
	}
	struct timerfd *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	struct open_file *f = ofd_new(FM_TIMERFD, O_RDWR | (int)(a->flags & O_NONBLOCK));
	if (!f) {
		free(t);
		return -ENFILE;
	}
	t->clock = a->clock;
	t->next = timers;
	timers = t;
	f->tfd = t;
	t->f = f;
	int fd = files_install(rq->d.requester, f, 0, a->flags & O_CLOEXEC);
	ofd_unref(f);
	return fd;
}

/* The timer of descriptor fd of the requester: NULL with *err. */
static struct timerfd *timer_of(struct server_request *rq, uint64_t fd, int64_t *err)
{
	struct open_file *f = files_get(rq->d.requester, fd);
	*err = !f ? -EBADF : f->kind != FM_TIMERFD ? -EINVAL : 0;
	return *err ? NULL : f->tfd;
}

/* The setting now, as gettime and settime's old value say it. */
static void setting(struct server_request *rq, struct timerfd *t)
{
	update(t);
	struct fs_timerfd_result *res = SERVER_OUT(rq, struct fs_timerfd_result);
	uint64_t now = clock_now(t->clock);
	res->value_ns = !t->armed ? 0 : t->deadline > now ? t->deadline - now : 1;
	res->interval_ns = t->interval;
}

int64_t do_timerfd_set(struct server_request *rq)
{
	const struct fs_timerfd_set_args *a = SERVER_IN(rq, struct fs_timerfd_set_args);
	int64_t err;
	struct timerfd *t = timer_of(rq, a->fd, &err);
	if (!t)
		return err;
	if (a->flags & ~(uint64_t)TFD_TIMER_ABSTIME)
		return -EINVAL;
	/* The kernel sends at most INT64_MAX (it saturates): below 2^63 no
	 * deadline or step can wrap (update). */
	if (a->value_ns > INT64_MAX || a->interval_ns > INT64_MAX)
		return -EINVAL;
	setting(rq, t);
	t->expirations = 0;   /* as Linux: a new setting forgets what was not read */
	t->interval = a->interval_ns;
	t->armed = a->value_ns != 0;
	if (t->armed) {
		uint64_t now = clock_now(t->clock);
		t->deadline = (a->flags & TFD_TIMER_ABSTIME) ? a->value_ns : now + a->value_ns;
	}
	serve(t);
	notice_changed(&t->polled);   /* a waiter's expiry moved */
	return 0;
}

int64_t do_timerfd_get(struct server_request *rq)
{
	int64_t err;
	struct timerfd *t = timer_of(rq, SERVER_IN(rq, struct fs_fd_args)->fd, &err);
	if (!t)
		return err;
	setting(rq, t);
	return 0;
}

int64_t timerfd_read(struct server_request *rq, struct open_file *f)
{
	struct timerfd *t = f->tfd;
	if (SERVER_IN(rq, struct fs_io_args)->length < sizeof(uint64_t))
		return -EINVAL;
	update(t);
	if (t->expirations == 0) {
		if (f->flags & O_NONBLOCK)
			return -EAGAIN;
		if (!park_add(&t->q, rq, f, false))
			return -EAGAIN;
		serve(t);   /* the ticker learns the deadline */
		return SERVER_LATER;
	}
	memcpy(rq->data, &t->expirations, sizeof(t->expirations));
	t->expirations = 0;
	return sizeof(uint64_t);
}

unsigned timerfd_poll(struct timerfd *t)
{
	t->polled = true;
	update(t);
	if (t->expirations)
		return POLLIN | POLLRDNORM;
	if (t->armed) {
		/* A waiter looks again at the expiry (notice.c), on the monotonic
		 * clock: a CLOCK_REALTIME deadline as far from now as it is. A
		 * realtime clock set meanwhile is seen at the next look. */
		uint64_t mono = clock_now(CLOCK_MONOTONIC), now = clock_now(t->clock);
		notice_wake_by(mono + (t->deadline > now ? t->deadline - now : 0));
	}
	return 0;
}

void timerfd_wakes(struct timerfd *t, uint64_t *in)
{
	update(t);
	*in = t->wakes;
}

void timerfd_free(struct timerfd *t)
{
	for (struct timerfd **p = &timers; *p; p = &(*p)->next)
		if (*p == t) {
			*p = t->next;
			break;
		}
	free(t);
}
