/*
 * log.c - one line on stderr, "<who>: <message>\n", in one write system
 * call (no stdio buffering), for servers and drivers whose messages must
 * not interleave with others' in the middle of a line.
 */
#include "myrmex.h"

#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

void myrmex_vlog(const char *who, const char *fmt, va_list ap)
{
	char line[320];
	int n = snprintf(line, sizeof line, "%s: ", who);
	if (n < 0 || (size_t)n >= sizeof line - 1)
		n = 0;
	vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
	size_t len = strlen(line);
	line[len++] = '\n';
	myrmex_syscall6(SYS_write, 2, (long)line, (long)len, 0, 0, 0);
}

void myrmex_log(const char *who, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	myrmex_vlog(who, fmt, ap);
	va_end(ap);
}
