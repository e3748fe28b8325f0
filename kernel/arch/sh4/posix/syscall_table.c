/*
 * The SH-4 port's system-call table for the Linux personality: SH Linux's
 * numbers (arch/sh's syscall table; musl's <bits/syscall.h> for SH) to the
 * handlers of kernel/posix, the same handlers as x86-64's table. 32-bit
 * Linux's forms where they differ: the *32 uid calls, fcntl64, ugetrlimit,
 * _newselect, and the calls with 32-bit time (clock_gettime, futex...;
 * musl falls back to them when the time64 calls, 403 and up, are refused);
 * the calls that split 64-bit values, and mmap2, through sh_calls.c; the
 * old fcntl, fcntl64's lock commands, 16-bit chown, preadv/pwritev,
 * statfs64 and waitid's 32-bit siginfo through sh_forms.c. Not served: the
 * stat64 family (musl uses statx), sendfile64, the 16-bit getgroups and
 * setgroups, the time64 calls. And the rest of what kernel/personality.h asks of the
 * port's side.
 */
#include <kernel/personality.h>
#include <posix/syscall.h>
#include <arch/sh_calls.h>
#include <myrmex/fs.h>
#include <myrmex/omf.h>
#include <myrmex/vdso.h>
#include <posix/vdso.h>

