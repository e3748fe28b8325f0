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
long sys_futex(const struct syscall_args *a);
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
long sys_dev_info(const struct syscall_args *a);
long sys_dev_config_read(const struct syscall_args *a);
long sys_dev_config_write(const struct syscall_args *a);
long sys_dev_map_bar(const struct syscall_args *a);
long sys_dev_irq_ack(const struct syscall_args *a);
long sys_ica_phys(const struct syscall_args *a);
long sys_dev_port_read(const struct syscall_args *a);
long sys_dev_port_write(const struct syscall_args *a);

#endif
