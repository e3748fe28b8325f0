/*
 * System-call dispatch. The architecture's entry code saves the user
 * registers in a trapframe and calls syscall_dispatch, which decodes the
 * number and arguments by role and calls a handler from the table. Linux
 * numbers index the Linux table; native Myrmex calls (MYRMEX_SYS_BASE and up)
 * index the native table. Handlers are named sys_<name>, take the decoded
 * arguments, check everything, and return a value or -errno.
 */
#ifndef KERNEL_SYSCALL_H
#define KERNEL_SYSCALL_H

#include <kernel/types.h>

struct trapframe;

struct syscall_args {
	uint64_t arg[6];
	struct trapframe *tf;   /* for the calls that need the whole register state */
};

typedef long (*syscall_fn)(const struct syscall_args *a);

/* Runs the system call whose registers tf holds and stores its result in tf. */
void syscall_dispatch(struct trapframe *tf);

/* The name of Linux system call nr, "?" when unknown (linux_names.c). */
const char *linux_syscall_name(uint64_t nr);

/* Handlers, grouped by file. */
long sys_write(const struct syscall_args *a);
long sys_writev(const struct syscall_args *a);
long sys_read(const struct syscall_args *a);
long sys_ioctl(const struct syscall_args *a);
long sys_uname(const struct syscall_args *a);
long sys_exit(const struct syscall_args *a);
long sys_exit_group(const struct syscall_args *a);
long sys_getpid(const struct syscall_args *a);
long sys_getppid(const struct syscall_args *a);
long sys_gettid(const struct syscall_args *a);
long sys_sched_yield(const struct syscall_args *a);
long sys_clone(const struct syscall_args *a);
long sys_wait4(const struct syscall_args *a);
long sys_kill(const struct syscall_args *a);
long sys_set_tid_address(const struct syscall_args *a);
long sys_arch_prctl(const struct syscall_args *a);
long sys_rt_sigaction(const struct syscall_args *a);
long sys_rt_sigprocmask(const struct syscall_args *a);
long sys_clock_gettime(const struct syscall_args *a);
long sys_nanosleep(const struct syscall_args *a);
long sys_clock_nanosleep(const struct syscall_args *a);
long sys_brk(const struct syscall_args *a);
long sys_mmap(const struct syscall_args *a);
long sys_munmap(const struct syscall_args *a);
long sys_mprotect(const struct syscall_args *a);
long sys_msync(const struct syscall_args *a);
long sys_readblock(const struct syscall_args *a);
long sys_syncblock(const struct syscall_args *a);
long sys_fmap_revoke(const struct syscall_args *a);
long sys_futex(const struct syscall_args *a);
long sys_access(const struct syscall_args *a);
long sys_chdir(const struct syscall_args *a);
long sys_close(const struct syscall_args *a);
long sys_creat(const struct syscall_args *a);
long sys_dup(const struct syscall_args *a);
long sys_dup2(const struct syscall_args *a);
long sys_dup3(const struct syscall_args *a);
long sys_execve(const struct syscall_args *a);
long sys_faccessat(const struct syscall_args *a);
long sys_faccessat2(const struct syscall_args *a);
long sys_fchdir(const struct syscall_args *a);
long sys_fcntl(const struct syscall_args *a);
long sys_fork(const struct syscall_args *a);
long sys_fstat(const struct syscall_args *a);
long sys_fstatfs(const struct syscall_args *a);
long sys_fsync(const struct syscall_args *a);
long sys_ftruncate(const struct syscall_args *a);
long sys_getcwd(const struct syscall_args *a);
long sys_getdents64(const struct syscall_args *a);
long sys_getgroups(const struct syscall_args *a);
long sys_getrandom(const struct syscall_args *a);
long sys_getresid(const struct syscall_args *a);
long sys_getrlimit(const struct syscall_args *a);
long sys_gettimeofday(const struct syscall_args *a);
long sys_getuid(const struct syscall_args *a);
long sys_lseek(const struct syscall_args *a);
long sys_lstat(const struct syscall_args *a);
long sys_madvise(const struct syscall_args *a);
long sys_mkdir(const struct syscall_args *a);
long sys_mkdirat(const struct syscall_args *a);
long sys_newfstatat(const struct syscall_args *a);
long sys_open(const struct syscall_args *a);
long sys_openat(const struct syscall_args *a);
long sys_pipe(const struct syscall_args *a);
long sys_pipe2(const struct syscall_args *a);
long sys_poll(const struct syscall_args *a);
long sys_ppoll(const struct syscall_args *a);
long sys_pread64(const struct syscall_args *a);
long sys_prlimit64(const struct syscall_args *a);
long sys_pselect6(const struct syscall_args *a);
long sys_pwrite64(const struct syscall_args *a);
long sys_readlink(const struct syscall_args *a);
long sys_readlinkat(const struct syscall_args *a);
long sys_readv(const struct syscall_args *a);
long sys_rename(const struct syscall_args *a);
long sys_renameat(const struct syscall_args *a);
long sys_renameat2(const struct syscall_args *a);
long sys_rmdir(const struct syscall_args *a);
long sys_sched_getaffinity(const struct syscall_args *a);
long sys_sendfile(const struct syscall_args *a);
long sys_clock_getres(const struct syscall_args *a);
long sys_select(const struct syscall_args *a);
long sys_set_robust_list(const struct syscall_args *a);
long sys_setid(const struct syscall_args *a);
long sys_setrlimit(const struct syscall_args *a);
long sys_stat(const struct syscall_args *a);
long sys_statfs(const struct syscall_args *a);
long sys_sysinfo(const struct syscall_args *a);
long sys_time(const struct syscall_args *a);
long sys_umask(const struct syscall_args *a);
long sys_unlink(const struct syscall_args *a);
long sys_unlinkat(const struct syscall_args *a);
long sys_vfork(const struct syscall_args *a);
long sys_clone_process(const struct syscall_args *a);
long sys_rt_sigreturn(const struct syscall_args *a);
long sys_rt_sigpending(const struct syscall_args *a);
long sys_rt_sigsuspend(const struct syscall_args *a);
long sys_pause(const struct syscall_args *a);
long sys_sigaltstack(const struct syscall_args *a);
long sys_tkill(const struct syscall_args *a);
long sys_tgkill(const struct syscall_args *a);
long sys_alarm(const struct syscall_args *a);
long sys_getitimer(const struct syscall_args *a);
long sys_setitimer(const struct syscall_args *a);
long sys_setpgid(const struct syscall_args *a);
long sys_getpgid(const struct syscall_args *a);
long sys_getpgrp(const struct syscall_args *a);
long sys_setsid(const struct syscall_args *a);
long sys_getsid(const struct syscall_args *a);
long sys_myrmex_spawn(const struct syscall_args *a);
long sys_myrmex_kstats(const struct syscall_args *a);
long sys_myrmex_poweroff(const struct syscall_args *a);
long sys_myrmex_setprio(const struct syscall_args *a);
long sys_ica_alloc(const struct syscall_args *a);
long sys_ica_free(const struct syscall_args *a);
long sys_ica_detach(const struct syscall_args *a);
long sys_ica_attach(const struct syscall_args *a);
long sys_registserver(const struct syscall_args *a);
long sys_callsync(const struct syscall_args *a);
long sys_callasync(const struct syscall_args *a);
long sys_get(const struct syscall_args *a);
long sys_ret(const struct syscall_args *a);
long sys_claim(const struct syscall_args *a);
long sys_server_pid(const struct syscall_args *a);
long sys_myrmex_clock_info(const struct syscall_args *a);
long sys_proc_fork(const struct syscall_args *a);
long sys_proc_start(const struct syscall_args *a);
long sys_proc_exec(const struct syscall_args *a);
long sys_dev_info(const struct syscall_args *a);
long sys_dev_config_read(const struct syscall_args *a);
long sys_dev_config_write(const struct syscall_args *a);
long sys_dev_map_bar(const struct syscall_args *a);
long sys_dev_irq_ack(const struct syscall_args *a);
long sys_ica_phys(const struct syscall_args *a);
long sys_dev_port_read(const struct syscall_args *a);
long sys_dev_port_write(const struct syscall_args *a);

#endif
