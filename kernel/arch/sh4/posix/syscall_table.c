/*
 * The SH-4 port's system-call table for the Linux personality: SH Linux's
 * numbers (arch/sh's syscall table, which keeps i386's for these) of the
 * few Linux calls the SH-4 test programs make (write to the console, exit,
 * wait4, kill, yield, the clock); the full table comes with the Linux
 * personality on SH-4 (docs/sh4.md). And the rest of what
 * kernel/personality.h asks of the port's side.
 */
#include <kernel/personality.h>
#include <posix/syscall.h>

const syscall_fn personality_calls[] = {
	[1] = sys_exit,
	[3] = sys_read,
	[4] = sys_write,
	[6] = sys_close,
	[20] = sys_getpid,
	[37] = sys_kill,
	[91] = sys_munmap,
	[114] = sys_wait4,
	[122] = sys_uname,
	[145] = sys_readv,
	[146] = sys_writev,
	[158] = sys_sched_yield,
	[162] = sys_nanosleep,
	[174] = sys_rt_sigaction,
	[186] = sys_sigaltstack,
	[252] = sys_exit_group,
	[265] = sys_clock_gettime,
};

const uint64_t personality_call_count = ARRAY_SIZE(personality_calls);

syscall_fn personality_syscall(uint64_t nr)
{
	(void)nr;
	return NULL;
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
