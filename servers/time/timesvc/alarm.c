/*
 * The alarm thread: sleeps in the kernel (a futex wait with a timeout)
 * until the earliest parked sleep is due, answers what is due
 * (sleep_answer_due), and again. The main thread, when it parks a sleep
 * due earlier than the one waited for, bumps the futex word and wakes it
 * (alarm_kick); a bump between the thread's look at the table and its wait
 * makes the wait return at once, so no deadline is missed. The kernel's
 * timer runs at 1 kHz, so a sleep is answered within about a millisecond
 * of its time, as the kernel's own nanosleep.
 */
#include "timesvc.h"

#define MAX_WAIT_NS (3600ull * 1000000000ull)   /* then look again */

static volatile int seq;
static struct myrmex_thread thread;

static void alarm_loop(void *arg)
{
	(void)arg;
	for (;;) {
		int s = __atomic_load_n(&seq, __ATOMIC_ACQUIRE);
		uint64_t next = sleep_answer_due(clock_monotonic());
		if (next == UINT64_MAX) {
			myrmex_futex_wait(&seq, s, -1);
			continue;
		}
		uint64_t now = clock_monotonic();
		if (next <= now)
			continue;
		uint64_t wait = next - now;
		myrmex_futex_wait(&seq, s, (int64_t)(wait < MAX_WAIT_NS ? wait : MAX_WAIT_NS));
	}
}

void alarm_kick(void)
{
	__atomic_add_fetch(&seq, 1, __ATOMIC_RELEASE);
	myrmex_futex_wake(&seq, 1);
}

int alarm_start(void)
{
	return (int)myrmex_thread_create(&thread, alarm_loop, NULL, 0);
}
