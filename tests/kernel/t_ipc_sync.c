/*
 * t_ipc_sync: synchronous calls to a server (ipc_server serve, coreid 100).
 * Without data: callsync returns 0, the result frame holds the server's
 * status and arguments, the kernel stamped the requester, popped the frame
 * (currentp 0, resultp the frame, kind RESULT) and the control ICA is still
 * attached and reusable. With data ICAs (one, then four): they travel to the
 * server, which changes them in place, and come back attached at the same
 * addresses. A server may also return an ICA it allocated itself, or keep
 * the ones it got (they are then no longer ours). Returning with ret()
 * instead of get(p) gives the same result.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_ipc_sync"
#include "test_check.h"
#include "ipc_test.h"

#define COREID 100u
#define CALLS 200
#define MSG "hello, server"

static uint32_t ctl;
static struct myrmex_ctl_header *h;

/* Pushes a frame for op with arg0 and the given data ICAs, calls. */
static long call(uint32_t op, uint64_t arg0, const uint32_t *data, uint32_t n)
{
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, COREID, op);
	if (!f) {
		test_fail("ctl_push failed: currentp %u", h->currentp);
		return -1;
	}
	f->arg[0] = arg0;
	f->ndata = n;
	for (uint32_t i = 0; i < n; i++)
		f->data[i] = data[i];
	return myrmex_callsync(h);
}

static void check_nop(void)
{
	long me = raw0(SYS_getpid);
	CHECK_EQ(call(IPC_OP_NOP, 41, NULL, 0), 0);
	struct myrmex_frame *r = myrmex_ctl_result(h);
	CHECK(r == myrmex_ctl_frame(h, 32), "resultp %u, expected 32", h->resultp);
	CHECK_EQ(h->currentp, 0);
	CHECK_EQ(h->kind, MYRMEX_DELIVERY_RESULT);
	CHECK_EQ(h->magic, MYRMEX_CTL_MAGIC);
	if (!r)
		return;
	CHECK_EQ(r->status, 42);
	CHECK_EQ(r->requester, me);
	CHECK_EQ(r->arg[3], me);            /* the server's delivery named us */
	CHECK_EQ(r->arg[6], me);            /* and so did the frame it saw */
	CHECK_EQ(r->arg[4], 0);
	CHECK_EQ(r->arg[5], MYRMEX_DELIVERY_REQUEST);
	CHECK(r->arg[1] != (uint64_t)me && r->arg[1] > 1, "server pid %llu",
	      (unsigned long long)r->arg[1]);
	CHECK_EQ(r->target, COREID);
	CHECK_EQ(r->ndata, 0);
	/* The control ICA stays ours: many calls in a row. */
	int bad = 0;
	for (int i = 0; i < CALLS; i++) {
		long c = call(IPC_OP_NOP, (uint64_t)i, NULL, 0);
		r = myrmex_ctl_result(h);
		if (c != 0 || !r || r->status != i + 1)
			bad++;
	}
	CHECK(bad == 0, "%d of %d repeated calls went wrong", bad, CALLS);
	/* Returned with ret() instead of get(p). */
	CHECK_EQ(call(IPC_OP_NOP | IPC_OP_USE_RET, 7, NULL, 0), 0);
	r = myrmex_ctl_result(h);
	CHECK(r && r->status == 8, "result of a call returned with ret()");
}

static void check_one_data(void)
{
	long d = myrmex_ica_alloc(1);
	if (d < 0) {
		test_fail("ica_alloc: %ld", d);
		return;
	}
	uint32_t data = (uint32_t)d;
	char *text = myrmex_ica_addr(data);
	strcpy(text, MSG);
	CHECK_EQ(call(IPC_OP_UPPER, strlen(MSG), &data, 1), 0);
	struct myrmex_frame *r = myrmex_ctl_result(h);
	if (r) {
		CHECK_EQ(r->status, (long)strlen(MSG));
		CHECK_EQ(r->ndata, 1);
		CHECK_EQ(r->data[0], data);
	}
	/* Attached again, at the same address, changed by the server. */
	CHECK(strcmp(text, "HELLO, SERVER") == 0, "data ICA after the call: \"%.20s\"", text);
	text[0] = 'x';                       /* writable */
	CHECK_EQ(myrmex_ica_detach(data), 0);   /* attached and ours */
	CHECK_EQ(myrmex_ica_attach(data), 0);
	CHECK(text[0] == 'x', "data ICA lost a write across detach/attach");

	/* NOP hands the same ICA back untouched; the server saw one. */
	CHECK_EQ(call(IPC_OP_NOP, 0, &data, 1), 0);
	r = myrmex_ctl_result(h);
	CHECK(r && r->arg[4] == 1 && r->ndata == 1, "NOP with one data ICA");
	CHECK(text[0] == 'x', "NOP changed the data ICA");
	CHECK_EQ(myrmex_ica_free(data), 0);
}

