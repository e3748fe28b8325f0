/*
 * System-call dispatch (see kernel/syscall.h): the microkernel's native
 * table, then the personality's table for its own numbers, both built with
 * designated initializers and bounds- and NULL-checked, then the
 * personality's own native calls. An unknown number returns -ENOSYS; the
 * personality counts it. syscall_run is shared by the trap path and the
 * batch call (batch.c).
 */
#include <kernel/cputime_edges.h>
#include <kernel/syscall.h>
#include <kernel/arch.h>
#include <kernel/cputime.h>
#include <kernel/errno.h>
#include <kernel/klock.h>
#include <kernel/personality.h>
#include <kernel/sched.h>
#include <kernel/stats.h>
#include <myrmex/clock.h>
#include <myrmex/device.h>
#include <myrmex/ica.h>
#include <myrmex/rights.h>
#include <myrmex/syscall.h>

static const syscall_fn native_calls[] = {
	[MYRMEX_SYS_SPAWN - MYRMEX_SYS_BASE] = sys_myrmex_spawn,
	[MYRMEX_SYS_KSTATS - MYRMEX_SYS_BASE] = sys_myrmex_kstats,
	[MYRMEX_SYS_POWEROFF - MYRMEX_SYS_BASE] = sys_myrmex_poweroff,
	[MYRMEX_SYS_SETPRIO - MYRMEX_SYS_BASE] = sys_myrmex_setprio,
	[MYRMEX_SYS_BATCH - MYRMEX_SYS_BASE] = sys_myrmex_batch,
	[MYRMEX_SYS_ICA_ALLOC - MYRMEX_SYS_BASE] = sys_ica_alloc,
	[MYRMEX_SYS_ICA_FREE - MYRMEX_SYS_BASE] = sys_ica_free,
	[MYRMEX_SYS_ICA_DETACH - MYRMEX_SYS_BASE] = sys_ica_detach,
	[MYRMEX_SYS_ICA_ATTACH - MYRMEX_SYS_BASE] = sys_ica_attach,
	[MYRMEX_SYS_REGISTSERVER - MYRMEX_SYS_BASE] = sys_registserver,
	[MYRMEX_SYS_CALLSYNC - MYRMEX_SYS_BASE] = sys_callsync,
	[MYRMEX_SYS_CALLASYNC - MYRMEX_SYS_BASE] = sys_callasync,
	[MYRMEX_SYS_GET - MYRMEX_SYS_BASE] = sys_get,
	[MYRMEX_SYS_RET - MYRMEX_SYS_BASE] = sys_ret,
	[MYRMEX_SYS_CLAIM - MYRMEX_SYS_BASE] = sys_claim,
	[MYRMEX_SYS_DEV_INFO - MYRMEX_SYS_BASE] = sys_dev_info,
	[MYRMEX_SYS_DEV_CONFIG_READ - MYRMEX_SYS_BASE] = sys_dev_config_read,
	[MYRMEX_SYS_DEV_CONFIG_WRITE - MYRMEX_SYS_BASE] = sys_dev_config_write,
	[MYRMEX_SYS_DEV_MAP_BAR - MYRMEX_SYS_BASE] = sys_dev_map_bar,
	[MYRMEX_SYS_DEV_IRQ_ACK - MYRMEX_SYS_BASE] = sys_dev_irq_ack,
	[MYRMEX_SYS_ICA_PHYS - MYRMEX_SYS_BASE] = sys_ica_phys,
	[MYRMEX_SYS_DEV_PORT_READ - MYRMEX_SYS_BASE] = sys_dev_port_read,
	[MYRMEX_SYS_DEV_PORT_WRITE - MYRMEX_SYS_BASE] = sys_dev_port_write,
	[MYRMEX_SYS_SERVER_PID - MYRMEX_SYS_BASE] = sys_server_pid,
	[MYRMEX_SYS_CLOCK_INFO - MYRMEX_SYS_BASE] = sys_myrmex_clock_info,
	[MYRMEX_SYS_RIGHTS - MYRMEX_SYS_BASE] = sys_myrmex_rights,
	[MYRMEX_SYS_MODULE_READ - MYRMEX_SYS_BASE] = sys_myrmex_module_read,
	[MYRMEX_SYS_KTOUCH - MYRMEX_SYS_BASE] = sys_myrmex_ktouch,
};

syscall_fn syscall_lookup(uint64_t nr)
{
	uint64_t native = nr - MYRMEX_SYS_BASE;   /* wraps for the personality's numbers */
	if (native < ARRAY_SIZE(native_calls) && native_calls[native])
		return native_calls[native];
	if (nr < personality_call_count)
		return personality_calls[nr];
	return personality_syscall(nr);
}

long syscall_run(syscall_fn fn, uint64_t nr, const struct syscall_args *a)
{
	if (!fn) {
		personality_unknown_syscall(nr);
		return -ENOSYS;
	}
	return fn(a);
}

void syscall_dispatch(struct trapframe *tf)
{
	kernel_lock_take();
	cputime_from_user(current_thread());
	STAT_INC(syscalls);
	const struct syscall_args a = {
		.arg = { arch_tf_syscall_arg(tf, 0), arch_tf_syscall_arg(tf, 1),
		         arch_tf_syscall_arg(tf, 2), arch_tf_syscall_arg(tf, 3),
		         arch_tf_syscall_arg(tf, 4), arch_tf_syscall_arg(tf, 5) },
		.tf = tf,
	};
	uint64_t nr = arch_tf_syscall_nr(tf);
	long result = syscall_run(syscall_lookup(nr), nr, &a);
	arch_tf_set_return(tf, (uint64_t)result);
	sched_return_to_user();
	kernel_lock_give();
}
