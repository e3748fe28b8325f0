/*
 * t_ipc_register: server registration and the server right.
 *   - a child spawned without MYRMEX_SPAWN_SERVER gets -EPERM from
 *     registserver, and -EPERM when it tries to spawn with the flag;
 *   - a child with the right may pass it on (its child registers);
 *   - spawn flags other than MYRMEX_SPAWN_SERVER, MYRMEX_SPAWN_POSIX and a
 *     device are -EINVAL;
 *   - this process (spawned with the right): coreid out of range -EINVAL,
 *     a coreid another process serves -EBUSY, a second coreid -EEXIST;
 *   - MYRMEX_REGIST_MORE: -EINVAL before the first coreid, then one more
 *     coreid on the same queue (-EEXIST for one already ours, -EBUSY for
 *     another's, -EINVAL out of range), and each request's delivery names
 *     the coreid it was sent to;
 *   - a call to an unregistered coreid or one out of range: -ESRCH at once,
 *     and nothing moved (the control and data ICAs are still ours);
 *   - when a server ends, its coreid is free again.
 * Coreids 110..115.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_ipc_register"
#include "test_check.h"
#include "ipc_test.h"

/* Runs "ipc_server <args>" with the given spawn flags; checks exit 0. */
static void run_probe(const char *what, const char **args, unsigned flags)
{
	long pid = ipc_spawn_server_argv(args, flags);
	if (pid <= 0) {
		test_fail("%s: spawn: %ld", what, pid);
		return;
	}
	int status = ipc_reap(pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: probe ended with status %#x",
	      what, status);
}

static void check_right(void)
{
	const char *noright[] = { "regcheck", "110", "1" /* EPERM */, NULL };
	run_probe("registserver without the right", noright, 0);
	const char *nospawn[] = { "spawncheck", "110", "1" /* EPERM */, NULL };
	run_probe("passing a right one lacks", nospawn, 0);
	const char *passon[] = { "spawncheck", "111", "0", NULL };
	run_probe("passing the right on", passon, MYRMEX_SPAWN_SERVER);
	const char *badflag[] = { "regcheck", "110", "0", NULL };
	CHECK_EQ(ipc_spawn_server_argv(badflag, 16), -EINVAL);
	CHECK_EQ(ipc_spawn_server_argv(badflag, MYRMEX_SPAWN_SERVER | 0x80000000u), -EINVAL);
}

/* One call to ourselves at coreid: the delivery's coreid. */
static void self_call(uint32_t coreid)
{
	uint32_t ctl;
	struct myrmex_ctl_header *h = ipc_new_ctl(&ctl);
	if (!h)
		return;
	myrmex_ctl_push(h, 1, coreid, IPC_OP_NOP);
	CHECK_EQ(myrmex_callasync(h), 0);
	struct myrmex_delivery d;
	long got = myrmex_get(NULL, &d);
	if (got <= 0 || d.kind != MYRMEX_DELIVERY_REQUEST) {
		test_fail("get after a call to coreid %u: %ld, kind %u", coreid, got, d.kind);
		return;
	}
	CHECK_EQ(d.coreid, coreid);
	CHECK_EQ(myrmex_ret((void *)got), 0);
	got = myrmex_get(NULL, &d);
	CHECK(got > 0 && d.kind == MYRMEX_DELIVERY_RESULT && d.coreid == 0,
	      "the result of a call to coreid %u: %ld, kind %u, coreid %u", coreid, got, d.kind,
	      d.coreid);
	CHECK_EQ(myrmex_ica_free(ctl), 0);
}

/* A second coreid on our queue, with 113 registered. */
static void check_more(void)
{
	CHECK_EQ(myrmex_registserver(114 | MYRMEX_REGIST_MORE), 0);
	CHECK_EQ(myrmex_registserver(114 | MYRMEX_REGIST_MORE), -EEXIST);
	CHECK_EQ(myrmex_registserver(113 | MYRMEX_REGIST_MORE), -EEXIST);
	CHECK_EQ(myrmex_registserver(112 | MYRMEX_REGIST_MORE), -EBUSY);
	CHECK_EQ(myrmex_registserver((MYRMEX_MAX_COREID + 1) | MYRMEX_REGIST_MORE), -EINVAL);
	CHECK_EQ(myrmex_registserver(115 | MYRMEX_REGIST_MORE | 0x20000u), -EINVAL);
	self_call(113);
	self_call(114);
}

static void check_own_registration(void)
{
	long server = ipc_start("serve", 112, NULL);
	if (server <= 0 || ipc_wait_ready(112) != 0) {
		ipc_stop(server);
		return;
	}
	CHECK_EQ(myrmex_registserver(MYRMEX_MAX_COREID + 1), -EINVAL);
	CHECK_EQ(myrmex_registserver(100000), -EINVAL);
	CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_REGISTSERVER, (1L << 32) + 113, 0, 0, 0, 0, 0),
	         -EINVAL);
	CHECK_EQ(myrmex_registserver(112), -EBUSY);
	CHECK_EQ(myrmex_registserver(114 | MYRMEX_REGIST_MORE), -EINVAL);   /* none yet */
	CHECK_EQ(myrmex_registserver(113), 0);
	CHECK_EQ(myrmex_registserver(114), -EEXIST);
	CHECK_EQ(myrmex_registserver(113), -EEXIST);
	check_more();
	/* Another process with the right cannot take ours either. */
	const char *busy[] = { "regcheck", "113", "16" /* EBUSY */, NULL };
	run_probe("a coreid someone serves", busy, MYRMEX_SPAWN_SERVER);

	/* When the server ends, its coreid is free again. */
	ipc_stop(server);
	const char *again[] = { "regcheck", "112", "0", NULL };
	run_probe("the coreid of a server that ended", again, MYRMEX_SPAWN_SERVER);
}

static void check_unregistered_call(void)
{
	uint32_t ctl;
	struct myrmex_ctl_header *h = ipc_new_ctl(&ctl);
	long d = myrmex_ica_alloc(1);
	if (!h || d < 0)
		return;
	uint32_t data = (uint32_t)d;
	const uint32_t targets[] = { 115, 0, MYRMEX_MAX_COREID, MYRMEX_MAX_COREID + 1, 0xffffffffu };
	for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
		myrmex_ctl_init(h);
		struct myrmex_frame *f = myrmex_ctl_push(h, 1, targets[i], IPC_OP_NOP);
		f->ndata = 1;
		f->data[0] = data;
		long r = myrmex_callsync(h);
		if (targets[i] <= MYRMEX_MAX_COREID)
			CHECK(r == -ESRCH, "callsync to coreid %u: %ld, expected -ESRCH", targets[i], r);
		else
			CHECK(r == -ESRCH || r == -EINVAL, "callsync to coreid %#x: %ld", targets[i], r);
		CHECK_ONE_OF(myrmex_callasync(h), -ESRCH, -EINVAL);
	}
	/* Nothing moved: both ICAs are attached and ours. */
	CHECK_EQ(h->currentp, 32);
	CHECK_EQ(myrmex_ica_detach(data), 0);
	CHECK_EQ(myrmex_ica_attach(data), 0);
	CHECK_EQ(myrmex_ica_free(data), 0);
	CHECK_EQ(myrmex_ica_free(ctl), 0);
}

int main(void)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	check_right();
	check_unregistered_call();   /* before we serve 113 ourselves */
	check_own_registration();
	return test_exit_code();
}
