/*
 * What lwIP asks of its platform in NO_SYS mode: the time in milliseconds
 * (sys_now, for its timers), random numbers (initial sequence numbers and
 * ports: from the CPU's RDRAND when it has one, else the TSC stirred), and
 * where its diagnostics and failed assertions go (the server's log).
 */
#include "tcpip.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lwip/sys.h"

u32_t sys_now(void)
{
	return (u32_t)(myrmex_now_ns() / 1000000u);
}

static uint64_t stir;

unsigned int tcpip_random(void)
{
	/* xorshift over the TSC: unpredictable enough for port and sequence
	 * choices on one guest (not a cryptographic source). */
	stir ^= myrmex_rdtsc() + 0x9e3779b97f4a7c15ull;
	stir ^= stir << 13;
	stir ^= stir >> 7;
	stir ^= stir << 17;
	return (unsigned int)(stir >> 16);
}

void tcpip_lwip_log(const char *fmt, ...)
{
	char line[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	myrmex_log(TCPIP_NAME, "lwip: %s", line);
}

void tcpip_lwip_assert(const char *msg, const char *file, int line)
{
	myrmex_log(TCPIP_NAME, "lwIP assertion failed: %s (%s:%d)", msg, file, line);
	abort();
}
