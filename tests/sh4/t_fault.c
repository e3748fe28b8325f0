/*
 * t_fault: a user fault kills only the offender. Writes through NULL (a
 * TLB miss the page tables cannot answer); sh4init expects the kernel to
 * kill it (its name is given as "t_fault!"). It also stands in for the
 * shared tests/kernel/t_fault (x86-64's faults) where the shared t_spawn
 * spawns it by that name: "t_fault spin" loops until it is killed, any
 * other kind ("null-read" there) faults as above.
 */
#include "sh4_user.h"

int main(int argc, char **argv, char **envp)
{
	(void)envp;
	const char *kind = argc > 1 ? argv[1] : "";
	if (kind[0] == 's' && kind[1] == 'p' && kind[2] == 'i' && kind[3] == 'n' && !kind[4])
		for (;;)
			__asm__ volatile("" ::: "memory");
	*u_word_at(16) = 1;
	u_puts("t_fault: survived a write through NULL\n");
	return 0;
}
