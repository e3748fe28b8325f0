/*
 * Shared by the IPC test programs (t_ipc_*.c) and their server module
 * ipc_server.c: the server's modes and opcodes, and helpers to start a
 * server with the server right, wait until it has registered, make a
 * control ICA with one frame, and stop and reap a server. Header only;
 * include test_check.h first.
 *
 * ipc_server <mode> <coreid> [more]:
 *   serve <coreid> [threads]     the opcodes below, on 1..8 threads in get
 *   forward <coreid> <next>      a stage of a chain: IPC_FWD_* calls go on to
 *                                coreid next (0: this is the last stage)
 *   recurse <coreid>             IPC_OP_RECURSE calls itself until refused
 *   noget <coreid>               registers, then never calls get
 *   hog <coreid>                 commits anonymous memory 1 MiB at a time until
 *                                refused, then serves (IPC_OP_HOG)
 *   regcheck <coreid> <errno>    exits 0 iff registserver gives -errno (0: 0)
 *   spawncheck <coreid> <errno>  exits 0 iff spawning "regcheck <coreid> 0"
 *                                with MYRMEX_SPAWN_SERVER gives -errno
 *                                (0: it worked and the child exited 0)
 *   caller <coreid> <op> <sync|async> <arg0>
 *                                one call, then exits 0 (sync: when the
 *                                result is back; async: at once)
 *   flood <coreid> <n>           n callasync NOPs; exits with the number
 *                                refused
 */
#ifndef IPC_TEST_H
#define IPC_TEST_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>

/* Opcodes of serve mode (the low byte; IPC_OP_USE_RET or-ed in makes the
 * server return with ret() instead of get(p)). */
#define IPC_OP_NOP     1u   /* status arg0+1; arg1 pid, arg2 tid, arg3 delivery requester,
                               arg4 delivery ndata, arg5 header kind, arg6 frame requester;
                               returns the data ICAs unchanged */
#define IPC_OP_UPPER   2u   /* upper-cases arg0 bytes of each data ICA; status arg0; returns them */
#define IPC_OP_KEEP    3u   /* keeps the data ICAs; status = how many; arg1..4 their handles */
#define IPC_OP_SWAP    4u   /* frees the data ICAs, returns a new 1-page ICA holding
                               IPC_SWAP_TEXT; arg1 its handle */
#define IPC_OP_SLEEP   5u   /* sleeps arg0 ms; arg2 tid; returns the data ICAs */
#define IPC_OP_HOLD    6u   /* never returns (sleeps forever holding the request) */
#define IPC_OP_FAULT   7u   /* writes to address 0 while holding the request */
#define IPC_OP_STATS   8u   /* arg0 last return result, arg1 requests handled, arg2
                               returns refused, arg3 forwards cancelled, arg4 results seen */
#define IPC_OP_RECURSE 9u   /* recurse mode: arg1 = depth reached; status = first refusal */
#define IPC_OP_HOG     10u  /* hog mode: status = MiB committed; arg0 1: touch them all first */
#define IPC_OP_CLAIM   11u  /* claims the control ICA, sleeps arg0 ms; status = claim's result,
                               arg1 = a second claim's; returns the data ICAs */
#define IPC_OP_FILL_SLEEP 12u  /* writes its result (status 0, the data ICAs) first, then
                                  sleeps arg0 ms before returning: a window in which the
                                  caller's other threads may rewrite the frame */
/* Forward mode (arg0 bytes of each data ICA are upper-cased by the last
 * stage, which first sleeps arg3 ms; both travel along the chain): */
#define IPC_FWD_SYNC   20u  /* pass on with callsync, return after */
#define IPC_FWD_ASYNC  21u  /* pass on with callasync; hand the result back when it comes */
#define IPC_FWD_SYNC_SETDIRECT 22u /* like FWD_SYNC; the last stage sets DIRECT_RETURN */
#define IPC_OP_MASK    0xffu
#define IPC_OP_USE_RET 0x100u

/* Forward results: status = stages passed (the last gives 1, each earlier
 * one adds 1 to a positive status), arg1 = the same count kept in arg,
 * arg2 = what the stage saw after its forward came back (IPC_SAW_*). */
