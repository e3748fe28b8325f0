/*
 * The SH-4 port's own Linux call handlers (kernel/arch/sh4/posix/sh_calls.c):
 * the 32-bit forms of calls whose 64-bit values SH Linux passes in two
 * registers or in pages, turned into kernel/posix's handlers' arguments.
 */
#ifndef ARCH_SH_CALLS_H
#define ARCH_SH_CALLS_H

#include <kernel/syscall.h>

long sys_sh_mmap2(const struct syscall_args *a);
long sys_sh_lseek(const struct syscall_args *a);
long sys_sh_llseek(const struct syscall_args *a);
long sys_sh_pread64(const struct syscall_args *a);
long sys_sh_pwrite64(const struct syscall_args *a);
long sys_sh_truncate64(const struct syscall_args *a);
long sys_sh_ftruncate64(const struct syscall_args *a);
long sys_sh_pipe(const struct syscall_args *a);
/* sh_forms.c */
long sys_sh_fcntl(const struct syscall_args *a);
long sys_sh_fcntl64(const struct syscall_args *a);
long sys_sh_truncate(const struct syscall_args *a);
long sys_sh_ftruncate(const struct syscall_args *a);
long sys_sh_chown16(const struct syscall_args *a);
long sys_sh_lchown16(const struct syscall_args *a);
long sys_sh_preadv(const struct syscall_args *a);
long sys_sh_pwritev(const struct syscall_args *a);
long sys_sh_preadv2(const struct syscall_args *a);
long sys_sh_pwritev2(const struct syscall_args *a);
long sys_sh_statfs64(const struct syscall_args *a);
long sys_sh_fstatfs64(const struct syscall_args *a);
long sys_sh_waitid(const struct syscall_args *a);

#endif
