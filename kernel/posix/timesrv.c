/*
 * Requests to the time server on behalf of the calling thread (see
 * posix/timesrv.h): one synchronous call each through the thread's kernel
 * channel, no data ICA, the answer in the result frame's arg[].
 */
#include <posix/timesrv.h>
#include <kernel/errno.h>
#include <posix/forward.h>
#include <kernel/ica.h>
#include <kernel/ipc.h>
#include <kernel/proc.h>
#include <myrmex/time.h>

#define NS_PER_S 1000000000ull

bool timesrv_serves(void)
{
	return current_thread()->proc->posix && posix_server(SERVICE_TIME);
}

int timesrv_read(uint32_t opcode, uint32_t clock, uint64_t *ns)
{
	struct fwd f;
	int err = forward_begin(&f, SERVICE_TIME, opcode, 0);
	if (err)
		return err;
	f.arg[0] = clock;
	long r = forward_call(&f);
	if (r < 0)
		return (int)r;
	/* A server that answers nonsense is not believed. */
	if (f.res[1] >= NS_PER_S || f.res[0] > UINT64_MAX / NS_PER_S - 1)
		return -EIO;
	*ns = f.res[0] * NS_PER_S + f.res[1];
	return 0;
}

long timesrv_set(uint64_t ns)
{
	struct fwd f;
	int err = forward_begin(&f, SERVICE_TIME, TIME_SET, 0);
	if (err)
		return err;
	f.arg[0] = ns / NS_PER_S;
	f.arg[1] = ns % NS_PER_S;
	return forward_call(&f);
}

long timesrv_sleep(uint32_t clock, uint32_t flags, uint64_t ns)
{
	struct fwd f;
	int err = forward_begin(&f, SERVICE_TIME, TIME_SLEEP, 0);
	if (err)
		return err;
	/* The control ICA this call goes out with: a signal leaves it with the
	 * server (the thread gets a new one), and the cancel names it. */
	uint32_t handle = f.ctl->handle;
	f.arg[0] = clock;
	f.arg[1] = flags;
	f.arg[2] = ns / NS_PER_S;
	f.arg[3] = ns % NS_PER_S;
	long r = forward_call(&f);
	if (r == -EINTR) {
		struct process *p = current_thread()->proc;
		forward_notify(p, SERVICE_TIME, TIME_CANCEL, handle);
	}
	return r;
}
