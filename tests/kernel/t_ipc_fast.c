/*
 * t_ipc_fast: the IPC fast path (kernel/ipc_fast.c; docs/ipc.md, "Fast
 * path") and its bail-outs, with ipc_server serve on coreid 110 and a
 * forward chain 111 -> 112.
 *   - A plain callsync to a server waiting in get goes through it both ways
 *     when it is on (kstats.ipc_fast_on): ipc_fast_calls and
 *     ipc_fast_returns rise by exactly one per call; with it off (kernel
 *     option ipc_fast=off, make test-slowpath) neither moves. Either way the
 *     result is the server's, and a data ICA (one or two) goes and comes
 *     back changed.
 *   - Each bail-out this program can bring about takes the slow path and
 *     still gives the right result: three data ICAs (more than a fast call
 *     carries; the return still goes fast), a server busy with another caller (no thread in get), a
 *     second stage (the chain's forward is not a first-stage call) and
 *     direct return, a malformed header, a data ICA that is not ours, a
 *     target without the right to call it. None of those moves a fast
 *     counter on the caller's side.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_ipc_fast"
#include "test_check.h"
#include "ipc_test.h"

#include <string.h>

#define SERVE 110u
#define CHAIN1 111u
#define CHAIN2 112u
#define CALLS 50
#define TEXT "fast path"

static uint32_t ctl;
static struct myrmex_ctl_header *h;
static struct myrmex_kstats before;

static void snap(void)
{
	CHECK(myrmex_kstats(&before) >= 0, "kstats");
}

/* The fast calls and returns since snap(). */
static void fast_since(uint64_t *calls, uint64_t *returns)
{
	struct myrmex_kstats now;
	myrmex_kstats(&now);
	*calls = now.ipc_fast_calls - before.ipc_fast_calls;
	*returns = now.ipc_fast_returns - before.ipc_fast_returns;
}

static long call(unsigned coreid, uint32_t op, uint64_t arg0, const uint32_t *data, uint32_t n)
{
	myrmex_ctl_init(h);
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, coreid, op);
	f->arg[0] = arg0;
	f->ndata = n;
	for (uint32_t i = 0; i < n; i++)
		f->data[i] = data[i];
	return myrmex_callsync(h);
}

static int64_t result_status(void)
{
	struct myrmex_frame *r = myrmex_ctl_result(h);
	return r ? r->status : -9999;
}

/* Plain calls: through the fast path when it is on, and right either way. */
static void check_plain(int on)
{
	snap();
	for (int i = 0; i < CALLS; i++) {
		CHECK_EQ(call(SERVE, IPC_OP_NOP, (uint64_t)i, NULL, 0), 0);
		CHECK_EQ(result_status(), i + 1);
		CHECK_EQ(h->kind, MYRMEX_DELIVERY_RESULT);
		CHECK_EQ(h->currentp, 0);
	}
	uint64_t calls, returns;
	fast_since(&calls, &returns);
	CHECK_EQ(calls, on ? CALLS : 0);
	CHECK_EQ(returns, on ? CALLS : 0);
}

/* n data ICAs upper-cased by the server and handed back at their places. */
static void check_data(uint32_t n, uint64_t fast_calls, uint64_t fast_returns)
{
	uint32_t data[4];
	for (uint32_t i = 0; i < n; i++) {
		long d = myrmex_ica_alloc(1);
		CHECK(d >= 0, "ica_alloc: %ld", d);
		data[i] = (uint32_t)d;
		strcpy(myrmex_ica_addr(data[i]), TEXT);
	}
	snap();
	CHECK_EQ(call(SERVE, IPC_OP_UPPER, sizeof(TEXT), data, n), 0);
	CHECK_EQ(result_status(), (int64_t)sizeof(TEXT));
	uint64_t calls, returns;
	fast_since(&calls, &returns);
	CHECK_EQ(calls, fast_calls);
	CHECK_EQ(returns, fast_returns);
	for (uint32_t i = 0; i < n; i++) {
		CHECK(strcmp(myrmex_ica_addr(data[i]), "FAST PATH") == 0, "data ICA %u: '%s'", i,
		      (char *)myrmex_ica_addr(data[i]));
		CHECK_EQ(myrmex_ica_free(data[i]), 0);
	}
}

