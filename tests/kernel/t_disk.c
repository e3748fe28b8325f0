/*
 * t_disk: the virtio-blk driver server (servers/disk/virtio_blk) through the
 * disk protocol (include/myrmex/disk.h). The test init starts the driver with
 * the device before each disk test and stops it after; the disk is the image
 * tools/mkpattern.py wrote, whose sector s starts with s (8 bytes, little
 * endian) and whose byte i (8 <= i < 512) is (7 * s + i) mod 256.
 *
 *   t_disk info    DISK_INFO: capacity, sector and block size; the last
 *                  sector holds its own number (the capacity is the image's)
 *   t_disk read    sectors read into data ICAs match the pattern: the first
 *                  ones, a 64-page ICA filled whole, the last sector, one
 *                  sector in a 1-page ICA
 *   t_disk write   a write read back, a flush, the pattern written back
 *   t_disk async   many reads and writes in flight at once (callasync), each
 *                  result taken with get() and checked
 *   t_disk range   ranges past the end, count 0 and an overflowing range give
 *                  -EINVAL and touch nothing; the next request works
 *   t_disk small   no data ICA, or one too small for the count: -EINVAL;
 *                  an ICA exactly big enough works; a transfer at an offset
 *                  in the ICA lands there, and an unaligned offset or one
 *                  that does not leave room for the count gives -EINVAL
 *   t_disk badop   unknown opcodes give -ENOSYS; the driver goes on
 *   t_disk orphan  a child starts reads with callasync and exits at once; the
 *                  driver completes them for nobody (the kernel frees their
 *                  ICAs: ica_live comes back down) and goes on serving
 *   t_disk not-client  (on fs.img, under the file manager) the driver serves
 *                  its client, the file manager, alone: a program's
 *                  DISK_READ, DISK_WRITE and DISK_FLUSH get -EPERM and touch
 *                  nothing; DISK_INFO still answers
 */
#define _GNU_SOURCE
#define TEST_NAME "t_disk"
#include "test_check.h"
#include "ipc_test.h"

#include <errno.h>
#include <stdint.h>
#include <myrmex/disk.h>

#define PAGE 4096u
#define SECTORS_PER_PAGE (PAGE / DISK_SECTOR_SIZE)
#define CALL_FAILED INT64_MIN        /* the call itself was refused */
#define ASYNC_CALLS 24               /* two ICAs each, within the 64-ICA limit */
#define WRITE_AREA 2048u             /* sectors the write tests change and restore */
#define ASYNC_WRITE_AREA 4096u
#define ORPHAN_CALLS 16
#define ORPHAN_WAIT_MS 10000

static struct myrmex_ctl_header *ctl;   /* for the synchronous calls */
static uint64_t ica_offset;              /* arg[2] of the next calls: where in the data ICA */
static uint32_t ctl_handle;

/* ------------------------------------------------------------ the pattern */

static uint8_t disk_pattern_byte(uint64_t sector, unsigned i)
{
	if (i < 8)
		return (uint8_t)(sector >> (8 * i));
	return (uint8_t)(7 * sector + i);
}

static void fill_pattern(uint8_t *buf, uint64_t sector, uint64_t count, uint8_t invert)
{
	for (uint64_t s = 0; s < count; s++)
		for (unsigned i = 0; i < DISK_SECTOR_SIZE; i++)
			buf[s * DISK_SECTOR_SIZE + i] = disk_pattern_byte(sector + s, i) ^ invert;
}

/* 1 if buf holds sectors sector.. of the pattern (xor invert); else reports
 * the first difference and returns 0. */
static int check_pattern(const uint8_t *buf, uint64_t sector, uint64_t count, uint8_t invert,
                         const char *what)
{
	for (uint64_t s = 0; s < count; s++) {
		for (unsigned i = 0; i < DISK_SECTOR_SIZE; i++) {
			uint8_t want = disk_pattern_byte(sector + s, i) ^ invert;
			uint8_t got = buf[s * DISK_SECTOR_SIZE + i];
			if (got != want) {
				test_fail("%s: sector %llu byte %u is %#x, expected %#x", what,
				          (unsigned long long)(sector + s), i, got, want);
				return 0;
			}
		}
	}
	return 1;
}

