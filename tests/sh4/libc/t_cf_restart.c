/*
 * t_cf_restart: the CF disk driver (servers/disk/cf_ide) killed in the
 * middle of a command, and a new one started on the same drive, as a
 * restarted driver would be. sh4init runs it as "^t_cf_restart" (the power
 * to give the CF slot). Each round starts a driver, starts a 256-sector
 * write (one WRITE SECTORS command, a pattern inverted by the round) with
 * callasync, lets the driver run for a number of yields that grows with
 * the round, kills it and reaps it: the call ends with -EPIPE, or with its
 * byte count when it was done first. Then a new driver must serve at once
 * and truly: the drive reset (a data phase left half done would take the
 * next command's sectors), an INTRQ left raised and an interrupt message
 * left over dropped, not counted. Checked: each sector of the killed write
 * is wholly what one write left (this round's, an earlier one's or the
 * image's), and a write and a read through the new
 * driver (synchronous, then 8 at once) land where they should. The
 * areas are put back at the end. Sectors 6144.. only: t_disk's areas stay
 * as they are.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_cf_restart"
#include "test_check.h"
#include "ipc_test.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <myrmex/device.h>
#include <myrmex/disk.h>

#define PAGE 4096u
#define KILL_AREA 6144u                 /* the killed writes' 256 sectors */
#define KILL_SECTORS 256u
#define CHECK_AREA (KILL_AREA + KILL_SECTORS)   /* the new driver's writes */
#define CHECK_SECTORS 8u
#define ASYNC_CALLS 8
#define ROUNDS 6

static int ide_device = -1;

/* Byte i of sector s in the pattern image (tools/mkpattern.py). */
static uint8_t pattern_byte(uint64_t s, unsigned i)
{
	return i < 8 ? (uint8_t)(s >> (8 * i)) : (uint8_t)(7 * s + i);
}

static void fill(uint8_t *buf, uint64_t sector, uint64_t count, uint8_t invert)
{
	for (uint64_t s = 0; s < count; s++)
		for (unsigned i = 0; i < DISK_SECTOR_SIZE; i++)
			buf[s * DISK_SECTOR_SIZE + i] = pattern_byte(sector + s, i) ^ invert;
}

/* 1 when sector `sector` in buf is the pattern xor invert. */
static int sector_is(const uint8_t *buf, uint64_t sector, uint8_t invert)
{
	for (unsigned i = 0; i < DISK_SECTOR_SIZE; i++)
		if (buf[i] != (uint8_t)(pattern_byte(sector, i) ^ invert))
			return 0;
	return 1;
}

static int find_ide(void)
{
	for (uint32_t i = 0; i < MYRMEX_MAX_DEVICES; i++) {
		struct myrmex_pci_info info;
		if (myrmex_dev_info(i, &info) < 0)
			break;
		if (info.kind == MYRMEX_DEV_KIND_LEGACY && info.class_code == 1 && info.subclass == 1)
			return (int)i;
	}
	return -1;
}

static long start_driver(void)
{
	char *const argv[] = { "cf_ide", NULL };
	char *const envp[] = { "MYRMEX_TEST=1", NULL };
	long pid = myrmex_spawn_flags("cf_ide", argv, envp, -1,
	                              MYRMEX_SPAWN_SERVER | MYRMEX_SPAWN_DEVICE(ide_device));
	CHECK(pid > 0, "spawn cf_ide: %ld", pid);
	return pid;
}

/* One synchronous transfer of count sectors at sector with ICA data
 * (waiting for the driver to register): the status, or INT64_MIN when the
 * call itself failed. */
static int64_t transfer(uint32_t op, uint64_t sector, uint64_t count, long data)
{
	uint32_t handle;
	struct myrmex_ctl_header *h = ipc_new_ctl(&handle);
	if (!h)
		return INT64_MIN;
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_DISK, op);
	f->arg[0] = sector;
	f->arg[1] = count;
	f->ndata = 1;
	f->data[0] = (uint32_t)data;
	long r = ipc_call_when_ready(h, 1);
	struct myrmex_frame *res = myrmex_ctl_result(h);
	int64_t status = r == 0 && res ? res->status : INT64_MIN;
	if (r != 0)
		test_fail("callsync (opcode %u, sector %llu): %ld", op, (unsigned long long)sector, r);
	myrmex_ica_free(handle);
	return status;
}