/* A server busy with another process's call: ours waits in its queue. */
static void check_busy(void)
{
	char id[16];
	snprintf(id, sizeof id, "%u", SERVE);
	const char *args[] = { "caller", id, "5", "sync", "300", NULL };   /* IPC_OP_SLEEP 300 ms */
	struct myrmex_kstats start, now;
	myrmex_kstats(&start);
	long pid = ipc_spawn_server_argv(args, 0);
	CHECK(pid > 0, "spawn caller: %ld", pid);
	/* Until the other call has reached the server. */
	for (int i = 0; i < 2000; i++) {
		myrmex_kstats(&now);
		if (now.ipc_calls > start.ipc_calls)
			break;
		myrmex_sleep_ns(IPC_MS);
	}
	CHECK_EQ(call(SERVE, IPC_OP_NOP, 41, NULL, 0), 0);
	CHECK_EQ(result_status(), 42);
	CHECK_EQ(WEXITSTATUS(ipc_reap(pid)), 0);
}

/* Stages after the first and direct return take the slow path. */
static void check_chain(void)
{
	for (int direct = 0; direct < 2; direct++) {
		myrmex_ctl_init(h);
		if (direct)
			h->flags |= MYRMEX_CTL_DIRECT_RETURN;
		struct myrmex_frame *f = myrmex_ctl_push(h, 1, CHAIN1, direct ? IPC_FWD_ASYNC : IPC_FWD_SYNC);
		f->arg[0] = 0;
		f->arg[3] = 0;
		snap();
		CHECK_EQ(myrmex_callsync(h), 0);
		CHECK_EQ(result_status(), direct ? 1 : 2);
		uint64_t calls, returns;
		fast_since(&calls, &returns);
		CHECK(direct || calls <= 1, "only the first stage may go fast: %llu", (unsigned long long)calls);
	}
}

/* Refusals: the slow path's errors, nothing moved. */
static void check_refusals(void)
{
	/* A malformed header. */
	myrmex_ctl_init(h);
	myrmex_ctl_push(h, 1, SERVE, IPC_OP_NOP);
	uint32_t saved = h->currentp;
	h->currentp = 3;
	CHECK_EQ(myrmex_callsync(h), -EINVAL);
	h->currentp = saved;
	/* A data ICA that is not ours (a forged handle). */
	uint32_t forged = 0x3ffu | (77u << MYRMEX_ICA_GEN_SHIFT);
	CHECK_EQ(call(SERVE, IPC_OP_NOP, 0, &forged, 1), -EINVAL);
	/* The control ICA is still ours and idle: a good call works. */
	CHECK_EQ(call(SERVE, IPC_OP_NOP, 6, NULL, 0), 0);
	CHECK_EQ(result_status(), 7);
	/* Without the right to call SERVE (kept last: rights only narrow). */
	struct myrmex_rights keep = { { 0 } }, now;
	myrmex_rights_add(&keep, CHAIN1);
	CHECK_EQ(myrmex_rights(&keep, &now), 0);
	struct myrmex_kstats start, end;
	myrmex_kstats(&start);
	CHECK_EQ(call(SERVE, IPC_OP_NOP, 0, NULL, 0), -EPERM);
	myrmex_kstats(&end);
	CHECK_EQ(end.ipc_refused - start.ipc_refused, 1);
	CHECK_EQ(end.ipc_fast_calls - start.ipc_fast_calls, 0);
}

int main(void)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	struct myrmex_kstats k;
	CHECK(myrmex_kstats(&k) >= 0, "kstats");
	int on = k.ipc_fast_on != 0;
	test_note("the fast path is %s", on ? "on" : "off (ipc_fast=off)");
	char next[16];
	snprintf(next, sizeof next, "%u", CHAIN2);
	long pids[3] = { ipc_start("serve", SERVE, "1"), ipc_start("forward", CHAIN1, next),
	                 ipc_start("forward", CHAIN2, "0") };
	h = ipc_new_ctl(&ctl);
	if (pids[0] > 0 && pids[1] > 0 && pids[2] > 0 && h && ipc_wait_ready(SERVE) == 0 &&
	    ipc_wait_ready(CHAIN1) == 0 && ipc_wait_ready(CHAIN2) == 0) {
		check_plain(on);
		check_data(1, on, on);
		check_data(2, on, on);
		/* More than FAST_MAX_DATA: the call bails; the return, which
		 * carries any number, does not. */
		check_data(3, 0, on);
		check_busy();
		check_chain();
		check_refusals();
		CHECK_EQ(myrmex_ica_free(ctl), 0);
	}
	for (int i = 0; i < 3; i++)
		ipc_stop(pids[i]);
	return test_exit_code();
}
