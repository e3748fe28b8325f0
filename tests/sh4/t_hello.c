/*
 * t_hello: the first SH-4 user program. Checks argv and the environment the
 * kernel laid out, fills a stack array and a static one (TLB misses and
 * demand paging), and makes the kernel reject bad pointers without harm:
 * write() from NULL, from an unmapped page and from the kernel's P1 area
 * returns -EFAULT. And libgcc's 64-bit division works in a user program.
 */
#include "sh4_user.h"

static char big[64 * 1024];

static bool same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

int main(int argc, char **argv, char **envp)
{
	u_puts("hello from SH-4 user space\n");
	U_CHECK(argc == 3, "argc is 3");
	U_CHECK(argc == 3 && same(argv[1], "alpha") && same(argv[2], "beta"), "argv");
	U_CHECK(envp[0] && same(envp[0], "MYRMEX_TEST=1"), "envp");

	volatile char stack[16 * 1024];
	for (unsigned i = 0; i < sizeof(stack); i += 512)
		stack[i] = (char)i;
	for (unsigned i = 0; i < sizeof(big); i += 1024)
		big[i] = (char)(i >> 10);
	unsigned sum = 0;
	for (unsigned i = 0; i < sizeof(big); i += 1024)
		sum += (unsigned char)big[i];
	U_CHECK(sum == 63 * 64 / 2, "static array reads back");
	U_CHECK(stack[512] == (char)512, "stack array reads back");

	U_CHECK(sys3(SH_NR_WRITE, 1, 0, 8) == -EFAULT, "write from NULL is -EFAULT");
	U_CHECK(sys3(SH_NR_WRITE, 1, 0x7f000000, 8) == -EFAULT, "write from unmapped is -EFAULT");
	U_CHECK(sys3(SH_NR_WRITE, 1, 0x8c800000, 8) == -EFAULT, "write from P1 is -EFAULT");
	U_CHECK(sys3(SH_NR_WRITE, 1, 0x7ffffff0, 64) == -EFAULT, "write across the top is -EFAULT");
	U_CHECK(sys0(SH_NR_GETPID) > 1, "getpid");
	/* libgcc's 64-bit division (position-independent: its GOT must be loaded) */
	volatile uint64_t big_n = 1000000000000ull, seven = 7;
	U_CHECK(big_n / seven == 142857142857ull && big_n % seven == 1, "64-bit division");
	return u_failures;
}