/* A write of the pattern xor invert, read back through the same driver. */
static void write_and_read(uint64_t sector, uint8_t invert, const char *what)
{
	long data = myrmex_ica_alloc(1);
	if (data < 0) {
		test_fail("%s: ica_alloc: %ld", what, data);
		return;
	}
	uint8_t *buf = myrmex_ica_addr((uint32_t)data);
	fill(buf, sector, CHECK_SECTORS, invert);
	CHECK(transfer(DISK_WRITE, sector, CHECK_SECTORS, data) == PAGE, "%s: the write failed", what);
	memset(buf, 0xee, PAGE);
	CHECK(transfer(DISK_READ, sector, CHECK_SECTORS, data) == PAGE, "%s: the read failed", what);
	for (unsigned s = 0; s < CHECK_SECTORS; s++)
		CHECK(sector_is(buf + s * DISK_SECTOR_SIZE, sector + s, invert),
		      "%s: sector %llu read back wrong", what, (unsigned long long)(sector + s));
	myrmex_ica_free((uint32_t)data);
}

/* 1 when the sector is wholly the pattern as one of the rounds up to
 * `round` left it (xor 0x11 * (r + 1)), or as the image had it. */
static int sector_is_some_round(const uint8_t *buf, uint64_t sector, unsigned round)
{
	if (sector_is(buf, sector, 0))
		return 1;
	for (unsigned r = 0; r <= round; r++)
		if (sector_is(buf, sector, (uint8_t)(0x11 * (r + 1))))
			return 1;
	return 0;
}

/* ASYNC_CALLS one-page reads of the killed area at once: each sector wholly
 * what one write left, never a mix. */
static void read_killed_area(unsigned round, const char *what)
{
	uint32_t ctls[ASYNC_CALLS];
	long data[ASYNC_CALLS];
	int made = 0;
	for (; made < ASYNC_CALLS; made++) {
		struct myrmex_ctl_header *h = ipc_new_ctl(&ctls[made]);
		data[made] = myrmex_ica_alloc(1);
		if (!h || data[made] < 0) {
			test_fail("%s: no ICA for call %d", what, made);
			break;
		}
		memset(myrmex_ica_addr((uint32_t)data[made]), 0xee, PAGE);
		struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_DISK, DISK_READ);
		f->arg[0] = KILL_AREA + (uint64_t)made * (KILL_SECTORS / ASYNC_CALLS);
		f->arg[1] = PAGE / DISK_SECTOR_SIZE;
		f->ndata = 1;
		f->data[0] = (uint32_t)data[made];
		long r = ipc_call_when_ready(h, 0);
		if (r != 0) {
			test_fail("%s: callasync %d: %ld", what, made, r);
			myrmex_ica_free((uint32_t)data[made]);
			myrmex_ica_free(ctls[made]);
			break;
		}
	}
	for (int got = 0; got < made; got++) {
		struct myrmex_delivery dl;
		long r = myrmex_get(NULL, &dl);
		if (r <= 0 || dl.kind != MYRMEX_DELIVERY_RESULT) {
			test_fail("%s: get: %ld kind %u", what, r, dl.kind);
			break;
		}
		int k = -1;
		for (int i = 0; i < made; i++)
			if (ctls[i] == dl.handle)
				k = i;
		if (k < 0) {
			test_fail("%s: a result for control ICA %#x: not ours", what, dl.handle);
			continue;
		}
		CHECK(dl.status == PAGE, "%s: read %d: status %ld", what, k, (long)dl.status);
		if (dl.status != PAGE)
			continue;
		const uint8_t *buf = myrmex_ica_addr((uint32_t)data[k]);
		uint64_t first = KILL_AREA + (uint64_t)k * (KILL_SECTORS / ASYNC_CALLS);
		for (unsigned s = 0; s < PAGE / DISK_SECTOR_SIZE; s++) {
			const uint8_t *sec = buf + s * DISK_SECTOR_SIZE;
			CHECK(sector_is_some_round(sec, first + s, round),
			      "%s: sector %llu is no write's whole sector", what,
			      (unsigned long long)(first + s));
		}
	}
	for (int k = 0; k < made; k++) {
		myrmex_ica_free(ctls[k]);
		myrmex_ica_free((uint32_t)data[k]);
	}
}

