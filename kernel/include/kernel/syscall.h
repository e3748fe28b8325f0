/*
 * System-call dispatch. The architecture's entry code saves the user
 * registers in a trapframe and calls syscall_dispatch, which decodes the
 * number and arguments by role and calls a handler: the personality's table
 * for its own numbers (Linux's, kernel/personality.h), the microkernel's
 * native table for MYRMEX_SYS_BASE and up (the calls declared below), then
 * the personality's own native calls. Handlers are named sys_<name>, take
 * the decoded arguments, check everything, and return a value or -errno.
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

/* Runs the system call whose registers tf holds and stores its result in tf:
 * the way in of both entries, syscall and the trap gate. */
void syscall_dispatch(struct trapframe *tf);

/* The handler of nr, or NULL. */
syscall_fn syscall_lookup(uint64_t nr);

/* Runs call nr, whose handler syscall_lookup gave as fn, with the
 * arguments a (kernel lock held): the handler's result, or -ENOSYS
 * (counted) when fn is NULL. The one step the trap path and a batch
 * (kernel/core/batch.c, which looks the handler up first to check it)
 * share. */
long syscall_run(syscall_fn fn, uint64_t nr, const struct syscall_args *a);

/* The microkernel's native calls (include/myrmex: ica.h, device.h, syscall.h, clock.h), by file: sys_native.c,
 * sys_ipc.c, sys_device.c. */
long sys_myrmex_spawn(const struct syscall_args *a);
long sys_myrmex_kstats(const struct syscall_args *a);
long sys_myrmex_poweroff(const struct syscall_args *a);
long sys_myrmex_setprio(const struct syscall_args *a);
long sys_myrmex_batch(const struct syscall_args *a);   /* batch.c */
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
long sys_myrmex_rights(const struct syscall_args *a);
long sys_myrmex_module_read(const struct syscall_args *a);
long sys_myrmex_ktouch(const struct syscall_args *a);      /* ktouch.c */
long sys_dev_info(const struct syscall_args *a);
long sys_dev_config_read(const struct syscall_args *a);
long sys_dev_config_write(const struct syscall_args *a);
long sys_dev_map_bar(const struct syscall_args *a);
long sys_dev_irq_ack(const struct syscall_args *a);
long sys_ica_phys(const struct syscall_args *a);
long sys_dev_port_read(const struct syscall_args *a);
long sys_dev_port_write(const struct syscall_args *a);

#endif
