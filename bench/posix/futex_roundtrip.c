/*
 * linux.futex.roundtrip (suite posix, named as issue 15 names it): two
 * threads of one process pass a turn back and forth through one shared
 * word with FUTEX_WAIT and FUTEX_WAKE; per round trip (our wake, the
 * other's wait returning, its wake, our wait returning). The word says
 * whose turn it is, so a wake that comes before the wait is never lost:
 * the wait then finds the word changed and returns at once (as it must).
 *
 * On Myrmex futexes are the kernel's (docs/posix.md: 0 IPCs): the figure is
 * the kernel's wait/wake path and two thread switches, against Linux's.
 */
#define _GNU_SOURCE
#include "bench.h"
#include "posix.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NAME "linux.futex.roundtrip"
/* <linux/futex.h>'s numbers (musl's headers do not carry it). */
#define FUTEX_WAIT         0
#define FUTEX_WAKE         1
#define FUTEX_PRIVATE_FLAG 128
#define PING 0u   /* the main thread's turn */
#define PONG 1u   /* the other thread's turn */
#define STOP 2u   /* the other thread ends */

static volatile uint32_t word = PING;
static uint64_t bad;

static long futex(volatile uint32_t *w, int op, uint32_t val)
{
	return syscall(SYS_futex, w, op | FUTEX_PRIVATE_FLAG, val, NULL, NULL, 0);
}

/* Waits until the word is no longer `now`. */
static void wait_while(uint32_t now)
{
	while (__atomic_load_n(&word, __ATOMIC_ACQUIRE) == now)
		futex(&word, FUTEX_WAIT, now);
}

static void hand_over(uint32_t to)
{
	__atomic_store_n(&word, to, __ATOMIC_RELEASE);
	futex(&word, FUTEX_WAKE, 1);
}

static void *partner(void *arg)
{
	(void)arg;
	for (;;) {
		wait_while(PING);
		if (__atomic_load_n(&word, __ATOMIC_ACQUIRE) == STOP)
			return NULL;
		hand_over(PING);
	}
}

static void roundtrip_body(void *ctx, uint64_t iters)
{
	(void)ctx;
	for (uint64_t i = 0; i < iters; i++) {
		hand_over(PONG);
		wait_while(PONG);
		if (__atomic_load_n(&word, __ATOMIC_ACQUIRE) != PING)
			bad++;
	}
}

int main(void)
{
	pthread_t t;
	int err = pthread_create(&t, NULL, partner, NULL);
	if (err) {
		bench_fail(NAME, "pthread_create", -err);
		return 1;
	}
	const struct bench b = {
		.suite = "posix", .name = NAME, .runs = 21, .iters = 200, .ops_per_iter = 1,
		.body = roundtrip_body, .ctx = NULL,
	};
	int ret = bench_run(&b);
	hand_over(STOP);
	pthread_join(t, NULL);
	if (bad) {
		bench_fail(NAME, "bad round trips", (long)bad);
		ret = -1;
	}
	return ret == 0 ? 0 : 1;
}
