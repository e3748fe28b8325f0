/*
 * t_trap: the CPU exceptions a user program can raise on SH-4 each kill
 * that program only. "t_trap <kind>" raises one: "align" (a misaligned
 * word load: address error), "p1" (a store into the kernel's P1 area:
 * address error), "p4" (a load of a control register), "illegal" (an
 * undefined instruction), "fpu" (an FPU instruction: programs run with
 * SR.FD set), "miss" (a load from unmapped U0). sh4init runs each as
 * "t_trap:<kind>!" and expects it killed.
 */
#include "sh4_user.h"

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
	default:
		u_puts("t_trap: no kind given\n");
		return 2;
	}
	u_puts("t_trap: survived ");
	u_puts(kind);
	u_puts("\n");
	return 0;
}
