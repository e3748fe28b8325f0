/*
 * t_ipc_stage_death: a middle stage of a chain dies while a later stage
 * works on the call. Chain (ipc_server forward): 126 -> 127 -> 128; the
 * last stage sleeps 200 ms, during which the middle one (127) is killed.
 * When the last stage returns, the result comes back to a stage that is
 * gone; the original caller must still get an answer (status -EPIPE, or
 * callsync -EPIPE), never hang. Both ways of forwarding: the middle stage
 * passed the call on with callasync (waiting in get), or with callsync
 * (blocked in the call): argument "async" or "sync". The caller waits in
 * a second thread; the main thread gives it 3 s.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_ipc_stage_death"
#include "test_check.h"
#include "ipc_test.h"

#define C1 126u
#define C2 127u
#define C3 128u
#define SLEEP_MS 200
#define PATIENCE_MS 3000

static struct myrmex_ctl_header *h;
static volatile long call_result;
static volatile int call_done;

static void caller(void *arg)
{
	(void)arg;
	call_result = myrmex_callsync(h);
	__atomic_store_n(&call_done, 1, __ATOMIC_RELEASE);
}

static void run(uint32_t op, const char *what)
{
	char n2[16], n3[16];
	snprintf(n2, sizeof n2, "%u", C2);
	snprintf(n3, sizeof n3, "%u", C3);
	long p1 = ipc_start("forward", C1, n2), p2 = ipc_start("forward", C2, n3),
	     p3 = ipc_start("forward", C3, "0");
	uint32_t ctl;
	h = ipc_new_ctl(&ctl);
	if (p1 <= 0 || p2 <= 0 || p3 <= 0 || !h || ipc_wait_ready(C1) || ipc_wait_ready(C2) ||
	    ipc_wait_ready(C3)) {
		ipc_stop(p1);
		ipc_stop(p2);
		ipc_stop(p3);
		return;
	}
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, C1, op);
	f->arg[3] = SLEEP_MS;
	call_done = 0;
	struct myrmex_thread t;
	if (myrmex_thread_create(&t, caller, NULL, 0) < 0) {
		test_fail("thread_create");
		return;
	}
	myrmex_sleep_ns(SLEEP_MS / 4 * IPC_MS);   /* the call is at the last stage now */
	ipc_stop(p2);
	int waited = 0;
	while (!__atomic_load_n(&call_done, __ATOMIC_ACQUIRE) && waited < PATIENCE_MS) {
		myrmex_sleep_ns(10 * IPC_MS);
		waited += 10;
	}
	if (!call_done) {
		test_fail("%s: the caller still waits %d ms after the middle stage died", what,
		          PATIENCE_MS);
		ipc_stop(p1);
		ipc_stop(p3);
		raw1(SYS_exit_group, 1);   /* ends the waiting thread too */
	}
	myrmex_thread_join(&t);
	struct myrmex_frame *r = myrmex_ctl_result(h);
	CHECK(call_result == -EPIPE || (call_result == 0 && r && r->status == -EPIPE),
	      "%s: callsync %ld, status %lld", what, call_result, r ? (long long)r->status : 0LL);
	CHECK_EQ(h->currentp, 0);
	ipc_stop(p1);
	ipc_stop(p3);
	CHECK_EQ(myrmex_ica_free(ctl), 0);
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "async") == 0)
		run(IPC_FWD_ASYNC, "async forward");
	else if (argc == 2 && strcmp(argv[1], "sync") == 0)
		run(IPC_FWD_SYNC, "sync forward");
	else
		test_fail("usage: t_ipc_stage_death async|sync");
	return test_exit_code();
}
