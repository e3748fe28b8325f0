/*
 * Wrappers for the native Myrmex system calls (numbers MYRMEX_SYS_BASE and
 * up, contracts in include/myrmex/syscall.h) and the check for whether the
 * program runs on Myrmex at all. On Linux every native call gives -ENOSYS.
 */
#include "myrmex.h"

#include <errno.h>

/* spawn's argv and envp are vectors of 64-bit words on every port
 * (kernel/core/sys_native.c): a program with narrower pointers copies
 * them, widened, into these (the kernel's limit of entries, and the NULL). */
#define SPAWN_MAX_ARGS 128

struct wide_vector {
	uint64_t word[SPAWN_MAX_ARGS + 1];
};

/* v as the kernel reads it: v itself when pointers are 64 bits wide, else
 * its widened copy in *w; NULL stays NULL. -E2BIG (in *err) past the limit. */
static long widen(char *const v[], struct wide_vector *w, long *err)
{
	if (sizeof(char *) == sizeof(uint64_t) || !v)
		return (long)v;
	for (unsigned i = 0;; i++) {
		if (i > SPAWN_MAX_ARGS) {
			*err = -E2BIG;
			return 0;
		}
		w->word[i] = (uintptr_t)v[i];
		if (!v[i])
			return (long)w->word;
	}
}

static long spawn_call(const char *module, char *const argv[], char *const envp[], int prio,
                       unsigned flags, const struct myrmex_rights *rights)
{
	struct wide_vector wargv, wenvp;
	long err = 0;
	long a = widen(argv, &wargv, &err);
	long e = widen(envp, &wenvp, &err);
	if (err)
		return err;
	return myrmex_syscall6(MYRMEX_SYS_SPAWN, (long)module, a, e, prio, (long)flags,
	                       (long)rights);
}

long myrmex_spawn_flags(const char *module, char *const argv[], char *const envp[], int prio,
                        unsigned flags)
{
	return spawn_call(module, argv, envp, prio, flags, NULL);
}

long myrmex_spawn_rights(const char *module, char *const argv[], char *const envp[], int prio,
                         unsigned flags, const struct myrmex_rights *rights)
{
	return spawn_call(module, argv, envp, prio, flags | MYRMEX_SPAWN_RIGHTS, rights);
}

long myrmex_rights(const struct myrmex_rights *keep, struct myrmex_rights *out)
{
	return myrmex_syscall6(MYRMEX_SYS_RIGHTS, (long)keep, (long)out, 0, 0, 0, 0);
}

long myrmex_module_read(const char *name, uint64_t offset, void *buf, uint64_t size)
{
	return myrmex_syscall6(MYRMEX_SYS_MODULE_READ, (long)name, (long)offset, (long)buf,
	                       (long)size, 0, 0);
}

long myrmex_spawn(const char *module, char *const argv[], char *const envp[], int prio)
{
	return myrmex_spawn_flags(module, argv, envp, prio, 0);
}

long myrmex_server_pid(unsigned coreid)
{
	return myrmex_syscall6(MYRMEX_SYS_SERVER_PID, coreid, 0, 0, 0, 0, 0);
}

long myrmex_proc_fork(int tid, uint64_t sp)
{
	return myrmex_syscall6(MYRMEX_SYS_PROC_FORK, tid, (long)sp, 0, 0, 0, 0);
}

long myrmex_proc_start(int pid, int discard)
{
	return myrmex_syscall6(MYRMEX_SYS_PROC_START, pid, discard, 0, 0, 0, 0);
}

long myrmex_proc_exec(int tid, const struct myrmex_exec *how)
{
	return myrmex_syscall6(MYRMEX_SYS_PROC_EXEC, tid, (long)how, 0, 0, 0, 0);
}

long myrmex_kstats(struct myrmex_kstats *out)
{
	return myrmex_syscall6(MYRMEX_SYS_KSTATS, (long)out,
	                       (long)sizeof(struct myrmex_kstats), 0, 0, 0, 0);
}

long myrmex_poweroff(int code)
{
	return myrmex_syscall6(MYRMEX_SYS_POWEROFF, code, 0, 0, 0, 0, 0);
}

long myrmex_setprio(int tid, int prio)
{
	return myrmex_syscall6(MYRMEX_SYS_SETPRIO, tid, prio, 0, 0, 0, 0);
}

int myrmex_is_native(void)
{
	struct myrmex_kstats stats;

	return myrmex_kstats(&stats) >= 0;
}
