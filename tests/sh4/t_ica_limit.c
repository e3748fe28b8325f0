/*
 * t_ica_limit: the bound of the reserved-entry method. With MYRMEX_ICA=tlb
 * (the boot option ica_tlb=32), attached ICA pages cannot outnumber the 32
 * reserved UTLB entries: allocating one-page ICAs stops with -ENOMEM after
 * at most 32, a 33-page ICA is refused whole, and freeing gives the
 * entries back (the same count fits again). With page tables (MYRMEX_ICA=pt)
 * 40 one-page ICAs and a 33-page one fit. Every ICA written and read back.
 */
#include "sh4_user.h"

#define TRIES 40
#define ENOMEM 12

static long handles[TRIES];

/* Allocates one-page ICAs until TRIES or a refusal; returns how many. */
static int fill(long *refusal)
{
	int n = 0;
	*refusal = 0;
	while (n < TRIES) {
		long h = u_ica_alloc(1);
		if (h < 0) {
			*refusal = h;
			break;
		}
		volatile uint32_t *p = myrmex_ica_addr((uint32_t)h);
		p[0] = (uint32_t)n + 1;
		handles[n++] = h;
	}
	for (int i = 0; i < n; i++) {
		volatile uint32_t *p = myrmex_ica_addr((uint32_t)handles[i]);
		U_CHECK(p[0] == (uint32_t)i + 1, "an ICA reads back what was written");
	}
	return n;
}

static void drain(int n)
{
	for (int i = 0; i < n; i++)
		U_CHECK(u_ica_free((uint32_t)handles[i]) == 0, "ica_free");
}

static bool env_is(char **envp, const char *want)
{
	for (; *envp; envp++) {
		const char *a = *envp, *b = want;
		while (*a && *a == *b)
			a++, b++;
		if (!*a && !*b)
			return true;
	}
	return false;
}

int main(int argc, char **argv, char **envp)
{
	(void)argc, (void)argv;
	bool tlb = env_is(envp, "MYRMEX_ICA=tlb");
	long refusal;
	int first = fill(&refusal);
	if (tlb) {
		U_CHECK(first >= 1 && first <= 32, "at most 32 ICA pages attached");
		U_CHECK(refusal == -ENOMEM, "the 33rd page is refused with -ENOMEM");
	} else {
		U_CHECK(first == TRIES && refusal == 0, "40 ICAs with page tables");
	}
	drain(first);
	int again = fill(&refusal);
	U_CHECK(again == first, "freed entries are reused");
	drain(again);
	long big = u_ica_alloc(33);
	if (tlb) {
		U_CHECK(big == -ENOMEM, "a 33-page ICA is refused whole");
	} else {
		U_CHECK(big > 0, "a 33-page ICA with page tables");
		if (big > 0) {
			volatile uint32_t *p = myrmex_ica_addr((uint32_t)big);
			p[32 * 1024] = 7;
			U_CHECK(p[32 * 1024] == 7, "its last page works");
			U_CHECK(u_ica_free((uint32_t)big) == 0, "ica_free of the 33-page ICA");
		}
	}
	long one = u_ica_alloc(1);
	U_CHECK(one > 0, "a one-page ICA after all that");
	return u_failures;
}
