/*
 * The personality's native calls: the numbers at MYRMEX_SYS_BASE and up
 * that the core's native table does not serve, made by the servers of the
 * POSIX stack (the process manager's fork, start and exec; the /proc
 * server's info, environ and maps; the file manager's poll notices, caller
 * groups, map revokes and a process's name; the time service's clock page;
 * the console's job-control check; OMF's block calls). The same on every
 * port: each port's personality_syscall answers with this table. Each
 * handler checks its caller's registration itself.
 */
#include <posix/syscall.h>
#include <myrmex/console.h>
#include <myrmex/fs.h>
#include <myrmex/omf.h>
#include <myrmex/proc.h>
#include <myrmex/procfs.h>
#include <myrmex/vdso.h>
#include <posix/vdso.h>

syscall_fn posix_native_syscall(uint64_t nr)
{
	switch (nr) {
	case MYRMEX_SYS_PROC_FORK:     return sys_proc_fork;
	case MYRMEX_SYS_PROC_START:    return sys_proc_start;
	case MYRMEX_SYS_PROC_EXEC:     return sys_proc_exec;
	case MYRMEX_SYS_READBLOCK:     return sys_readblock;
	case MYRMEX_SYS_SYNCBLOCK:     return sys_syncblock;
	case MYRMEX_SYS_FMAP_REVOKE:   return sys_fmap_revoke;
	case MYRMEX_SYS_CLOCK_PUBLISH: return sys_clock_publish;
	case MYRMEX_SYS_PROC_INFO:     return sys_proc_info;
	case MYRMEX_SYS_PROC_ENVIRON:  return sys_proc_environ;
	case MYRMEX_SYS_PROC_MAPS:     return sys_proc_maps;
	case MYRMEX_SYS_PROC_SET_NAME: return sys_proc_set_name;
	case MYRMEX_SYS_TTY_SIGNAL:    return sys_tty_signal;
	case MYRMEX_SYS_PROC_GROUPS:   return sys_proc_groups;
	case MYRMEX_SYS_POLL_NOTICE:   return sys_poll_notice;
	default:                       return NULL;
	}
}
