/*
 * t_codegen: the optimizer's code for the pattern Debian's GCC 12 for SH-4
 * got wrong (docs/sh4.md, "How the port is optimized"): a bool argument
 * spilled across calls in a loop and tested after the loop. The back end's
 * sh_treg_combine pass took the reload of the spilled flag for a store of
 * the T bit and deleted the test, so the branch used whatever T the loop's
 * exit compare left: cg_number wrote the sign for every number (as printk
 * did in kernel/core/format.c), cg_calls never wrote its mark. With the
 * pass removed (tools/gcc-sh4, SH4_OPT in mk/arch-sh4.mk) every result is
 * right; without it this program fails at -O1 and above.
 *
 * The functions are noipa so that no caller's constant reaches them: the
 * flag must arrive as an argument the optimizer knows nothing about. Which
 * tests the pass drops depends on leftovers in the host's registers inside
 * cc1 (docs/sh4.md), so these two show it with Debian's 12.2.0-13; with any
 * compiler the program checks that the code is right.
 */
#include "sh4_user.h"

/* The digits of v in base, after '-' when negative: put_number's shape
 * (a 64-bit division per digit, each a call into libgcc). */
__attribute__((noipa)) static size_t cg_number(char *out, uint64_t v, bool negative,
                                               unsigned base)
{
	char tmp[24];
	size_t n = 0, t = 0;
	do {
		tmp[n++] = (char)('0' + v % base);
		v /= base;
	} while (v);
	if (negative)
		out[t++] = '-';
	while (n)
		out[t++] = tmp[--n];
	out[t] = '\0';
	return t;
}

/* One step of cg_calls' loop, a real call. */
__attribute__((noipa)) static unsigned cg_step(unsigned v, unsigned base)
{
	return v / base;
}

/* The low digits of v while v >= base, then '#' when mark: the same
 * pattern with a plain call and the opposite sense (the test dropped the
 * mark where cg_number added the sign). */
__attribute__((noipa)) static size_t cg_calls(char *out, unsigned v, bool mark, unsigned base)
{
	size_t t = 0;
	do {
		out[t++] = (char)('0' + v % base);
		v = cg_step(v, base);
	} while (v >= base);
	if (mark)
		out[t++] = '#';
	out[t] = '\0';
	return t;
}

static bool same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

int main(int argc, char **argv, char **envp)
{
	(void)argc, (void)argv, (void)envp;
	char buf[32];

	U_CHECK(cg_number(buf, 5, false, 10) == 1 && same(buf, "5"), "cg_number(5, positive) is \"5\"");
	U_CHECK(cg_number(buf, 5, true, 10) == 2 && same(buf, "-5"), "cg_number(5, negative) is \"-5\"");
	U_CHECK(cg_number(buf, 1234567890123ull, false, 10) == 13 && same(buf, "1234567890123"),
	        "cg_number of a 64-bit number");
	U_CHECK(cg_number(buf, 0xbeef, true, 16) == 5 && same(buf, "-;>>?"),
	        "cg_number in base 16 (digits past 9 are the characters after '9')");
	U_CHECK(cg_number(buf, 0, false, 10) == 1 && same(buf, "0"), "cg_number(0) is \"0\"");

	U_CHECK(cg_calls(buf, 123, true, 10) == 3 && same(buf, "32#"), "cg_calls(123, mark) is \"32#\"");
	U_CHECK(cg_calls(buf, 123, false, 10) == 2 && same(buf, "32"), "cg_calls(123) is \"32\"");
	U_CHECK(cg_calls(buf, 7, true, 10) == 2 && same(buf, "7#"), "cg_calls(7, mark) is \"7#\"");

	if (u_failures == 0)
		u_puts("t_codegen: the spilled flags were tested\n");
	return u_failures;
}
