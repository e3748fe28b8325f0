/*
 * t_ipc_claim: claim, which takes a lent control ICA away from its
 * synchronous caller while a server handles the request (ipc_server serve,
 * coreid 126, IPC_OP_CLAIM).
 *
 *   t_ipc_claim calls   claim refused (-EINVAL) for NULL, a wild address, an
 *                       idle control ICA of our own and one we do not
 *                       handle; a claimed request comes back as usual (the
 *                       control ICA mapped again, the result in it, a data
 *                       ICA with it); then a child runs "touch" and must be
 *                       killed by SIGSEGV; the server still answers after.
 *   t_ipc_claim touch   (the child) one thread makes a claimed call that
 *                       the server holds for a while; the main thread keeps
 *                       reading the control ICA, which must fault as soon as
 *                       the server has claimed it. Exits 1 if it never does.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_ipc_claim"
#include "test_check.h"
#include "ipc_test.h"

#include <signal.h>
#include <sys/wait.h>

#define COREID 126u
#define HOLD_MS 3000u           /* how long the server holds the claimed call */
#define TOUCH_DEADLINE_NS (20ull * 1000 * 1000 * 1000)

static void check_refusals(void)
{
	CHECK_EQ(myrmex_claim(NULL), -EINVAL);
	CHECK_EQ(myrmex_claim((void *)0x1234), -EINVAL);
	CHECK_EQ(myrmex_claim((void *)~0ul), -EINVAL);
	uint32_t handle;
	struct myrmex_ctl_header *h = ipc_new_ctl(&handle);
	if (!h)
		return;
	CHECK_EQ(myrmex_claim(h), -EINVAL);   /* idle: not a request we handle */
	myrmex_ica_free(handle);
}

static void check_claimed_call(void)
{
	uint32_t ctl, data;
	struct myrmex_ctl_header *h = ipc_new_ctl(&ctl);
	long d = myrmex_ica_alloc(1);
	if (!h || d < 0)
		return;
	data = (uint32_t)d;
	strcpy(myrmex_ica_addr(data), "data");
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, COREID, IPC_OP_CLAIM);
	f->arg[0] = 1;
	f->ndata = 1;
	f->data[0] = data;
	CHECK_EQ(ipc_call_when_ready(h, 1), 0);
	struct myrmex_frame *r = myrmex_ctl_result(h);
	CHECK(r != NULL, "no result frame after a claimed call");
	if (r) {
		CHECK_EQ(r->status, 0);
		CHECK_EQ((long)r->arg[1], 0);
		CHECK(r->ndata == 1 && r->data[0] == data, "the data ICA did not come back");
	}
	CHECK(strcmp(myrmex_ica_addr(data), "data") == 0, "the data ICA changed");
	CHECK_EQ(h->currentp, 0);
	/* The control ICA is ours again: a second call works. */
	myrmex_ctl_push(h, 1, COREID, IPC_OP_NOP);
	CHECK_EQ(myrmex_callsync(h), 0);
	CHECK_EQ(myrmex_ica_free(data), 0);
	CHECK_EQ(myrmex_ica_free(ctl), 0);
}

static void check_touch_child(void)
{
	char *const argv[] = { "t_ipc_claim", "touch", NULL };
	long pid = myrmex_spawn("t_ipc_claim", argv, ipc_envp, -1);
	if (pid <= 0) {
		test_fail("spawn the touch child: %ld", pid);
		return;
	}
	int status = ipc_reap(pid);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV,
	      "the child reading a claimed control ICA was not killed by SIGSEGV (status %#x)", status);
}

static struct myrmex_ctl_header *touch_ctl;

static void claimed_caller(void *arg)
{
	(void)arg;
	struct myrmex_frame *f = myrmex_ctl_push(touch_ctl, 1, COREID, IPC_OP_CLAIM);
	f->arg[0] = HOLD_MS;
	myrmex_callsync(touch_ctl);
}

static int touch(void)
{
	uint32_t ctl;
	touch_ctl = ipc_new_ctl(&ctl);
	if (!touch_ctl)
		return 2;
	struct myrmex_thread t;
	if (myrmex_thread_create(&t, claimed_caller, NULL, 0) < 0)
		return 2;
	uint64_t deadline = myrmex_now_ns() + TOUCH_DEADLINE_NS;
	while (myrmex_now_ns() < deadline) {
		(void)*(volatile uint32_t *)touch_ctl;   /* faults once claimed */
		myrmex_sleep_ns(IPC_MS / 10);
	}
	return 1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "touch") == 0)
		return touch();
	long server = ipc_start("serve", COREID, NULL);
	if (server <= 0 || ipc_wait_ready(COREID) != 0) {
		ipc_stop(server);
		return test_exit_code();
	}
	check_refusals();
	check_claimed_call();
	check_touch_child();
	CHECK_EQ(ipc_wait_ready(COREID), 0);   /* the server goes on */
	ipc_stop(server);
	return test_exit_code();
}