static void check_four_data(void)
{
	uint32_t data[MYRMEX_FRAME_DATA];
	uint32_t pages[MYRMEX_FRAME_DATA] = { 1, 2, 16, 64 };
	for (int i = 0; i < MYRMEX_FRAME_DATA; i++) {
		long d = myrmex_ica_alloc(pages[i]);
		if (d < 0) {
			test_fail("ica_alloc(%u): %ld", pages[i], d);
			return;
		}
		data[i] = (uint32_t)d;
		char *text = myrmex_ica_addr(data[i]);
		snprintf(text, 32, "data ica %d", i);
		text[pages[i] * 4096 - 1] = 'z';   /* the last byte is ours too */
	}
	CHECK_EQ(call(IPC_OP_UPPER, 32, data, MYRMEX_FRAME_DATA), 0);
	struct myrmex_frame *r = myrmex_ctl_result(h);
	CHECK(r && r->ndata == MYRMEX_FRAME_DATA, "four data ICAs: ndata %u",
	      r ? r->ndata : 0);
	for (int i = 0; i < MYRMEX_FRAME_DATA; i++) {
		char want[32], *text = myrmex_ica_addr(data[i]);
		snprintf(want, sizeof want, "DATA ICA %d", i);
		CHECK(strcmp(text, want) == 0, "data ICA %d after the call: \"%.20s\"", i, text);
		CHECK(text[pages[i] * 4096 - 1] == 'z', "data ICA %d lost its last byte", i);
		CHECK_EQ(myrmex_ica_free(data[i]), 0);
	}
}

/* The server returns an ICA of its own; then one that it keeps. */
static void check_swap_and_keep(void)
{
	long d = myrmex_ica_alloc(1);
	if (d < 0) {
		test_fail("ica_alloc: %ld", d);
		return;
	}
	uint32_t mine = (uint32_t)d;
	CHECK_EQ(call(IPC_OP_SWAP, 0, &mine, 1), 0);
	struct myrmex_frame *r = myrmex_ctl_result(h);
	if (r && r->status == 0 && r->ndata == 1) {
		uint32_t got = r->data[0];
		CHECK(got == r->arg[1], "swapped handle %u, server said %llu", got,
		      (unsigned long long)r->arg[1]);
		CHECK(strcmp(myrmex_ica_addr(got), IPC_SWAP_TEXT) == 0, "swapped ICA text");
		CHECK_EQ(myrmex_ica_free(mine), -EINVAL);   /* the server freed it */
		CHECK_EQ(myrmex_ica_free(got), 0);
	} else {
		test_fail("swap: status %lld ndata %u", r ? (long long)r->status : 0LL,
		          r ? r->ndata : 0);
	}

	d = myrmex_ica_alloc(1);
	if (d < 0)
		return;
	mine = (uint32_t)d;
	CHECK_EQ(call(IPC_OP_KEEP, 0, &mine, 1), 0);
	r = myrmex_ctl_result(h);
	CHECK(r && r->status == 1 && r->ndata == 0 && r->arg[1] == mine, "keep");
	CHECK_EQ(myrmex_ica_attach(mine), -EINVAL);   /* not ours any more */
	CHECK_EQ(myrmex_ica_free(mine), -EINVAL);
}

int main(void)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	long pid = ipc_start("serve", COREID, NULL);
	if (pid <= 0)
		return 1;
	h = ipc_new_ctl(&ctl);
	if (h && ipc_wait_ready(COREID) == 0) {
		check_nop();
		check_one_data();
		check_four_data();
		check_swap_and_keep();
		CHECK_EQ(myrmex_ica_free(ctl), 0);
	}
	ipc_stop(pid);
	return test_exit_code();
}
