/*
 * t_fault: a user fault kills only the offender. Writes through NULL (a
 * TLB miss the page tables cannot answer); sh4init expects the kernel to
 * kill it (its name is given as "t_fault!").
 */
#include "sh4_user.h"

int main(int argc, char **argv, char **envp)
{
	(void)argc, (void)argv, (void)envp;
	*u_word_at(16) = 1;
	u_puts("t_fault: survived a write through NULL\n");
	return 0;
}
