/*
 * Fine-grained threads with split-phase synchronisation over wrapped system
 * calls (paper 001, CEFOS; issue 18; docs/fthread.md).
 *
 * A fine-grained thread is a function and its argument that runs to its end
 * without blocking: no stack of its own, 32 bytes (a kernel thread has a
 * kernel stack, a user stack and a kernel object). A thread that needs a
 * system call does not make it: it stores the call in the scheduler's
 * wrapped-call area (fth_call) naming a continuation, another fine-grained
 * thread, and ends. Each continuation has a synchronisation count, the
 * number of results (and fth_signal events) it still waits for; when it
 * reaches 0 the continuation becomes runnable. The scheduler, in user space,
 * runs runnable threads and enters the kernel once (one batch call) when N
 * calls are stored, or earlier when nothing is runnable.
 *
 * One scheduler belongs to one kernel thread: nothing here is locked.
 */
#ifndef MYRMEX_FTHREAD_H
#define MYRMEX_FTHREAD_H

#include <stdint.h>
#include <myrmex/syscall.h>

struct fth_sched;
struct fth;

typedef void (*fth_fn)(struct fth_sched *s, struct fth *self);

/* A fine-grained thread, or a continuation: the same thing. The memory is
 * the caller's (static, on a stack frame that outlives fth_run, or
 * malloc'd) and must stay until the thread has run. */
struct fth {
	fth_fn fn;
	void *arg;
	uint32_t count;       /* results and signals still awaited */
	uint32_t runs;        /* times run (a thread runs once per arming) */
	struct fth *next;     /* the run queue */
};

/* What a stored call's result goes to. */
struct fth_wait {
	long *result;         /* where the result is written, or NULL */
	struct fth *cont;     /* whose count the result decrements, or NULL */
};

struct fth_stats {
	uint64_t calls;       /* calls stored */
	uint64_t flushes;     /* batch system calls made */
	uint64_t runs;        /* threads run */
	uint64_t short_flushes; /* batches a signal stopped early */
};

struct fth_sched {
	unsigned n;           /* flush threshold N, 1..MYRMEX_BATCH_MAX */
	unsigned stored;      /* entries 0..stored-1 of the area hold calls */
	int trap;             /* flush through int $0x81 instead of syscall */
	uint64_t rand;        /* 0: run queue in order; else the random state */
	struct fth *head, *tail;
	unsigned nready;
	struct fth_stats st;
	struct fth_wait wait[MYRMEX_BATCH_MAX];
	union {
		struct myrmex_batch_area area;
		char bytes[sizeof(struct myrmex_batch_area) +
		           MYRMEX_BATCH_MAX * sizeof(struct myrmex_batch_entry)];
	} u;
};

/*
 * Prepares s with flush threshold n (1..MYRMEX_BATCH_MAX, else -EINVAL).
 * seed 0 runs runnable threads in the order they became runnable; any
 * other seed picks the next one at random, reproducibly for the seed.
 */
int fth_sched_init(struct fth_sched *s, unsigned n, uint64_t seed);

/* Prepares t to run fn with t->arg = arg once count events (results of
 * stored calls, fth_signal) have arrived. count 0: it waits for fth_spawn. */
void fth_init(struct fth *t, fth_fn fn, void *arg, unsigned count);

/* Makes t runnable now (its count must be 0). */
void fth_spawn(struct fth_sched *s, struct fth *t);

/* Adds count events to wait for to t, which must not be runnable yet. */
void fth_expect(struct fth *t, unsigned count);

/* One event for cont: its count drops by one; at 0 it becomes runnable. */
void fth_signal(struct fth_sched *s, struct fth *cont);

/*
 * Stores system call nr with arguments a[0..5] (NULL: zeros). When it has
 * run, its value or -errno goes to *result (if result) and cont (if any)
 * gets one event. The area is flushed first if it is full.
 */
void fth_call(struct fth_sched *s, struct fth *cont, long *result, long nr, const long *a);

/* fth_call with three arguments. */
void fth_call3(struct fth_sched *s, struct fth *cont, long *result, long nr, long a0, long a1,
               long a2);

/* Enters the kernel once for the calls stored so far; returns the batch
 * call's error (then the stored calls are dropped and their continuations
 * never run), else 0. fth_run calls it; a thread may too. */
long fth_flush(struct fth_sched *s);

/*
 * Runs until nothing is runnable and no call is stored: 0, or the first
 * batch call's error. A continuation whose count never reaches 0 is left
 * unrun.
 */
long fth_run(struct fth_sched *s);

#endif
