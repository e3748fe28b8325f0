/*
 * t_attack: what an ordinary program must not be able to do to the servers
 * (issue 14's attacks), each refused with the documented error and the
 * system still working after it (t_alive follows each mode).
 *
 *   t_attack calls        (no call rights, as the shell starts programs;
 *                         the disk driver, file manager, console and time
 *                         servers running) raw DISK_READ and DISK_WRITE of
 *                         sector 0, a console READ, echo off (TCSETS), a
 *                         foreground steal (TIOCSPGRP), a console CANCEL,
 *                         FS_DROP_CACHE, a time call and a process-manager
 *                         call: each -EPERM before anything is queued,
 *                         counted in kstats.ipc_refused, the data ICA still
 *                         ours; the rights cannot be widened (rights(),
 *                         spawn with more rights, the manager power, a
 *                         device).
 *   t_attack cancel-other (console right) a child's console read waits; we
 *                         send CONSOLE_CANCEL with its control ICA's handle
 *                         (the child tells it to us over IPC): -ESRCH, the
 *                         read goes on; the child's own cancel then ends it
 *                         with -EINTR (the child checks both).
 *   t_attack ret-theft    (server right) a server keeps an ICA K of ours
 *                         (IPC_OP_KEEP); then it answers calls by writing
 *                         its result (our data ICA) and sleeping before ret
 *                         (IPC_OP_FILL_SLEEP), while a second thread of ours
 *                         keeps rewriting the frame to name K: ret refuses
 *                         it, the server answers -EIO without data from the
 *                         frame it claimed, and K never comes to us.
 *   t_attack signals      (a POSIX process, the servers running) kill and
 *                         tkill of each server: -EPERM; kill(-1, SIGKILL)
 *                         passes them by (-ESRCH: no other POSIX process);
 *                         every server is still registered, same pid.
 *   t_attack ica-slots    (server right) 13 children without the server
 *                         right allocate ICAs until refused: together they
 *                         get at most 768 slots (kstats.ipc_quota_refused
 *                         counts the refusals), and we, a server, can still
 *                         allocate one and call a server.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_attack"
#include "test_check.h"
#include "ipc_test.h"

#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <myrmex/console.h>
#include <myrmex/disk.h>
#include <myrmex/fs.h>
#include <myrmex/time.h>

static uint64_t refused_now(void)
{
	struct myrmex_kstats k;
	myrmex_kstats(&k);
	return k.ipc_refused;
}

/* One call to coreid with opcode and three argument words, carrying a data
 * ICA: must be refused with -EPERM, counted, and move nothing. */
static void refused(const char *what, uint32_t coreid, uint32_t opcode, uint64_t a0, uint64_t a1,
                    uint64_t a2)
{
	uint32_t ctl;
	struct myrmex_ctl_header *h = ipc_new_ctl(&ctl);
	long data = myrmex_ica_alloc(1);
	if (!h || data < 0) {
		test_fail("%s: no ICAs (%ld)", what, data);
		return;
	}
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, coreid, opcode);
	f->arg[0] = a0;
	f->arg[1] = a1;
	f->arg[2] = a2;
	f->ndata = 1;
	f->data[0] = (uint32_t)data;
	uint64_t before = refused_now();
	long sync = myrmex_callsync(h);
	long async = myrmex_callasync(h);
	CHECK(sync == -EPERM && async == -EPERM, "%s: callsync %ld, callasync %ld (expected -EPERM)",
	      what, sync, async);
	CHECK(refused_now() - before == 2, "%s: %llu refusals counted, expected 2", what,
	      (unsigned long long)(refused_now() - before));
	/* Nothing moved: both ICAs are still ours, attached and idle. */
	CHECK(myrmex_ica_detach((uint32_t)data) == 0 && myrmex_ica_attach((uint32_t)data) == 0,
	      "%s: the data ICA is no longer ours", what);
	CHECK_EQ(myrmex_ica_free((uint32_t)data), 0);
	CHECK_EQ(myrmex_ica_free(ctl), 0);
}

