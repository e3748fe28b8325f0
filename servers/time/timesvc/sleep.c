/*
 * Parked sleeps: TIME_SLEEP parks a request until its deadline on the
 * monotonic clock, TIME_CANCEL answers one early with -EINTR, and the alarm
 * thread answers those that are due. A sleep is kept as the request the
 * server library gave, which is all server_reply_later needs. The main thread parks
 * and cancels, the alarm thread answers: the table is behind a lock, and a
 * sleep leaves the table (under the lock) before it is answered, so no
 * sleep is answered twice. At most TIME_MAX_SLEEPS: a scan over so few is
 * as cheap as keeping a heap, and simpler.
 */
#include "timesvc.h"

#include <errno.h>

#define NS_PER_S 1000000000ull
#define BATCH    16   /* sleeps answered per pass of the alarm thread */

struct sleeper {
	int used;
	int realtime_abs;              /* an absolute REALTIME sleep: deadline moves with
	                                  the epoch (sleep_clock_set) */
	uint64_t real_target;          /* its REALTIME ns */
	uint64_t deadline;             /* monotonic ns */
	struct server_request rq;
};

static struct sleeper table[TIME_MAX_SLEEPS];
static unsigned parked;
/* The deadline the alarm thread waits for (UINT64_MAX: none); a sleep due
 * earlier must wake it. */
static uint64_t armed = UINT64_MAX;
static volatile int lock_word;

static void lock(void)
{
	while (__atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE))
		myrmex_futex_wait(&lock_word, 1, -1);
}

static void unlock(void)
{
	__atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE);
	myrmex_futex_wake(&lock_word, 1);
}

/* The monotonic deadline of a checked TIME_SLEEP. */
static uint64_t deadline_of(uint64_t clock, uint64_t flags, uint64_t ns, uint64_t now)
{
	if (!(flags & TIME_ABSTIME))
		return ns > UINT64_MAX - now ? UINT64_MAX : now + ns;
	if (time_clock_is_realtime(clock))
		return ns > clock_epoch_ns() ? ns - clock_epoch_ns() : 0;
	return ns;
}

/* Puts d in the table; 0, or -EAGAIN (full, or its process has its
 * share). *kick says the alarm thread must look again. Locked. */
static int park(const struct server_request *rq, uint64_t deadline, int realtime_abs,
                uint64_t real_target, int *kick)
{
	struct sleeper *free_slot = NULL;
	unsigned mine = 0;
	for (unsigned i = 0; i < TIME_MAX_SLEEPS; i++) {
		if (!table[i].used) {
			if (!free_slot)
				free_slot = &table[i];
		} else if (table[i].rq.d.requester == rq->d.requester) {
			mine++;
		}
	}
	if (!free_slot || mine >= TIME_MAX_SLEEPS_PER_PROCESS)
		return -EAGAIN;
	free_slot->used = 1;
	free_slot->realtime_abs = realtime_abs;
	free_slot->real_target = real_target;
	free_slot->deadline = deadline;
	free_slot->rq = *rq;
	parked++;
	*kick = deadline < armed;
	if (*kick)
		armed = deadline;
	return 0;
}

int64_t do_sleep(struct server_request *rq)
{
	const struct time_sleep_args *a = SERVER_IN(rq, struct time_sleep_args);
	uint64_t clock = a->clock, flags = a->flags, sec = a->sec, nsec = a->nsec;
	if (!time_clock_sleeps(clock) || (flags & ~(uint64_t)TIME_ABSTIME) || (int64_t)sec < 0 ||
	    nsec >= NS_PER_S) {
		counts_main.refused++;
		return -EINVAL;
	}
	counts_main.sleeps++;
	uint64_t max_sec = (UINT64_MAX - NS_PER_S) / NS_PER_S;
	uint64_t ns = sec > max_sec ? UINT64_MAX / 2 : sec * NS_PER_S + nsec;
	uint64_t now = clock_monotonic();
	uint64_t deadline = deadline_of(clock, flags, ns, now);
	if (deadline <= now)
		return 0;   /* nothing to wait for */
	int kick = 0;
	lock();
	int realtime_abs = (flags & TIME_ABSTIME) && time_clock_is_realtime(clock);
	int err = park(rq, deadline, realtime_abs, ns, &kick);
	unlock();
	if (err) {
		counts_main.refused++;
		return err;
	}
	if (kick)
		alarm_kick();
	return SERVER_LATER;
}

/* The library lets only the kernel's TIME_CANCEL through (the table's
 * SERVER_KERNEL_ONLY). */
int64_t do_time_cancel(struct server_request *rq)
{
	uint64_t handle = SERVER_IN(rq, struct time_cancel_args)->handle;
	struct server_request gone;
	int found = 0;
	lock();
	for (unsigned i = 0; i < TIME_MAX_SLEEPS && !found; i++) {
		struct sleeper *s = &table[i];
		if (s->used && s->rq.d.handle == handle && s->rq.d.client == rq->d.client) {
			gone = s->rq;
			s->used = 0;
			parked--;
			found = 1;
		}
	}
	unlock();
	if (!found)
		return -ESRCH;
	server_reply_later(TIMED_NAME, &gone, -EINTR);
	counts_main.cancelled++;
	return 0;
}

uint64_t sleep_answer_due(uint64_t now)
{
	for (;;) {
		struct server_request due[BATCH];
		unsigned n = 0;
		uint64_t next = UINT64_MAX;
		lock();
		for (unsigned i = 0; i < TIME_MAX_SLEEPS; i++) {
			struct sleeper *s = &table[i];
			if (!s->used)
				continue;
			if (s->deadline <= now && n < BATCH) {
				due[n++] = s->rq;
				s->used = 0;
				parked--;
			} else if (s->deadline < next) {
				next = s->deadline;
			}
		}
		armed = next;
		unlock();
		for (unsigned i = 0; i < n; i++)
			server_reply_later(TIMED_NAME, &due[i], 0);
		__atomic_add_fetch(&counts_alarm.woken, n, __ATOMIC_RELAXED);
		if (n < BATCH || next > now)
			return next;
	}
}

void sleep_clock_set(void)
{
	int kick = 0;
	lock();
	for (unsigned i = 0; i < TIME_MAX_SLEEPS; i++) {
		struct sleeper *s = &table[i];
		if (!s->used || !s->realtime_abs)
			continue;
		uint64_t epoch = clock_epoch_ns();
		s->deadline = s->real_target > epoch ? s->real_target - epoch : 0;
		if (s->deadline < armed) {
			armed = s->deadline;
			kick = 1;
		}
	}
	unlock();
	if (kick)
		alarm_kick();
}

unsigned sleep_parked(void)
{
	lock();
	unsigned n = parked;
	unlock();
	return n;
}
