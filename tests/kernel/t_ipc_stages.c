/*
 * t_ipc_stages: multi-stage calls on one control ICA through a chain of
 * three servers (ipc_server forward: coreids 103 -> 104 -> 105) with a data
 * ICA travelling along.
 *   sequential, sync forwards: each stage callsyncs the next and returns
 *     after; every return pops one frame (each stage saw currentp = its own
 *     frame and resultp = the one it pushed); the client gets status 3,
 *     resultp 32, currentp 0.
 *   sequential, async forwards: each stage callasyncs the next and gets the
 *     result through get(); same outcome.
 *   direct return (MYRMEX_CTL_DIRECT_RETURN, async forwards): the last
 *     stage's result comes straight to the client: status 1, resultp = the
 *     third frame (256), currentp 0; the middle stages saw no result.
 *   the same for an async caller: the result arrives through get(), from
 *     the last stage, frame 256;
 *   direct return with sync forwards: the first stage's callsync forward is
 *     refused (-EINVAL) and that refusal is the client's result.
 *   the last stage sets the flag while the middle stages wait in callsync:
 *     they are woken with -ECANCELED, the client gets the last result.
 * The frames' requester fields name the client and the stages in order.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_ipc_stages"
#include "test_check.h"
#include "ipc_test.h"

#define C1 103u
#define C2 104u
#define C3 105u
#define STAGES 3
#define MSG "through three stages"

static long pids[STAGES];
static uint32_t ctl, data;
static struct myrmex_ctl_header *h;

static long call(uint32_t op, uint32_t flags)
{
	strcpy(myrmex_ica_addr(data), MSG);
	myrmex_ctl_init(h);
	h->flags = flags;
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, C1, op);
	f->arg[0] = strlen(MSG);
	f->ndata = 1;
	f->data[0] = data;
	return myrmex_callsync(h);
}

/* What the server on coreid counted (IPC_OP_STATS arg index). */
static uint64_t stat_of(uint32_t coreid, int index)
{
	uint32_t c;
	struct myrmex_ctl_header *s = ipc_new_ctl(&c);
	if (!s)
		return ~0ull;
	myrmex_ctl_push(s, 1, coreid, IPC_OP_STATS);
	long r = myrmex_callsync(s);
	struct myrmex_frame *res = myrmex_ctl_result(s);
	uint64_t v = r == 0 && res ? res->arg[index] : ~0ull;
	myrmex_ica_free(c);
	return v;
}

/* The frames left in the control ICA: requesters and targets in order. */
static void check_frames(const char *what)
{
	long me = raw0(SYS_getpid);
	const uint32_t targets[STAGES] = { C1, C2, C3 };
	const long requesters[STAGES] = { me, pids[0], pids[1] };
	for (int i = 0; i < STAGES; i++) {
		struct myrmex_frame *f = myrmex_ctl_frame(h, 32 + 112 * (uint32_t)i);
		CHECK(f->prev == (i ? 32 + 112 * (uint32_t)(i - 1) : 0u) &&
		      f->target == targets[i] && f->requester == requesters[i],
		      "%s: frame %d: prev %u target %u requester %d", what, i, f->prev, f->target,
		      f->requester);
	}
}

static void check_sequential(uint32_t op, const char *what)
{
	CHECK_EQ(call(op, 0), 0);
	CHECK(h->currentp == 0 && h->resultp == 32 && h->kind == MYRMEX_DELIVERY_RESULT,
	      "%s: currentp %u resultp %u kind %u", what, h->currentp, h->resultp, h->kind);
	struct myrmex_frame *r = myrmex_ctl_result(h);
	if (!r)
		return;
	CHECK(r->status == STAGES && r->arg[1] == STAGES, "%s: status %lld, count %llu", what,
	      (long long)r->status, (unsigned long long)r->arg[1]);
	CHECK(r->ndata == 1 && r->data[0] == data, "%s: the data ICA did not come back", what);
	CHECK(strcmp(myrmex_ica_addr(data), "THROUGH THREE STAGES") == 0, "%s: data \"%.30s\"",
	      what, (char *)myrmex_ica_addr(data));
	/* What the two middle stages saw when their forward came back. */
	struct myrmex_frame *f1 = myrmex_ctl_frame(h, 32), *f2 = myrmex_ctl_frame(h, 144);
	CHECK(f1->arg[2] == IPC_SAW_ALL && f2->arg[2] == IPC_SAW_ALL,
	      "%s: stage views %llu %llu, expected %u", what, (unsigned long long)f1->arg[2],
	      (unsigned long long)f2->arg[2], IPC_SAW_ALL);
	check_frames(what);
}