static void check_calls(void)
{
	struct myrmex_rights mine;
	CHECK_EQ(myrmex_rights(NULL, &mine), 0);
	for (unsigned i = 0; i < MYRMEX_RIGHTS_WORDS; i++)
		CHECK(mine.call[i] == 0, "we hold call rights (word %u: %#llx)", i,
		      (unsigned long long)mine.call[i]);
	refused("raw disk read of sector 0", MYRMEX_COREID_DISK, DISK_READ, 0, 8, 0);
	refused("raw disk write of sector 0", MYRMEX_COREID_DISK, DISK_WRITE, 0, 8, 0);
	refused("console read", MYRMEX_COREID_CONSOLE, CONSOLE_READ, 0, 16, 0);
	refused("echo off", MYRMEX_COREID_CONSOLE, CONSOLE_IOCTL, 0, CONSOLE_TCSETS, 0);
	refused("foreground steal", MYRMEX_COREID_CONSOLE, CONSOLE_IOCTL, 0, CONSOLE_TIOCSPGRP,
	        (uint64_t)raw0(SYS_getpid));
	refused("console cancel", MYRMEX_COREID_CONSOLE, CONSOLE_CANCEL, 0, 0, 0);
	refused("cache drop", MYRMEX_COREID_FS, FS_DROP_CACHE, 0, 0, 0);
	refused("time call", MYRMEX_COREID_TIME, TIME_GET, 0, 0, 0);
	refused("process manager call", MYRMEX_COREID_PM, PM_FORK, 0, 0, 0);

	/* Rights only narrow. */
	struct myrmex_rights all;
	memset(&all, 0xff, sizeof(all));
	CHECK_EQ(myrmex_rights(&all, &mine), 0);
	CHECK(mine.call[0] == 0 && mine.call[3] == 0, "rights() widened our set");
	char *argv[] = { "t_alive", NULL };
	struct myrmex_rights disk = { { 0 } };
	myrmex_rights_add(&disk, MYRMEX_COREID_DISK);
	CHECK_EQ(myrmex_spawn_rights("t_alive", argv, ipc_envp, -1, 0, &disk), -EPERM);
	CHECK_EQ(myrmex_spawn_flags("t_alive", argv, ipc_envp, -1, MYRMEX_SPAWN_MANAGER), -EPERM);
	CHECK_EQ(myrmex_spawn_flags("t_alive", argv, ipc_envp, -1, MYRMEX_SPAWN_DEVICE(0)), -EPERM);
	CHECK_EQ(myrmex_spawn_rights("t_alive", argv, ipc_envp, -1, 0, (void *)16), -EFAULT);
	CHECK_EQ(myrmex_rights((void *)16, NULL), -EFAULT);
	CHECK_EQ(myrmex_rights(NULL, (void *)16), -EFAULT);
}

/* ------------------------------------------------------ cancel-other */

#define CANCEL_COREID 118u
#define OP_HANDLE 1u   /* the child's call to us: arg0 = its read's handle */

/* Sends CONSOLE_CANCEL for handle; returns the server's status. */
static int64_t console_cancel(uint32_t handle)
{
	uint32_t ctl;
	struct myrmex_ctl_header *h = ipc_new_ctl(&ctl);
	if (!h)
		return -ENOMEM;
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_CONSOLE, CONSOLE_CANCEL);
	f->arg[0] = handle;
	long r = myrmex_callsync(h);
	struct myrmex_frame *res = myrmex_ctl_result(h);
	int64_t status = r < 0 ? r : res ? res->status : -EIO;
	myrmex_ica_free(ctl);
	return status;
}

/* The child: a console read waits; after the parent's forged cancel, our
 * own cancel must find it still waiting. Exit 0 when both held. */
static int cancel_child(void)
{
	uint32_t ctl;
	struct myrmex_ctl_header *h = ipc_new_ctl(&ctl);
	long data = myrmex_ica_alloc(1);
	if (!h || data < 0)
		return 2;
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_CONSOLE, CONSOLE_READ);
	f->arg[1] = 16;
	f->ndata = 1;
	f->data[0] = (uint32_t)data;
	if (myrmex_callasync(h) != 0)
		return 3;
	/* Tell the parent the handle; it answers once it tried to cancel. */
	uint32_t tell;
	struct myrmex_ctl_header *t = ipc_new_ctl(&tell);
	if (!t)
		return 4;
	myrmex_ctl_push(t, 1, CANCEL_COREID, OP_HANDLE)->arg[0] = ctl;
	if (ipc_call_when_ready(t, 1) != 0)
		return 5;
	int64_t own = console_cancel(ctl);
	struct myrmex_delivery d;
	long got = myrmex_get(NULL, &d);
	if (got <= 0 || d.kind != MYRMEX_DELIVERY_RESULT)
		return 6;
	/* Our cancel found the read (0) and the read ended -EINTR. */
	return own == 0 && d.status == -EINTR ? 0 : 7;
}

