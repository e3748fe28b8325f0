/*
 * t_ipc_orphan: a caller that dies while its request is out. The server
 * (ipc_server serve, coreid 119) goes on: its return of the orphaned
 * request still works (ret() gives 0), and the result, which comes back to
 * nobody, is freed with its ICAs (the leak check around the test sees it).
 * Cases, each a child process (ipc_server caller):
 *   - a sync caller killed while the server handles its request (returned
 *     with ret());
 *   - an async caller that exits at once while the server handles it
 *     (returned with get(p));
 *   - a sync caller killed while its request still waits in the queue.
 * The server reports the result of its last return through IPC_OP_STATS.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_ipc_orphan"
#include "test_check.h"
#include "ipc_test.h"

#define COREID 119u

static char coreid_text[16];

/* Starts "ipc_server caller <coreid> <op> <sync|async> <arg0>". */
static long start_caller(uint32_t op, const char *how, unsigned arg0)
{
	char op_text[16], arg_text[16];
	snprintf(op_text, sizeof op_text, "%u", op);
	snprintf(arg_text, sizeof arg_text, "%u", arg0);
	const char *args[] = { "caller", coreid_text, op_text, how, arg_text, NULL };
	long pid = ipc_spawn_server_argv(args, 0);
	if (pid <= 0)
		test_fail("spawn caller: %ld", pid);
	return pid;
}

/* Asks the server for its counters (sync; queued behind anything else). */
static void check_stats(const char *what, uint64_t handled)
{
	uint32_t ctl;
	struct myrmex_ctl_header *h = ipc_new_ctl(&ctl);
	if (!h)
		return;
	myrmex_ctl_push(h, 1, COREID, IPC_OP_STATS);
	CHECK_EQ(myrmex_callsync(h), 0);
	struct myrmex_frame *r = myrmex_ctl_result(h);
	if (r) {
		CHECK(r->arg[0] == 0, "%s: the server's last return gave %lld", what,
		      (long long)r->arg[0]);
		CHECK(r->arg[2] == 0, "%s: %llu returns refused", what, (unsigned long long)r->arg[2]);
		CHECK(r->arg[1] == handled, "%s: the server handled %llu requests, expected %llu",
		      what, (unsigned long long)r->arg[1], (unsigned long long)handled);
	}
	myrmex_ica_free(ctl);
}

int main(void)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	snprintf(coreid_text, sizeof coreid_text, "%u", COREID);
	long server = ipc_start("serve", COREID, NULL);
	if (server <= 0 || ipc_wait_ready(COREID) != 0) {
		ipc_stop(server);
		return 1;
	}
	uint64_t handled = 1;   /* the readiness probe */

	/* A sync caller killed while the server sleeps on its request. */
	long child = start_caller(IPC_OP_SLEEP | IPC_OP_USE_RET, "sync", 100);
	myrmex_sleep_ns(40 * IPC_MS);
	int status = ipc_stop(child);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "sync caller: status %#x", status);
	handled += 2;   /* its request and our STATS */
	check_stats("sync caller killed", handled);

	/* An async caller that is gone before its result. */
	child = start_caller(IPC_OP_SLEEP, "async", 50);
	status = ipc_reap(child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "async caller: status %#x", status);
	handled += 2;
	check_stats("async caller gone", handled);

	/* A sync caller killed while its request waits behind ours. */
	uint32_t ctl;
	struct myrmex_ctl_header *h = ipc_new_ctl(&ctl);
	if (h) {
		struct myrmex_frame *f = myrmex_ctl_push(h, 1, COREID, IPC_OP_SLEEP);
		f->arg[0] = 100;
		CHECK_EQ(myrmex_callasync(h), 0);
		child = start_caller(IPC_OP_NOP, "sync", 0);
		myrmex_sleep_ns(40 * IPC_MS);
		status = ipc_stop(child);
		CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "queued caller: status %#x",
		      status);
		struct myrmex_delivery dl;
		long got = myrmex_get(NULL, &dl);
		CHECK(got == (long)(uintptr_t)h && dl.status == 0, "our sleeping call: %#lx %lld", got,
		      (long long)dl.status);
		handled += 3;
		check_stats("queued caller killed", handled);
		myrmex_ica_free(ctl);
	}
	ipc_stop(server);
	return test_exit_code();
}
