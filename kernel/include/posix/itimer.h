/*
 * The real-time interval timer of a process (ITIMER_REAL: alarm, setitimer):
 * SIGALRM when the monotonic clock reaches a deadline, then every interval.
 * The timer tick checks the armed timers (1 ms resolution). A process has
 * one; it survives execve and is not inherited by fork.
 */
#ifndef KERNEL_ITIMER_H
#define KERNEL_ITIMER_H

#include <kernel/types.h>
#include <kernel/personality.h>

struct process;

/* Arms p's timer to fire after value_ns, then every interval_ns (0: once);
 * value_ns 0 disarms it. */
void itimer_set(struct process *p, uint64_t value_ns, uint64_t interval_ns);
/* The time left (0 when disarmed; at least 1 while armed) and the interval. */
void itimer_get(const struct process *p, uint64_t *value_ns, uint64_t *interval_ns);
/* Disarms p's timer (the process ends). */
void itimer_cancel(struct process *p);
/* personality_tick (kernel/personality.h), from the timer tick, sends
 * SIGALRM for every timer that is due (itimer.c). */

#endif
