/*
 * unit.h - the tiny harness of the host unit tests (tier 1, docs/testing.md).
 *
 * A test file defines UNIT_SUITE, includes this header once and writes its
 * cases with UNIT_TEST(name) { ... }. Each case registers itself before main
 * runs (a constructor); the main defined here runs the cases in source order
 * and prints one line per case:
 *
 *     UNIT-RESULT <suite>.<name> PASS
 *     UNIT-RESULT <suite>.<name> FAIL <file>:<line> <expression> [values]
 *
 * and exits with status 1 when any case failed. "./test_x name" (or
 * "./test_x suite.name") runs one case only.
 *
 * CHECK and CHECK_EQ record a failure and let the case go on, so one run
 * shows everything wrong; REQUIRE and REQUIRE_EQ also return from the case
 * (use them only in the UNIT_TEST body, when going on makes no sense). The
 * first failure of a case is its reason; later ones go to stdout as
 * "  also: ..." lines, which the test runner ignores.
 */
#ifndef UNIT_H
#define UNIT_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef UNIT_SUITE
#error "define UNIT_SUITE (the suite name, a string) before including unit.h"
#endif

#define UNIT_MAX_TESTS 256

struct unit_case {
	const char *name;
	void (*fn)(void);
	int line;               /* sorts the cases into source order */
};

static struct unit_case unit_cases[UNIT_MAX_TESTS];
static int unit_ncases;
static int unit_failures;              /* failed checks in the current case */
static char unit_reason[512];          /* the first of them */

static void unit_register(const char *name, void (*fn)(void), int line)
{
	if (unit_ncases == UNIT_MAX_TESTS) {
		fprintf(stderr, "unit.h: more than %d cases\n", UNIT_MAX_TESTS);
		abort();
	}
	unit_cases[unit_ncases++] = (struct unit_case){ name, fn, line };
}

#define UNIT_TEST(name)                                                        \
	static void unit_test_##name(void);                                    \
	__attribute__((constructor)) static void unit_register_##name(void)    \
	{                                                                      \
		unit_register(#name, unit_test_##name, __LINE__);              \
	}                                                                      \
	static void unit_test_##name(void)

/* Records one failed check: "file:line text". */
__attribute__((format(printf, 3, 4)))
static void unit_fail(const char *file, int line, const char *fmt, ...)
{
	char text[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	/* The reason must stay on one line. */
	for (char *c = text; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	if (unit_failures++ == 0)
		snprintf(unit_reason, sizeof(unit_reason), "%s:%d %s", file, line, text);
	else if (unit_failures <= 20)
		printf("  also: %s:%d %s\n", file, line, text);
	else if (unit_failures == 21)
		printf("  also: (further failures not shown)\n");
}

__attribute__((unused))
static int unit_check(int ok, const char *file, int line, const char *expr)
{
	if (!ok)
		unit_fail(file, line, "%s", expr);
	return ok;
}

__attribute__((unused))
static int unit_check_eq(unsigned long long a, unsigned long long b, const char *file,
                         int line, const char *expr_a, const char *expr_b)
{
	if (a != b)
		unit_fail(file, line, "%s == %s (%lld [0x%llx] != %lld [0x%llx])", expr_a, expr_b,
		          (long long)a, a, (long long)b, b);
	return a == b;
}

__attribute__((unused))
static int unit_check_str(const char *a, const char *b, const char *file, int line,
                          const char *expr_a, const char *expr_b)
{
	int ok = a && b && strcmp(a, b) == 0;
	if (!ok)
		unit_fail(file, line, "%s == %s (\"%s\" != \"%s\")", expr_a, expr_b,
		          a ? a : "(null)", b ? b : "(null)");
	return ok;
}

/* Both sides are compared as 64-bit unsigned values (so -8 == -8L holds). */
#define CHECK(cond) unit_check(!!(cond), __FILE__, __LINE__, #cond)
#define CHECK_EQ(a, b)                                                         \
	unit_check_eq((unsigned long long)(a), (unsigned long long)(b), __FILE__, __LINE__, #a, #b)
#define CHECK_STR(a, b) unit_check_str((a), (b), __FILE__, __LINE__, #a, #b)
#define REQUIRE(cond)                                                          \
	do {                                                                   \
		if (!CHECK(cond))                                              \
			return;                                                \
	} while (0)
#define REQUIRE_EQ(a, b)                                                       \
	do {                                                                   \
		if (!CHECK_EQ(a, b))                                           \
			return;                                                \
	} while (0)

static int unit_by_line(const void *a, const void *b)
{
	return ((const struct unit_case *)a)->line - ((const struct unit_case *)b)->line;
}

/* Accepts "name" or "suite.name". */
static int unit_selected(const char *want, const char *name)
{
	if (!want)
		return 1;
	size_t n = strlen(UNIT_SUITE);
	if (strncmp(want, UNIT_SUITE, n) == 0 && want[n] == '.')
		want += n + 1;
	return strcmp(want, name) == 0;
}

int main(int argc, char **argv)
{
	const char *want = argc > 1 ? argv[1] : NULL;
	int ran = 0, failed = 0;
	/* Line-buffered: if a sanitizer aborts the run, what passed is still shown. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	qsort(unit_cases, (size_t)unit_ncases, sizeof(unit_cases[0]), unit_by_line);
	for (int i = 0; i < unit_ncases; i++) {
		if (!unit_selected(want, unit_cases[i].name))
			continue;
		unit_failures = 0;
		unit_reason[0] = '\0';
		unit_cases[i].fn();
		ran++;
		if (unit_failures) {
			failed++;
			printf("UNIT-RESULT %s.%s FAIL %s\n", UNIT_SUITE, unit_cases[i].name,
			       unit_reason);
		} else {
			printf("UNIT-RESULT %s.%s PASS\n", UNIT_SUITE, unit_cases[i].name);
		}
	}
	if (want && ran == 0) {
		fprintf(stderr, "%s: no case named %s\n", argv[0], want);
		return 2;
	}
	return failed ? 1 : 0;
}

#endif
