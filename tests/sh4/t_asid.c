/*
 * t_asid: more address spaces than the SH-4 has ASIDs (255). Starts and
 * reaps 300 short-lived processes, so the kernel's ASID generation moves
 * on (a whole-TLB flush, every space given a fresh ASID when next used),
 * while this process keeps writing and reading its own pages and an
 * attached ICA: with the reserved-entry method the ICA's entry is loaded
 * again under the new ASID after the flush. Nothing may read stale data.
 */
#include "sh4_user.h"

#define ROUNDS 300

static volatile uint32_t mine[1024 * 4];

int main(int argc, char **argv, char **envp)
{
	(void)argc, (void)argv, (void)envp;
	long h = u_ica_alloc(1);
	U_CHECK(h > 0, "ica_alloc");
	if (h <= 0)
		return 1;
	volatile uint32_t *ica = myrmex_ica_addr((uint32_t)h);
	struct myrmex_kstats k0, k1;
	sys2(MYRMEX_SYS_KSTATS, &k0, sizeof(k0));
	const uint64_t cargv[] = { (uintptr_t)"sh4_srv", (uintptr_t)"0", (uintptr_t)"x", 0 };
	const uint64_t cenvp[] = { 0 };
	for (uint32_t r = 0; r < ROUNDS; r++) {
		ica[0] = r;
		mine[(r % 4) * 1024] = r;
		long pid = sys5(MYRMEX_SYS_SPAWN, "sh4_srv", cargv, cenvp, -1, 0);
		if (pid < 0) {
			U_CHECK(0, "spawn a short-lived process");
			break;
		}
		int status = -1;
		if (sys6(SH_NR_WAIT4, pid, (long)&status, 0, 0, 0, 0) != pid || status != 0) {
			U_CHECK(0, "the short-lived process exits 0");
			break;
		}
		if (ica[0] != r || mine[(r % 4) * 1024] != r) {
			U_CHECK(0, "the ICA and private pages keep their contents");
			break;
		}
	}
	sys2(MYRMEX_SYS_KSTATS, &k1, sizeof(k1));
	U_CHECK(k1.tlb_flushes_full > k0.tlb_flushes_full, "the ASIDs ran out: a whole-TLB flush");
	U_CHECK(u_ica_free((uint32_t)h) == 0, "ica_free");
	return u_failures;
}
