/*
 * t_ipc_limits: ICA allocation and its limits.
 *   - npages 0, MYRMEX_ICA_MAX_PAGES + 1, 257 and values above 32 bits are
 *     -EINVAL; 1 and MYRMEX_ICA_MAX_PAGES pages work, every page writable
 *     and zero-filled, at myrmex_ica_addr(handle);
 *   - a freed ICA's slot comes back zero-filled for the next allocation, and
 *     the old handle is stale (-EINVAL) even when the slot is reused;
 *   - detach parks (a second detach and a free-while-attached check the
 *     state), attach maps the same contents back, a second attach -EINVAL;
 *   - allocation until -EAGAIN: 512 ICAs for this process, which has the
 *     server right (64 without it); freeing one lets one more be allocated;
 *   - ICAs are charged to the allocator: an ICA received from a server
 *     (ipc_server serve, coreid 125, IPC_OP_SWAP) does not count against
 *     the receiver, and freeing it does not give the receiver room.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_ipc_limits"
#include "test_check.h"
#include "ipc_test.h"

#define COREID 125u
#define PAGE 4096u
#define PER_PROCESS 512   /* ICA_MAX_PER_SERVER: the test runs with the server right */

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

static void check_sizes(void)
{
	CHECK_EQ(myrmex_ica_alloc(0), -EINVAL);
	CHECK_EQ(myrmex_ica_alloc(MYRMEX_ICA_MAX_PAGES + 1), -EINVAL);
	CHECK_EQ(myrmex_ica_alloc(257), -EINVAL);
	if (test_fits_word((1ull << 32) + 1))
		CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_ICA_ALLOC, (long)((1ull << 32) + 1), 0, 0, 0, 0, 0),
		         -EINVAL);
	CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_ICA_ALLOC, -1L, 0, 0, 0, 0, 0), -EINVAL);

	long big = myrmex_ica_alloc(MYRMEX_ICA_MAX_PAGES);
	if (big < 0) {
		test_fail("ica_alloc(%d): %ld", MYRMEX_ICA_MAX_PAGES, big);
		return;
	}
	unsigned char *p = myrmex_ica_addr((uint32_t)big);
	CHECK((uintptr_t)p >= MYRMEX_ICA_WINDOW &&
	      (uintptr_t)p < MYRMEX_ICA_WINDOW + MYRMEX_ICA_WINDOW_SIZE, "ICA at %p", (void *)p);
	CHECK(all_zero(p, (size_t)MYRMEX_ICA_MAX_PAGES * PAGE), "a new ICA is not zero-filled");
	for (size_t i = 0; i < (size_t)MYRMEX_ICA_MAX_PAGES * PAGE; i += PAGE)
		p[i] = (unsigned char)(i / PAGE + 1);
	for (size_t i = 0; i < (size_t)MYRMEX_ICA_MAX_PAGES * PAGE; i += PAGE)
		CHECK(p[i] == (unsigned char)(i / PAGE + 1), "page %zu lost its write", i / PAGE);
	CHECK_EQ(myrmex_ica_free((uint32_t)big), 0);
}

static void check_reuse(void)
{
	long a = myrmex_ica_alloc(1);
	if (a < 0) {
		test_fail("ica_alloc: %ld", a);
		return;
	}
	memset(myrmex_ica_addr((uint32_t)a), 0xab, PAGE);
	CHECK_EQ(myrmex_ica_free((uint32_t)a), 0);
	CHECK_EQ(myrmex_ica_free((uint32_t)a), -EINVAL);
	long b = myrmex_ica_alloc(1);
	if (b < 0) {
		test_fail("ica_alloc: %ld", b);
		return;
	}
	CHECK(all_zero(myrmex_ica_addr((uint32_t)b), PAGE), "a reused ICA is not zero-filled");
	if ((b & MYRMEX_ICA_SLOT_MASK) == (a & MYRMEX_ICA_SLOT_MASK))
		CHECK(b != a, "a reused slot kept its handle %#lx", b);
	/* The stale handle names nothing, even with its slot in use again. */
	CHECK_EQ(myrmex_ica_attach((uint32_t)a), -EINVAL);
	CHECK_EQ(myrmex_ica_detach((uint32_t)a), -EINVAL);
	CHECK_EQ(myrmex_ica_free((uint32_t)a), -EINVAL);
	CHECK_EQ(myrmex_ica_free((uint32_t)b), 0);
}

