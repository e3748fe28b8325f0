/*
 * sh4_bench: paper 002's measurements on the SH-4 port, run as the first
 * process (it may start servers). Under QEMU's -icount shift=0 one guest
 * instruction is one nanosecond of the guest's clock, so every figure is
 * in instructions: CLOCK_MONOTONIC (the TMU, 15 MHz) read around a batch
 * of operations, divided by the batch, the clock read's own cost taken
 * off. Each figure is the median (and minimum) of RUNS batches, with the
 * kernel's TLB-miss exceptions per operation (kstats.tlb_misses).
 * Prints "BENCH sh4 <name> median=<v> min=<v> runs=<n> tlb_misses=<per-op>"
 * (docs/testing.md), then "BENCH-DONE", and powers off. The network's
 * figures come from bench/sh4/net_send.c, which it starts. Its argument
 * (the boot module's command line) names the kernel's ICA method, ica=pt
 * or ica=tlb (a boot archive per method, mk/arch-sh4.mk), which net_send
 * passes to the network servers.
 */
#include "sh4_user.h"
#include <myrmex/rights.h>

#define RUNS   15
#define BATCH  16     /* ICAs per attach/detach batch: 16 pages fit 32 reserved entries */
#define CALLS  20     /* calls per IPC batch */

static uint64_t clock_cost;   /* instructions of one u_now_ns(), measured */

static uint64_t tlb_misses(void)
{
	struct myrmex_kstats k;
	sys2(MYRMEX_SYS_KSTATS, &k, sizeof(k));
	return k.tlb_misses;
}

