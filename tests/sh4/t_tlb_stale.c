/*
 * t_tlb_stale: a page taken away is unreachable, whatever part of it the
 * access that loaded its TLB entry touched. "t_tlb_stale <kind>" makes a
 * one-page ICA, touches it at offset 0xc08 first (the miss leaves the
 * address's bits 11..10, here 11, in PTEH's VPN), then takes the page
 * away and touches it there again: "freed" (ica_free), "detached"
 * (ica_detach). sh4init runs each as "t_tlb_stale:<kind>!" and expects it
 * killed. The fast refill once loaded the entry with those bits, and
 * paging.c's invalidation (which names the page) missed it under QEMU:
 * the page stayed reachable, and a disk driver wrote into ICAs it had
 * given back (docs/sh4.md, "The TLB-miss path").
 */
#include "sh4_user.h"

#define OFFSET 0xc08u

int main(int argc, char **argv, char **envp)
{
	(void)envp;
	const char *kind = argc > 1 ? argv[1] : "";
	if (kind[0] != 'f' && kind[0] != 'd') {
		u_puts("t_tlb_stale: no kind given\n");
		return 2;
	}
	long h = u_ica_alloc(1);
	if (h < 0) {
		u_puts("t_tlb_stale: ica_alloc failed\n");
		return 3;
	}
	volatile uint32_t *word = u_word_at((uintptr_t)myrmex_ica_addr((uint32_t)h) + OFFSET);
	*word = 0x5a5a5a5au;   /* the first access to the page: a TLB miss */
	if (*word != 0x5a5a5a5au) {
		u_puts("t_tlb_stale: the ICA did not keep a word\n");
		return 4;
	}
	long r = kind[0] == 'f' ? u_ica_free((uint32_t)h) : u_ica_detach((uint32_t)h);
	if (r != 0) {
		u_puts("t_tlb_stale: free or detach failed: ");
		u_putnum(r);
		u_puts("\n");
		return 5;
	}
	uint32_t seen = *word;   /* must fault */
	u_puts("t_tlb_stale: survived touching a ");
	u_puts(kind);
	u_puts(" ICA (read ");
	u_putnum((long)seen);
	u_puts(")\n");
	return 0;
}
