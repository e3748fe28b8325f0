/*
 * The Linux personality's system-call table for x86-64: Linux's x86-64
 * numbers (<asm/unistd_64.h>) to the handlers of kernel/posix, built with
 * designated initializers (NULL where a call is not served), and the
 * personality's own native calls. The core indexes personality_calls itself
 * (kernel/core/syscall.c); a 32-bit or SH-4 port brings a table of its own
 * numbers and the same handlers.
 */
#include <kernel/personality.h>
#include <kernel/stats.h>
#include <posix/syscall.h>
#include <myrmex/console.h>
#include <myrmex/fs.h>
#include <myrmex/omf.h>
#include <myrmex/proc.h>
#include <myrmex/procfs.h>
#include <myrmex/vdso.h>
#include <posix/vdso.h>

const syscall_fn personality_calls[] = {
	[0] = sys_read,
	[1] = sys_write,
	[2] = sys_open,
	[3] = sys_close,
	[4] = sys_stat,
	[5] = sys_fstat,
	[6] = sys_lstat,
	[7] = sys_poll,
	[8] = sys_lseek,
	[9] = sys_mmap,
	[10] = sys_mprotect,
	[11] = sys_munmap,
	[12] = sys_brk,
	[13] = sys_rt_sigaction,
	[14] = sys_rt_sigprocmask,
	[15] = sys_rt_sigreturn,
	[16] = sys_ioctl,
	[17] = sys_pread64,
	[18] = sys_pwrite64,
	[19] = sys_readv,
	[20] = sys_writev,
	[21] = sys_access,
	[22] = sys_pipe,
	[23] = sys_select,
	[24] = sys_sched_yield,
	[25] = sys_mremap,
	[26] = sys_msync,
	[28] = sys_madvise,
	[32] = sys_dup,
	[33] = sys_dup2,
	[34] = sys_pause,
	[35] = sys_nanosleep,
	[36] = sys_getitimer,
	[37] = sys_alarm,
	[38] = sys_setitimer,
	[39] = sys_getpid,
	[40] = sys_sendfile,
	[41] = sys_socket,
	[42] = sys_connect,
	[43] = sys_accept,
	[44] = sys_sendto,
	[45] = sys_recvfrom,
	[46] = sys_sendmsg,
	[47] = sys_recvmsg,
	[48] = sys_shutdown,
	[49] = sys_bind,
	[50] = sys_listen,
	[51] = sys_getsockname,
	[52] = sys_getpeername,
	[54] = sys_setsockopt,
	[55] = sys_getsockopt,
	[56] = sys_clone,
	[57] = sys_fork,
	[58] = sys_vfork,
	[59] = sys_execve,
	[60] = sys_exit,
	[61] = sys_wait4,
	[62] = sys_kill,
	[63] = sys_uname,
	[72] = sys_fcntl,
	[73] = sys_flock,
	[74] = sys_fsync,
	[75] = sys_fsync,
	[76] = sys_truncate,
	[77] = sys_ftruncate,
	[79] = sys_getcwd,
	[80] = sys_chdir,
	[81] = sys_fchdir,
	[82] = sys_rename,
	[83] = sys_mkdir,
	[84] = sys_rmdir,
	[85] = sys_creat,
	[86] = sys_link,
	[87] = sys_unlink,
	[88] = sys_symlink,
	[89] = sys_readlink,
	[90] = sys_chmod,
	[91] = sys_fchmod,
	[92] = sys_chown,
	[93] = sys_fchown,
	[94] = sys_lchown,
	[95] = sys_umask,
	[96] = sys_gettimeofday,
	[97] = sys_getrlimit,
	[98] = sys_getrusage,
	[99] = sys_sysinfo,
	[100] = sys_times,
	[102] = sys_getuid,
	[104] = sys_getgid,
	[105] = sys_setuid,
	[106] = sys_setgid,
	[107] = sys_geteuid,
	[108] = sys_getegid,
	[109] = sys_setpgid,
	[110] = sys_getppid,
	[111] = sys_getpgrp,
	[112] = sys_setsid,
	[113] = sys_setreuid,
	[114] = sys_setregid,
	[115] = sys_getgroups,
	[116] = sys_setgroups,
	[117] = sys_setresuid,
	[118] = sys_getresuid,
	[119] = sys_setresgid,
	[120] = sys_getresgid,
	[121] = sys_getpgid,
	[122] = sys_setfsuid,
	[123] = sys_setfsgid,
	[124] = sys_getsid,
	[127] = sys_rt_sigpending,
	[128] = sys_rt_sigtimedwait,
	[129] = sys_rt_sigqueueinfo,
	[130] = sys_rt_sigsuspend,
	[131] = sys_sigaltstack,
	[132] = sys_utime,
	[137] = sys_statfs,
	[138] = sys_fstatfs,
	[140] = sys_getpriority,
	[141] = sys_setpriority,
	[157] = sys_prctl,
	[158] = sys_arch_prctl,
	[160] = sys_setrlimit,
	[162] = sys_sync,
	[164] = sys_settimeofday,
	[186] = sys_gettid,
	[200] = sys_tkill,
	[201] = sys_time,
	[202] = sys_futex,
	[204] = sys_sched_getaffinity,
	[213] = sys_epoll_create,
	[217] = sys_getdents64,
	[218] = sys_set_tid_address,
	[227] = sys_clock_settime,
	[228] = sys_clock_gettime,
	[229] = sys_clock_getres,
	[230] = sys_clock_nanosleep,
	[231] = sys_exit_group,
	[232] = sys_epoll_wait,
	[233] = sys_epoll_ctl,
	[234] = sys_tgkill,
	[235] = sys_utimes,
	[247] = sys_waitid,
	[257] = sys_openat,
	[258] = sys_mkdirat,
	[260] = sys_fchownat,
	[261] = sys_futimesat,
	[262] = sys_newfstatat,
	[263] = sys_unlinkat,
	[264] = sys_renameat,
	[265] = sys_linkat,
	[266] = sys_symlinkat,
	[267] = sys_readlinkat,
	[268] = sys_fchmodat,
	[269] = sys_faccessat,
	[270] = sys_pselect6,
	[271] = sys_ppoll,
	[273] = sys_set_robust_list,
	[280] = sys_utimensat,
	[281] = sys_epoll_pwait,
	[282] = sys_signalfd,
	[283] = sys_timerfd_create,
	[284] = sys_eventfd,
	[286] = sys_timerfd_settime,
	[287] = sys_timerfd_gettime,
	[288] = sys_accept4,
	[289] = sys_signalfd4,
	[290] = sys_eventfd2,
	[291] = sys_epoll_create1,
	[292] = sys_dup3,
	[293] = sys_pipe2,
	[295] = sys_preadv,
	[296] = sys_pwritev,
	[297] = sys_rt_tgsigqueueinfo,
	[302] = sys_prlimit64,
	[306] = sys_syncfs,
	[316] = sys_renameat2,
	[318] = sys_getrandom,
	[332] = sys_statx,
	[327] = sys_preadv2,
	[328] = sys_pwritev2,
	[439] = sys_faccessat2,
	[441] = sys_epoll_pwait2,
};