/* ------------------------------------------------------------ calls */

static long new_data(uint32_t pages)
{
	long h = myrmex_ica_alloc(pages);
	if (h < 0)
		test_fail("ica_alloc(%u): %ld", pages, h);
	return h;
}

static uint8_t *data_addr(long handle)
{
	return myrmex_ica_addr((uint32_t)handle);
}

/*
 * One synchronous call: opcode with arg[0] = a0 and arg[1] = a1, carrying
 * the data ICA `data` (none when < 0). Waits for the driver to register.
 * Returns the result's status (the result frame in *result when given), or
 * CALL_FAILED when callsync itself failed (reported).
 */
static int64_t disk_call(uint32_t opcode, uint64_t a0, uint64_t a1, long data,
                         struct myrmex_frame *result)
{
	if (!ctl && !(ctl = ipc_new_ctl(&ctl_handle)))
		return CALL_FAILED;
	struct myrmex_frame *f = myrmex_ctl_push(ctl, 1, MYRMEX_COREID_DISK, opcode);
	if (!f) {
		test_fail("ctl_push failed");
		return CALL_FAILED;
	}
	f->arg[0] = a0;
	f->arg[1] = a1;
	f->arg[2] = ica_offset;
	if (data >= 0) {
		f->ndata = 1;
		f->data[0] = (uint32_t)data;
	}
	long r = ipc_call_when_ready(ctl, 1);
	if (r != 0) {
		test_fail("callsync(opcode %u, %llu, %llu): %ld", opcode, (unsigned long long)a0,
		          (unsigned long long)a1, r);
		return CALL_FAILED;
	}
	struct myrmex_frame *res = myrmex_ctl_result(ctl);
	if (!res) {
		test_fail("no result frame after callsync");
		return CALL_FAILED;
	}
	if (result)
		*result = *res;
	return res->status;
}

static uint64_t disk_capacity(void)
{
	struct myrmex_frame r;
	int64_t status = disk_call(DISK_INFO, 0, 0, -1, &r);
	if (status != 0) {
		test_fail("DISK_INFO: status %lld", (long long)status);
		return 0;
	}
	return r.arg[0];
}

/* Reads count sectors from `sector` into the ICA `data` and checks them. */
static void read_and_check(long data, uint64_t sector, uint64_t count, uint8_t invert,
                           const char *what)
{
	memset(data_addr(data), 0xee, count * DISK_SECTOR_SIZE);
	int64_t status = disk_call(DISK_READ, sector, count, data, NULL);
	if (status != (int64_t)(count * DISK_SECTOR_SIZE)) {
		test_fail("%s: DISK_READ %llu+%llu: status %lld", what, (unsigned long long)sector,
		          (unsigned long long)count, (long long)status);
		return;
	}
	check_pattern(data_addr(data), sector, count, invert, what);
}

/* ------------------------------------------------------------ tests */

static void test_info(void)
{
	struct myrmex_frame r;
	CHECK_EQ(disk_call(DISK_INFO, 0, 0, -1, &r), 0);
	uint64_t capacity = r.arg[0];
	CHECK(capacity >= 2 * ASYNC_WRITE_AREA, "capacity %llu sectors: too small for the tests",
	      (unsigned long long)capacity);
	CHECK_EQ(r.arg[1], DISK_SECTOR_SIZE);
	CHECK(r.arg[2] >= DISK_SECTOR_SIZE && (r.arg[2] & (r.arg[2] - 1)) == 0,
	      "block size %llu", (unsigned long long)r.arg[2]);
	CHECK(!(r.arg[3] & DISK_INFO_READONLY), "the test disk is read-only");
	CHECK_EQ(r.ndata, 0);
	test_note("capacity %llu sectors, block %llu, flags %#llx", (unsigned long long)capacity,
	          (unsigned long long)r.arg[2], (unsigned long long)r.arg[3]);
	/* The last sector names itself: the capacity is the whole image. */
	long data = new_data(1);
	if (data < 0 || capacity == 0)
		return;
	read_and_check(data, capacity - 1, 1, 0, "last sector");
	CHECK_EQ(disk_call(DISK_READ, capacity, 1, data, NULL), -EINVAL);
	CHECK_EQ(myrmex_ica_free((uint32_t)data), 0);
}

