/*
 * SH Linux's 32-bit call forms (arch/sh_calls.h): each rebuilds the
 * arguments kernel/posix's handler takes and calls it. A register holds 32
 * bits, zero-extended into the 64-bit argument words (arch_types.h), so a
 * signed offset is sign-extended here; a 64-bit offset comes as two
 * registers, low word first (musl's __SYSCALL_LL_E on SH); pread64 and
 * pwrite64 skip a pad register first (__SYSCALL_LL_PRW). mmap2 counts its
 * offset in 4 KiB pages. pipe answers in two registers.
 */
#include <kernel/errno.h>
#include <kernel/usercopy.h>
#include <posix/syscall.h>
#include <arch/sh_calls.h>

static uint64_t pair(uint64_t lo, uint64_t hi)
{
	return (hi & 0xffffffffu) << 32 | (lo & 0xffffffffu);
}

static int64_t sign32(uint64_t v)
{
	return (int64_t)(int32_t)(uint32_t)v;
}

long sys_sh_mmap2(const struct syscall_args *a)
{
	struct syscall_args b = *a;
	b.arg[5] = (a->arg[5] & 0xffffffffu) << 12;
	return sys_mmap(&b);
}

long sys_sh_lseek(const struct syscall_args *a)
{
	struct syscall_args b = *a;
	b.arg[1] = (uint64_t)sign32(a->arg[1]);
	return sys_lseek(&b);
}

/* _llseek(fd, offset_high, offset_low, result *, whence): the new
 * position into the 64-bit word at result, 0. */
long sys_sh_llseek(const struct syscall_args *a)
{
	struct syscall_args b = *a;
	b.arg[1] = pair(a->arg[2], a->arg[1]);
	b.arg[2] = a->arg[4];
	long r = sys_lseek(&b);
	if (r < 0)
		return r;
	uint64_t pos = (uint64_t)r;
	if (copy_to_user(a->arg[3], &pos, sizeof(pos)) != 0)
		return -EFAULT;
	return 0;
}

long sys_sh_pread64(const struct syscall_args *a)
{
	struct syscall_args b = *a;
	b.arg[3] = pair(a->arg[4], a->arg[5]);
	return sys_pread64(&b);
}

long sys_sh_pwrite64(const struct syscall_args *a)
{
	struct syscall_args b = *a;
	b.arg[3] = pair(a->arg[4], a->arg[5]);
	return sys_pwrite64(&b);
}

long sys_sh_truncate64(const struct syscall_args *a)
{
	struct syscall_args b = *a;
	b.arg[1] = pair(a->arg[1], a->arg[2]);
	return sys_truncate(&b);
}

long sys_sh_ftruncate64(const struct syscall_args *a)
{
	struct syscall_args b = *a;
	b.arg[1] = pair(a->arg[1], a->arg[2]);
	return sys_ftruncate(&b);
}

/* pipe, SH Linux's form: the two descriptors come back in r0 and r1, not
 * through a pointer (musl's sh/pipe.s stores r0 and r1 itself; r4 is not
 * an argument). kernel/posix's handler writes them to user memory: the
 * 8 bytes below the caller's stack pointer, free in the SH ABI (it has no
 * red zone), read back here; a stack pointer at no writable memory is
 * -EFAULT, no pipe made. In a wrapped-call batch (paper 001) the trap
 * frame is the batch call's, whose r1 is no answer: -EINVAL there. */
#define SH_NR_PIPE 42u
long sys_sh_pipe(const struct syscall_args *a)
{
	struct trapframe *tf = a->tf;
	if (!tf || tf->r[3] != SH_NR_PIPE)
		return -EINVAL;
	uptr_t at = (uptr_t)((tf->r[15] - 8u) & ~3u);
	struct syscall_args b = { .arg = { at }, .tf = tf };
	long r = sys_pipe(&b);
	if (r < 0)
		return r;
	int32_t fds[2];
	if (copy_from_user(fds, at, sizeof(fds)) != 0)
		return -EFAULT;
	tf->r[1] = (uint32_t)fds[1];
	return fds[0];
}
