/*
 * t_ica_touch: touching an ICA after detaching it is a fault that kills
 * the toucher (sh4init expects it killed: "t_ica_touch!"), whichever way
 * the port maps ICAs (page-table entries or reserved TLB entries).
 */
#include "sh4_user.h"

int main(int argc, char **argv, char **envp)
{
	(void)argc, (void)argv, (void)envp;
	long h = u_ica_alloc(1);
	if (h <= 0)
		return 1;
	volatile uint32_t *p = myrmex_ica_addr((uint32_t)h);
	p[0] = 1;
	if (u_ica_detach((uint32_t)h) != 0)
		return 1;
	p[0] = 2;
	u_puts("t_ica_touch: survived touching a detached ICA\n");
	return 0;
}
