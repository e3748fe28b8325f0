/*
 * t_ipc_death: a server that dies never leaves its callers hanging.
 *   fault: the server (coreid 117) faults while handling an async request:
 *     it comes back through get() as a RESULT with status -EPIPE, and the
 *     coreid is free (-ESRCH). Then a new server faults while handling a
 *     sync request (made by a second thread) with an async request queued
 *     behind it: callsync returns -EPIPE, the control ICA is idle and ours
 *     again (frame popped), the queued request comes back with -EPIPE and
 *     its data ICA; the servers were killed by SIGSEGV.
 *   kill: the server (coreid 118) holds an async request forever; two more
 *     async requests and a sync one (from a second thread) wait in its
 *     queue; SIGKILL: the sync caller gets -EPIPE with its data ICA back,
 *     and get() returns the three async calls with -EPIPE.
 * Every data ICA comes back with its -EPIPE, queued or already taken by the
 * server (the kernel hands back what the request lent it, contents intact).
 */
#define _GNU_SOURCE
#define TEST_NAME "t_ipc_death"
#include "test_check.h"
#include "ipc_test.h"

#define FAULT_COREID 117u
#define KILL_COREID 118u

struct call {
	uint32_t ctl, data;
	struct myrmex_ctl_header *h;
};

/* Prepares a call to coreid with op and one data ICA. */
static int prepare(struct call *c, uint32_t coreid, uint32_t op)
{
	c->h = ipc_new_ctl(&c->ctl);
	long d = myrmex_ica_alloc(1);
	if (!c->h || d < 0)
		return -1;
	c->data = (uint32_t)d;
	strcpy(myrmex_ica_addr(c->data), "still mine");
	struct myrmex_frame *f = myrmex_ctl_push(c->h, 1, coreid, op);
	f->ndata = 1;
	f->data[0] = c->data;
	return 0;
}

/* get() one result: must be one of calls[0..n) not seen yet, with -EPIPE
 * and its data ICA. */
static void expect_epipe(struct call *calls, int n, int *seen)
{
	struct myrmex_delivery dl;
	long got = myrmex_get(NULL, &dl);
	for (int i = 0; i < n; i++) {
		if (got != (long)(uintptr_t)calls[i].h)
			continue;
		CHECK(!seen[i], "call %d came back twice", i);
		seen[i] = 1;
		CHECK(dl.kind == MYRMEX_DELIVERY_RESULT && dl.status == -EPIPE,
		      "call %d: kind %u status %lld", i, dl.kind, (long long)dl.status);
		CHECK(calls[i].h->currentp == 0 && calls[i].h->resultp == 32,
		      "call %d: currentp %u resultp %u", i, calls[i].h->currentp, calls[i].h->resultp);
		CHECK(dl.ndata == 1 && dl.data[0] == calls[i].data, "call %d: data %u", i, dl.ndata);
		if (dl.ndata == 1)
			CHECK(strcmp(myrmex_ica_addr(calls[i].data), "still mine") == 0,
			      "call %d: data contents", i);
		return;
	}
	test_fail("get: %ld, not one of the calls", got);
}

static void release(struct call *c)
{
	CHECK_EQ(myrmex_ica_free(c->data), 0);
	CHECK_EQ(myrmex_ica_free(c->ctl), 0);
}

static struct call sync_call;
static volatile long sync_result = 1;

static void sync_caller(void *arg)
{
	(void)arg;
	sync_result = myrmex_callsync(sync_call.h);
}

/* Runs a sync call in a second thread, so that more can be queued behind it. */
static void start_sync(struct myrmex_thread *t)
{
	sync_result = 1;
	long r = myrmex_thread_create(t, sync_caller, NULL, 0);
	if (r < 0)
		test_fail("thread_create: %ld", r);
	myrmex_sleep_ns(20 * IPC_MS);   /* the thread waits in callsync */
	CHECK(sync_result == 1, "callsync returned early: %ld", sync_result);
}

