/*
 * t_sched: the scheduler and fixed priorities (Myrmex runs on one CPU).
 *   - Two threads of equal priority alternate with sched_yield and a shared
 *     turn variable: both make progress.
 *   - myrmex_setprio (Myrmex only): the ceiling is the priority the process
 *     was spawned with (argv[1], if given, is checked against it); raising
 *     above it is EPERM, bad values EINVAL, unknown or foreign tids ESRCH.
 *     A lower-priority thread never runs while main is runnable, not even
 *     when main yields. When main lowers itself below a runnable thread, or
 *     wakes a higher-priority thread from a futex, that thread runs at once,
 *     before main's next instruction.
 *   - I/O preference (Myrmex only; issue 19): main sleeps 1 ms thirty times
 *     beside a busy thread of its priority; a thread the timer wakes is put
 *     first and takes the CPU (kernel/sched.c), and that must starve nobody:
 *     every sleep ends and the busy thread makes progress. How soon main runs
 *     is measured, not tested (posix.timeq.*.reader in make bench); the note
 *     line gives the longest sleep in timer ticks.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_sched"
#include "test_check.h"

#include <errno.h>
#include <stdlib.h>

#define ROUNDS 1000
#define MAIN_YIELDS 100

/* ---- equal priorities: alternation ---- */

static volatile int turn;
static volatile int progress[2];

static void alternate(void *arg)
{
	int me = (int)(long)arg;
	for (int r = 0; r < ROUNDS; r++) {
		while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != me)
			raw0(SYS_sched_yield);
		progress[me]++;
		__atomic_store_n(&turn, 1 - me, __ATOMIC_RELEASE);
	}
}

static void check_alternation(void)
{
	struct myrmex_thread t[2];
	for (long i = 0; i < 2; i++) {
		long err = myrmex_thread_create(&t[i], alternate, (void *)i, 0);
		if (err < 0) {
			test_fail("myrmex_thread_create: %ld", err);
			if (i == 1) {
				/* Let the first one finish alone. */
				progress[1] = ROUNDS;
				while (progress[0] < ROUNDS) {
					__atomic_store_n(&turn, 0, __ATOMIC_RELEASE);
					raw0(SYS_sched_yield);
				}
				myrmex_thread_join(&t[0]);
			}
			return;
		}
	}
	myrmex_thread_join(&t[0]);
	myrmex_thread_join(&t[1]);
	CHECK(progress[0] == ROUNDS && progress[1] == ROUNDS,
	      "alternating threads made %d and %d rounds of %d", progress[0], progress[1],
	      ROUNDS);
}

/* ---- priorities ---- */

static int sequence; /* order of events across threads */

static int next_in_sequence(void)
{
	return __atomic_add_fetch(&sequence, 1, __ATOMIC_SEQ_CST);
}

/* Finds the ceiling: the highest priority the caller may take. The thread
 * starts at it, so every value above must be refused with EPERM. */
static int find_ceiling(void)
{
	for (int p = MYRMEX_PRIO_MAX; p >= 0; p--) {
		long r = myrmex_setprio(0, p);
		if (r == 0)
			return p;
		CHECK(r == -EPERM, "setprio(0, %d) above the ceiling returned %ld, not -EPERM", p,
		      r);
	}
	test_fail("setprio(0, p) refused every priority");
	return -1;
}

static void check_setprio_errors(int ceiling)
{
	CHECK_EQ(myrmex_setprio(0, 40), -EINVAL);
	CHECK_EQ(myrmex_setprio(0, -1), -EINVAL);
	CHECK_EQ(myrmex_setprio(0, MYRMEX_PRIO_MAX + 1), -EINVAL);
	CHECK_EQ(myrmex_setprio(1 << 29, ceiling), -ESRCH);
	CHECK_ONE_OF(myrmex_setprio(-5, ceiling), -ESRCH, -EINVAL);
	CHECK_EQ(myrmex_setprio(1, ceiling), -ESRCH); /* the init's thread: not ours */
	CHECK_EQ(myrmex_setprio((int)raw0(SYS_gettid), ceiling), 0);
	if (ceiling < MYRMEX_PRIO_MAX)
		CHECK_EQ(myrmex_setprio(0, ceiling + 1), -EPERM);
	else
		test_note("spawned at the top priority: the EPERM case cannot be shown");
}

static volatile int low_go;
static volatile int low_ran_at;

/* Blocks (rather than spins, whatever priority it starts at) until main
 * lets it go, then records when it ran. */
static void low_priority_worker(void *arg)
{
	(void)arg;
	while (!low_go)
		myrmex_futex_wait(&low_go, 0, -1);
	low_ran_at = next_in_sequence();
}

