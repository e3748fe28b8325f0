/*
 * t_badcalls: hostile system calls on SH-4, answered with errors and no
 * harm: unknown numbers (-ENOSYS), pointers into the kernel's areas (P1,
 * P2, P4), across the top of U0 and unmapped (-EFAULT), a misaligned
 * buffer (fine: the kernel copies bytes), bad handles and coreids
 * (-EINVAL), poweroff from a process that is not pid 1 (-EPERM).
 */
#include "sh4_user.h"

#define ENOSYS 38
#define EPERM 1

int main(int argc, char **argv, char **envp)
{
	(void)argc, (void)argv, (void)envp;
	static const long unknown[] = { 0, 9999, 4095, MYRMEX_SYS_BASE + 999, 0x7fffffff, -1 };
	for (unsigned i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++)
		U_CHECK(sys0(unknown[i]) == -ENOSYS, "an unknown call number is -ENOSYS");

	struct myrmex_kstats k;
	static const uint32_t kernel[] = { 0x80000000u, 0x8c800000u, 0xac800000u, 0xff000000u,
	                                   0xffffff00u, 0x7ffff000u, 0x7fffffc0u };
	for (unsigned i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++) {
		U_CHECK(sys2(MYRMEX_SYS_KSTATS, kernel[i], sizeof(k)) == -EFAULT,
		        "kstats into the kernel or across the top is -EFAULT");
		U_CHECK(sys3(SH_NR_WRITE, 1, kernel[i], 16) == -EFAULT, "write from the kernel is -EFAULT");
	}
	U_CHECK(sys2(MYRMEX_SYS_KSTATS, 0x10000000, sizeof(k)) == -EFAULT, "kstats to unmapped");

	static char buf[sizeof(k) + 8];
	U_CHECK(sys2(MYRMEX_SYS_KSTATS, buf + 3, sizeof(k)) == (long)sizeof(k),
	        "kstats to a misaligned buffer works");

	struct myrmex_delivery d;
	U_CHECK(u_get((void *)0x8c800000, &d) == -EINVAL, "get of a kernel address is -EINVAL");
	U_CHECK(sys1(MYRMEX_SYS_REGISTSERVER, 100000) == -EINVAL, "registserver of a bad coreid");
	U_CHECK(u_ica_free(0) == -EINVAL && u_ica_detach(0x12345) == -EINVAL, "bad handles");
	U_CHECK(sys5(MYRMEX_SYS_SPAWN, 0x8c800000, 0, 0, -1, 0) == -EFAULT,
	        "spawn of a module named in the kernel is -EFAULT");
	U_CHECK(sys1(MYRMEX_SYS_POWEROFF, 0) == -EPERM, "poweroff from pid > 1 is -EPERM");
	u_puts("t_badcalls: the kernel survived\n");
	return u_failures;
}