const syscall_fn personality_calls[] = {
	[1] = sys_exit,
	[2] = sys_fork,
	[3] = sys_read,
	[4] = sys_write,
	[5] = sys_open,
	[6] = sys_close,
	[8] = sys_creat,
	[9] = sys_link,
	[10] = sys_unlink,
	[11] = sys_execve,
	[12] = sys_chdir,
	[15] = sys_chmod,
	[16] = sys_sh_lchown16, /* 16-bit ids */
	[19] = sys_sh_lseek, /* a signed 32-bit offset */
	[20] = sys_getpid,
	[27] = sys_alarm,
	[29] = sys_pause,
	[30] = sys_utime,
	[33] = sys_access,
	[36] = sys_sync,
	[37] = sys_kill,
	[38] = sys_rename,
	[39] = sys_mkdir,
	[40] = sys_rmdir,
	[41] = sys_dup,
	[42] = sys_sh_pipe, /* the descriptors in r0 and r1 */
	[43] = sys_times,
	[45] = sys_brk,
	[54] = sys_ioctl,
	[55] = sys_sh_fcntl, /* no lock commands (sh_forms.c) */
	[57] = sys_setpgid,
	[60] = sys_umask,
	[63] = sys_dup2,
	[64] = sys_getppid,
	[65] = sys_getpgrp,
	[66] = sys_setsid,
	[75] = sys_setrlimit,
	[77] = sys_getrusage,
	[78] = sys_gettimeofday,
	[79] = sys_settimeofday,
	[83] = sys_symlink,
	[85] = sys_readlink,
	[91] = sys_munmap,
	[92] = sys_sh_truncate, /* a signed 32-bit length */
	[93] = sys_sh_ftruncate,
	[94] = sys_fchmod,
	[96] = sys_getpriority,
	[97] = sys_setpriority,
	[99] = sys_statfs, /* the 32-bit struct statfs */
	[100] = sys_fstatfs,
	[104] = sys_setitimer,
	[105] = sys_getitimer,
	[106] = sys_stat,
	[107] = sys_lstat,
	[108] = sys_fstat,
	[114] = sys_wait4,
	[116] = sys_sysinfo,
	[118] = sys_fsync,
	[120] = sys_clone,
	[122] = sys_uname,
	[125] = sys_mprotect,
	[132] = sys_getpgid,
	[133] = sys_fchdir,
	[140] = sys_sh_llseek, /* _llseek */
	[142] = sys_select, /* _newselect */
	[144] = sys_msync,
	[145] = sys_readv,
	[146] = sys_writev,
	[147] = sys_getsid,
	[148] = sys_fsync, /* fdatasync */
	[158] = sys_sched_yield,
	[162] = sys_nanosleep,
	[163] = sys_mremap,
	[168] = sys_poll,
	[172] = sys_prctl,
	[173] = sys_rt_sigreturn,
	[174] = sys_rt_sigaction,
	[175] = sys_rt_sigprocmask,
	[176] = sys_rt_sigpending,
	[177] = sys_rt_sigtimedwait,
	[178] = sys_rt_sigqueueinfo,
	[179] = sys_rt_sigsuspend,
	[180] = sys_sh_pread64,
	[181] = sys_sh_pwrite64,
	[182] = sys_sh_chown16, /* 16-bit ids */
	[183] = sys_getcwd,
	[186] = sys_sigaltstack,
	[190] = sys_vfork,
	[191] = sys_getrlimit, /* ugetrlimit */
	[192] = sys_sh_mmap2,
	[193] = sys_sh_truncate64,
	[194] = sys_sh_ftruncate64,
	[198] = sys_lchown, /* lchown32 */
	[199] = sys_getuid, /* getuid32 */
	[200] = sys_getgid, /* getgid32 */
	[201] = sys_geteuid, /* geteuid32 */
	[202] = sys_getegid, /* getegid32 */
	[203] = sys_setreuid, /* setreuid32 */
	[204] = sys_setregid, /* setregid32 */
	[205] = sys_getgroups, /* getgroups32 */
	[206] = sys_setgroups, /* setgroups32 */
	[207] = sys_fchown, /* fchown32 */
	[208] = sys_setresuid, /* setresuid32 */
	[209] = sys_getresuid, /* getresuid32 */
	[210] = sys_setresgid, /* setresgid32 */
	[211] = sys_getresgid, /* getresgid32 */
	[212] = sys_chown, /* chown32 */
	[213] = sys_setuid, /* setuid32 */
	[214] = sys_setgid, /* setgid32 */
	[215] = sys_setfsuid, /* setfsuid32 */
	[216] = sys_setfsgid, /* setfsgid32 */
	[219] = sys_madvise,
	[220] = sys_getdents64,
	[221] = sys_sh_fcntl64, /* F_GETLK64..F_SETLKW64 */
	[143] = sys_flock,
	[224] = sys_gettid,
	[238] = sys_tkill,
	[240] = sys_futex,
	[242] = sys_sched_getaffinity,
	[252] = sys_exit_group,
	[254] = sys_epoll_create,
	[255] = sys_epoll_ctl,
	[256] = sys_epoll_wait,
	[258] = sys_set_tid_address,
	[264] = sys_clock_settime, /* clock_settime32 */
	[265] = sys_clock_gettime, /* clock_gettime32 */
	[266] = sys_clock_getres, /* clock_getres_time32 */
	[267] = sys_clock_nanosleep, /* clock_nanosleep_time32 */
	[268] = sys_sh_statfs64, /* (path, size, buf) */
	[269] = sys_sh_fstatfs64,
	[270] = sys_tgkill,
	[271] = sys_utimes,
	[284] = sys_sh_waitid, /* 32-bit siginfo */
	[295] = sys_openat,
	[296] = sys_mkdirat,
	[298] = sys_fchownat,
	[299] = sys_futimesat,
	[301] = sys_unlinkat,
	[302] = sys_renameat,
	[303] = sys_linkat,
	[304] = sys_symlinkat,
	[305] = sys_readlinkat,
	[306] = sys_fchmodat,
	[307] = sys_faccessat,
	[308] = sys_pselect6,
	[309] = sys_ppoll,
	[311] = sys_set_robust_list,
	[319] = sys_epoll_pwait,
	[320] = sys_utimensat,
	[321] = sys_signalfd,
	[322] = sys_timerfd_create,
	[323] = sys_eventfd,
	[325] = sys_timerfd_settime, /* timerfd_settime32 */
	[326] = sys_timerfd_gettime, /* timerfd_gettime32 */
	[327] = sys_signalfd4,
	[328] = sys_eventfd2,
	[329] = sys_epoll_create1,
	[330] = sys_dup3,
	[331] = sys_pipe2,
	[333] = sys_sh_preadv, /* the offset in two registers */
	[334] = sys_sh_pwritev,
	[335] = sys_rt_tgsigqueueinfo,
	[339] = sys_prlimit64,
	[340] = sys_socket,
	[341] = sys_bind,
	[342] = sys_connect,
	[343] = sys_listen,
	[344] = sys_accept,
	[345] = sys_getsockname,
	[346] = sys_getpeername,
	[349] = sys_sendto,
	[351] = sys_recvfrom,
	[352] = sys_shutdown,
	[353] = sys_setsockopt,
	[354] = sys_getsockopt,
	[355] = sys_sendmsg,
	[356] = sys_recvmsg,
	[358] = sys_accept4,
	[362] = sys_syncfs,
	[371] = sys_renameat2,
	[373] = sys_getrandom,
	[381] = sys_sh_preadv2,
	[382] = sys_sh_pwritev2,
	[383] = sys_statx,
	[439] = sys_faccessat2,
	[441] = sys_epoll_pwait2,
};

const uint64_t personality_call_count = ARRAY_SIZE(personality_calls);

/* The personality's native calls are the same on every port. */
syscall_fn personality_syscall(uint64_t nr)
{
	return posix_native_syscall(nr);
}

void personality_unknown_syscall(uint64_t nr)
{
	(void)nr;
}

const char *linux_syscall_name(uint64_t nr)
{
	(void)nr;
	return "?";
}