/* A thread below main's priority runs only once main blocks (in join). */
static void check_lower_waits(int ceiling, int low)
{
	struct myrmex_thread t;
	long err = myrmex_thread_create(&t, low_priority_worker, NULL, 0);
	if (err < 0) {
		test_fail("myrmex_thread_create: %ld", err);
		return;
	}
	CHECK_EQ(myrmex_setprio(t.created_tid, low), 0);
	if (ceiling < MYRMEX_PRIO_MAX) /* another thread may not go above it either */
		CHECK_EQ(myrmex_setprio(t.created_tid, ceiling + 1), -EPERM);
	CHECK_EQ(myrmex_setprio(t.created_tid, low), 0);
	low_go = 1;
	CHECK(myrmex_futex_wake(&low_go, 1) >= 0, "FUTEX_WAKE failed");
	int main_done = 0;
	for (int i = 0; i < MAIN_YIELDS; i++) {
		main_done = next_in_sequence();
		raw0(SYS_sched_yield);
	}
	main_done = next_in_sequence();
	int ran_early = low_ran_at;
	myrmex_thread_join(&t);
	CHECK(ran_early == 0, "a priority-%d thread ran (event %d) while the priority-%d main "
	      "thread was runnable (its last event %d)", low, ran_early, ceiling, main_done);
	CHECK(low_ran_at > main_done, "the low-priority thread ran at event %d, main ended at %d",
	      low_ran_at, main_done);
	CHECK_EQ(myrmex_setprio(t.created_tid, low), -ESRCH); /* it has exited */
}

static volatile int high_word;
static volatile int high_ready;
static volatile int high_woke_at;

static void high_priority_waiter(void *arg)
{
	(void)arg;
	high_ready = next_in_sequence();
	while (high_word == 0)
		myrmex_futex_wait(&high_word, 0, -1);
	high_woke_at = next_in_sequence();
}

/* Main drops below a runnable thread, then wakes it from a futex: each
 * time that thread must run before main goes on. */
static void check_higher_preempts(int ceiling, int lowered)
{
	struct myrmex_thread t;
	long err = myrmex_thread_create(&t, high_priority_waiter, NULL, 0);
	if (err < 0) {
		test_fail("myrmex_thread_create: %ld", err);
		return;
	}
	int before = next_in_sequence();
	CHECK_EQ(myrmex_setprio(0, lowered), 0);
	int after = next_in_sequence();
	CHECK(high_ready != 0 && high_ready < after,
	      "main lowered itself to %d (events %d..%d) but the priority-%d thread had not "
	      "run (its event %d)", lowered, before, after, ceiling, high_ready);

	while (high_ready == 0) /* keep going if it failed above */
		raw0(SYS_sched_yield);
	high_word = 1;
	long woken = myrmex_futex_wake(&high_word, 1);
	int main_after_wake = next_in_sequence();
	CHECK(woken == 1, "FUTEX_WAKE of the high-priority waiter returned %ld", woken);
	CHECK(high_woke_at != 0 && high_woke_at < main_after_wake,
	      "the woken priority-%d thread did not run before the priority-%d waker "
	      "(its event %d, main's %d)", ceiling, lowered, high_woke_at, main_after_wake);

	myrmex_thread_join(&t);
	CHECK_EQ(myrmex_setprio(0, ceiling), 0); /* back up to the ceiling is allowed */
}

static void check_priorities(int expected_ceiling)
{
	int ceiling = find_ceiling();
	if (ceiling < 0)
		return;
	CHECK(expected_ceiling < 0 || ceiling == expected_ceiling,
	      "the ceiling is %d, but the spawner used priority %d", ceiling, expected_ceiling);
	check_setprio_errors(ceiling);
	if (ceiling < 4) {
		test_note("ceiling %d leaves no room below main: ordering not shown", ceiling);
		return;
	}
	check_lower_waits(ceiling, ceiling - 5 > 0 ? ceiling - 5 : 1);
	check_higher_preempts(ceiling, ceiling - 1);
}

/* argv[1], if given, is the priority the spawner asked for: the ceiling. */
/* ---- I/O preference ---- */

#define SLEEPS 30

static volatile int spin_stop;
static volatile uint64_t spun;

static void spinner(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&spin_stop, __ATOMIC_RELAXED))
		spun++;
}

static void check_io_preference(void)
{
	struct myrmex_thread s;
	long err = myrmex_thread_create(&s, spinner, NULL, 0);
	if (err < 0) {
		test_fail("myrmex_thread_create: %ld", err);
		return;
	}
	uint64_t worst = 0;
	for (int i = 0; i < SLEEPS; i++) {
		struct myrmex_kstats a, b;
		myrmex_kstats(&a);
		myrmex_sleep_ns(1000000);
		myrmex_kstats(&b);
		if (b.timer_ticks - a.timer_ticks > worst)
			worst = b.timer_ticks - a.timer_ticks;
	}
	uint64_t progress_seen = spun;
	test_note("I/O preference: the longest of %d sleeps of 1 ms took %llu timer ticks", SLEEPS,
	          (unsigned long long)worst);
	__atomic_store_n(&spin_stop, 1, __ATOMIC_RELAXED);
	myrmex_thread_join(&s);
	CHECK(progress_seen > 0, "the busy thread never ran");
}

int main(int argc, char **argv)
{
	int expected_ceiling = argc > 1 ? atoi(argv[1]) : -1;

	check_alternation();
	if (myrmex_is_native()) {
		check_priorities(expected_ceiling);
		check_io_preference();
	} else {
		test_note("not on Myrmex: setprio and I/O preference checks skipped");
	}
	return test_exit_code();
}
