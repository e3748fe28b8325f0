/*
 * t_ipc_badcalls: hostile arguments to the communication calls; each must
 * fail with its error code and move nothing (the control and data ICAs
 * stay attached and ours), and the kernel must survive (alive-after).
 *   - p that is no idle control ICA of ours: NULL, small, kernel and
 *     non-canonical addresses, a stack address, an empty slot, inside an
 *     ICA, a parked or freed ICA, a data ICA or a control ICA in flight;
 *   - malformed headers and frames: bad magic, currentp 0 / in the header /
 *     misaligned / past the end / huge, a first frame with prev, prev equal
 *     to or above currentp, ndata > 4;
 *   - data handles: forged, stale, parked, the control ICA itself, named
 *     twice, another process's, one in flight;
 *   - as a server handling its own request: a forward that does not push a
 *     frame on the one served, a forward whose prev loops or skips, a
 *     return naming ICAs it does not hold or one twice, freeing the control
 *     ICA it handles (-EBUSY), get and ret of things not handled, get with
 *     a bad out pointer (-EFAULT, nothing moved);
 *   - more stages than MYRMEX_MAX_STAGES (ipc_server recurse): refused;
 *   - ICA calls with forged or out-of-range handles.
 * Coreids: 121 (this process), 122 (ipc_server serve), 123 (recurse).
 */
#define _GNU_SOURCE
#define TEST_NAME "t_ipc_badcalls"
#include "test_check.h"
#include "ipc_test.h"

#define SELF 121u
#define OTHER 122u
#define RECURSE 123u
#define PAGE 4096u
/* Kernel space: x86-64's kernel image; cut to a 32-bit word, SH-4's P1. */
#define KERNEL_ADDR ((uintptr_t)0xffffffff80100000ULL)
/* Past user space: x86-64's first non-canonical address; a 32-bit port
 * has no hole, so there the word's upper half (SH-4's P1). */
#define NONCANONICAL (sizeof(uintptr_t) > 4 ? (uintptr_t)0x0000800000000000ULL \
                                            : (uintptr_t)0x80000000u)
/* The address word's top bit. */
#define TOP_BIT ((uintptr_t)1 << (8 * sizeof(uintptr_t) - 1))

static uint32_t ctl, data, data2;
static struct myrmex_ctl_header *h;

static uint32_t new_ica(void)
{
	long r = myrmex_ica_alloc(1);
	if (r < 0) {
		test_fail("ica_alloc: %ld", r);
		raw1(SYS_exit_group, 1);
	}
	return (uint32_t)r;
}

/* Both calls on p must give want. Should one be accepted, the call is
 * recovered (sync: it came back; async: get it back) and reported. */
static void refused(long p, long want, const char *what)
{
	long r = myrmex_syscall6(MYRMEX_SYS_CALLSYNC, p, 0, 0, 0, 0, 0);
	CHECK(r == want, "%s: callsync gave %ld, expected %ld", what, r, want);
	r = myrmex_syscall6(MYRMEX_SYS_CALLASYNC, p, 0, 0, 0, 0, 0);
	CHECK(r == want, "%s: callasync gave %ld, expected %ld", what, r, want);
	if (r == 0)
		myrmex_get(NULL, NULL);
}

/* The ICAs still belong to us, attached. */
static void nothing_moved(const char *what)
{
	uint32_t all[] = { ctl, data, data2 };
	for (int i = 0; i < 3; i++) {
		long r = myrmex_ica_detach(all[i]);
		CHECK(r == 0, "%s: ICA %d not attached and ours after the refusal (%ld)", what, i, r);
		if (r == 0)
			CHECK_EQ(myrmex_ica_attach(all[i]), 0);
	}
	((volatile char *)myrmex_ica_addr(data))[0] = 1;
}

/* A fresh, valid call to target with the given data handles. */
static struct myrmex_frame *fresh(uint32_t target, const uint32_t *d, uint32_t n)
{
	myrmex_ctl_init(h);
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, target, IPC_OP_NOP);
	f->ndata = n;
	for (uint32_t i = 0; i < n; i++)
		f->data[i] = d[i];
	return f;
}

