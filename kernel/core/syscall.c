/*
 * System-call dispatch (see kernel/syscall.h): two tables built with
 * designated initializers, bounds- and NULL-checked. An unknown number
 * returns -ENOSYS and is logged once.
 */
#include <kernel/syscall.h>
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/sched.h>
#include <kernel/stats.h>
#include <myrmex/device.h>
#include <myrmex/ica.h>
#include <myrmex/proc.h>
#include <myrmex/syscall.h>

static const syscall_fn linux_calls[] = {
	[0] = sys_read,
	[1] = sys_write,
	[9] = sys_mmap,
	[10] = sys_mprotect,
	[11] = sys_munmap,
	[12] = sys_brk,
	[13] = sys_rt_sigaction,
	[14] = sys_rt_sigprocmask,
	[16] = sys_ioctl,
	[20] = sys_writev,
	[24] = sys_sched_yield,
	[35] = sys_nanosleep,
	[39] = sys_getpid,
	[56] = sys_clone,
	[60] = sys_exit,
	[61] = sys_wait4,
	[62] = sys_kill,
	[63] = sys_uname,
	[110] = sys_getppid,
	[158] = sys_arch_prctl,
	[186] = sys_gettid,
	[202] = sys_futex,
	[218] = sys_set_tid_address,
	[228] = sys_clock_gettime,
	[230] = sys_clock_nanosleep,
	[231] = sys_exit_group,
};

static const syscall_fn native_calls[] = {
	[MYRMEX_SYS_SPAWN - MYRMEX_SYS_BASE] = sys_myrmex_spawn,
	[MYRMEX_SYS_KSTATS - MYRMEX_SYS_BASE] = sys_myrmex_kstats,
	[MYRMEX_SYS_POWEROFF - MYRMEX_SYS_BASE] = sys_myrmex_poweroff,
	[MYRMEX_SYS_SETPRIO - MYRMEX_SYS_BASE] = sys_myrmex_setprio,
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
};

#define LOGGED_MAX 512
static uint8_t unknown_logged[LOGGED_MAX / 8];

static syscall_fn lookup(uint64_t nr)
{
	if (nr < ARRAY_SIZE(linux_calls))
		return linux_calls[nr];
	if (nr >= MYRMEX_SYS_BASE && nr - MYRMEX_SYS_BASE < ARRAY_SIZE(native_calls))
		return native_calls[nr - MYRMEX_SYS_BASE];
	return NULL;
}

static void log_unknown(uint64_t nr)
{
	if (nr < LOGGED_MAX) {
		if (unknown_logged[nr / 8] & (1u << (nr % 8)))
			return;
		unknown_logged[nr / 8] |= (uint8_t)(1u << (nr % 8));
	}
	printk("myrmex: unimplemented system call %ld\n", (long)nr);
}

void syscall_dispatch(struct trapframe *tf)
{
	STAT_INC(syscalls);
	uint64_t nr = arch_tf_syscall_nr(tf);
	syscall_fn fn = lookup(nr);
	long result;
	if (fn) {
		struct syscall_args a = { .tf = tf };
		for (int i = 0; i < 6; i++)
			a.arg[i] = arch_tf_syscall_arg(tf, i);
		result = fn(&a);
	} else {
		log_unknown(nr);
		result = -ENOSYS;
	}
	arch_tf_set_return(tf, (uint64_t)result);
	sched_return_to_user();
}
