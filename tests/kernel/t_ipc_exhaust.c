/*
 * t_ipc_exhaust: ICA pages and the memory promise. Every region's pages are
 * committed when it is made, so that a demand fault never runs out of
 * memory (docs/architecture.md); ICA pages must come out of the same
 * budget. Helpers (ipc_server hog, coreids 130..) commit anonymous memory
 * 1 MiB at a time until the system-wide budget refuses, then this process
 * allocates 64-page ICAs: at most the budget's remainder (under 1 MiB) may
 * be granted before -ENOMEM/-EAGAIN. Then every hog touches all it
 * committed and must survive (its answer is not -EPIPE).
 */
#define _GNU_SOURCE
#define TEST_NAME "t_ipc_exhaust"
#include "test_check.h"
#include "ipc_test.h"

#include <sys/mman.h>

#define FIRST_COREID 130u
#define MAX_HOGS 16
#define SLACK_PAGES 256   /* what the hogs' 1 MiB steps may leave uncommitted */

#define ENOUGH_MIB 40   /* a hog that got less met the system-wide budget */

static long hogs[MAX_HOGS];
static int nhogs;
static uint32_t ctl;
static struct myrmex_ctl_header *h;

/* IPC_OP_HOG to hog i; returns the status or the call's error. */
static long hog_call(int i, uint64_t touch)
{
	myrmex_ctl_init(h);
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, FIRST_COREID + (uint32_t)i, IPC_OP_HOG);
	f->arg[0] = touch;
	long r = myrmex_callsync(h);
	struct myrmex_frame *res = myrmex_ctl_result(h);
	return r < 0 ? r : res ? res->status : -EIO;
}

int main(void)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	h = ipc_new_ctl(&ctl);
	if (!h)
		return 1;
	/* Hogs until one gets clearly less than a process may commit. */
	for (long mib = ENOUGH_MIB; nhogs < MAX_HOGS && mib >= ENOUGH_MIB; nhogs++) {
		hogs[nhogs] = ipc_start("hog", FIRST_COREID + (uint32_t)nhogs, NULL);
		if (hogs[nhogs] <= 0 || ipc_wait_ready(FIRST_COREID + (uint32_t)nhogs) != 0)
			break;
		mib = hog_call(nhogs, 0);
	}
	long extra = myrmex_syscall6(SYS_mmap, 0, 1024 * 1024, PROT_READ | PROT_WRITE,
	                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(extra < 0, "the commit budget is not exhausted after %d hogs", nhogs);

	long icas[64];
	int granted = 0;
	long last = 0;
	while (granted < 64 && (last = myrmex_ica_alloc(64)) >= 0)
		icas[granted++] = last;
	CHECK(granted * 64 <= SLACK_PAGES,
	      "%d ICAs of 64 pages granted with the commit budget exhausted (then %ld)", granted,
	      last);

	for (int i = 0; i < nhogs; i++) {
		long r = hog_call(i, 1);
		CHECK(r >= 0, "hog %d could not touch the memory it was promised: %ld", i, r);
	}
	for (int i = 0; i < granted; i++)
		myrmex_ica_free((uint32_t)icas[i]);
	for (int i = 0; i < nhogs; i++)
		ipc_stop(hogs[i]);
	myrmex_ica_free(ctl);
	return test_exit_code();
}
