/*
 * arch_prctl, the x86-64 Linux call that sets and reads the FS base, which
 * musl uses as its thread pointer. Other codes (the GS base, CPUID faulting)
 * are refused with -EINVAL.
 */
#include <posix/syscall.h>
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/usercopy.h>

#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003

long sys_arch_prctl(const struct syscall_args *a)
{
	struct thread *t = current_thread();
	switch (a->arg[0]) {
	case ARCH_SET_FS:
		return arch_thread_set_tls(t, a->arg[1]);
	case ARCH_GET_FS: {
		uint64_t base = arch_thread_get_tls(t);
		return copy_to_user(a->arg[1], &base, sizeof(base));
	}
	default:
		return -EINVAL;
	}
}
