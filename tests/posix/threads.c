/*
 * Threads (clone, futex, set_tid_address and arch_prctl underneath musl's
 * pthreads): create and join with a return value, a mutex protecting a shared
 * counter, a condition variable between a producer and a consumer, thread
 * local storage (the FS base), a condition wait that times out, and many
 * threads created and joined in turn.
 */
#include "posix_test.h"

#include <pthread.h>
#include <time.h>

#define WORKERS 4
#define ROUNDS 20000
#define ITEMS 200

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static long counter;
static __thread int tls_value;
static int tls_ok[WORKERS];

static int queue[8];
static int queue_len;
static int done;

static void *worker(void *arg)
{
	int index = (int)(long)arg;
	tls_value = 1000 + index;
	for (int i = 0; i < ROUNDS; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
		if (i % 1000 == 0)
			sched_yield();
	}
	tls_ok[index] = tls_value == 1000 + index;
	return (void *)(long)(index * 10);
}

static void *producer(void *arg)
{
	(void)arg;
	for (int i = 1; i <= ITEMS; i++) {
		pthread_mutex_lock(&lock);
		while (queue_len == 8)
			pthread_cond_wait(&changed, &lock);
		queue[queue_len++] = i;
		pthread_cond_broadcast(&changed);
		pthread_mutex_unlock(&lock);
	}
	pthread_mutex_lock(&lock);
	done = 1;
	pthread_cond_broadcast(&changed);
	pthread_mutex_unlock(&lock);
	return NULL;
}

static void *consumer(void *arg)
{
	long sum = 0;
	(void)arg;
	for (;;) {
		pthread_mutex_lock(&lock);
		while (queue_len == 0 && !done)
			pthread_cond_wait(&changed, &lock);
		if (queue_len == 0 && done) {
			pthread_mutex_unlock(&lock);
			break;
		}
		sum += queue[--queue_len];
		pthread_cond_broadcast(&changed);
		pthread_mutex_unlock(&lock);
	}
	return (void *)sum;
}

static void *nothing(void *arg)
{
	return arg;
}

int main(void)
{
	pthread_t t[WORKERS];
	tls_value = 7;
	int created = 0;
	for (int i = 0; i < WORKERS; i++)
		created += pthread_create(&t[i], NULL, worker, (void *)(long)i) == 0;
	say("created %d threads\n", created);
	long rets = 0;
	for (int i = 0; i < WORKERS; i++) {
		void *ret;
		pthread_join(t[i], &ret);
		rets += (long)ret;
	}
	say("joined, return values sum to %ld\n", rets);
	say("counter under the mutex: %ld (expected %d)\n", counter, WORKERS * ROUNDS);
	int tls_all = 1;
	for (int i = 0; i < WORKERS; i++)
		tls_all &= tls_ok[i];
	say("each thread saw its own thread-local value: %s\n", yes(tls_all));
	say("main thread's thread-local value untouched: %s\n", yes(tls_value == 7));

	pthread_t p, c;
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	void *sum;
	pthread_join(p, NULL);
	pthread_join(c, &sum);
	say("producer/consumer through a condition variable: sum %ld (expected %d)\n",
	    (long)sum, ITEMS * (ITEMS + 1) / 2);

	struct timespec deadline;
	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_nsec += 50 * 1000000;
	if (deadline.tv_nsec >= 1000000000) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&lock);
	int r = pthread_cond_timedwait(&changed, &lock, &deadline);
	pthread_mutex_unlock(&lock);
	say("timed condition wait without a signal: %s\n", r == ETIMEDOUT ? "ETIMEDOUT" : err_name(r));

	int ok = 0;
	for (int i = 0; i < 50; i++) {
		pthread_t one;
		void *ret = NULL;
		if (pthread_create(&one, NULL, nothing, (void *)(long)i) == 0 &&
		    pthread_join(one, &ret) == 0 && (long)ret == i)
			ok++;
	}
	say("50 threads created and joined in turn: %d\n", ok);
	return 0;
}