static void test_read(void)
{
	uint64_t capacity = disk_capacity();
	long small = new_data(1), big = new_data(MYRMEX_ICA_MAX_PAGES);
	if (small < 0 || big < 0 || capacity == 0)
		return;
	read_and_check(small, 0, SECTORS_PER_PAGE, 0, "sectors 0..7");
	read_and_check(small, 1, 1, 0, "sector 1 alone");
	uint64_t whole = (uint64_t)MYRMEX_ICA_MAX_PAGES * SECTORS_PER_PAGE;
	read_and_check(big, 1000, whole, 0, "a 64-page ICA filled whole");
	read_and_check(big, capacity - whole, whole, 0, "the last 64 pages of the disk");
	/* The data ICA came back attached and ours: it can be freed. */
	CHECK_EQ(myrmex_ica_free((uint32_t)small), 0);
	CHECK_EQ(myrmex_ica_free((uint32_t)big), 0);
}

static void test_write(void)
{
	uint64_t count = 2 * SECTORS_PER_PAGE;
	long out = new_data(2), in = new_data(2);
	if (out < 0 || in < 0)
		return;
	fill_pattern(data_addr(out), WRITE_AREA, count, 0xff);
	CHECK_EQ(disk_call(DISK_WRITE, WRITE_AREA, count, out, NULL), (long)(count * DISK_SECTOR_SIZE));
	/* What was written is still in the ICA (the device only read it). */
	check_pattern(data_addr(out), WRITE_AREA, count, 0xff, "the written ICA afterwards");
	read_and_check(in, WRITE_AREA, count, 0xff, "read back after the write");
	read_and_check(in, WRITE_AREA + count, 1, 0, "the sector after the write");
	read_and_check(in, WRITE_AREA - 1, 1, 0, "the sector before the write");
	CHECK_EQ(disk_call(DISK_FLUSH, 0, 0, -1, NULL), 0);
	/* Put the pattern back, so the image is as the other tests expect. */
	fill_pattern(data_addr(out), WRITE_AREA, count, 0);
	CHECK_EQ(disk_call(DISK_WRITE, WRITE_AREA, count, out, NULL), (long)(count * DISK_SECTOR_SIZE));
	read_and_check(in, WRITE_AREA, count, 0, "read back after restoring");
	CHECK_EQ(disk_call(DISK_FLUSH, 0, 0, -1, NULL), 0);
	CHECK_EQ(myrmex_ica_free((uint32_t)out), 0);
	CHECK_EQ(myrmex_ica_free((uint32_t)in), 0);
}

/* The sector of async call k: calls alternate between a read of the
 * pattern and a write of the inverted pattern, each one page long. */
static uint64_t async_sector(int k)
{
	return (k % 2 ? ASYNC_WRITE_AREA : 0) + (uint64_t)k * SECTORS_PER_PAGE;
}

