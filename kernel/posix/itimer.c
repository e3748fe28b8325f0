/*
 * Interval timers (see posix/itimer.h). The armed processes sit in a small
 * array (at most one entry per process); the tick scans it only once the
 * earliest deadline has come.
 *
 * Invariant: p is in armed[] exactly when p->px->sig.itimer_deadline != 0, and
 * `earliest` is never later than the earliest armed deadline.
 */
#include <posix/posix.h>
#include <posix/itimer.h>
#include <kernel/proc.h>
#include <posix/signal.h>
#include <kernel/time.h>

static struct process *armed[PROC_MAX];
static unsigned armed_count;
static uint64_t earliest = UINT64_MAX;

static int find(const struct process *p)
{
	for (unsigned i = 0; i < armed_count; i++)
		if (armed[i] == p)
			return (int)i;
	return -1;
}

static void remove_at(unsigned i)
{
	armed[i] = armed[--armed_count];
}

void itimer_cancel(struct process *p)
{
	int i = find(p);
	if (i >= 0)
		remove_at((unsigned)i);
	p->px->sig.itimer_deadline = 0;
	p->px->sig.itimer_interval = 0;
}

void itimer_set(struct process *p, uint64_t value_ns, uint64_t interval_ns)
{
	if (value_ns == 0) {
		itimer_cancel(p);
		return;
	}
	uint64_t now = time_monotonic_ns();
	uint64_t deadline = value_ns > UINT64_MAX - now ? UINT64_MAX : now + value_ns;
	if (find(p) < 0)
		armed[armed_count++] = p;   /* room: one entry per process */
	p->px->sig.itimer_deadline = deadline;
	p->px->sig.itimer_interval = interval_ns;
	if (deadline < earliest)
		earliest = deadline;
}

void itimer_get(const struct process *p, uint64_t *value_ns, uint64_t *interval_ns)
{
	*interval_ns = p->px->sig.itimer_interval;
	*value_ns = 0;
	if (p->px->sig.itimer_deadline) {
		uint64_t now = time_monotonic_ns();
		*value_ns = p->px->sig.itimer_deadline > now ? p->px->sig.itimer_deadline - now : 1;
	}
}

void personality_tick(uint64_t now_ns)
{
	if (armed_count == 0 || now_ns < earliest)
		return;
	earliest = UINT64_MAX;
	for (unsigned i = 0; i < armed_count;) {
		struct process *p = armed[i];
		uint64_t deadline = p->px->sig.itimer_deadline;
		if (deadline <= now_ns) {
			uint64_t interval = p->px->sig.itimer_interval;
			if (interval == 0) {
				p->px->sig.itimer_deadline = 0;
				remove_at(i);
			} else {
				/* The next period after now: missed ones give no
				 * extra SIGALRM (one is pending at most anyway). */
				uint64_t periods = (now_ns - deadline) / interval + 1;
				if (periods > (UINT64_MAX - deadline) / interval)
					deadline = UINT64_MAX;
				else
					deadline += periods * interval;
				p->px->sig.itimer_deadline = deadline;
			}
			struct sig_info info = { .code = SI_KERNEL };
			signal_send_process(p, SIGALRM, &info);
			if (interval == 0)
				continue;   /* armed[i] is another process now */
		}
		if (deadline < earliest)
			earliest = deadline;
		i++;
	}
}
