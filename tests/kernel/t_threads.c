/*
 * t_threads: kernel threads of one process.
 *   t_threads         8 threads add to one atomic counter 10000 times each and
 *                     are joined; each runs on its own stack with its own arg;
 *                     a thread that calls the exit system call itself ends
 *                     alone; main goes on. Exit 0.
 *   t_threads group   a thread calls exit_group(7) while main sleeps: the
 *                     whole process ends with status 7.
 *   t_threads leader  main ends with the exit system call (not exit_group);
 *                     the other thread goes on and ends the process with
 *                     exit_group(5): status 5 shows it outlived main.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_threads"
#include "test_check.h"

#include <stdint.h>

#define THREADS 8
#define INCREMENTS 10000
#define GROUP_EXIT_CODE 7
#define LEADER_EXIT_CODE 5
#define NS_PER_MS 1000000ULL

static long counter;

struct worker {
	struct myrmex_thread thread;
	int index;
	long own_count;      /* written only by this worker */
	uintptr_t stack_var; /* address of a local, to check the stack */
	long tid;
};

static void add_to_counter(void *arg)
{
	struct worker *w = arg;
	int local = w->index;
	w->stack_var = (uintptr_t)&local;
	w->tid = raw0(SYS_gettid);
	for (int i = 0; i < INCREMENTS; i++) {
		__atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED);
		w->own_count++;
		if (i % 1000 == 0)
			raw0(SYS_sched_yield); /* mix the threads on one CPU */
	}
}

static void check_counter_threads(void)
{
	static struct worker workers[THREADS];

	for (int i = 0; i < THREADS; i++) {
		workers[i].index = i;
		long err = myrmex_thread_create(&workers[i].thread, add_to_counter, &workers[i],
		                                0);
		if (err < 0) {
			test_fail("myrmex_thread_create #%d: %ld", i, err);
			for (int j = 0; j < i; j++)
				myrmex_thread_join(&workers[j].thread);
			return;
		}
	}
	for (int i = 0; i < THREADS; i++) {
		uintptr_t lo = (uintptr_t)workers[i].thread.stack;
		uintptr_t hi = lo + workers[i].thread.stack_size;
		myrmex_thread_join(&workers[i].thread);
		CHECK(workers[i].thread.tid == 0, "thread %d: tid not cleared after join", i);
		CHECK(workers[i].own_count == INCREMENTS, "thread %d counted %ld, not %d", i,
		      workers[i].own_count, INCREMENTS);
		CHECK(workers[i].stack_var >= lo && workers[i].stack_var < hi,
		      "thread %d ran on %#lx, outside its stack [%#lx, %#lx)", i,
		      (unsigned long)workers[i].stack_var, (unsigned long)lo,
		      (unsigned long)hi);
		CHECK(workers[i].tid == workers[i].thread.created_tid,
		      "thread %d: gettid %ld, clone returned %d", i, workers[i].tid,
		      workers[i].thread.created_tid);
	}
	long total = __atomic_load_n(&counter, __ATOMIC_SEQ_CST);
	CHECK(total == (long)THREADS * INCREMENTS, "counter is %ld, expected %ld", total,
	      (long)THREADS * INCREMENTS);
}

static int before_exit, after_exit;

/* Ends itself with the exit system call in the middle of the function. */
static void exit_early(void *arg)
{
	(void)arg;
	before_exit = 1;
	raw1(SYS_exit, 0);
	after_exit = 1; /* never reached */
}

static void check_thread_exit_is_private(void)
{
	struct myrmex_thread t;
	long err = myrmex_thread_create(&t, exit_early, NULL, 0);
	if (err < 0) {
		test_fail("myrmex_thread_create: %ld", err);
		return;
	}
	myrmex_thread_join(&t);
	CHECK(before_exit == 1, "the thread that calls exit never ran");
	CHECK(after_exit == 0, "the exit system call returned in a thread");
	/* Main still runs: prove it with a system call and a second thread. */
	CHECK(raw0(SYS_getpid) > 0, "getpid after a thread exit failed");
	err = myrmex_thread_create(&t, exit_early, NULL, 0);
	CHECK(err == 0, "no new thread after a thread exit: %ld", err);
	if (err == 0)
		myrmex_thread_join(&t);
}

static void group_exit_after_a_while(void *arg)
{
	(void)arg;
	myrmex_sleep_ns(20 * NS_PER_MS);
	raw1(SYS_exit_group, GROUP_EXIT_CODE);
}

/* Mode "group": only exit_group from the thread may end the process. */
static int run_group_exit(void)
{
	struct myrmex_thread t;
	long err = myrmex_thread_create(&t, group_exit_after_a_while, NULL, 0);
	if (err < 0) {
		test_fail("myrmex_thread_create: %ld", err);
		return 1;
	}
	for (int i = 0; i < 100; i++)
		myrmex_sleep_ns(100 * NS_PER_MS);
	test_fail("main still runs 10 s after a thread called exit_group(%d)",
	          GROUP_EXIT_CODE);
	return 1;
}

static volatile int leader_pid;

static void outlive_the_leader(void *arg)
{
	(void)arg;
	myrmex_sleep_ns(50 * NS_PER_MS); /* main has exited by now */
	if (raw0(SYS_getpid) != leader_pid) {
		test_fail("getpid changed after the main thread exited");
		raw1(SYS_exit_group, 1);
	}
	struct myrmex_thread helper;
	if (myrmex_thread_create(&helper, exit_early, NULL, 0) != 0) {
		test_fail("no new thread after the main thread exited");
		raw1(SYS_exit_group, 1);
	}
	myrmex_thread_join(&helper);
	test_note("the second thread outlived main");
	raw1(SYS_exit_group, LEADER_EXIT_CODE);
}

/* Mode "leader": the main thread exits alone; the process lives on. */
static int run_leader_exit(void)
{
	struct myrmex_thread t;
	leader_pid = (int)raw0(SYS_getpid);
	long err = myrmex_thread_create(&t, outlive_the_leader, NULL, 0);
	if (err < 0) {
		test_fail("myrmex_thread_create: %ld", err);
		return 1;
	}
	raw1(SYS_exit, 0);
	test_fail("the exit system call returned in the main thread");
	return 1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "group") == 0)
		return run_group_exit();
	if (argc > 1 && strcmp(argv[1], "leader") == 0)
		return run_leader_exit();
	if (argc > 1) {
		test_fail("unknown mode \"%s\" (group, leader or none)", argv[1]);
		return 2;
	}
	check_counter_threads();
	check_thread_exit_is_private();
	return test_exit_code();
}