static void sort(uint64_t *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

/* Prints one figure: v[] are per-operation instructions of RUNS batches,
 * misses the TLB misses over all of them, ops the operations in all. */
static void report(const char *name, uint64_t *v, uint64_t misses, uint64_t ops)
{
	sort(v, RUNS);
	u_puts("BENCH sh4 ");
	u_puts(name);
	u_puts(" median=");
	u_putnum((long)v[RUNS / 2]);
	u_puts(" min=");
	u_putnum((long)v[0]);
	u_puts(" runs=");
	u_putnum(RUNS);
	u_puts(" tlb_misses=");
	/* per operation, two decimals */
	uint64_t hundredths = ops ? misses * 100 / ops : 0;
	u_putnum((long)(hundredths / 100));
	u_puts(".");
	u_putnum((long)(hundredths % 100 / 10));
	u_putnum((long)(hundredths % 10));
	u_puts("\n");
}

static uint64_t per_op(uint64_t t0, uint64_t t1, uint64_t n)
{
	uint64_t d = t1 - t0;
	d = d > clock_cost ? d - clock_cost : 0;
	return d / n;
}

static void bench_clock(void)
{
	uint64_t v[RUNS];
	for (int r = 0; r < RUNS; r++) {
		uint64_t t0 = u_now_ns();
		for (int i = 0; i < 100; i++)
			u_now_ns();
		uint64_t t1 = u_now_ns();
		v[r] = (t1 - t0) / 101;
	}
	sort(v, RUNS);
	clock_cost = v[RUNS / 2];
}

static void bench_syscall(void)
{
	uint64_t v[RUNS], m0 = tlb_misses();
	for (int r = 0; r < RUNS; r++) {
		uint64_t t0 = u_now_ns();
		for (int i = 0; i < 100; i++)
			sys0(SH_NR_GETPID);
		v[r] = per_op(t0, u_now_ns(), 100);
	}
	report("syscall", v, tlb_misses() - m0, RUNS * 100);
}

/* ICA attach, detach and the first access after an attach, on BATCH
 * one-page ICAs. */
static void bench_ica(void)
{
	long h[BATCH];
	for (int i = 0; i < BATCH; i++)
		h[i] = u_ica_alloc(1);
	uint64_t at[RUNS], de[RUNS], fa[RUNS];
	uint64_t m_at = 0, m_de = 0, m_fa = 0;
	for (int r = 0; r < RUNS; r++) {
		uint64_t m0 = tlb_misses();
		uint64_t t0 = u_now_ns();
		for (int i = 0; i < BATCH; i++)
			u_ica_detach((uint32_t)h[i]);
		uint64_t t1 = u_now_ns();
		uint64_t m1 = tlb_misses();
		for (int i = 0; i < BATCH; i++)
			u_ica_attach((uint32_t)h[i]);
		uint64_t t2 = u_now_ns();
		uint64_t m2 = tlb_misses();
		for (int i = 0; i < BATCH; i++)
			*(volatile uint32_t *)myrmex_ica_addr((uint32_t)h[i]) = (uint32_t)r;
		uint64_t t3 = u_now_ns();
		uint64_t m3 = tlb_misses();
		de[r] = per_op(t0, t1, BATCH);
		at[r] = per_op(t1, t2, BATCH);
		fa[r] = per_op(t2, t3, BATCH);
		m_de += m1 - m0;
		m_at += m2 - m1;
		m_fa += m3 - m2;
	}
	report("ica.detach", de, m_de, RUNS * BATCH);
	report("ica.attach", at, m_at, RUNS * BATCH);
	report("ica.first_access", fa, m_fa, RUNS * BATCH);
	for (int i = 0; i < BATCH; i++)
		u_ica_free((uint32_t)h[i]);
}

static long spawn(const char *a1, const char *a2, unsigned flags)
{
	const uint64_t argv[] = { (uintptr_t)"sh4_srv", (uintptr_t)a1, (uintptr_t)a2, 0 };
	const uint64_t envp[] = { 0 };
	return sys5(MYRMEX_SYS_SPAWN, "sh4_srv", argv, envp, -1, flags);
}

static long spawn_server(const char *coreid, const char *next)
{
	long pid = spawn(coreid, next, MYRMEX_SPAWN_SERVER);
	while (pid > 0 && sys1(MYRMEX_SYS_SERVER_PID, u_atol(coreid)) != pid)
		sys0(SH_NR_SCHED_YIELD);
	return pid;
}

/* Paper 002's figures 9 and 10 (bench/sh4/net_send.c, a program of its
 * own with musl): a child with the power to give the RTL8139 to its
 * driver, waited for, told the ICA method (method: "ica=pt" or "ica=tlb").
 * It runs after the IPC servers are gone (the TCP/IP server takes coreid
 * 10, the echo server's), so that whatever the network leaves behind does
 * not touch the IPC figures. */
static void bench_net(const char *method)
{
	const uint64_t argv[] = { (uintptr_t)"net_send", (uintptr_t)method, 0 };
	const uint64_t envp[] = { 0 };
	long pid = sys5(MYRMEX_SYS_SPAWN, "net_send", argv, envp, -1,
	                MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_MANAGER);
	int status = 0;
	if (pid < 0)
		u_puts("BENCH-SKIP sh4 net.send: no net_send module\n");
	else
		sys6(SH_NR_WAIT4, pid, (long)&status, 0, 0, 0, 0);
}

/* Process switch: this process and a partner yield to each other; one
 * yield here is two switches. The partner is sh4_srv with no server right
 * and coreid 0 ("yield"): it yields for ever. */
static void bench_switch(void)
{
	long pid = spawn("0", "yield", 0);
	uint64_t v[RUNS], m0 = tlb_misses();
	for (int r = 0; r < RUNS; r++) {
		uint64_t t0 = u_now_ns();
		for (int i = 0; i < 50; i++)
			sys0(SH_NR_SCHED_YIELD);
		v[r] = per_op(t0, u_now_ns(), 100);
	}
	report("process_switch", v, tlb_misses() - m0, RUNS * 100);
	sys2(SH_NR_KILL, pid, 9);
	int status;
	sys6(SH_NR_WAIT4, pid, (long)&status, 0, 0, 0, 0);
}

/* Sync and async calls to the echo server: request (the call to the
 * server's get returning), return (from there to the result in hand). */
static void bench_calls(void *ctl, bool async)
{
	uint64_t rq[RUNS], rt[RUNS], m = 0;
	for (int r = 0; r < RUNS; r++) {
		uint64_t sum_rq = 0, sum_rt = 0;
		uint64_t m0 = tlb_misses();
		for (int i = 0; i < CALLS; i++) {
			u_ctl_first(ctl, 10, SRV_ECHO_TS);
			uint64_t t0 = u_now_ns();
			if (async) {
				struct myrmex_delivery d;
				u_callasync(ctl);
				u_get(0, &d);
			} else {
				u_callsync(ctl);
			}
			uint64_t t2 = u_now_ns();
			struct myrmex_frame *res = u_ctl_result(ctl);
			uint64_t t1 = res ? res->arg[2] : t0;
			sum_rq += t1 - t0;
			sum_rt += t2 - t1;
		}
		m += tlb_misses() - m0;
		rq[r] = per_op(0, sum_rq, CALLS);
		rt[r] = per_op(0, sum_rt, CALLS);
	}
	report(async ? "ipc.async.request" : "ipc.sync.request", rq, m, RUNS * CALLS);
	report(async ? "ipc.async.return" : "ipc.sync.return", rt, m, RUNS * CALLS);
}

/* n-stage calls (paper 002, figure 8): the chain 14 -> 13 -> 11 -> 12 ->
 * 10, entered at the stage that leaves n stages (n = 1..5). */
#define STAGES 5
static void bench_stages(void *ctl)
{
	static const uint32_t entry[STAGES + 1] = { 0, 10, 12, 11, 13, 14 };
	static const char *const names[2][STAGES + 1] = {
		{ "", "ipc.stages1.sequential", "ipc.stages2.sequential", "ipc.stages3.sequential",
		  "ipc.stages4.sequential", "ipc.stages5.sequential" },
		{ "", "ipc.stages1.direct", "ipc.stages2.direct", "ipc.stages3.direct",
		  "ipc.stages4.direct", "ipc.stages5.direct" },
	};
	for (int direct = 0; direct < 2; direct++)
		for (int n = 1; n <= STAGES; n++) {
			uint64_t v[RUNS], m0 = tlb_misses();
			for (int r = 0; r < RUNS; r++) {
				uint64_t sum = 0;
				for (int i = 0; i < CALLS; i++) {
					u_ctl_first(ctl, entry[n], direct ? SRV_FWD_DIRECT : SRV_FWD);
					uint64_t t0 = u_now_ns();
					u_callsync(ctl);
					sum += u_now_ns() - t0;
				}
				v[r] = per_op(0, sum, CALLS);
			}
			report(names[direct][n], v, tlb_misses() - m0, RUNS * CALLS);
		}
}

int main(int argc, char **argv, char **envp)
{
	(void)envp;
	const char *method = argc > 1 ? argv[1] : "ica=pt";
	bench_clock();
	bench_syscall();
	bench_ica();
	bench_switch();
	/* Five servers (each stack commits only what it touches, so the r2d's
	 * 64 MiB hold them all). */
	long echo = spawn_server("10", "0");
	long s12 = spawn_server("12", "10");
	long s11 = spawn_server("11", "12");
	long s13 = spawn_server("13", "11");
	long s14 = spawn_server("14", "13");
	long ctl_handle = u_ica_alloc(1);
	if (echo < 0 || s12 < 0 || s11 < 0 || s13 < 0 || s14 < 0 || ctl_handle < 0) {
		u_puts("BENCH-SKIP sh4_bench cannot start its servers\n");
	} else {
		void *ctl = myrmex_ica_addr((uint32_t)ctl_handle);
		bench_calls(ctl, false);
		bench_calls(ctl, true);
		bench_stages(ctl);
	}
	const long servers[] = { s14, s13, s11, s12, echo };
	for (unsigned i = 0; i < sizeof servers / sizeof servers[0]; i++) {
		int status = 0;
		if (servers[i] > 0 && sys2(SH_NR_KILL, servers[i], 9) == 0)
			sys6(SH_NR_WAIT4, servers[i], (long)&status, 0, 0, 0, 0);
	}
	bench_net(method);
	u_puts("BENCH-DONE\n");
	sys1(MYRMEX_SYS_POWEROFF, 0);
	return 0;
}
