/*
 * t_ipc_threads: threads on both sides. Several client threads make
 * synchronous calls with their own control and data ICAs to one server
 * (coreid 102), each checking that its own data came back changed and its
 * own result is in its own frame. The server runs four threads that all
 * wait in get() on the one request queue: with calls that sleep in the
 * server, more than one server thread must take requests, and every
 * request is answered exactly once.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_ipc_threads"
#include "test_check.h"
#include "ipc_test.h"

#define COREID 102u
#define CLIENTS 4
#define CALLS_PER_CLIENT 40
#define SLEEP_CALLS 3   /* per client, each sleeping SLEEP_MS in the server */
#define SLEEP_MS 5

struct client {
	int index;
	struct myrmex_thread thread;
	int failures;
	uint64_t server_tids[SLEEP_CALLS];
};

static struct client clients[CLIENTS];

static void client_main(void *arg)
{
	struct client *c = arg;
	long hc = myrmex_ica_alloc(1), hd = myrmex_ica_alloc(1);
	if (hc < 0 || hd < 0) {
		test_fail("client %d: ica_alloc %ld %ld", c->index, hc, hd);
		c->failures++;
		return;
	}
	uint32_t data = (uint32_t)hd;
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr((uint32_t)hc));
	char *text = myrmex_ica_addr(data);
	for (int i = 0; i < CALLS_PER_CLIENT + SLEEP_CALLS; i++) {
		int sleeping = i >= CALLS_PER_CLIENT;
		snprintf(text, 64, "client %d call %d", c->index, i);
		struct myrmex_frame *f = myrmex_ctl_push(h, 1, COREID,
		                                         sleeping ? IPC_OP_SLEEP : IPC_OP_UPPER);
		f->arg[0] = sleeping ? SLEEP_MS : 64;
		f->ndata = 1;
		f->data[0] = data;
		long r = myrmex_callsync(h);
		struct myrmex_frame *res = myrmex_ctl_result(h);
		char want[64];
		snprintf(want, sizeof want, sleeping ? "client %d call %d" : "CLIENT %d CALL %d",
		         c->index, i);
		if (r != 0 || !res || res->ndata != 1 || res->data[0] != data ||
		    strcmp(text, want) != 0 || h->currentp != 0) {
			test_fail("client %d call %d: r %ld, data \"%.30s\"", c->index, i, r, text);
			c->failures++;
		}
		if (sleeping && res)
			c->server_tids[i - CALLS_PER_CLIENT] = res->arg[2];
	}
	myrmex_ica_free(data);
	myrmex_ica_free((uint32_t)hc);
}

static uint64_t stats(uint32_t arg_index)
{
	uint32_t ctl;
	struct myrmex_ctl_header *h = ipc_new_ctl(&ctl);
	if (!h)
		return 0;
	myrmex_ctl_push(h, 1, COREID, IPC_OP_STATS);
	CHECK_EQ(myrmex_callsync(h), 0);
	struct myrmex_frame *r = myrmex_ctl_result(h);
	uint64_t v = r ? r->arg[arg_index] : 0;
	myrmex_ica_free(ctl);
	return v;
}

int main(void)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	long pid = ipc_start("serve", COREID, "4");
	if (pid <= 0)
		return 1;
	if (ipc_wait_ready(COREID) != 0) {
		ipc_stop(pid);
		return 1;
	}
	int started = 0;
	for (; started < CLIENTS; started++) {
		clients[started].index = started;
		long r = myrmex_thread_create(&clients[started].thread, client_main,
		                              &clients[started], 0);
		if (r < 0) {
			test_fail("thread_create: %ld", r);
			break;
		}
	}
	for (int i = 0; i < started; i++)
		myrmex_thread_join(&clients[i].thread);

	/* Distinct server threads that answered the sleeping calls. */
	uint64_t tids[CLIENTS * SLEEP_CALLS];
	int distinct = 0;
	for (int i = 0; i < started; i++) {
		for (int j = 0; j < SLEEP_CALLS; j++) {
			uint64_t t = clients[i].server_tids[j];
			int known = 0;
			for (int k = 0; k < distinct; k++)
				known |= tids[k] == t;
			if (!known && t)
				tids[distinct++] = t;
		}
	}
	CHECK(distinct >= 2, "only %d server thread(s) took the sleeping requests", distinct);
	/* Every request handled once: the ping, the calls, and this STATS. */
	uint64_t handled = stats(1);
	uint64_t expected = 1 + (uint64_t)started * (CALLS_PER_CLIENT + SLEEP_CALLS) + 1;
	CHECK(handled == expected, "server handled %llu requests, expected %llu",
	      (unsigned long long)handled, (unsigned long long)expected);
	ipc_stop(pid);
	return test_exit_code();
}