static void check_cancel_other(void)
{
	CHECK_EQ(myrmex_registserver(CANCEL_COREID), 0);
	char *argv[] = { "t_attack", "cancel-child", NULL };
	long child = myrmex_spawn("t_attack", argv, ipc_envp, -1);
	if (child <= 0) {
		test_fail("spawn the child: %ld", child);
		return;
	}
	struct myrmex_delivery d;
	long got = myrmex_get(NULL, &d);
	if (got > 0 && d.kind == MYRMEX_DELIVERY_REQUEST && d.opcode == OP_HANDLE) {
		struct myrmex_frame *f = myrmex_ctl_frame((struct myrmex_ctl_header *)got, d.frame);
		uint32_t handle = f ? (uint32_t)f->arg[0] : 0;
		CHECK_EQ(console_cancel(handle), -ESRCH);
		if (f)
			f->status = 0;
		CHECK_EQ(myrmex_ret((void *)got), 0);
	} else {
		test_fail("the child's handle: get %ld kind %u", got, d.kind);
	}
	int status = ipc_reap(child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "the child's read was cancelled by someone else, or failed: status %#x", status);
}

/* -------------------------------------------------------- ret-theft */

#define THEFT_COREID 117u
#define THEFT_ROUNDS 12
#define THEFT_SLEEP_MS 5

static volatile int racing;
static volatile struct myrmex_ctl_header *race_header;
static volatile struct myrmex_frame *race_frame;
static volatile uint32_t race_handle;
static sigjmp_buf race_end;

/* The server claimed the control ICA (its answer to a refused ret): the
 * racer's next store faults, and that ends its race. */
static void race_fault(int sig)
{
	(void)sig;
	siglongjmp(race_end, 1);
}

/* Rewrites the frame to name the server's ICA until the call is over,
 * from the moment the server has the request (the kernel writes the
 * header's kind at that delivery): earlier, the call itself would be
 * refused for naming an ICA that is not ours, and nothing would be tested. */
static void racer(void *unused)
{
	(void)unused;
	if (sigsetjmp(race_end, 1))
		return;
	while (racing && race_header->kind != MYRMEX_DELIVERY_REQUEST)
		raw0(SYS_sched_yield);
	while (racing) {
		volatile struct myrmex_frame *f = race_frame;
		f->ndata = 1;
		f->data[0] = race_handle;
	}
}

static void check_ret_theft(void)
{
	long server = ipc_start("serve", THEFT_COREID, NULL);
	if (server <= 0 || ipc_wait_ready(THEFT_COREID) != 0) {
		ipc_stop(server);
		return;
	}
	uint32_t ctl;
	struct myrmex_ctl_header *h = ipc_new_ctl(&ctl);
	long k = myrmex_ica_alloc(1);
	if (!h || k < 0) {
		test_fail("ICAs: %ld", k);
		ipc_stop(server);
		return;
	}
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, THEFT_COREID, IPC_OP_KEEP);
	f->ndata = 1;
	f->data[0] = (uint32_t)k;
	CHECK_EQ(myrmex_callsync(h), 0);
	CHECK_EQ(myrmex_ica_free((uint32_t)k), -EINVAL);   /* the server's now */
	int got_back = 0;
	struct sigaction sa = { .sa_handler = race_fault };
	sigaction(SIGSEGV, &sa, NULL);
	for (int round = 0; round < THEFT_ROUNDS; round++) {
		long data = myrmex_ica_alloc(1);
		if (data < 0) {
			test_fail("round %d: ica_alloc: %ld", round, data);
			break;
		}
		myrmex_ctl_init(h);
		f = myrmex_ctl_push(h, 1, THEFT_COREID, IPC_OP_FILL_SLEEP);
		f->arg[0] = THEFT_SLEEP_MS;
		f->ndata = 1;
		f->data[0] = (uint32_t)data;
		race_header = h;
		race_frame = f;
		race_handle = (uint32_t)k;
		racing = 1;
		struct myrmex_thread t;
		if (myrmex_thread_create(&t, racer, NULL, 0) < 0) {
			test_fail("thread_create");
			racing = 0;
			break;
		}
		long r = myrmex_callsync(h);
		racing = 0;
		myrmex_thread_join(&t);
		CHECK_EQ(r, 0);
		/* The server's answer to the refusal is -EIO. The frame's data
		 * words are not evidence: once the result is ours again the racer's
		 * last stores may still land in them (it stops at its next check
		 * of `racing`). What the kernel handed over is judged by ownership
		 * below: K never ours, our data ICA never back. */
		struct myrmex_frame *res = myrmex_ctl_result(h);
		CHECK(res && res->status == -EIO,
		      "round %d: the forged result was not refused (status %lld)", round,
		      res ? (long long)res->status : 0LL);
		/* K is never ours; our own data ICA stayed with the server, which
		 * returned without data after the refusal. */
		long freed_k = myrmex_ica_free((uint32_t)k);
		CHECK(freed_k == -EINVAL, "round %d: the server's ICA came to us (free: %ld)", round,
		      freed_k);
		if (freed_k == 0)
			break;
		got_back += myrmex_ica_free((uint32_t)data) == 0;
	}
	CHECK(got_back == 0, "%d rounds returned our data ICA through a forged frame", got_back);
	myrmex_ica_free(ctl);
	ipc_stop(server);
}

