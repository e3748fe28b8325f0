/*
 * The time protocol's opcodes (include/myrmex/time.h) and their handlers
 * (clock.c, sleep.c, stats.c), as the server library runs them.
 */
#include "timed.h"

#include <errno.h>

static const struct server_op ops[] = {
	[TIME_GET] = { do_get, 0 },
	[TIME_GETRES] = { do_getres, 0 },
	[TIME_SLEEP] = { do_sleep, 0 },
	[TIME_CANCEL] = { do_time_cancel, SERVER_KERNEL_ONLY },
	[TIME_STATS] = { do_time_stats, 0 },
	[TIME_SET] = { do_set, SERVER_KERNEL_ONLY },
};

/* A TIME_CANCEL or TIME_SET the kernel did not send is refused by the
 * library before its handler runs; it still counts as refused. */
static void handled(struct server_request *rq, int64_t status)
{
	if (status == -EPERM && (rq->d.opcode == TIME_CANCEL || rq->d.opcode == TIME_SET))
		counts_main.refused++;
}

const struct server timed_server = {
	.name = TIMED_NAME,
	.ops = ops,
	.nops = SERVER_NOPS(ops),
	.handled = handled,
};
