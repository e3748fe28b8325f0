/*
 * t_ipc: the native IPC mechanism on SH-4, from the same kernel sources as
 * on x86-64: a synchronous and an asynchronous call to an echo server, a
 * three-stage chain with sequential and with direct return, a server that
 * dies holding a call (-EPIPE), ICA detach and attach keeping the contents,
 * and calls with bad arguments refused (-EINVAL).
 */
#include "sh4_user.h"

static long spawn_server(uint32_t coreid, uint32_t next)
{
	char id[4] = { (char)('0' + coreid / 10), (char)('0' + coreid % 10), 0, 0 };
	char nx[4] = { (char)('0' + next / 10), (char)('0' + next % 10), 0, 0 };
	const uint64_t argv[] = { (uintptr_t)"sh4_srv", (uintptr_t)id, (uintptr_t)nx, 0 };
	const uint64_t envp[] = { 0 };
	long pid = sys5(MYRMEX_SYS_SPAWN, "sh4_srv", argv, envp, -1, MYRMEX_SPAWN_SERVER);
	if (pid < 0) {
		u_puts("t_ipc: spawn sh4_srv: ");
		u_putnum(pid);
		u_puts("\n");
		return pid;
	}
	while (sys1(MYRMEX_SYS_SERVER_PID, coreid) != pid)
		sys0(SH_NR_SCHED_YIELD);
	return pid;
}

int main(int argc, char **argv, char **envp)
{
	(void)argc, (void)argv, (void)envp;
	/* The r2d's 64 MiB hold few processes (each commits an 8 MiB stack):
	 * the echo server is also the chain's last stage, 11 -> 12 -> 10. */
	long echo = spawn_server(10, 0), s12 = spawn_server(12, 10), s11 = spawn_server(11, 12);
	U_CHECK(echo > 0, "spawn the echo server");
	U_CHECK(s12 > 0 && s11 > 0, "spawn the first two stages");

	long handle = u_ica_alloc(1);
	U_CHECK(handle > 0, "ica_alloc");
	void *ctl = myrmex_ica_addr((uint32_t)handle);

	/* sync */
	struct myrmex_frame *f = u_ctl_first(ctl, 10, SRV_ECHO);
	f->arg[0] = 41;
	U_CHECK(u_callsync(ctl) == 0, "callsync");
	struct myrmex_frame *res = u_ctl_result(ctl);
	U_CHECK(res && res->status == 42, "sync result 42");

	/* async */
	f = u_ctl_first(ctl, 10, SRV_ECHO);
	f->arg[0] = 99;
	U_CHECK(u_callasync(ctl) == 0, "callasync");
	struct myrmex_delivery d;
	U_CHECK(u_get(0, &d) >= 0 && d.kind == MYRMEX_DELIVERY_RESULT && d.status == 100,
	        "async result 100 through get");

	/* three stages, sequential return: 1 at the last, + 1 at each other */
	f = u_ctl_first(ctl, 11, SRV_FWD);
	U_CHECK(u_callsync(ctl) == 0, "callsync through three stages");
	res = u_ctl_result(ctl);
	U_CHECK(res && res->status == 3 && res->arg[1] == 3, "sequential return 3, 3");

	/* direct return: the last stage's result skips the middle ones */
	f = u_ctl_first(ctl, 11, SRV_FWD_DIRECT);
	U_CHECK(u_callsync(ctl) == 0, "callsync with direct return");
	res = u_ctl_result(ctl);
	U_CHECK(res && res->status == 1 && res->arg[1] == 1, "direct return 1, 1");

	/* detach and attach keep the contents */
	long data = u_ica_alloc(2);
	U_CHECK(data > 0, "ica_alloc of a data ICA");
	volatile uint32_t *words = myrmex_ica_addr((uint32_t)data);
	words[0] = 0x5a5a1234;
	words[1024] = 77;
	U_CHECK(u_ica_detach((uint32_t)data) == 0, "ica_detach");
	U_CHECK(u_ica_attach((uint32_t)data) == 0, "ica_attach");
	U_CHECK(words[0] == 0x5a5a1234 && words[1024] == 77, "contents kept over detach/attach");
	U_CHECK(u_ica_free((uint32_t)data) == 0, "ica_free");

	/* bad arguments */
	U_CHECK(u_callsync((void *)0x1000) == -EINVAL, "callsync on no ICA is -EINVAL");
	U_CHECK(u_callsync((void *)0x8c800000) == -EINVAL, "callsync on P1 is -EINVAL");
	U_CHECK(u_ica_attach(0xffffffu) == -EINVAL, "ica_attach of a bad handle is -EINVAL");
	U_CHECK(u_ica_alloc(0) == -EINVAL && u_ica_alloc(65) == -EINVAL, "ica_alloc size checks");

	/* server death */
	f = u_ctl_first(ctl, 10, SRV_DIE);
	long r = u_callsync(ctl);
	res = u_ctl_result(ctl);
	U_CHECK(r == -EPIPE || (r == 0 && res && res->status == -EPIPE), "server death gives -EPIPE");
	U_CHECK(u_ica_free((uint32_t)handle) == 0, "ica_free of the control ICA");

	/* The stages go too, so that the init's leak check sees everything back. */
	int status;
	U_CHECK(sys6(SH_NR_WAIT4, echo, (long)&status, 0, 0, 0, 0) == echo, "the echo server is reaped");
	sys2(SH_NR_KILL, s11, 9);
	sys2(SH_NR_KILL, s12, 9);
	U_CHECK(sys6(SH_NR_WAIT4, s11, (long)&status, 0, 0, 0, 0) == s11, "stage 11 is reaped");
	U_CHECK(sys6(SH_NR_WAIT4, s12, (long)&status, 0, 0, 0, 0) == s12, "stage 12 is reaped");
	return u_failures;
}