/* Starts ASYNC_CALLS calls at once, then takes every result with get(). */
static void async_round(const char *round, int writes)
{
	uint32_t ctls[ASYNC_CALLS];
	long data[ASYNC_CALLS];
	int done[ASYNC_CALLS] = { 0 };
	int made = 0;
	for (; made < ASYNC_CALLS; made++) {
		int k = made;
		int is_write = writes && k % 2;
		struct myrmex_ctl_header *h = ipc_new_ctl(&ctls[k]);
		data[k] = new_data(1);
		if (!h || data[k] < 0)
			break;
		if (is_write)
			fill_pattern(data_addr(data[k]), async_sector(k), SECTORS_PER_PAGE, 0xff);
		else
			memset(data_addr(data[k]), 0xee, PAGE);
		struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_DISK,
		                                         is_write ? DISK_WRITE : DISK_READ);
		f->arg[0] = async_sector(k);
		f->arg[1] = SECTORS_PER_PAGE;
		f->ndata = 1;
		f->data[0] = (uint32_t)data[k];
		long r = ipc_call_when_ready(h, 0);
		if (r != 0) {
			test_fail("%s: callasync %d: %ld", round, k, r);
			break;
		}
	}
	for (int got = 0; got < made; got++) {
		struct myrmex_delivery dl;
		long r = myrmex_get(NULL, &dl);
		if (r <= 0 || dl.kind != MYRMEX_DELIVERY_RESULT) {
			test_fail("%s: get: %ld kind %u", round, r, dl.kind);
			break;
		}
		int k = -1;
		for (int i = 0; i < made; i++)
			if (ctls[i] == dl.handle)
				k = i;
		if (k < 0 || done[k]) {
			test_fail("%s: a result for control ICA %#x: %s", round, dl.handle,
			          k < 0 ? "not one of ours" : "twice");
			continue;
		}
		done[k] = 1;
		CHECK_EQ(dl.status, (long)PAGE);
		CHECK(dl.ndata == 1 && dl.data[0] == (uint32_t)data[k], "%s: call %d: data ICA "
		      "not returned (ndata %u)", round, k, dl.ndata);
		int is_write = writes && k % 2;
		if (!is_write && dl.status == PAGE)
			check_pattern(data_addr(data[k]), async_sector(k), SECTORS_PER_PAGE, 0, round);
	}
	for (int k = 0; k < made; k++) {
		myrmex_ica_free(ctls[k]);
		myrmex_ica_free((uint32_t)data[k]);
	}
}

static void test_async(void)
{
	async_round("async reads", 0);
	async_round("async reads and writes", 1);
	/* The writes landed: read them back, then put the pattern back. */
	long buf = new_data(1);
	if (buf < 0)
		return;
	for (int k = 1; k < ASYNC_CALLS; k += 2) {
		read_and_check(buf, async_sector(k), SECTORS_PER_PAGE, 0xff, "an async write read back");
		fill_pattern(data_addr(buf), async_sector(k), SECTORS_PER_PAGE, 0);
		CHECK_EQ(disk_call(DISK_WRITE, async_sector(k), SECTORS_PER_PAGE, buf, NULL), (long)PAGE);
	}
	read_and_check(buf, async_sector(1), SECTORS_PER_PAGE, 0, "an async area restored");
	CHECK_EQ(myrmex_ica_free((uint32_t)buf), 0);
}

/* A refused request must leave the data ICA untouched. */
static void expect_refused(uint32_t opcode, uint64_t sector, uint64_t count, long data,
                           long expected, const char *what)
{
	uint8_t *buf = data_addr(data);
	memset(buf, 0x5a, PAGE);
	int64_t status = disk_call(opcode, sector, count, data, NULL);
	CHECK(status == expected, "%s: status %lld, expected %ld", what, (long long)status, expected);
	for (unsigned i = 0; i < PAGE; i++) {
		if (buf[i] != 0x5a) {
			test_fail("%s: the data ICA changed at byte %u", what, i);
			break;
		}
	}
}

