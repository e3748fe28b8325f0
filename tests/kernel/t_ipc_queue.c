/*
 * t_ipc_queue: the per-caller quota on server queues (kernel/ipc.h). The
 * server (ipc_server noget, coreid 116) registers and never calls get. This
 * process queues 48 requests with callasync (the first doubles as the
 * readiness probe): its quota. The 49th is refused with -EAGAIN, for
 * callasync and callsync alike, moving nothing, and the kernel counts both
 * refusals (kstats.ipc_quota_refused). The queue is not full for others: a
 * helper process (ipc_server flood) still queues 32 calls and exits,
 * leaving them queued. Then the server is killed: each of our queued
 * requests comes back through get() as a RESULT with status -EPIPE (and its
 * data ICA, for the first eight, which carry one); the helper's, whose
 * caller is gone, are freed by the kernel (the leak check around the test
 * sees it).
 */
#define _GNU_SOURCE
#define TEST_NAME "t_ipc_queue"
#include "test_check.h"
#include "ipc_test.h"

#define COREID 116u
#define OURS 48            /* IPC_QUEUE_PER_CALLER */
#define HELPER_CALLS 32

#define WITH_DATA 8   /* the first calls carry a data ICA (64 ICAs per process) */

static uint32_t ctl[OURS + 1], data[OURS + 1];

static int queue_ours(void)
{
	int n = 0;
	for (; n < OURS; n++) {
		struct myrmex_ctl_header *h = ipc_new_ctl(&ctl[n]);
		long d = n < WITH_DATA ? myrmex_ica_alloc(1) : 0;
		if (!h || d < 0)
			break;
		data[n] = (uint32_t)d;
		struct myrmex_frame *f = myrmex_ctl_push(h, 1, COREID, IPC_OP_NOP);
		f->ndata = n < WITH_DATA;
		f->data[0] = data[n];
		long r = n == 0 ? ipc_call_when_ready(h, 0) : myrmex_callasync(h);
		if (r != 0) {
			test_fail("callasync #%d: %ld", n, r);
			break;
		}
	}
	return n;
}

static void check_full(void)
{
	struct myrmex_ctl_header *h = ipc_new_ctl(&ctl[OURS]);
	long d = myrmex_ica_alloc(1);
	if (!h || d < 0)
		return;
	data[OURS] = (uint32_t)d;
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, COREID, IPC_OP_NOP);
	f->ndata = 1;
	f->data[0] = data[OURS];
	struct myrmex_kstats before, after;
	myrmex_kstats(&before);
	CHECK_EQ(myrmex_callasync(h), -EAGAIN);
	CHECK_EQ(myrmex_callsync(h), -EAGAIN);
	myrmex_kstats(&after);
	CHECK_EQ(after.ipc_quota_refused - before.ipc_quota_refused, 2);
	/* Nothing moved. */
	CHECK_EQ(myrmex_ica_detach(data[OURS]), 0);
	CHECK_EQ(myrmex_ica_attach(data[OURS]), 0);
	CHECK_EQ(myrmex_ica_free(data[OURS]), 0);
	CHECK_EQ(myrmex_ica_free(ctl[OURS]), 0);
}

/* After the server's death: every queued call of ours comes back. */
static void collect(int n)
{
	int seen[OURS] = { 0 };
	for (int k = 0; k < n; k++) {
		struct myrmex_delivery dl;
		long got = myrmex_get(NULL, &dl);
		int i = -1;
		for (int j = 0; j < n; j++)
			if (got == (long)(uintptr_t)myrmex_ica_addr(ctl[j]))
				i = j;
		if (i < 0 || seen[i]) {
			test_fail("get #%d: %ld (unknown or twice)", k, got);
			return;
		}
		seen[i] = 1;
		CHECK(dl.kind == MYRMEX_DELIVERY_RESULT && dl.status == -EPIPE,
		      "call %d: kind %u status %lld", i, dl.kind, (long long)dl.status);
		CHECK(dl.ndata == (i < WITH_DATA) && (i >= WITH_DATA || dl.data[0] == data[i]),
		      "call %d: data %u/%u", i, dl.ndata, dl.data[0]);
		CHECK(((struct myrmex_ctl_header *)got)->resultp == 32, "call %d: resultp", i);
		if (i < WITH_DATA)
			CHECK_EQ(myrmex_ica_free(data[i]), 0);
		CHECK_EQ(myrmex_ica_free(ctl[i]), 0);
	}
}

int main(void)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	long server = ipc_start("noget", COREID, NULL);
	if (server <= 0)
		return 1;
	int n = queue_ours();
	if (n == OURS) {
		char count[16], id[16];
		snprintf(count, sizeof count, "%d", HELPER_CALLS);
		snprintf(id, sizeof id, "%u", COREID);
		const char *args[] = { "flood", id, count, NULL };
		check_full();
		long helper = ipc_spawn_server_argv(args, 0);
		if (helper > 0) {
			int status = ipc_reap(helper);
			CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			      "the helper's calls, beside our full quota: status %#x", status);
		} else {
			test_fail("spawn helper: %ld", helper);
		}
	}
	ipc_stop(server);
	collect(n);
	return test_exit_code();
}
