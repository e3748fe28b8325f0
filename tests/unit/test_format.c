/*
 * Host unit tests of the kernel's formatter (kernel/core/format.c):
 * ksnprintf/kvsnprintf conversions, flags and widths, truncation, and a
 * comparison with the host's snprintf where the two must agree.
 */
/* unit-sources: kernel/core/format.c */
#define UNIT_SUITE "format"
#include "unit.h"

#include <limits.h>
#include <kernel/printk.h>

/* kvsnprintf through a wrapper without the printf attribute: for formats
 * the compiler's checking would refuse (a NULL %s, an empty format, an
 * unknown conversion, '0' with %p or '-'). */
static int vformat(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

/* Formats into a roomy buffer and compares text and returned length;
 * CHECK_FMT is checked by the compiler, CHECK_VFMT is not. */
#define CHECK_FMT_WITH(fn, expected, ...)                                      \
	do {                                                                   \
		char buf_[256];                                                \
		int n_ = fn(buf_, sizeof(buf_), __VA_ARGS__);                  \
		CHECK_STR(buf_, expected);                                     \
		CHECK_EQ(n_, strlen(expected));                                \
	} while (0)
#define CHECK_FMT(expected, ...) CHECK_FMT_WITH(ksnprintf, expected, __VA_ARGS__)
#define CHECK_VFMT(expected, ...) CHECK_FMT_WITH(vformat, expected, __VA_ARGS__)

UNIT_TEST(plain_text)
{
	CHECK_VFMT("", "");
	CHECK_FMT("hello, world\n", "hello, world\n");
	CHECK_FMT("%", "%%");
	CHECK_FMT("100% sure", "100%% sure");
	CHECK_FMT("%%", "%%%%");
}

UNIT_TEST(signed_decimal)
{
	CHECK_FMT("0", "%d", 0);
	CHECK_FMT("42", "%d", 42);
	CHECK_FMT("-42", "%d", -42);
	CHECK_FMT("-7", "%i", -7);
	CHECK_FMT("2147483647", "%d", INT_MAX);
	CHECK_FMT("-2147483648", "%d", INT_MIN);
	CHECK_FMT("-1", "%ld", -1L);
	CHECK_FMT("9223372036854775807", "%ld", (long)INT64_MAX);
	CHECK_FMT("-9223372036854775808", "%ld", (long)INT64_MIN);
	CHECK_FMT("-9223372036854775808", "%lld", (long long)INT64_MIN);
	CHECK_FMT("-5", "%zd", (ssize_t)-5);
	/* An int argument is not confused with the 64-bit one. */
	CHECK_FMT("-1 7", "%d %ld", -1, 7L);
}

UNIT_TEST(unsigned_decimal)
{
	CHECK_FMT("0", "%u", 0u);
	CHECK_FMT("4294967295", "%u", UINT_MAX);
	CHECK_FMT("18446744073709551615", "%lu", (unsigned long)UINT64_MAX);
	CHECK_FMT("18446744073709551615", "%llu", (unsigned long long)UINT64_MAX);
	CHECK_FMT("12345", "%zu", (size_t)12345);
	/* %u of a negative int is its 32-bit pattern, not sign-extended. */
	CHECK_FMT("4294967295", "%u", (unsigned)-1);
}

UNIT_TEST(hex)
{
	CHECK_FMT("0", "%x", 0u);
	CHECK_FMT("deadbeef", "%x", 0xdeadbeefu);
	CHECK_FMT("DEADBEEF", "%X", 0xdeadbeefu);
	CHECK_FMT("ffffffff", "%x", UINT_MAX);
	CHECK_FMT("123456789abcdef0", "%lx", 0x123456789abcdef0ul);
	CHECK_FMT("FFFFFFFFFFFFFFFF", "%lX", ~0ul);
	CHECK_FMT("0x1f", "%#lx", 0x1ful);
	CHECK_FMT("0xfee00000", "%#lx", 0xfee00000ul);
	CHECK_FMT("0xff", "%#x", 0xffu);
}

UNIT_TEST(pointer)
{
	CHECK_FMT("0x1234", "%p", (void *)0x1234);
	CHECK_FMT("0xffff800000100000", "%p", (void *)0xffff800000100000ul);
	CHECK_FMT("0x0", "%p", (void *)0);
}

UNIT_TEST(strings_and_chars)
{
	CHECK_FMT("hello", "%s", "hello");
	CHECK_FMT("", "%s", "");
	CHECK_VFMT("(null)", "%s", (const char *)NULL);
	CHECK_FMT("[a b]", "[%s %s]", "a", "b");
	CHECK_FMT("A", "%c", 'A');
	CHECK_FMT("x=y", "%c=%c", 'x', 'y');
	CHECK_FMT("pid 3 (init): ok", "pid %d (%s): %s", 3, "init", "ok");
}

UNIT_TEST(width_and_padding)
{
	CHECK_FMT("   42", "%5d", 42);
	CHECK_FMT("42   |", "%-5d|", 42);
	CHECK_FMT("  -42", "%5d", -42);
	CHECK_FMT("-42  |", "%-5d|", -42);
	CHECK_FMT("00042", "%05d", 42);
	CHECK_FMT("-0042", "%05d", -42);          /* the sign before the zeros */
	CHECK_FMT("12345", "%2d", 12345);         /* a width is a minimum */
	CHECK_FMT("0000beef", "%08lx", 0xbeeful);
	CHECK_FMT("ffff800000001000", "%016lx", 0xffff800000001000ul);
	CHECK_FMT("0x0000beef", "%#010lx", 0xbeeful);  /* the prefix before the zeros */
	CHECK_FMT("    0xbeef", "%#10lx", 0xbeeful);
	CHECK_VFMT("42      |", "%-08d|", 42);     /* '-' wins over '0' */
	CHECK_FMT("   ab", "%5s", "ab");
	CHECK_FMT("ab   |", "%-5s|", "ab");
	CHECK_FMT("abcdef", "%3s", "abcdef");
	CHECK_VFMT("  (null)", "%8s", (const char *)NULL);
}

/* KNOWN KERNEL BUG (fails until format.c is fixed): printk.h documents a
 * field width for the conversions, %c included, but %c ignores it:
 * "%3c" gives "x", not "  x" (format.c's case 'c' calls put() instead of
 * put_padded()). */
UNIT_TEST(char_width)
{
	CHECK_FMT("  x", "%3c", 'x');
	CHECK_FMT("x  |", "%-3c|", 'x');
}

UNIT_TEST(truncation)
{
	char buf[16];
	memset(buf, 'Z', sizeof(buf));
	/* Returns the full length; writes at most size bytes, NUL included. */
	CHECK_EQ(ksnprintf(buf, 8, "hello world"), 11);
	CHECK_STR(buf, "hello w");
	CHECK_EQ(buf[8], 'Z');
	memset(buf, 'Z', sizeof(buf));
	CHECK_EQ(ksnprintf(buf, 4, "%d", 123456), 6);
	CHECK_STR(buf, "123");
	CHECK_EQ(buf[4], 'Z');
	memset(buf, 'Z', sizeof(buf));
	CHECK_EQ(ksnprintf(buf, 6, "%08lx", 0xbeeful), 8);
	CHECK_STR(buf, "0000b");
	memset(buf, 'Z', sizeof(buf));
	CHECK_EQ(ksnprintf(buf, 1, "abc"), 3);
	CHECK_EQ(buf[0], '\0');
	CHECK_EQ(buf[1], 'Z');
	/* Exactly fitting, and one byte short. */
	memset(buf, 'Z', sizeof(buf));
	CHECK_EQ(ksnprintf(buf, 4, "abc"), 3);
	CHECK_STR(buf, "abc");
	CHECK_EQ(ksnprintf(buf, 3, "abc"), 3);
	CHECK_STR(buf, "ab");
	/* Every size from 1 up: always terminated, always a prefix. */
	const char *full = "x=-1234 s=str p=0xabc";
	for (size_t size = 1; size < sizeof(buf); size++) {
		memset(buf, 'Z', sizeof(buf));
		int n = ksnprintf(buf, size, "x=%d s=%s p=%p", -1234, "str", (void *)0xabc);
		CHECK_EQ(n, strlen(full));
		CHECK_EQ(strlen(buf), size - 1);
		CHECK(strncmp(buf, full, size - 1) == 0);
		CHECK(size == sizeof(buf) || buf[size] == 'Z');
	}
}

UNIT_TEST(size_zero)
{
	char buf[4] = { 'Z', 'Z', 'Z', 'Z' };
	CHECK_EQ(ksnprintf(buf, 0, "hello %d", 12), 8);
	CHECK_EQ(buf[0], 'Z');
	/* Nothing is written, so no buffer is needed (the length is measured). */
	CHECK_EQ(ksnprintf(NULL, 0, "%s-%lu", "abc", 42ul), 6);
}

/* Formats that the compiler's printf checking would refuse (an unknown
 * conversion, '0' with %p, a format ending in '%') go through here. */
UNIT_TEST(unchecked_formats)
{
	char buf[32];
	/* An unknown conversion is printed as it stands. */
	CHECK_EQ(vformat(buf, sizeof(buf), "%q"), 2);
	CHECK_STR(buf, "%q");
	CHECK_EQ(vformat(buf, sizeof(buf), "a%yb"), 4);
	CHECK_STR(buf, "a%yb");
	/* A lone '%' at the very end prints nothing and reads nothing past
	 * the end (the format is on the heap, so ASan would see it). */
	char *fmt = malloc(5);
	memcpy(fmt, "abc%", 5);
	CHECK_EQ(vformat(buf, sizeof(buf), fmt), 3);
	CHECK_STR(buf, "abc");
	memcpy(fmt, "%-0%", 5);
	CHECK_EQ(vformat(buf, sizeof(buf), fmt), 1);
	CHECK_STR(buf, "%");
	memcpy(fmt, "%08", 4);
	CHECK_EQ(vformat(buf, sizeof(buf), fmt), 0);
	CHECK_STR(buf, "");
	free(fmt);
	/* Zero padding of a pointer goes after its prefix. */
	CHECK_EQ(vformat(buf, sizeof(buf), "%010p", (void *)0x1234), 10);
	CHECK_STR(buf, "0x00001234");
}

UNIT_TEST(kvsnprintf_va_list)
{
	char buf[64];
	CHECK_EQ(vformat(buf, sizeof(buf), "%s=%ld/%x/%c", "k", -9L, 0xabu, '!'), 9);
	CHECK_STR(buf, "k=-9/ab/!");
}

/* The host's snprintf agrees wherever the kernel follows C (decimal, hex,
 * strings, flags '0' and '-', widths). */
UNIT_TEST(agrees_with_host_snprintf)
{
	static const char *const int_fmts[] = {
		"%d", "%5d", "%-5d|", "%05d", "%1d", "%12d", "%-12d|", "%012d",
		"%u", "%8u", "%x", "%08x", "%-8x|", "%X", "%10X", "%#x", "%#10x", "%#010x",
	};
	static const char *const long_fmts[] = {
		"%ld", "%21ld", "%-21ld|", "%021ld", "%lu", "%lx", "%016lx", "%lX", "%#lx",
		"%#018lx", "%-#18lx|", "%zu", "%zx",
	};
	static const int ints[] = { 1, 7, -1, 42, -42, 255, 4096, 65535, -100000, 123456789,
	                            INT_MAX, INT_MIN };
	static const long longs[] = { 1, -1, 0x7f, 1L << 32, -(1L << 40), 0x123456789abcl,
	                              INT64_MAX, INT64_MIN, 1000000007 };
	char want[128], got[128];
	for (size_t f = 0; f < sizeof(int_fmts) / sizeof(int_fmts[0]); f++) {
		for (size_t v = 0; v < sizeof(ints) / sizeof(ints[0]); v++) {
			int w = snprintf(want, sizeof(want), int_fmts[f], ints[v]);
			int g = ksnprintf(got, sizeof(got), int_fmts[f], ints[v]);
			if (w != g || strcmp(want, got) != 0)
				unit_fail(__FILE__, __LINE__, "\"%s\" of %d: \"%s\", host \"%s\"",
				          int_fmts[f], ints[v], got, want);
		}
	}
	for (size_t f = 0; f < sizeof(long_fmts) / sizeof(long_fmts[0]); f++) {
		for (size_t v = 0; v < sizeof(longs) / sizeof(longs[0]); v++) {
			int w = snprintf(want, sizeof(want), long_fmts[f], longs[v]);
			int g = ksnprintf(got, sizeof(got), long_fmts[f], longs[v]);
			if (w != g || strcmp(want, got) != 0)
				unit_fail(__FILE__, __LINE__, "\"%s\" of %ld: \"%s\", host \"%s\"",
				          long_fmts[f], longs[v], got, want);
		}
	}
	static const char *const strs[] = { "", "a", "hello", "a longer string" };
	static const char *const str_fmts[] = { "%s", "%3s", "%-3s|", "%10s", "%-10s|" };
	for (size_t f = 0; f < sizeof(str_fmts) / sizeof(str_fmts[0]); f++) {
		for (size_t v = 0; v < sizeof(strs) / sizeof(strs[0]); v++) {
			int w = snprintf(want, sizeof(want), str_fmts[f], strs[v]);
			int g = ksnprintf(got, sizeof(got), str_fmts[f], strs[v]);
			if (w != g || strcmp(want, got) != 0)
				unit_fail(__FILE__, __LINE__, "\"%s\" of \"%s\": \"%s\", host \"%s\"",
				          str_fmts[f], strs[v], got, want);
		}
	}
}
