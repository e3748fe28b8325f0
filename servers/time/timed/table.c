/*
 * The time protocol's opcodes (include/myrmex/time.h) and their handlers
 * (clock.c, sleep.c, stats.c).
 */
#include "timed.h"

static const time_handler handlers[] = {
	[TIME_GET] = do_get,
	[TIME_GETRES] = do_getres,
	[TIME_SLEEP] = do_sleep,
	[TIME_CANCEL] = do_cancel,
	[TIME_STATS] = do_stats,
};

time_handler table_lookup(uint32_t opcode)
{
	return opcode < sizeof handlers / sizeof handlers[0] ? handlers[opcode] : NULL;
}