static void test_range(void)
{
	uint64_t capacity = disk_capacity();
	long data = new_data(1);
	if (data < 0 || capacity == 0)
		return;
	expect_refused(DISK_READ, capacity - 1, 2, data, -EINVAL, "read across the end");
	expect_refused(DISK_READ, capacity, 1, data, -EINVAL, "read at the end");
	expect_refused(DISK_READ, UINT64_MAX, 2, data, -EINVAL, "read with an overflowing range");
	expect_refused(DISK_READ, 1, UINT64_MAX, data, -EINVAL, "read of 2^64-1 sectors");
	expect_refused(DISK_READ, 0, 0, data, -EINVAL, "read of 0 sectors");
	expect_refused(DISK_WRITE, capacity - 1, 2, data, -EINVAL, "write across the end");
	expect_refused(DISK_WRITE, capacity + 1000, 1, data, -EINVAL, "write past the end");
	/* The driver still works, and the range up to the end is fine. */
	read_and_check(data, capacity - SECTORS_PER_PAGE, SECTORS_PER_PAGE, 0, "after refusals");
	CHECK_EQ(myrmex_ica_free((uint32_t)data), 0);
}

static void test_small(void)
{
	long one = new_data(1), two = new_data(2);
	if (one < 0 || two < 0)
		return;
	expect_refused(DISK_READ, 0, SECTORS_PER_PAGE + 1, one, -EINVAL, "9 sectors into 1 page");
	expect_refused(DISK_WRITE, 0, SECTORS_PER_PAGE + 1, one, -EINVAL, "9 sectors from 1 page");
	expect_refused(DISK_READ, 0, 4 * SECTORS_PER_PAGE, two, -EINVAL, "4 pages into 2");
	CHECK_EQ(disk_call(DISK_READ, 0, 1, -1, NULL), -EINVAL);    /* no data ICA */
	CHECK_EQ(disk_call(DISK_WRITE, 0, 1, -1, NULL), -EINVAL);
	read_and_check(one, 16, SECTORS_PER_PAGE, 0, "exactly one page");
	read_and_check(two, 24, 2 * SECTORS_PER_PAGE, 0, "exactly two pages");

	/* arg[2]: the transfer starts that far into the data ICA. */
	ica_offset = 100;
	expect_refused(DISK_READ, 0, 1, one, -EINVAL, "an unaligned offset");
	ica_offset = PAGE;
	expect_refused(DISK_READ, 0, 1, one, -EINVAL, "an offset at the end of the ICA");
	ica_offset = PAGE - DISK_SECTOR_SIZE;
	expect_refused(DISK_READ, 0, 2, one, -EINVAL, "two sectors at the last one");
	ica_offset = UINT64_MAX - 511;
	expect_refused(DISK_READ, 0, 1, one, -EINVAL, "an enormous offset");
	ica_offset = 3 * DISK_SECTOR_SIZE;
	uint8_t *buf = data_addr(one);
	memset(buf, 0x5a, PAGE);
	CHECK_EQ(disk_call(DISK_READ, 40, 2, one, NULL), 2 * (long)DISK_SECTOR_SIZE);
	check_pattern(buf + ica_offset, 40, 2, 0, "two sectors at offset 1536");
	CHECK(buf[ica_offset - 1] == 0x5a && buf[ica_offset + 2 * DISK_SECTOR_SIZE] == 0x5a,
	      "a read at an offset wrote outside its range");
	ica_offset = 0;
	CHECK_EQ(myrmex_ica_free((uint32_t)one), 0);
	CHECK_EQ(myrmex_ica_free((uint32_t)two), 0);
}

static void test_badop(void)
{
	long data = new_data(1);
	if (data < 0)
		return;
	expect_refused(0, 0, 1, data, -ENOSYS, "opcode 0");
	expect_refused(99, 0, 1, data, -ENOSYS, "opcode 99");
	expect_refused(0xffffffffu, 0, 1, data, -ENOSYS, "opcode 2^32-1");
	CHECK(disk_capacity() > 0, "DISK_INFO after unknown opcodes");
	read_and_check(data, 5, 1, 0, "a read after unknown opcodes");
	CHECK_EQ(myrmex_ica_free((uint32_t)data), 0);
}

/* The child of the orphan test: ORPHAN_CALLS reads of 64 pages each, then
 * an exit while they are in flight. */
