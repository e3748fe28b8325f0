/*
 * t_ipc_async: asynchronous calls (ipc_server serve, coreid 101). callasync
 * returns 0 at once and takes the control ICA and its data ICAs away from
 * the caller (ica_attach/free refuse them: in flight); the result arrives
 * through the caller's get(): kind RESULT, the control ICA's address and
 * handle, the server's pid and status, the frame popped (currentp 0,
 * resultp the frame) and the data ICAs attached again, changed by the
 * server. Then several calls outstanding at once, each result got once,
 * and a get(p) with p a result (not a request being handled) is refused.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_ipc_async"
#include "test_check.h"
#include "ipc_test.h"

#define COREID 101u
#define OUTSTANDING 16
#define MSG "async payload"

static void check_one(long server)
{
	uint32_t ctl;
	struct myrmex_ctl_header *h = ipc_new_ctl(&ctl);
	long d = myrmex_ica_alloc(1);
	if (!h || d < 0) {
		test_fail("ica_alloc: %ld", d);
		return;
	}
	uint32_t data = (uint32_t)d;
	strcpy(myrmex_ica_addr(data), MSG);
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, COREID, IPC_OP_UPPER);
	f->arg[0] = strlen(MSG);
	f->ndata = 1;
	f->data[0] = data;
	CHECK_EQ(myrmex_callasync(h), 0);
	/* Both are in flight now: not ours to attach, detach or free. */
	CHECK_ONE_OF(myrmex_ica_attach(ctl), -EINVAL);
	CHECK_ONE_OF(myrmex_ica_free(ctl), -EINVAL, -EBUSY);
	CHECK_ONE_OF(myrmex_ica_free(data), -EINVAL, -EBUSY);
	CHECK_EQ(myrmex_ica_detach(data), -EINVAL);

	struct myrmex_delivery dl;
	memset(&dl, 0xa5, sizeof dl);
	long got = myrmex_get(NULL, &dl);
	CHECK(got == (long)(uintptr_t)h, "get returned %#lx, expected %p", got, (void *)h);
	if (got != (long)(uintptr_t)h)
		return;
	CHECK_EQ(dl.control, (uintptr_t)h);
	CHECK_EQ(dl.handle, ctl);
	CHECK_EQ(dl.kind, MYRMEX_DELIVERY_RESULT);
	CHECK_EQ(dl.requester, server);
	CHECK_EQ(dl.frame, 32);
	CHECK_EQ(dl.opcode, IPC_OP_UPPER);
	CHECK_EQ(dl.status, (long)strlen(MSG));
	CHECK_EQ(dl.ndata, 1);
	CHECK_EQ(dl.data[0], data);
	CHECK_EQ(dl.data_pages[0], 1);
	CHECK_EQ(h->currentp, 0);
	CHECK_EQ(h->resultp, 32);
	CHECK_EQ(h->kind, MYRMEX_DELIVERY_RESULT);
	CHECK(strcmp(myrmex_ica_addr(data), "ASYNC PAYLOAD") == 0, "data after the call: %.20s",
	      (char *)myrmex_ica_addr(data));
	/* A result is not a request we handle: get(p) and ret(p) refuse it. */
	CHECK_EQ(myrmex_ret(h), -EINVAL);
	CHECK_EQ(myrmex_get(h, NULL), -EINVAL);
	/* Both are idle and ours again. */
	CHECK_EQ(myrmex_ica_detach(ctl), 0);
	CHECK_EQ(myrmex_ica_attach(ctl), 0);
	CHECK_EQ(myrmex_ica_free(data), 0);
	CHECK_EQ(myrmex_ica_free(ctl), 0);
}

/* OUTSTANDING calls at once, each with its own control and data ICA. */
static void check_many(void)
{
	uint32_t ctl[OUTSTANDING], data[OUTSTANDING];
	int seen[OUTSTANDING] = { 0 };
	int made = 0;
	for (; made < OUTSTANDING; made++) {
		struct myrmex_ctl_header *h = ipc_new_ctl(&ctl[made]);
		long d = myrmex_ica_alloc(1);
		if (!h || d < 0) {
			test_fail("ica_alloc #%d: %ld", made, d);
			break;
		}
		data[made] = (uint32_t)d;
		snprintf(myrmex_ica_addr(data[made]), 32, "call %d", made);
		struct myrmex_frame *f = myrmex_ctl_push(h, 1, COREID, IPC_OP_UPPER);
		f->arg[0] = 16;
		f->arg[1] = (uint64_t)made;
		f->ndata = 1;
		f->data[0] = data[made];
		long r = myrmex_callasync(h);
		if (r != 0) {
			test_fail("callasync #%d: %ld", made, r);
			break;
		}
	}
	for (int n = 0; n < made; n++) {
		struct myrmex_delivery dl;
		long got = myrmex_get(NULL, &dl);
		if (got < 0) {
			test_fail("get #%d: %ld", n, got);
			return;
		}
		int i = -1;
		for (int j = 0; j < made; j++)
			if (myrmex_ica_addr(ctl[j]) == (void *)got)
				i = j;
		if (i < 0 || seen[i]) {
			test_fail("get #%d returned %#lx: unknown or twice", n, got);
			continue;
		}
		seen[i] = 1;
		char want[32];
		snprintf(want, sizeof want, "CALL %d", i);
		CHECK(dl.kind == MYRMEX_DELIVERY_RESULT && dl.handle == ctl[i] && dl.ndata == 1 &&
		      dl.data[0] == data[i], "delivery #%d for call %d", n, i);
		CHECK(strcmp(myrmex_ica_addr(data[i]), want) == 0, "data of call %d: %.20s", i,
		      (char *)myrmex_ica_addr(data[i]));
		struct myrmex_frame *r = myrmex_ctl_result((void *)got);
		CHECK(r && r->arg[1] == (uint64_t)i, "result frame of call %d", i);
	}
	for (int i = 0; i < made; i++) {
		CHECK_EQ(myrmex_ica_free(ctl[i]), 0);
		CHECK_EQ(myrmex_ica_free(data[i]), 0);
	}
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
	if (ipc_wait_ready(COREID) == 0) {
		check_one(pid);
		check_many();
	}
	ipc_stop(pid);
	return test_exit_code();
}