/* -------------------------------------------------------- signals */

static void check_signals(void)
{
	static const unsigned servers[] = { MYRMEX_COREID_DISK, MYRMEX_COREID_FS,
	                                    MYRMEX_COREID_CONSOLE, MYRMEX_COREID_TIME };
	long pids[4];
	for (unsigned i = 0; i < 4; i++) {
		pids[i] = myrmex_server_pid(servers[i]);
		if (pids[i] <= 0) {
			test_fail("coreid %u has no server", servers[i]);
			return;
		}
		CHECK_EQ(raw2(SYS_kill, pids[i], SIGKILL), -EPERM);
		CHECK_EQ(raw2(SYS_kill, pids[i], 0), -EPERM);
		CHECK_EQ(raw3(SYS_tgkill, pids[i], pids[i], SIGKILL), -EPERM);
		CHECK_EQ(raw2(SYS_tkill, pids[i], SIGTERM), -EPERM);
	}
	CHECK_EQ(raw2(SYS_kill, 1, SIGKILL), -EPERM);   /* init */
	CHECK_EQ(raw2(SYS_kill, -1, SIGKILL), -ESRCH);  /* no other POSIX process */
	for (unsigned i = 0; i < 4; i++)
		CHECK(myrmex_server_pid(servers[i]) == pids[i], "coreid %u: server %ld, was %ld",
		      servers[i], myrmex_server_pid(servers[i]), pids[i]);
}

/* -------------------------------------------------------- ica-slots */

#define SLOT_CHILDREN 13
#define USER_SLOTS (MYRMEX_ICA_SLOTS - 256)   /* kernel/ica.h: ICA_SERVER_RESERVE */

/* A child: allocate until refused, then wait to be killed. */
static _Noreturn void slots_child(void)
{
	while (myrmex_ica_alloc(1) >= 0)
		;
	for (;;)
		myrmex_sleep_ns(1000 * IPC_MS);
}

static void check_ica_slots(void)
{
	struct myrmex_kstats before, now;
	myrmex_kstats(&before);
	long pids[SLOT_CHILDREN];
	char *argv[] = { "t_attack", "slots-child", NULL };
	for (int i = 0; i < SLOT_CHILDREN; i++)
		pids[i] = myrmex_spawn("t_attack", argv, ipc_envp, -1);
	/* 13 x 64 is more than the programs' share: wait for the first
	 * refusal at the shared limit (the per-process one is not counted). */
	for (int tries = 0; tries < 2000; tries++) {
		myrmex_kstats(&now);
		if (now.ipc_quota_refused > before.ipc_quota_refused)
			break;
		myrmex_sleep_ns(5 * IPC_MS);
	}
	myrmex_kstats(&now);
	CHECK(now.ipc_quota_refused > before.ipc_quota_refused, "no ICA allocation was refused");
	CHECK(now.ica_live <= USER_SLOTS + before.ica_live,
	      "%llu ICAs live, more than the %u the programs share (+%llu before)",
	      (unsigned long long)now.ica_live, USER_SLOTS, (unsigned long long)before.ica_live);
	/* A server still gets ICAs and still serves. */
	long mine = myrmex_ica_alloc(1);
	CHECK(mine >= 0, "a server was refused an ICA beside the programs: %ld", mine);
	if (mine >= 0)
		myrmex_ica_free((uint32_t)mine);
	long server = ipc_start("serve", 119, NULL);
	if (server > 0)
		CHECK_EQ(ipc_wait_ready(119), 0);
	ipc_stop(server);
	for (int i = 0; i < SLOT_CHILDREN; i++)
		if (pids[i] > 0)
			ipc_stop(pids[i]);
}

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	const char *mode = argc > 1 ? argv[1] : "";
	if (!strcmp(mode, "calls"))
		check_calls();
	else if (!strcmp(mode, "cancel-other"))
		check_cancel_other();
	else if (!strcmp(mode, "cancel-child"))
		return cancel_child();
	else if (!strcmp(mode, "ret-theft"))
		check_ret_theft();
	else if (!strcmp(mode, "ica-slots"))
		check_ica_slots();
	else if (!strcmp(mode, "signals"))
		check_signals();
	else if (!strcmp(mode, "slots-child"))
		slots_child();
	else
		test_fail("unknown mode '%s'", mode);
	return test_exit_code();
}
