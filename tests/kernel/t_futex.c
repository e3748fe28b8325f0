/*
 * t_futex: FUTEX_WAIT and FUTEX_WAKE. A wait with a stale expected value
 * fails with EAGAIN; a waiting thread is woken by main (FUTEX_WAKE returns
 * 1); a wake of n wakes at most n; a wait with a timeout ends with ETIMEDOUT
 * after at least that long; the private forms work the same way.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_futex"
#include "test_check.h"

#include <errno.h>
#include <stdint.h>
#include <time.h>

#define NS_PER_MS 1000000LL
#define WAKE_PATIENCE_MS 5000
#define WAITERS 3

/* The raw call's timespec: two longs on every port (a 32-bit port's
 * struct timespec has a 64-bit tv_sec in musl, which the call does not take). */
struct raw_timespec {
	long sec, nsec;
};

static long futex_op(volatile int *addr, int op, int val, const struct raw_timespec *timeout)
{
	return myrmex_syscall6(SYS_futex, (long)addr, op, val, (long)timeout, 0, 0);
}

static void check_stale_value(void)
{
	volatile int word = 5;
	CHECK_EQ(myrmex_futex_wait(&word, 4, -1), -EAGAIN);
	CHECK_EQ(futex_op(&word, MYRMEX_FUTEX_WAIT | MYRMEX_FUTEX_PRIVATE, 4, NULL), -EAGAIN);
	CHECK_EQ(myrmex_futex_wake(&word, 1), 0);
	CHECK_EQ(futex_op(&word, MYRMEX_FUTEX_WAKE | MYRMEX_FUTEX_PRIVATE, 1, NULL), 0);
}

struct waiter {
	struct myrmex_thread thread;
	volatile int *word;
	int op;               /* wait op, private or not */
	volatile int ready;   /* set just before the wait */
	volatile long result; /* what FUTEX_WAIT returned */
};

static void wait_once(void *arg)
{
	struct waiter *w = arg;
	w->result = 1; /* not a value FUTEX_WAIT returns */
	__atomic_store_n(&w->ready, 1, __ATOMIC_SEQ_CST);
	w->result = futex_op(w->word, w->op, 0, NULL);
}

/*
 * Wakes `count` waiters on word, one FUTEX_WAKE(1) at a time, retrying while
 * a waiter has not reached its wait yet. Returns how many were woken; each
 * single wake must report 0 or 1.
 */
static int wake_one_at_a_time(volatile int *word, int wake_op, int count)
{
	int woken = 0;
	for (int ms = 0; ms < WAKE_PATIENCE_MS && woken < count; ms++) {
		long n = futex_op(word, wake_op, 1, NULL);
		if (n < 0 || n > 1) {
			test_fail("FUTEX_WAKE(1) returned %ld", n);
			return woken;
		}
		woken += (int)n;
		if (n == 0)
			myrmex_sleep_ns(NS_PER_MS);
	}
	return woken;
}

static void check_wake(const char *form, int wait_op, int wake_op)
{
	static struct waiter waiters[WAITERS];
	volatile int word = 0;
	int made = 0;

	for (int i = 0; i < WAITERS; i++) {
		waiters[i].word = &word;
		waiters[i].op = wait_op;
		waiters[i].ready = 0;
		long err = myrmex_thread_create(&waiters[i].thread, wait_once, &waiters[i], 0);
		if (err < 0) {
			test_fail("%s: myrmex_thread_create: %ld", form, err);
			break;
		}
		made++;
	}
	for (int i = 0; i < made; i++)
		while (!__atomic_load_n(&waiters[i].ready, __ATOMIC_SEQ_CST))
			raw0(SYS_sched_yield);

	int woken = wake_one_at_a_time(&word, wake_op, made);
	CHECK(woken == made, "%s: FUTEX_WAKE woke %d of %d waiters in %d ms", form, woken, made,
	      WAKE_PATIENCE_MS);
	if (woken != made) {
		/* Release the rest so that the joins below cannot hang. */
		word = 1;
		futex_op(&word, wake_op, WAITERS, NULL);
	}
	for (int i = 0; i < made; i++) {
		myrmex_thread_join(&waiters[i].thread);
		CHECK(waiters[i].result == 0, "%s: woken FUTEX_WAIT returned %ld", form,
		      waiters[i].result);
	}
	CHECK_EQ(futex_op(&word, wake_op, 1, NULL), 0);
}

static void check_timeout(const char *form, int wait_op)
{
	volatile int word = 0;
	struct raw_timespec timeout = { 0, 30 * NS_PER_MS };
	uint64_t start = myrmex_now_ns();
	long r = futex_op(&word, wait_op, 0, &timeout);
	uint64_t waited = myrmex_now_ns() - start;
	CHECK(r == -ETIMEDOUT, "%s: FUTEX_WAIT with a 30 ms timeout returned %ld", form, r);
	CHECK(waited >= 30 * NS_PER_MS, "%s: FUTEX_WAIT timed out after only %llu ns", form,
	      (unsigned long long)waited);

	/* A zero timeout times out at once. */
	struct raw_timespec zero = { 0, 0 };
	CHECK_EQ(futex_op(&word, wait_op, 0, &zero), -ETIMEDOUT);
}

int main(void)
{
	check_stale_value();
	check_wake("shared", MYRMEX_FUTEX_WAIT, MYRMEX_FUTEX_WAKE);
	check_wake("private", MYRMEX_FUTEX_WAIT | MYRMEX_FUTEX_PRIVATE,
	           MYRMEX_FUTEX_WAKE | MYRMEX_FUTEX_PRIVATE);
	check_timeout("shared", MYRMEX_FUTEX_WAIT);
	check_timeout("private", MYRMEX_FUTEX_WAIT | MYRMEX_FUTEX_PRIVATE);
	return test_exit_code();
}
