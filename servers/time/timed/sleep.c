/*
 * Parked sleeps: TIME_SLEEP parks a request until its deadline on the
 * monotonic clock, TIME_CANCEL answers one early with -EINTR, and the alarm
 * thread answers those that are due. A sleep is kept with the delivery
 * get() gave for it, which is all myrmex_reply needs. The main thread parks
 * and cancels, the alarm thread answers: the table is behind a lock, and a
 * sleep leaves the table (under the lock) before it is answered, so no
 * sleep is answered twice. At most TIME_MAX_SLEEPS: a scan over so few is
 * as cheap as keeping a heap, and simpler.
 */
#include "timed.h"

#include <errno.h>

#define NS_PER_S 1000000000ull
#define BATCH    16   /* sleeps answered per pass of the alarm thread */

struct sleeper {
	int used;
	uint64_t deadline;             /* monotonic ns */
	struct myrmex_delivery d;
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
static int park(const struct myrmex_delivery *d, uint64_t deadline, int *kick)
{
	struct sleeper *free_slot = NULL;
	unsigned mine = 0;
	for (unsigned i = 0; i < TIME_MAX_SLEEPS; i++) {
		if (!table[i].used) {
			if (!free_slot)
				free_slot = &table[i];
		} else if (table[i].d.requester == d->requester) {
			mine++;
		}
	}
	if (!free_slot || mine >= TIME_MAX_SLEEPS_PER_PROCESS)
		return -EAGAIN;
	free_slot->used = 1;
	free_slot->deadline = deadline;
	free_slot->d = *d;
	parked++;
	*kick = deadline < armed;
	if (*kick)
		armed = deadline;
	return 0;
}

int64_t do_sleep(struct request *rq)
{
	uint64_t clock = rq->arg[0], flags = rq->arg[1], sec = rq->arg[2], nsec = rq->arg[3];
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
	int err = park(&rq->d, deadline, &kick);
	unlock();
	if (err) {
		counts_main.refused++;
		return err;
	}
	if (kick)
		alarm_kick();
	return TIME_LATER;
}

int64_t do_cancel(struct request *rq)
{
	if (rq->origin != MYRMEX_ORIGIN_KERNEL) {
		counts_main.refused++;
		return -EPERM;
	}
	struct myrmex_delivery d;
	int found = 0;
	lock();
	for (unsigned i = 0; i < TIME_MAX_SLEEPS && !found; i++) {
		struct sleeper *s = &table[i];
		if (s->used && s->d.handle == rq->arg[0] && s->d.requester == rq->d.requester) {
			d = s->d;
			s->used = 0;
			parked--;
			found = 1;
		}
	}
	unlock();
	if (!found)
		return -ESRCH;
	myrmex_reply(TIMED_NAME, &d, -EINTR);
	counts_main.cancelled++;
	return 0;
}

uint64_t sleep_answer_due(uint64_t now)
{
	for (;;) {
		struct myrmex_delivery due[BATCH];
		unsigned n = 0;
		uint64_t next = UINT64_MAX;
		lock();
		for (unsigned i = 0; i < TIME_MAX_SLEEPS; i++) {
			struct sleeper *s = &table[i];
			if (!s->used)
				continue;
			if (s->deadline <= now && n < BATCH) {
				due[n++] = s->d;
				s->used = 0;
				parked--;
			} else if (s->deadline < next) {
				next = s->deadline;
			}
		}
		armed = next;
		unlock();
		for (unsigned i = 0; i < n; i++)
			myrmex_reply(TIMED_NAME, &due[i], 0);
		__atomic_add_fetch(&counts_alarm.woken, n, __ATOMIC_RELAXED);
		if (n < BATCH || next > now)
			return next;
	}
}

unsigned sleep_parked(void)
{
	lock();
	unsigned n = parked;
	unlock();
	return n;
}
