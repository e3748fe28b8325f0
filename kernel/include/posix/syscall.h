/*
 * The system calls of the Linux personality: the handlers the port's table
 * (kernel/arch/<arch>/posix/syscall_table.c) maps Linux's numbers to, and the
 * personality's own native calls (the process manager's, the On-Memory
 * File's). Each takes the decoded arguments (kernel/syscall.h), checks
 * everything and returns a value or -errno.
 */
#ifndef POSIX_SYSCALL_H
#define POSIX_SYSCALL_H

#include <kernel/syscall.h>

/* The name of Linux system call nr, "?" when unknown (the port's linux_names.c). */
const char *linux_syscall_name(uint64_t nr);

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
long sys_flock(const struct syscall_args *a);
long sys_fork(const struct syscall_args *a);
long sys_fstat(const struct syscall_args *a);
long sys_fstatfs(const struct syscall_args *a);
long sys_fsync(const struct syscall_args *a);
long sys_sync(const struct syscall_args *a);
long sys_syncfs(const struct syscall_args *a);
long sys_preadv(const struct syscall_args *a);
long sys_pwritev(const struct syscall_args *a);
long sys_preadv2(const struct syscall_args *a);
long sys_pwritev2(const struct syscall_args *a);
/* sys_link.c */
long sys_link(const struct syscall_args *a);
long sys_linkat(const struct syscall_args *a);
long sys_symlink(const struct syscall_args *a);
long sys_symlinkat(const struct syscall_args *a);
/* sys_attr.c */
long sys_chmod(const struct syscall_args *a);
long sys_fchmod(const struct syscall_args *a);
long sys_fchmodat(const struct syscall_args *a);
long sys_chown(const struct syscall_args *a);
long sys_fchown(const struct syscall_args *a);
long sys_lchown(const struct syscall_args *a);
long sys_fchownat(const struct syscall_args *a);
long sys_truncate(const struct syscall_args *a);
long sys_utimensat(const struct syscall_args *a);
long sys_futimesat(const struct syscall_args *a);
long sys_utimes(const struct syscall_args *a);
long sys_utime(const struct syscall_args *a);
/* sys_task.c */
long sys_prctl(const struct syscall_args *a);
long sys_times(const struct syscall_args *a);
long sys_ftruncate(const struct syscall_args *a);
long sys_getcwd(const struct syscall_args *a);
long sys_getdents64(const struct syscall_args *a);
long sys_getrandom(const struct syscall_args *a);
long sys_getrlimit(const struct syscall_args *a);
long sys_gettimeofday(const struct syscall_args *a);
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
/* sys_socket.c */
long sys_socket(const struct syscall_args *a);
long sys_bind(const struct syscall_args *a);
long sys_sendto(const struct syscall_args *a);
long sys_recvfrom(const struct syscall_args *a);
/* sys_inet.c */
long sys_connect(const struct syscall_args *a);
long sys_listen(const struct syscall_args *a);
long sys_accept(const struct syscall_args *a);
long sys_accept4(const struct syscall_args *a);
long sys_shutdown(const struct syscall_args *a);
long sys_getsockname(const struct syscall_args *a);
long sys_getpeername(const struct syscall_args *a);
long sys_setsockopt(const struct syscall_args *a);
long sys_getsockopt(const struct syscall_args *a);
long sys_sendmsg(const struct syscall_args *a);
long sys_recvmsg(const struct syscall_args *a);
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
long sys_rt_sigtimedwait(const struct syscall_args *a);
long sys_rt_sigqueueinfo(const struct syscall_args *a);
long sys_rt_tgsigqueueinfo(const struct syscall_args *a);
long sys_waitid(const struct syscall_args *a);
long sys_getrusage(const struct syscall_args *a);
long sys_getpriority(const struct syscall_args *a);
long sys_setpriority(const struct syscall_args *a);
long sys_mremap(const struct syscall_args *a);
long sys_clock_settime(const struct syscall_args *a);
long sys_settimeofday(const struct syscall_args *a);
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
/* The personality's native calls (kernel/posix/native_calls.c), the same
 * on every port: the handler of nr, or NULL. */
syscall_fn posix_native_syscall(uint64_t nr);
long sys_proc_fork(const struct syscall_args *a);
long sys_proc_start(const struct syscall_args *a);
long sys_proc_exec(const struct syscall_args *a);
long sys_proc_info(const struct syscall_args *a);
long sys_proc_environ(const struct syscall_args *a);
long sys_proc_maps(const struct syscall_args *a);
long sys_proc_set_name(const struct syscall_args *a);
long sys_tty_signal(const struct syscall_args *a);
/* sys_epoll.c, sys_eventfd.c: the file manager's event descriptors */
long sys_epoll_create(const struct syscall_args *a);
long sys_epoll_create1(const struct syscall_args *a);
long sys_epoll_ctl(const struct syscall_args *a);
long sys_epoll_wait(const struct syscall_args *a);
long sys_epoll_pwait(const struct syscall_args *a);
long sys_epoll_pwait2(const struct syscall_args *a);
long sys_eventfd(const struct syscall_args *a);
long sys_eventfd2(const struct syscall_args *a);
long sys_timerfd_create(const struct syscall_args *a);
long sys_timerfd_settime(const struct syscall_args *a);
long sys_timerfd_gettime(const struct syscall_args *a);
long sys_signalfd(const struct syscall_args *a);
long sys_signalfd4(const struct syscall_args *a);
/* sys_cred.c */
long sys_getuid(const struct syscall_args *a);
long sys_geteuid(const struct syscall_args *a);
long sys_getgid(const struct syscall_args *a);
long sys_getegid(const struct syscall_args *a);
long sys_getresuid(const struct syscall_args *a);
long sys_getresgid(const struct syscall_args *a);
long sys_setuid(const struct syscall_args *a);
long sys_setgid(const struct syscall_args *a);
long sys_setreuid(const struct syscall_args *a);
long sys_setregid(const struct syscall_args *a);
long sys_setresuid(const struct syscall_args *a);
long sys_setresgid(const struct syscall_args *a);
long sys_setfsuid(const struct syscall_args *a);
long sys_setfsgid(const struct syscall_args *a);
long sys_getgroups(const struct syscall_args *a);
long sys_setgroups(const struct syscall_args *a);
long sys_proc_groups(const struct syscall_args *a);
long sys_poll_notice(const struct syscall_args *a);
/* sys_statx.c */
long sys_statx(const struct syscall_args *a);

#endif