#define IPC_SAW_CURRENT 1u  /* currentp was its own frame */
#define IPC_SAW_RESULT  2u  /* resultp was the frame it had pushed */
#define IPC_SAW_KIND    4u  /* the header's kind was RESULT */
#define IPC_SAW_ALL     7u

#define IPC_SWAP_TEXT "swapped by the server"

#define IPC_MS 1000000ULL

static char *const ipc_envp[] = { "MYRMEX_TEST=1", NULL };

/* Spawns "ipc_server <args...>" with the server right at the caller's
 * priority; returns the pid or -errno. argv[0] is filled in. */
static inline long ipc_spawn_server_argv(const char **args, unsigned flags)
{
	char *argv[8];
	int n = 0;
	argv[n++] = "ipc_server";
	for (int i = 0; args[i] && n < 7; i++)
		argv[n++] = (char *)args[i];
	argv[n] = NULL;
	return myrmex_spawn_flags("ipc_server", argv, ipc_envp, -1, flags);
}

/* "ipc_server <mode> <coreid> [extra]" with the right; pid or -errno. */
static inline long ipc_start(const char *mode, unsigned coreid, const char *extra)
{
	char id[16];
	snprintf(id, sizeof id, "%u", coreid);
	const char *args[] = { mode, id, extra, NULL };
	long pid = ipc_spawn_server_argv(args, MYRMEX_SPAWN_SERVER);
	if (pid <= 0)
		test_fail("spawn ipc_server %s %u: %ld", mode, coreid, pid);
	return pid;
}

/* A fresh one-page control ICA; its handle in *handle. NULL on failure. */
static inline struct myrmex_ctl_header *ipc_new_ctl(uint32_t *handle)
{
	long h = myrmex_ica_alloc(1);
	if (h < 0) {
		test_fail("ica_alloc(1) for a control ICA: %ld", h);
		return NULL;
	}
	*handle = (uint32_t)h;
	return myrmex_ctl_init(myrmex_ica_addr((uint32_t)h));
}

/* Calls (sync or async) until the server is registered: -ESRCH means not
 * yet. Returns the call's result. */
static inline long ipc_call_when_ready(struct myrmex_ctl_header *h, int sync)
{
	long r = -ESRCH;
	for (int tries = 0; tries < 5000 && r == -ESRCH; tries++) {
		r = sync ? myrmex_callsync(h) : myrmex_callasync(h);
		if (r == -ESRCH)
			myrmex_sleep_ns(IPC_MS);
	}
	return r;
}

/* Waits until the server on coreid answers a NOP (it must call get). */
static inline int ipc_wait_ready(unsigned coreid)
{
	uint32_t handle;
	struct myrmex_ctl_header *h = ipc_new_ctl(&handle);
	if (!h)
		return -1;
	myrmex_ctl_push(h, 1, coreid, IPC_OP_NOP);
	long r = ipc_call_when_ready(h, 1);
	struct myrmex_frame *res = myrmex_ctl_result(h);
	int ok = r == 0 && res && res->status == 1;
	if (!ok)
		test_fail("server %u not ready: callsync %ld, status %lld", coreid, r,
		          res ? (long long)res->status : 0LL);
	myrmex_ica_free(handle);
	return ok ? 0 : -1;
}

/* Kills a server with SIGKILL and reaps it; returns its wait status. */
static inline int ipc_stop(long pid)
{
	int status = 0;
	if (pid <= 0)
		return -1;
	myrmex_syscall6(SYS_kill, pid, SIGKILL, 0, 0, 0, 0);
	long r = myrmex_syscall6(SYS_wait4, pid, (long)&status, 0, 0, 0, 0);
	if (r != pid)
		test_fail("wait4(%ld) for a server: %ld", pid, r);
	return status;
}

/* Reaps a process that ends by itself; returns its wait status. */
static inline int ipc_reap(long pid)
{
	int status = 0;
	long r = myrmex_syscall6(SYS_wait4, pid, (long)&status, 0, 0, 0, 0);
	if (r != pid)
		test_fail("wait4(%ld): %ld", pid, r);
	return status;
}

#endif
