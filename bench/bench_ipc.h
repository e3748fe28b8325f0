/*
 * Shared by the IPC benchmarks and their server (bench_ipcsrv): the server's
 * protocol, and starting, waiting for and stopping servers outside every
 * timed region. Header only.
 *
 * bench_ipcsrv <coreid> [next]: serves coreid at its spawner's priority.
 * Every request is answered with its data ICAs handed back (status 0).
 * The frame's arg[7] receives the server's TSC just after its get()
 * returned the request, arg[6] its TSC just before the get(p) that returns
 * the result. With next > 0 and arg[0] > 1 it is a stage of a chain: it
 * pushes a frame for coreid next with arg[0] - 1 and passes the call on,
 * with callasync when the header asks for direct return (and then does not
 * see the result), else with callsync, returning after.
 */
#ifndef BENCH_IPC_H
#define BENCH_IPC_H

#include "bench.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>

#define BENCH_IPC_OP      1u
#define BENCH_IPC_T_GOT   7    /* arg index: server TSC after get returned */
#define BENCH_IPC_T_RET   6    /* arg index: server TSC before get(p) */
#define BENCH_IPC_MS      1000000ULL

/* Spawns bench_ipcsrv for coreid (next: 0 = none) with the server right,
 * at the caller's priority (-1). Returns the pid or -errno. */
static inline long bench_ipc_start(unsigned coreid, unsigned next)
{
	char id[16], nx[16];
	snprintf(id, sizeof id, "%u", coreid);
	snprintf(nx, sizeof nx, "%u", next);
	char *argv[] = { "bench_ipcsrv", id, nx, NULL };
	char *envp[] = { NULL };
	return myrmex_spawn_flags("bench_ipcsrv", argv, envp, -1, MYRMEX_SPAWN_SERVER);
}

/* Calls coreid with callsync until it has registered and answered
 * (about 5 s at most). Returns 0 or the last error. */
static inline long bench_ipc_wait(unsigned coreid)
{
	long h = myrmex_ica_alloc(1);
	if (h < 0)
		return h;
	struct myrmex_ctl_header *c = myrmex_ctl_init(myrmex_ica_addr((uint32_t)h));
	long r = -ESRCH;
	for (int tries = 0; tries < 5000 && r == -ESRCH; tries++) {
		myrmex_ctl_init(c);
		myrmex_ctl_push(c, 1, coreid, BENCH_IPC_OP);
		r = myrmex_callsync(c);
		if (r == -ESRCH)
			myrmex_sleep_ns(BENCH_IPC_MS);
	}
	myrmex_ica_free((uint32_t)h);
	return r;
}

/* Kills and reaps a server. */
static inline void bench_ipc_stop(long pid)
{
	int status;
	if (pid <= 0)
		return;
	myrmex_syscall6(SYS_kill, pid, SIGKILL, 0, 0, 0, 0);
	myrmex_syscall6(SYS_wait4, pid, (long)&status, 0, 0, 0, 0);
}

/* The setup of a client benchmark: bench_ipcsrv started for coreid and
 * answering, a one-page control ICA (initialised, in *h) and a one-page data
 * ICA (*data). Returns the server's pid, or 0 after reporting the failure
 * (the server, if any, stopped). */
static inline long bench_ipc_setup(const char *prog, unsigned coreid,
                                   struct myrmex_ctl_header **h, uint32_t *data)
{
	long pid = bench_ipc_start(coreid, 0);
	long ctl = myrmex_ica_alloc(1), d = myrmex_ica_alloc(1);
	long ready = pid > 0 ? bench_ipc_wait(coreid) : pid;
	if (ready != 0 || ctl < 0 || d < 0) {
		bench_fail(prog, "setup", ready ? ready : ctl < 0 ? ctl : d);
		bench_ipc_stop(pid);
		return 0;
	}
	*h = myrmex_ctl_init(myrmex_ica_addr((uint32_t)ctl));
	*data = (uint32_t)d;
	return pid;
}

#endif
