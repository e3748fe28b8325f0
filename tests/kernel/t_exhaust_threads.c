/*
 * t_exhaust_threads: makes threads, each blocked on a futex, until clone is
 * refused; the refusal must be EAGAIN (or ENOMEM), not a crash.
 *   t_exhaust_threads          releases and joins them all, then shows that a
 *                              new thread can be made again. Exit 0.
 *   t_exhaust_threads abandon  ends the process with exit_group(0) while all
 *                              of them are still blocked: the kernel must tear
 *                              them down (the init's leak check watches).
 * On Linux the loop stops after MAX_THREADS_ON_LINUX threads with a note.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_exhaust_threads"
#include "test_check.h"

#include <errno.h>
#include <limits.h>

#define MAX_THREADS_ON_LINUX 512
#define MAX_THREADS 4096
#define STACK_SIZE (16 * 1024)
#define NS_PER_MS 1000000ULL

static struct myrmex_thread threads[MAX_THREADS];
static volatile int release; /* the futex word the threads block on */
static int blocked;          /* threads that reached their wait */

static void block_until_released(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&blocked, 1, __ATOMIC_SEQ_CST);
	while (!release)
		myrmex_futex_wait(&release, 0, -1);
}

/* Makes threads until refused; returns how many, *refusal the error or 0. */
static int make_threads_until_refused(int limit, long *refusal)
{
	int made = 0;
	*refusal = 0;
	while (made < limit) {
		long err = myrmex_thread_create(&threads[made], block_until_released, NULL,
		                                STACK_SIZE);
		if (err < 0) {
			*refusal = err;
			break;
		}
		made++;
	}
	return made;
}

/* Makes one thread, retrying for up to a second while refused: a joined
 * thread's tid is cleared as it exits, maybe before the kernel has let go of
 * its slot. Returns the last error, or 0. */
static long create_with_patience(struct myrmex_thread *t)
{
	long err = 0;
	for (int ms = 0; ms < 1000; ms++) {
		err = myrmex_thread_create(t, block_until_released, NULL, STACK_SIZE);
		if (err == 0)
			return 0;
		myrmex_sleep_ns(NS_PER_MS);
	}
	return err;
}

/* Waits (up to 10 s) until every made thread is blocked. */
static void wait_until_blocked(int made)
{
	for (int ms = 0; ms < 10000; ms++) {
		if (__atomic_load_n(&blocked, __ATOMIC_SEQ_CST) >= made)
			return;
		myrmex_sleep_ns(NS_PER_MS);
	}
	test_fail("only %d of %d threads started", blocked, made);
}

int main(int argc, char **argv)
{
	int abandon = argc > 1 && strcmp(argv[1], "abandon") == 0;
	if (argc > 1 && !abandon) {
		test_fail("unknown mode \"%s\" (abandon or none)", argv[1]);
		return 2;
	}
	int native = myrmex_is_native();
	long refusal;
	int made = make_threads_until_refused(native ? MAX_THREADS : MAX_THREADS_ON_LINUX,
	                                      &refusal);
	if (refusal == 0) {
		if (native)
			test_fail("%d threads made without a refusal", made);
		else
			test_note("not on Myrmex: %d threads made without a refusal", made);
	} else {
		CHECK(refusal == -EAGAIN || refusal == -ENOMEM,
		      "thread creation was refused with %ld, not -EAGAIN or -ENOMEM", refusal);
		test_note("thread creation refused after %d threads", made);
	}
	wait_until_blocked(made);

	if (abandon) {
		/* The process ends with every thread still blocked in FUTEX_WAIT. */
		raw1(SYS_exit_group, test_exit_code());
	}

	release = 1;
	myrmex_futex_wake(&release, INT_MAX);
	for (int i = 0; i < made; i++)
		myrmex_thread_join(&threads[i]);

	struct myrmex_thread again;
	long err = create_with_patience(&again);
	CHECK(err == 0, "no thread could be made after joining all: %ld", err);
	if (err == 0)
		myrmex_thread_join(&again);

	/* A second round reaches the same limit: nothing leaked in between. */
	if (refusal != 0) {
		release = 0;
		blocked = 0;
		int second = 0;
		while (second < made && create_with_patience(&threads[second]) == 0)
			second++;
		CHECK(second == made, "the second round made %d threads, the first %d", second,
		      made);
		wait_until_blocked(second);
		release = 1;
		myrmex_futex_wake(&release, INT_MAX);
		for (int i = 0; i < second; i++)
			myrmex_thread_join(&threads[i]);
	}
	return test_exit_code();
}
