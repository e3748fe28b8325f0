/*
 * bench_ipc_profile: not a benchmark but the guest half of
 * tools/ipc_profile.py, which single-steps one IPC round trip under QEMU's
 * gdb stub and attributes every instruction to a kernel or user function
 * (docs/benchmarks.md, "Where the instructions go"). benchinit does not run
 * it by default. It starts bench_ipcsrv, warms the path up, and then
 * brackets each traced operation with a marker: a kstats call with the
 * address PROFILE_MARK and size 0, which copies nothing and which the
 * tracer's breakpoint recognises. Myrmex only.
 */
#include "bench_ipc.h"

#define COREID 200u
#define PROFILE_MARK 0x5ca1ab1e000ul
#define WARMUP 200

static void mark(unsigned which)
{
	myrmex_syscall6(MYRMEX_SYS_KSTATS, (long)(PROFILE_MARK + which), 0, 0, 0, 0, 0);
}

static long round_trip(struct myrmex_ctl_header *h, uint32_t data)
{
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, COREID, BENCH_IPC_OP);
	if (data) {
		f->ndata = 1;
		f->data[0] = data;
	}
	return myrmex_callsync(h);
}

int main(void)
{
	if (!myrmex_is_native())
		return 0;
	struct myrmex_ctl_header *h;
	uint32_t data;
	long pid = bench_ipc_setup("bench_ipc_profile", COREID, &h, &data);
	if (!pid)
		return 1;
	long bad = 0;
	for (int i = 0; i < WARMUP; i++)
		bad |= round_trip(h, 0) | round_trip(h, data);
	/* Traced: 1..2 a round trip without data, 3..4 with a 4 KiB data ICA. */
	mark(1);
	bad |= round_trip(h, 0);
	mark(2);
	mark(3);
	bad |= round_trip(h, data);
	mark(4);
	bench_ipc_stop(pid);
	printf("BENCH-PROFILE-DONE %ld\n", bad);
	return bad ? 1 : 0;
}