const uint64_t personality_call_count = ARRAY_SIZE(personality_calls);

syscall_fn personality_syscall(uint64_t nr)
{
	switch (nr) {
	case MYRMEX_SYS_PROC_FORK:   return sys_proc_fork;
	case MYRMEX_SYS_PROC_START:  return sys_proc_start;
	case MYRMEX_SYS_PROC_EXEC:   return sys_proc_exec;
	case MYRMEX_SYS_READBLOCK:   return sys_readblock;
	case MYRMEX_SYS_SYNCBLOCK:   return sys_syncblock;
	case MYRMEX_SYS_FMAP_REVOKE: return sys_fmap_revoke;
	case MYRMEX_SYS_CLOCK_PUBLISH: return sys_clock_publish;
	case MYRMEX_SYS_PROC_INFO:   return sys_proc_info;
	case MYRMEX_SYS_PROC_ENVIRON: return sys_proc_environ;
	case MYRMEX_SYS_PROC_MAPS:   return sys_proc_maps;
	case MYRMEX_SYS_PROC_SET_NAME: return sys_proc_set_name;
	case MYRMEX_SYS_TTY_SIGNAL:  return sys_tty_signal;
	case MYRMEX_SYS_PROC_GROUPS: return sys_proc_groups;
	case MYRMEX_SYS_POLL_NOTICE: return sys_poll_notice;
	default:                     return NULL;
	}
}

/* Calls without a handler return -ENOSYS quietly (a program probing for a
 * call it may use, such as glibc's rseq, is not an event worth a console
 * line): each is counted, in kstats.syscalls_unknown and per number in
 * personality_unknown_counts[] (the last entry counts the numbers beyond),
 * which a debugger or a later /proc reads. */
uint64_t personality_unknown_counts[PERSONALITY_UNKNOWN_SLOTS];

void personality_unknown_syscall(uint64_t nr)
{
	STAT_INC(syscalls_unknown);
	personality_unknown_counts[nr < PERSONALITY_UNKNOWN_SLOTS - 1 ? nr
	                                                              : PERSONALITY_UNKNOWN_SLOTS - 1]++;
}