static void check_fault(void)
{
	/* An async request the server faults on. */
	long server = ipc_start("serve", FAULT_COREID, NULL);
	if (server <= 0 || ipc_wait_ready(FAULT_COREID) != 0) {
		ipc_stop(server);
		return;
	}
	struct call faulting, sleeper, queued;
	if (prepare(&faulting, FAULT_COREID, IPC_OP_FAULT))
		return;
	CHECK_EQ(myrmex_callasync(faulting.h), 0);
	int status = ipc_reap(server);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "server status %#x", status);
	int seen[2] = { 0 };
	expect_epipe(&faulting, 1, seen);
	/* The coreid of a dead server: -ESRCH, nothing moved. */
	myrmex_ctl_push(faulting.h, 1, FAULT_COREID, IPC_OP_NOP);
	CHECK_EQ(myrmex_callsync(faulting.h), -ESRCH);
	release(&faulting);

	/* A sync request the server faults on, with an async one queued behind
	 * it; a sleeping request first keeps the server busy while they queue. */
	server = ipc_start("serve", FAULT_COREID, NULL);
	if (server <= 0 || ipc_wait_ready(FAULT_COREID) != 0) {
		ipc_stop(server);
		return;
	}
	if (prepare(&sleeper, FAULT_COREID, IPC_OP_SLEEP) ||
	    prepare(&queued, FAULT_COREID, IPC_OP_NOP) ||
	    prepare(&sync_call, FAULT_COREID, IPC_OP_FAULT))
		return;
	myrmex_ctl_top(sleeper.h)->arg[0] = 100;
	CHECK_EQ(myrmex_callasync(sleeper.h), 0);
	struct myrmex_thread t;
	start_sync(&t);
	CHECK_EQ(myrmex_callasync(queued.h), 0);
	myrmex_thread_join(&t);
	CHECK_EQ(sync_result, -EPIPE);
	CHECK(sync_call.h->currentp == 0 && sync_call.h->resultp == 32,
	      "sync after -EPIPE: currentp %u resultp %u", sync_call.h->currentp,
	      sync_call.h->resultp);
	status = ipc_reap(server);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "server status %#x", status);
	/* The sleeper was served; the queued NOP died with the server. */
	struct myrmex_delivery dl;
	long got = myrmex_get(NULL, &dl);
	CHECK(got == (long)(uintptr_t)sleeper.h && dl.status == 0 && dl.ndata == 1,
	      "the sleeper: get %#lx status %lld", got, (long long)dl.status);
	expect_epipe(&queued, 1, seen + 1);
	release(&sleeper);
	release(&queued);
	release(&sync_call);
}

static void check_kill(void)
{
	long server = ipc_start("serve", KILL_COREID, NULL);
	if (server <= 0 || ipc_wait_ready(KILL_COREID) != 0) {
		ipc_stop(server);
		return;
	}
	struct call calls[3];
	if (prepare(&calls[0], KILL_COREID, IPC_OP_HOLD) ||
	    prepare(&calls[1], KILL_COREID, IPC_OP_NOP) ||
	    prepare(&calls[2], KILL_COREID, IPC_OP_NOP) ||
	    prepare(&sync_call, KILL_COREID, IPC_OP_NOP))
		return;
	CHECK_EQ(myrmex_callasync(calls[0].h), 0);
	myrmex_sleep_ns(20 * IPC_MS);   /* the server takes it and holds it */
	CHECK_EQ(myrmex_callasync(calls[1].h), 0);
	CHECK_EQ(myrmex_callasync(calls[2].h), 0);
	struct myrmex_thread t;
	start_sync(&t);
	int status = ipc_stop(server);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "server status %#x", status);
	myrmex_thread_join(&t);
	CHECK_EQ(sync_result, -EPIPE);
	CHECK(sync_call.h->currentp == 0, "sync after -EPIPE: currentp %u", sync_call.h->currentp);
	CHECK(strcmp(myrmex_ica_addr(sync_call.data), "still mine") == 0,
	      "the queued sync call's data ICA did not come back");
	int seen[3] = { 0 };
	for (int k = 0; k < 3; k++)
		expect_epipe(calls, 3, seen);
	CHECK(seen[0] && seen[1] && seen[2], "not every async call came back");
	for (int i = 0; i < 3; i++)
		release(&calls[i]);
	release(&sync_call);
}

int main(void)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	check_fault();
	check_kill();
	return test_exit_code();
}