/* Starts the 256-sector write, kills the driver after `yields` yields. */
static void kill_mid_write(long pid, unsigned yields, uint8_t invert, const char *what)
{
	uint32_t ctl_handle;
	struct myrmex_ctl_header *h = ipc_new_ctl(&ctl_handle);
	long data = myrmex_ica_alloc(KILL_SECTORS * DISK_SECTOR_SIZE / PAGE);
	if (!h || data < 0) {
		test_fail("%s: no ICAs for the write", what);
		ipc_stop(pid);
		return;
	}
	fill(myrmex_ica_addr((uint32_t)data), KILL_AREA, KILL_SECTORS, invert);
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_DISK, DISK_WRITE);
	f->arg[0] = KILL_AREA;
	f->arg[1] = KILL_SECTORS;
	f->ndata = 1;
	f->data[0] = (uint32_t)data;
	long r = ipc_call_when_ready(h, 0);
	CHECK_EQ(r, 0);
	for (unsigned i = 0; i < yields; i++)
		myrmex_syscall6(SYS_sched_yield, 0, 0, 0, 0, 0, 0);
	ipc_stop(pid);
	if (r == 0) {
		struct myrmex_delivery dl;
		long g = myrmex_get(NULL, &dl);
		CHECK(g > 0 && dl.kind == MYRMEX_DELIVERY_RESULT && dl.handle == ctl_handle,
		      "%s: get: %ld kind %u", what, g, dl.kind);
		CHECK(dl.status == -EPIPE || dl.status == KILL_SECTORS * DISK_SECTOR_SIZE,
		      "%s: the killed write ended with %ld", what, (long)dl.status);
		test_note("%s: the write ended with %ld", what, (long)dl.status);
	}
	myrmex_ica_free((uint32_t)data);
	myrmex_ica_free(ctl_handle);
}

int main(void)
{
	ide_device = find_ide();
	CHECK(ide_device >= 0, "no legacy IDE device listed");
	if (ide_device < 0)
		return test_exit_code();
	char what[32];
	for (unsigned round = 0; round < ROUNDS; round++) {
		uint8_t invert = (uint8_t)(0x11 * (round + 1));
		snprintf(what, sizeof what, "round %u", round);
		long pid = start_driver();
		if (pid <= 0)
			break;
		/* 0, 1, 4, 16...: the kill lands in different phases (none of
		 * which the checks depend on). */
		kill_mid_write(pid, round ? 1u << (2 * (round - 1)) : 0, invert, what);
		pid = start_driver();
		if (pid <= 0)
			break;
		write_and_read(CHECK_AREA, invert, what);
		read_killed_area(round, what);
		ipc_stop(pid);
	}
	/* The pattern back, through one last driver. */
	long pid = start_driver();
	if (pid > 0) {
		long data = myrmex_ica_alloc(KILL_SECTORS * DISK_SECTOR_SIZE / PAGE);
		if (data >= 0) {
			fill(myrmex_ica_addr((uint32_t)data), KILL_AREA, KILL_SECTORS, 0);
			CHECK(transfer(DISK_WRITE, KILL_AREA, KILL_SECTORS, data) ==
			      KILL_SECTORS * DISK_SECTOR_SIZE, "restoring the killed area failed");
			myrmex_ica_free((uint32_t)data);
		}
		write_and_read(CHECK_AREA, 0, "restored");
		ipc_stop(pid);
	}
	return test_exit_code();
}
