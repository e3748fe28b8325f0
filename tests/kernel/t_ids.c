/*
 * t_ids: process and thread identities. The main thread's tid is the pid,
 * the parent of a program started by the init is pid 1, and threads get tids
 * of their own while sharing the pid.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_ids"
#include "test_check.h"

#define THREADS 3

struct thread_ids {
	long pid;
	long tid;
};

static int arrived; /* threads that have recorded their ids */

/* Records the ids, then waits until every thread has, so that all of them
 * are alive at the same time and no tid can have been reused. */
static void record_ids(void *arg)
{
	struct thread_ids *ids = arg;
	ids->pid = raw0(SYS_getpid);
	ids->tid = raw0(SYS_gettid);
	__atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) < THREADS)
		raw0(SYS_sched_yield);
}

int main(void)
{
	long pid = raw0(SYS_getpid);
	long tid = raw0(SYS_gettid);
	long ppid = raw0(SYS_getppid);

	CHECK(pid > 0, "getpid returned %ld", pid);
	CHECK(tid == pid, "main thread: gettid %ld differs from getpid %ld", tid, pid);
	if (myrmex_is_native())
		CHECK(ppid == 1, "getppid is %ld, expected the init (1)", ppid);
	else
		CHECK(ppid > 0, "getppid returned %ld", ppid);

	struct thread_ids ids[THREADS];
	struct myrmex_thread threads[THREADS];
	memset(ids, 0, sizeof ids);
	for (int i = 0; i < THREADS; i++) {
		long err = myrmex_thread_create(&threads[i], record_ids, &ids[i], 0);
		if (err < 0) {
			test_fail("myrmex_thread_create: %ld", err);
			return 1; /* the threads made so far end with the process */
		}
	}
	for (int i = 0; i < THREADS; i++)
		myrmex_thread_join(&threads[i]);

	for (int i = 0; i < THREADS; i++) {
		CHECK(ids[i].pid == pid, "thread %d: getpid %ld, main's is %ld", i, ids[i].pid,
		      pid);
		CHECK(ids[i].tid > 0 && ids[i].tid != pid, "thread %d: gettid %ld (pid %ld)", i,
		      ids[i].tid, pid);
		CHECK(ids[i].tid == threads[i].created_tid,
		      "thread %d: gettid %ld, but clone returned %d", i, ids[i].tid,
		      threads[i].created_tid);
		for (int j = 0; j < i; j++)
			CHECK(ids[i].tid != ids[j].tid, "threads %d and %d share tid %ld", j, i,
			      ids[i].tid);
	}
	CHECK(raw0(SYS_gettid) == tid, "main's tid changed after making threads");
	CHECK(raw0(SYS_getpid) == pid, "the pid changed after making threads");
	return test_exit_code();
}