static void check_direct(void)
{
	uint64_t results_before = stat_of(C1, 4) + stat_of(C2, 4);
	CHECK_EQ(call(IPC_FWD_ASYNC, MYRMEX_CTL_DIRECT_RETURN), 0);
	CHECK(h->currentp == 0 && h->resultp == 256, "direct: currentp %u resultp %u",
	      h->currentp, h->resultp);
	struct myrmex_frame *r = myrmex_ctl_result(h);
	if (r) {
		CHECK(r->status == 1 && r->target == C3, "direct: status %lld from coreid %u",
		      (long long)r->status, r->target);
		CHECK(r->ndata == 1 && r->data[0] == data, "direct: the data ICA did not come back");
	}
	CHECK(strcmp(myrmex_ica_addr(data), "THROUGH THREE STAGES") == 0, "direct: data \"%.30s\"",
	      (char *)myrmex_ica_addr(data));
	check_frames("direct");
	uint64_t results_after = stat_of(C1, 4) + stat_of(C2, 4);
	CHECK(results_after == results_before, "direct: middle stages got %llu results",
	      (unsigned long long)(results_after - results_before));
	/* The control ICA is idle and ours: it can be used again at once. */
	CHECK_EQ(call(IPC_FWD_ASYNC, MYRMEX_CTL_DIRECT_RETURN), 0);
	CHECK_EQ(h->resultp, 256);
}

/* Direct return to an async original caller: the result arrives by get. */
static void check_direct_async_caller(void)
{
	strcpy(myrmex_ica_addr(data), MSG);
	myrmex_ctl_init(h);
	h->flags = MYRMEX_CTL_DIRECT_RETURN;
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, C1, IPC_FWD_ASYNC);
	f->arg[0] = strlen(MSG);
	f->ndata = 1;
	f->data[0] = data;
	CHECK_EQ(myrmex_callasync(h), 0);
	struct myrmex_delivery dl;
	long got = myrmex_get(NULL, &dl);
	CHECK(got == (long)(uintptr_t)h && dl.kind == MYRMEX_DELIVERY_RESULT && dl.status == 1 &&
	      dl.frame == 256 && dl.requester == pids[2] && dl.ndata == 1 && dl.data[0] == data,
	      "direct to an async caller: get %#lx kind %u status %lld frame %u from %d", got,
	      dl.kind, (long long)dl.status, dl.frame, dl.requester);
	CHECK(h->currentp == 0 && h->resultp == 256, "direct async: currentp %u resultp %u",
	      h->currentp, h->resultp);
	CHECK(strcmp(myrmex_ica_addr(data), "THROUGH THREE STAGES") == 0,
	      "direct async: data \"%.30s\"", (char *)myrmex_ica_addr(data));
}

static void check_direct_with_sync_forward(void)
{
	CHECK_EQ(call(IPC_FWD_SYNC, MYRMEX_CTL_DIRECT_RETURN), 0);
	struct myrmex_frame *r = myrmex_ctl_result(h);
	CHECK(h->resultp == 32 && r && r->status == -EINVAL,
	      "direct + sync forward: resultp %u status %lld", h->resultp,
	      r ? (long long)r->status : 0LL);
	CHECK(r && r->ndata == 1 && r->data[0] == data, "the data ICA did not come back");
}

static void check_cancel(void)
{
	uint64_t before = stat_of(C1, 3) + stat_of(C2, 3);
	CHECK_EQ(call(IPC_FWD_SYNC_SETDIRECT, 0), 0);
	struct myrmex_frame *r = myrmex_ctl_result(h);
	CHECK(h->currentp == 0 && h->resultp == 256 && r && r->status == 1,
	      "set-direct: currentp %u resultp %u status %lld", h->currentp, h->resultp,
	      r ? (long long)r->status : 0LL);
	CHECK(r && r->ndata == 1 && r->data[0] == data, "set-direct: the data ICA did not come back");
	uint64_t after = stat_of(C1, 3) + stat_of(C2, 3);
	CHECK(after - before == 2, "set-direct: %llu middle stages saw -ECANCELED, expected 2",
	      (unsigned long long)(after - before));
}

int main(void)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	char next2[16], next3[16];
	snprintf(next2, sizeof next2, "%u", C2);
	snprintf(next3, sizeof next3, "%u", C3);
	pids[0] = ipc_start("forward", C1, next2);
	pids[1] = ipc_start("forward", C2, next3);
	pids[2] = ipc_start("forward", C3, "0");
	long d = myrmex_ica_alloc(1);
	h = ipc_new_ctl(&ctl);
	if (pids[0] > 0 && pids[1] > 0 && pids[2] > 0 && d >= 0 && h &&
	    ipc_wait_ready(C1) == 0 && ipc_wait_ready(C2) == 0 && ipc_wait_ready(C3) == 0) {
		data = (uint32_t)d;
		check_sequential(IPC_FWD_SYNC, "sequential sync");
		check_sequential(IPC_FWD_ASYNC, "sequential async");
		check_direct();
		check_direct_async_caller();
		check_direct_with_sync_forward();
		check_cancel();
		CHECK_EQ(myrmex_ica_free(data), 0);
		CHECK_EQ(myrmex_ica_free(ctl), 0);
	}
	for (int i = 0; i < STAGES; i++)
		ipc_stop(pids[i]);
	return test_exit_code();
}