static void check_park(void)
{
	long a = myrmex_ica_alloc(2);
	if (a < 0) {
		test_fail("ica_alloc: %ld", a);
		return;
	}
	uint32_t h = (uint32_t)a;
	char *p = myrmex_ica_addr(h);
	strcpy(p, "parked");
	strcpy(p + PAGE, "second page");
	CHECK_EQ(myrmex_ica_attach(h), -EINVAL);   /* already attached */
	CHECK_EQ(myrmex_ica_detach(h), 0);
	CHECK_EQ(myrmex_ica_detach(h), -EINVAL);   /* already parked */
	CHECK_EQ(myrmex_ica_attach(h), 0);
	CHECK(strcmp(p, "parked") == 0 && strcmp(p + PAGE, "second page") == 0,
	      "contents lost across detach/attach");
	CHECK_EQ(myrmex_ica_detach(h), 0);
	CHECK_EQ(myrmex_ica_free(h), 0);           /* a parked ICA can be freed */
	CHECK_EQ(myrmex_ica_attach(h), -EINVAL);
}

/* Allocates until refused; returns how many, handles in out. */
static int fill(uint32_t *out, int max)
{
	int n = 0;
	for (; n < max; n++) {
		long r = myrmex_ica_alloc(1);
		if (r < 0) {
			CHECK_EQ(r, -EAGAIN);
			break;
		}
		out[n] = (uint32_t)r;
	}
	return n;
}

static void check_count_limit(void)
{
	uint32_t h[PER_PROCESS + 8];
	int n = fill(h, PER_PROCESS + 8);
	CHECK(n == PER_PROCESS, "allocated %d ICAs, limit %d", n, PER_PROCESS);
	if (n > 0) {
		CHECK_EQ(myrmex_ica_free(h[n - 1]), 0);
		long r = myrmex_ica_alloc(1);
		CHECK(r >= 0, "after a free, ica_alloc: %ld", r);
		if (r >= 0)
			h[n - 1] = (uint32_t)r;
		CHECK_EQ(myrmex_ica_alloc(1), -EAGAIN);
	}
	for (int i = 0; i < n; i++)
		CHECK_EQ(myrmex_ica_free(h[i]), 0);
}

static void check_charge(void)
{
	long pid = ipc_start("serve", COREID, NULL);
	if (pid <= 0 || ipc_wait_ready(COREID) != 0) {
		ipc_stop(pid);
		return;
	}
	uint32_t ctl;
	struct myrmex_ctl_header *hd = ipc_new_ctl(&ctl);
	uint32_t h[PER_PROCESS];
	int n = hd ? fill(h, PER_PROCESS - 2) : 0;   /* ctl + n = limit - 1: one left */
	myrmex_ctl_push(hd, 1, COREID, IPC_OP_SWAP);
	CHECK_EQ(myrmex_callsync(hd), 0);
	struct myrmex_frame *r = myrmex_ctl_result(hd);
	uint32_t got = r && r->status == 0 && r->ndata == 1 ? r->data[0] : 0;
	CHECK(got != 0, "no ICA from the server");
	/* We hold limit + 1 ICAs now, but only limit - 1 are charged to us. */
	long last = myrmex_ica_alloc(1);
	CHECK(last >= 0, "the last charged ICA: %ld", last);
	CHECK_EQ(myrmex_ica_alloc(1), -EAGAIN);
	if (got) {
		CHECK(strcmp(myrmex_ica_addr(got), IPC_SWAP_TEXT) == 0, "the server's ICA");
		CHECK_EQ(myrmex_ica_free(got), 0);
		CHECK_EQ(myrmex_ica_alloc(1), -EAGAIN);   /* it was not charged to us */
	}
	if (last >= 0)
		CHECK_EQ(myrmex_ica_free((uint32_t)last), 0);
	for (int i = 0; i < n; i++)
		CHECK_EQ(myrmex_ica_free(h[i]), 0);
	CHECK_EQ(myrmex_ica_free(ctl), 0);
	ipc_stop(pid);
}

int main(void)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	check_sizes();
	check_reuse();
	check_park();
	check_count_limit();
	check_charge();
	return test_exit_code();
}
