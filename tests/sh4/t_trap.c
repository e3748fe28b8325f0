/*
 * t_trap: the CPU exceptions a user program can raise on SH-4 each kill
 * that program only. "t_trap <kind>" raises one: "align" (a misaligned
 * word load: address error), "p1" (a store into the kernel's P1 area:
 * address error), "p4" (a load of a control register), "illegal" (an
 * undefined instruction), "fpu" (an FPU instruction: programs run with
 * SR.FD set), "miss" (a load from unmapped U0), "stale" (a store to a
 * page made read-only after a store 3 KiB into it had loaded its TLB entry
 * through the refill fast path: the protect must drop that entry, whose
 * miss set address bits 10-11). sh4init runs each as "t_trap:<kind>!" and
 * expects it killed.
 */
#include "sh4_user.h"

#define SH_NR_MPROTECT 125
#define SH_PROT_READ   1

static uint8_t page[4096] __attribute__((aligned(4096)));

int main(int argc, char **argv, char **envp)
{
	(void)envp;
	const char *kind = argc > 1 ? argv[1] : "";
	static uint32_t words[2];
	switch (kind[0]) {
	case 'a':
		(void)*u_word_at((uintptr_t)words + 1);
		break;
	case 'p':
		if (kind[1] == '1')
			*u_word_at(0x8c800000u) = 0;
		else
			(void)*u_word_at(0xff000000u);
		break;
	case 'i':
		__asm__ volatile(".word 0xfffd");
		break;
	case 'f':
		__asm__ volatile(".word 0xf08d");   /* fldi0 fr0 (built -m4-nofpu) */
		break;
	case 'm':
		(void)*u_word_at(0x10000000u);
		break;
	case 's':
		*u_word_at((uintptr_t)page + 0xc00) = 1;   /* populated: a fault */
		*u_word_at((uintptr_t)page + 0xc00) = 2;   /* the fast path's entry, if evicted */
		if (sys3(SH_NR_MPROTECT, page, sizeof(page), SH_PROT_READ) != 0) {
			u_puts("t_trap: mprotect failed\n");
			return 3;
		}
		*u_word_at((uintptr_t)page + 0xc00) = 3;
		break;
	default:
		u_puts("t_trap: no kind given\n");
		return 2;
	}
	u_puts("t_trap: survived ");
	u_puts(kind);
	u_puts("\n");
	return 0;
}