static void check_bad_p(void)
{
	volatile char on_stack[16] = { 0 };
	uint32_t parked = new_ica(), freed = new_ica();
	myrmex_ctl_init(myrmex_ica_addr(parked));
	myrmex_ctl_init(myrmex_ica_addr(freed));
	CHECK_EQ(myrmex_ica_detach(parked), 0);
	CHECK_EQ(myrmex_ica_free(freed), 0);
	fresh(OTHER, NULL, 0);
	const struct { long p; const char *what; } bad[] = {
		{ 0, "NULL" },
		{ 1, "address 1" },
		{ (long)KERNEL_ADDR, "kernel address" },
		{ (long)NONCANONICAL, "non-canonical address" },
		{ (long)TOP_BIT, "the top bit" },
		{ (long)(uintptr_t)on_stack, "stack address" },
		{ (long)MYRMEX_ICA_WINDOW + ((long)(MYRMEX_ICA_SLOTS - 1) << MYRMEX_ICA_SLOT_SHIFT),
		  "empty slot" },
		{ (long)(uintptr_t)h + 8, "inside the control ICA" },
		{ (long)(uintptr_t)h + PAGE, "second page of the slot" },
		{ (long)MYRMEX_ICA_WINDOW + (long)MYRMEX_ICA_WINDOW_SIZE, "past the window" },
		{ (long)(uintptr_t)myrmex_ica_addr(parked), "parked ICA" },
		{ (long)(uintptr_t)myrmex_ica_addr(freed), "freed ICA" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		refused(bad[i].p, -EINVAL, bad[i].what);
	nothing_moved("bad p");
	CHECK_EQ(myrmex_ica_free(parked), 0);
}

/* Writes a header/frame defect, checks the refusal, repairs with fresh(). */
static void check_bad_frames(void)
{
	struct myrmex_frame *f;

	fresh(OTHER, &data, 1);
	h->magic = 0;
	refused((long)(uintptr_t)h, -EINVAL, "bad magic");
	const uint32_t bad_currentp[] = { 0, 8, 16, 36, 33, PAGE - 104, PAGE - 8, PAGE,
	                                  PAGE * 64, 0xfffffff8u };
	for (size_t i = 0; i < sizeof bad_currentp / sizeof bad_currentp[0]; i++) {
		fresh(OTHER, &data, 1);
		h->currentp = bad_currentp[i];
		char what[48];
		snprintf(what, sizeof what, "currentp %u", bad_currentp[i]);
		refused((long)(uintptr_t)h, -EINVAL, what);
	}
	/* A frame at the very end of the page is fine in itself: the check is
	 * of bounds, not of position. Use it with an unregistered target so
	 * that it gets as far as the target check and stops there. */
	fresh(OTHER, &data, 1);
	f = myrmex_ctl_frame(h, PAGE - 112);
	memset(f, 0, sizeof *f);
	f->target = 99;
	h->currentp = PAGE - 112;
	refused((long)(uintptr_t)h, -ESRCH, "last frame of the page, unregistered target");

	f = fresh(OTHER, &data, 1);
	f->prev = 32;   /* a first frame pointing at itself */
	refused((long)(uintptr_t)h, -EINVAL, "first frame with prev = itself");
	fresh(OTHER, &data, 1);
	f = myrmex_ctl_push(h, 1, OTHER, IPC_OP_NOP);   /* frame 144, prev 32 */
	refused((long)(uintptr_t)h, -EINVAL, "an idle call with two frames");
	f->prev = 144;
	refused((long)(uintptr_t)h, -EINVAL, "prev = currentp");
	f->prev = 256;
	refused((long)(uintptr_t)h, -EINVAL, "prev above currentp");
	f->prev = 36;
	refused((long)(uintptr_t)h, -EINVAL, "prev misaligned");

	f = fresh(OTHER, &data, 1);
	f->ndata = MYRMEX_FRAME_DATA + 1;
	refused((long)(uintptr_t)h, -EINVAL, "ndata 5");
	f->ndata = 0xffffffffu;
	refused((long)(uintptr_t)h, -EINVAL, "ndata 0xffffffff");
	nothing_moved("bad frames");
}

static void check_bad_data(void)
{
	uint32_t stale = new_ica(), parked = new_ica();
	CHECK_EQ(myrmex_ica_free(stale), 0);
	CHECK_EQ(myrmex_ica_detach(parked), 0);

	/* An ICA that now belongs to the other server (it keeps it). */
	uint32_t given = new_ica();
	fresh(OTHER, &given, 1)->opcode = IPC_OP_KEEP;
	CHECK_EQ(myrmex_callsync(h), 0);
	struct myrmex_frame *r = myrmex_ctl_result(h);
	CHECK(r && r->status == 1 && r->arg[1] == given, "the server did not keep the ICA");

	const struct { uint32_t d[2]; uint32_t n; const char *what; } bad[] = {
		{ { 0 }, 1, "handle 0" },
		{ { 0xffffffffu }, 1, "handle 0xffffffff" },
		{ { (MYRMEX_ICA_SLOTS - 1) | (7u << MYRMEX_ICA_GEN_SHIFT) }, 1, "forged handle" },
		{ { data ^ (1u << MYRMEX_ICA_GEN_SHIFT) }, 1, "wrong generation" },
		{ { stale }, 1, "stale handle" },
		{ { parked }, 1, "parked ICA" },
		{ { ctl }, 1, "the control ICA itself" },
		{ { data, data }, 2, "a handle named twice" },
		{ { given }, 1, "another process's ICA" },
		{ { data, stale }, 2, "a good handle and a stale one" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		fresh(OTHER, bad[i].d, bad[i].n);
		refused((long)(uintptr_t)h, -EINVAL, bad[i].what);
	}
	nothing_moved("bad data");
	CHECK_EQ(myrmex_ica_attach(parked), 0);
	CHECK_EQ(myrmex_ica_free(parked), 0);
}

/* Things in flight: a data ICA and a control ICA queued on our own coreid. */
static void check_in_flight(void)
{
	uint32_t qctl = new_ica(), qdata = new_ica();
	struct myrmex_ctl_header *q = myrmex_ctl_init(myrmex_ica_addr(qctl));
	struct myrmex_frame *f = myrmex_ctl_push(q, 1, SELF, IPC_OP_NOP);
	f->ndata = 1;
	f->data[0] = qdata;
	CHECK_EQ(myrmex_callasync(q), 0);

	refused((long)(uintptr_t)myrmex_ica_addr(qdata), -EINVAL, "a data ICA in flight as p");
	refused((long)(uintptr_t)q, -EINVAL, "a queued control ICA as p");
	fresh(OTHER, &qdata, 1);
	refused((long)(uintptr_t)h, -EINVAL, "a data ICA in flight as data");
	CHECK_ONE_OF(myrmex_ica_free(qdata), -EINVAL, -EBUSY);
	CHECK_ONE_OF(myrmex_ica_free(qctl), -EINVAL, -EBUSY);
	CHECK_EQ(myrmex_ica_detach(qctl), -EINVAL);
	CHECK_EQ(myrmex_ret(q), -EINVAL);               /* queued, not handled yet */
	nothing_moved("in flight");

	/* Now handle it ourselves. */
	struct myrmex_delivery d;
	long got = myrmex_get(NULL, &d);
	CHECK(got == (long)(uintptr_t)q && d.kind == MYRMEX_DELIVERY_REQUEST && d.ndata == 1 &&
	      d.data[0] == qdata && d.frame == 32, "get of our own request: %#lx", got);
	if (got != (long)(uintptr_t)q)
		return;
	CHECK_EQ(myrmex_ica_free(qctl), -EBUSY);          /* we handle it */
	CHECK_EQ(myrmex_ica_detach(qctl), -EINVAL);

	/* Forwards that do not push a proper frame on the one served. */
	refused((long)(uintptr_t)q, -EINVAL, "forward without a new frame");
	struct myrmex_frame *g = (struct myrmex_frame *)((char *)q + 144);
	memset(g, 0, sizeof *g);
	g->target = OTHER;
	g->opcode = IPC_OP_NOP;
	q->currentp = 144;
	g->prev = 0;
	refused((long)(uintptr_t)q, -EINVAL, "forward with prev 0");
	g->prev = 144;
	refused((long)(uintptr_t)q, -EINVAL, "forward with prev = itself");
	struct myrmex_frame *g2 = (struct myrmex_frame *)((char *)q + 256);
	*g2 = *g;
	g2->prev = 144;   /* skips: 144 is not a frame the kernel knows */
	q->currentp = 256;
	refused((long)(uintptr_t)q, -EINVAL, "forward above a frame never sent");
	q->currentp = 144;
	g->prev = 32;
	g->target = 99;
	refused((long)(uintptr_t)q, -ESRCH, "forward to an unregistered coreid");
	g->target = OTHER;
	g->ndata = 1;
	g->data[0] = ctl ^ (2u << MYRMEX_ICA_GEN_SHIFT);
	refused((long)(uintptr_t)q, -EINVAL, "forward with a forged data handle");

	/* get with a bad out pointer: -EFAULT, and p is still ours to return. */
	q->currentp = 32;
	CHECK_EQ(myrmex_get(q, (struct myrmex_delivery *)KERNEL_ADDR), -EFAULT);
	CHECK_EQ(myrmex_get(q, (struct myrmex_delivery *)1), -EFAULT);
	CHECK_EQ(myrmex_get(q, (struct myrmex_delivery *)(uintptr_t)check_in_flight), -EFAULT);

	/* Returns naming ICAs we do not hold, or one twice. */
	f = myrmex_ctl_frame(q, 32);
	f->ndata = 1;
	f->data[0] = qctl;
	CHECK_EQ(myrmex_ret(q), -EINVAL);
	f->ndata = 2;
	f->data[0] = qdata;
	f->data[1] = qdata;
	CHECK_EQ(myrmex_ret(q), -EINVAL);
	f->ndata = 9;
	CHECK_EQ(myrmex_ret(q), -EINVAL);
	f->ndata = 1;
	f->data[0] = ctl;   /* an idle ICA of ours is fine to return */
	f->status = 5;
	CHECK_EQ(myrmex_ret(q), 0);
	CHECK_EQ(myrmex_ret(q), -EINVAL);   /* not handled any more */

	got = myrmex_get(NULL, &d);
	CHECK(got == (long)(uintptr_t)q && d.kind == MYRMEX_DELIVERY_RESULT && d.status == 5 &&
	      d.ndata == 1 && d.data[0] == ctl, "our own result: %#lx kind %u status %lld", got,
	      d.kind, (long long)d.status);
	CHECK_EQ(myrmex_ica_free(qdata), 0);   /* the server side kept it */
	CHECK_EQ(myrmex_ica_free(qctl), 0);
	nothing_moved("after handling our own request");
}

static void check_get_ret(void)
{
	fresh(OTHER, NULL, 0);
	CHECK_EQ(myrmex_ret(NULL), -EINVAL);
	CHECK_EQ(myrmex_ret((void *)KERNEL_ADDR), -EINVAL);
	CHECK_EQ(myrmex_ret(h), -EINVAL);
	CHECK_EQ(myrmex_get(h, NULL), -EINVAL);
	CHECK_EQ(myrmex_get((void *)1, NULL), -EINVAL);
	CHECK_EQ(myrmex_get(NULL, (struct myrmex_delivery *)KERNEL_ADDR), -EFAULT);
	CHECK_EQ(myrmex_get(NULL, (struct myrmex_delivery *)NONCANONICAL), -EFAULT);
	nothing_moved("get/ret");
}

static void check_stages(void)
{
	myrmex_ctl_init(h);
	myrmex_ctl_push(h, 1, RECURSE, IPC_OP_RECURSE);
	CHECK_EQ(ipc_call_when_ready(h, 1), 0);
	struct myrmex_frame *r = myrmex_ctl_result(h);
	CHECK(r && r->status == -EINVAL && r->arg[1] == MYRMEX_MAX_STAGES,
	      "recursion: status %lld at depth %llu, expected -EINVAL at %d",
	      r ? (long long)r->status : 0LL, r ? (unsigned long long)r->arg[1] : 0ULL,
	      MYRMEX_MAX_STAGES);
	CHECK(h->currentp == 0 && h->resultp == 32, "recursion: currentp %u resultp %u",
	      h->currentp, h->resultp);
}

static void check_ica_calls(void)
{
	const uint64_t bad[] = { 0, 0xffffffffu, 1ull << 32, (1ull << 32) | data, UINT64_MAX,
	                         data ^ (1u << MYRMEX_ICA_GEN_SHIFT) };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		if (!test_fits_word(bad[i]))
			continue;
		long v = (long)bad[i];
		CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_ICA_FREE, v, 0, 0, 0, 0, 0), -EINVAL);
		CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_ICA_DETACH, v, 0, 0, 0, 0, 0), -EINVAL);
		CHECK_EQ(myrmex_syscall6(MYRMEX_SYS_ICA_ATTACH, v, 0, 0, 0, 0, 0), -EINVAL);
	}
	nothing_moved("ICA calls");
}

int main(void)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: skipped");
		return 0;
	}
	CHECK_EQ(myrmex_registserver(SELF), 0);
	long other = ipc_start("serve", OTHER, NULL);
	long recurse = ipc_start("recurse", RECURSE, NULL);
	if (other <= 0 || recurse <= 0 || ipc_wait_ready(OTHER) != 0) {
		ipc_stop(other);
		ipc_stop(recurse);
		return 1;
	}
	h = myrmex_ctl_init(myrmex_ica_addr(ctl = new_ica()));
	data = new_ica();
	data2 = new_ica();
	check_bad_p();
	check_bad_frames();
	check_bad_data();
	check_in_flight();
	check_get_ret();
	check_stages();
	check_ica_calls();
	ipc_stop(other);
	ipc_stop(recurse);
	return test_exit_code();
}