static void orphan_child(void)
{
	for (int k = 0; k < ORPHAN_CALLS; k++) {
		uint32_t ctl_h;
		struct myrmex_ctl_header *h = ipc_new_ctl(&ctl_h);
		long data = new_data(MYRMEX_ICA_MAX_PAGES);
		if (!h || data < 0)
			return;
		struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_DISK, DISK_READ);
		f->arg[0] = (uint64_t)k * MYRMEX_ICA_MAX_PAGES * SECTORS_PER_PAGE;
		f->arg[1] = MYRMEX_ICA_MAX_PAGES * SECTORS_PER_PAGE;
		f->ndata = 1;
		f->data[0] = (uint32_t)data;
		CHECK_EQ(ipc_call_when_ready(h, 0), 0);
	}
}

static long live_icas(void)
{
	struct myrmex_kstats st;
	return myrmex_kstats(&st) < 0 ? -1 : (long)st.ica_live;
}

static void test_orphan(void)
{
	CHECK(disk_capacity() > 0, "DISK_INFO before the orphan");   /* the driver is up */
	long before = live_icas();
	char *argv[] = { "t_disk", "orphan-child", NULL };
	long pid = myrmex_spawn("t_disk", argv, ipc_envp, -1);
	if (pid <= 0) {
		test_fail("spawn t_disk orphan-child: %ld", pid);
		return;
	}
	int status = 0;
	CHECK_EQ(myrmex_syscall6(SYS_wait4, pid, (long)&status, 0, 0, 0, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "orphan child: status %#x", status);
	/* Its ICAs go when the driver's results come back to nobody. */
	long now = live_icas();
	test_note("%ld ICAs of the child still out when it was reaped", now - before);
	for (int ms = 0; ms < ORPHAN_WAIT_MS && now != before; ms++) {
		myrmex_sleep_ns(IPC_MS);
		now = live_icas();
	}
	CHECK(now == before, "ica_live %ld after the orphaned reads, %ld before", now, before);
	long data = new_data(1);
	if (data < 0)
		return;
	read_and_check(data, 77, SECTORS_PER_PAGE, 0, "a read after the orphaned ones");
	CHECK_EQ(myrmex_ica_free((uint32_t)data), 0);
}

/* Found by the fuzzer (make fuzz SEED=32 ROUNDS=3000 PROCS=4): a process
 * wrote sectors of the file system under the file manager (e2fsck: "Root
 * inode is not a directory"). The writes here go to sector 0, which ext2
 * leaves unused, with what the refused read left in the ICA. */
static void test_not_client(void)
{
	struct myrmex_frame r;
	CHECK_EQ(disk_call(DISK_INFO, 0, 0, -1, &r), 0);
	long data = new_data(1);
	if (data < 0)
		return;
	CHECK_EQ(disk_call(DISK_READ, 0, SECTORS_PER_PAGE, data, NULL), -EPERM);
	CHECK_EQ(disk_call(DISK_WRITE, 0, 1, data, NULL), -EPERM);
	CHECK_EQ(disk_call(DISK_FLUSH, 0, 0, -1, NULL), -EPERM);
	CHECK_EQ(myrmex_ica_free((uint32_t)data), 0);
}

static const struct {
	const char *mode;
	void (*run)(void);
} modes[] = {
	{ "info", test_info }, { "read", test_read }, { "write", test_write },
	{ "async", test_async }, { "range", test_range }, { "small", test_small },
	{ "badop", test_badop }, { "orphan", test_orphan }, { "orphan-child", orphan_child },
	{ "not-client", test_not_client },
};

int main(int argc, char **argv)
{
	if (!myrmex_is_native()) {
		test_note("not on Myrmex: nothing to test");
		return 0;
	}
	for (size_t i = 0; argc > 1 && i < sizeof modes / sizeof modes[0]; i++) {
		if (strcmp(argv[1], modes[i].mode) == 0) {
			modes[i].run();
			if (ctl)
				myrmex_ica_free(ctl_handle);
			return test_exit_code();
		}
	}
	test_fail("usage: t_disk info|read|write|async|range|small|badop|orphan|not-client");
	return 1;
}
