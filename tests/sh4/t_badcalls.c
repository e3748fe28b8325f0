/*
 * t_badcalls: hostile system calls on SH-4, answered with errors and no
 * harm: unknown numbers (-ENOSYS), pointers into the kernel's areas (P1,
 * P2, P4), across the top of U0 and unmapped (-EFAULT), a misaligned
 * buffer (fine: the kernel copies bytes), bad handles and coreids
 * (-EINVAL), poweroff from a process that is not pid 1 (-EPERM). SH
 * Linux's pipe, whose descriptors come back in r0 and r1 (the kernel writes
 * them below the stack pointer first): r15 unmapped or in P1 is -EFAULT,
 * and pipe in a wrapped-call batch, whose trap frame is the batch's, is
 * -EINVAL.
 */
#include "sh4_user.h"

#define ENOSYS 38
#define EPERM 1
#define SH_NR_PIPE 42

/* pipe with r15 at sp for the call (r8 keeps the real one). */
static long pipe_at_sp(uint32_t sp)
{
	register long r3 __asm__("r3") = SH_NR_PIPE;
	register long r0 __asm__("r0");
	__asm__ volatile("mov r15, r8\n\tmov %2, r15\n\ttrapa #31\n\tmov r8, r15"
	                 : "=z"(r0) : "r"(r3), "r"(sp) : "r1", "r8", "memory");
	return r0;
}

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

	U_CHECK(pipe_at_sp(0x10000u) == -EFAULT, "pipe with r15 at unmapped U0 is -EFAULT");
	U_CHECK(pipe_at_sp(0x8c800008u) == -EFAULT, "pipe with r15 in P1 is -EFAULT");
	static struct {
		struct myrmex_batch_area area;
		struct myrmex_batch_entry entry[1];
	} batch = { .area = { .capacity = 1 } };
	batch.entry[0].nr = SH_NR_PIPE;
	batch.entry[0].state = MYRMEX_BATCH_STORED;
	U_CHECK(sys2(MYRMEX_SYS_BATCH, &batch, 1) == 1 && batch.entry[0].result == -EINVAL,
	        "pipe in a batch is -EINVAL");
	u_puts("t_badcalls: the kernel survived\n");
	return u_failures;
}
