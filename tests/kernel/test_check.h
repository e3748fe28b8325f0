/*
 * Checks shared by the booted test programs: failure messages to stderr,
 * a failure count, result comparison macros that name the call, the expected
 * and the actual value, and short raw system-call helpers. Header only (the
 * build makes one program per t_*.c). Before including it a test defines
 * TEST_NAME, the prefix of its messages.
 *
 * Messages are formatted on the stack and written with one raw write(2), so
 * threads that share the creator's TLS may report failures too.
 */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include <myrmex.h>

#ifndef TEST_NAME
#error "define TEST_NAME before including test_check.h"
#endif

/* Raw system calls with fewer arguments (no libc, no errno). */
static inline long raw0(long nr) { return myrmex_syscall6(nr, 0, 0, 0, 0, 0, 0); }
static inline long raw1(long nr, long a) { return myrmex_syscall6(nr, a, 0, 0, 0, 0, 0); }
static inline long raw2(long nr, long a, long b)
{
	return myrmex_syscall6(nr, a, b, 0, 0, 0, 0);
}
static inline long raw3(long nr, long a, long b, long c)
{
	return myrmex_syscall6(nr, a, b, c, 0, 0, 0);
}
static inline long raw4(long nr, long a, long b, long c, long d)
{
	return myrmex_syscall6(nr, a, b, c, d, 0, 0);
}
static inline long raw5(long nr, long a, long b, long c, long d, long e)
{
	return myrmex_syscall6(nr, a, b, c, d, e, 0);
}

/* Writes the whole buffer to fd with raw write calls. */
/* A POSIX test's messages to the console (through the file manager and
 * the console server): its stdout and stderr become /dev/console. */
static inline void test_console_for_messages(void)
{
	long fd = raw3(SYS_open, (long)"/dev/console", 2 /* O_RDWR */, 0);
	if (fd >= 0) {
		raw2(SYS_dup2, fd, 1);
		raw2(SYS_dup2, fd, 2);
		if (fd > 2)
			raw1(SYS_close, fd);
	}
}

static inline void test_write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		long done = raw3(SYS_write, fd, (long)buf, (long)len);
		if (done <= 0)
			return;
		buf += done;
		len -= (size_t)done;
	}
}

/* "TEST_NAME: <message>\n" to fd, one write. */
static inline void test_vsay(int fd, const char *fmt, va_list ap)
{
	char line[512];
	int n = snprintf(line, sizeof line, "%s: ", TEST_NAME);
	if (n < 0)
		return;
	int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
	if (m < 0)
		return;
	size_t len = strlen(line);
	line[len++] = '\n';
	test_write_all(fd, line, len);
}

/* An informational line on stdout. */
__attribute__((format(printf, 1, 2)))
static inline void test_note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	test_vsay(1, fmt, ap);
	va_end(ap);
}

/* The number of failures so far (one counter per program). */
static inline int *test_failure_count(void)
{
	static int count;
	return &count;
}

/* Reports a failure on stderr and counts it. */
__attribute__((format(printf, 1, 2)))
static inline void test_fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	test_vsay(2, fmt, ap);
	va_end(ap);
	__atomic_add_fetch(test_failure_count(), 1, __ATOMIC_RELAXED);
}

/* main's return value: 0 when nothing failed. */
/* Waits, about a second at most, until the kernel's count of live ICAs is
 * want again (a server frees what an ended program left parked at its own
 * pace); returns the count last seen. Myrmex only. */
static inline uint64_t test_wait_ica_live(uint64_t want)
{
	struct myrmex_kstats k = { 0 };
	for (int i = 0; i < 1000; i++) {
		myrmex_kstats(&k);
		if (k.ica_live == want)
			break;
		myrmex_sleep_ns(1000000);
	}
	return k.ica_live;
}

/* Whether v survives the trip through a system-call register (a long) on
 * this port: a 32-bit port cannot pass the bits above 32, so a test skips
 * the bad values that would arrive as other (maybe good) ones. */
static inline int test_fits_word(uint64_t v)
{
	long w = (long)v;
	return (uint64_t)w == v || (uint64_t)(unsigned long)w == v;
}

static inline int test_exit_code(void)
{
	return *test_failure_count() ? 1 : 0;
}

/* "-EFAULT" for the errors the tests meet, else the number. buf holds 24. */
static inline const char *test_value_name(long v, char *buf)
{
	static const struct { long err; const char *name; } names[] = {
		{ 1, "EPERM" }, { 2, "ENOENT" }, { 3, "ESRCH" }, { 4, "EINTR" },
		{ 7, "E2BIG" }, { 8, "ENOEXEC" }, { 9, "EBADF" }, { 10, "ECHILD" },
		{ 11, "EAGAIN" }, { 12, "ENOMEM" }, { 14, "EFAULT" }, { 16, "EBUSY" },
		{ 17, "EEXIST" }, { 22, "EINVAL" }, { 25, "ENOTTY" }, { 32, "EPIPE" },
		{ 38, "ENOSYS" }, { 110, "ETIMEDOUT" }, { 125, "ECANCELED" },
		/* the file manager's (include/myrmex/fs.h) */
		{ 5, "EIO" }, { 19, "ENODEV" }, { 20, "ENOTDIR" }, { 21, "EISDIR" },
		{ 24, "EMFILE" }, { 28, "ENOSPC" }, { 30, "EROFS" }, { 36, "ENAMETOOLONG" },
		{ 39, "ENOTEMPTY" }, { 108, "ESHUTDOWN" }, { 116, "ESTALE" }, { 117, "EUCLEAN" },
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (v == -names[i].err) {
			snprintf(buf, 24, "-%s", names[i].name);
			return buf;
		}
	}
	snprintf(buf, 24, "%ld", v);
	return buf;
}

/*
 * Fails unless got is one of the n accepted values; the message names the
 * call (printf-style description), the accepted values and the actual one.
 * Returns got so that a caller may go on using the result.
 */
__attribute__((format(printf, 4, 5)))
static inline long test_expect(long got, const long *accepted, int n, const char *fmt, ...)
{
	for (int i = 0; i < n; i++)
		if (got == accepted[i])
			return got;

	char call[256], wanted[128] = "", name[24];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(call, sizeof call, fmt, ap);
	va_end(ap);
	for (int i = 0; i < n; i++) {
		size_t used = strlen(wanted);
		snprintf(wanted + used, sizeof wanted - used, "%s%s", i ? " or " : "",
		         test_value_name(accepted[i], name));
	}
	test_fail("%s: expected %s, got %s", call, wanted, test_value_name(got, name));
	return got;
}

/* Fails unless (long)(expr) is one of the listed values (constants; at least
 * one): CHECK_ONE_OF(munmap(...), -EINVAL, -ENOMEM). Evaluates expr once. */
#define CHECK_ONE_OF(expr, ...) \
	test_expect((long)(expr), (const long[]){ __VA_ARGS__ }, \
	            (int)(sizeof((const long[]){ __VA_ARGS__ }) / sizeof(long)), \
	            "line %d: %s", __LINE__, #expr)

/* Fails unless (long)(expr) equals expected. */
#define CHECK_EQ(expr, expected) CHECK_ONE_OF(expr, expected)

/* Fails with the printf-style message unless cond holds. */
#define CHECK(cond, ...) \
	do { \
		if (!(cond)) \
			test_fail(__VA_ARGS__); \
	} while (0)

#endif
