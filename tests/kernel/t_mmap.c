/*
 * t_mmap: anonymous memory mappings. New mappings are zero-filled and
 * writable; MAP_FIXED replaces part of a mapping; munmap of the middle keeps
 * both sides; mprotect to read-only and back; MAP_FIXED_NOREPLACE refuses an
 * occupied range with EEXIST and takes a free one; MAP_POPULATE and
 * MAP_NORESERVE are accepted; a file mapping of a descriptor that is not
 * open is refused with EBADF (file mappings: t_mmap_file, t_omf).
 */
#define _GNU_SOURCE
#define TEST_NAME "t_mmap"
#include "test_check.h"

#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>

#define PAGE 4096L
#define PAGES 16

/* mmap's raw call: mmap2 (the offset in pages; 0 here) on 32-bit ports,
 * whose SYS_mmap is the old call with its arguments in memory. */
#ifdef SYS_mmap2
#define SYS_MMAP_RAW SYS_mmap2
#else
#define SYS_MMAP_RAW SYS_mmap
#endif

static long map_anon(long addr, long len, long prot, long extra_flags)
{
	return myrmex_syscall6(SYS_MMAP_RAW, addr, len, prot,
	                       MAP_PRIVATE | MAP_ANONYMOUS | extra_flags, -1, 0);
}

static volatile unsigned char *page_at(long base, int page)
{
	return (volatile unsigned char *)(base + page * PAGE);
}

/* Writes a byte naming the page at its first and last offset. */
static void mark_page(long base, int page)
{
	page_at(base, page)[0] = (unsigned char)(0xa0 + page);
	page_at(base, page)[PAGE - 1] = (unsigned char)(0xa0 + page);
}

static int page_marked(long base, int page)
{
	return page_at(base, page)[0] == (unsigned char)(0xa0 + page) &&
	       page_at(base, page)[PAGE - 1] == (unsigned char)(0xa0 + page);
}

static int page_zero(long base, int page)
{
	for (long off = 0; off < PAGE; off += 64)
		if (page_at(base, page)[off] != 0)
			return 0;
	return 1;
}

static void check_basic_mapping(long base)
{
	int nonzero = 0;
	for (int p = 0; p < PAGES; p++)
		if (!page_zero(base, p))
			nonzero++;
	CHECK(nonzero == 0, "%d pages of a new mapping are not zero-filled", nonzero);
	for (int p = 0; p < PAGES; p++)
		mark_page(base, p);
	int lost = 0;
	for (int p = 0; p < PAGES; p++)
		if (!page_marked(base, p))
			lost++;
	CHECK(lost == 0, "%d pages did not keep what was written", lost);
}

/* MAP_FIXED over pages 4 and 5: they become new zero pages, 3 and 6 keep data. */
static void check_fixed_replace(long base)
{
	long addr = base + 4 * PAGE;
	CHECK_EQ(map_anon(addr, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED), addr);
	CHECK(page_zero(base, 4) && page_zero(base, 5),
	      "MAP_FIXED over a mapping kept the old contents");
	CHECK(page_marked(base, 3) && page_marked(base, 6),
	      "MAP_FIXED changed the pages next to it");
	mark_page(base, 4);
	mark_page(base, 5);
}

/* munmap of pages 8 and 9: 7 and 10 stay usable, and the hole is free again. */
static void check_unmap_middle(long base)
{
	CHECK_EQ(raw2(SYS_munmap, base + 8 * PAGE, 2 * PAGE), 0);
	CHECK(page_marked(base, 7) && page_marked(base, 10),
	      "pages next to an unmapped hole lost their data");
	mark_page(base, 7);
	mark_page(base, 10);
	CHECK(page_marked(base, 0) && page_marked(base, PAGES - 1),
	      "the ends of the mapping lost their data");

	long hole = base + 8 * PAGE;
	CHECK_EQ(map_anon(hole, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_FIXED_NOREPLACE), hole);
	CHECK(page_zero(base, 8) && page_zero(base, 9), "a refilled hole is not zero-filled");
	mark_page(base, 8);
	mark_page(base, 9);
}

static void check_mprotect(long base)
{
	CHECK_EQ(raw3(SYS_mprotect, base + 2 * PAGE, 2 * PAGE, PROT_READ), 0);
	CHECK(page_marked(base, 2) && page_marked(base, 3), "read-only pages lost their data");
	CHECK(page_marked(base, 1) && page_marked(base, 4),
	      "pages next to a read-only range lost their data");
	mark_page(base, 1);
	mark_page(base, 4);
	CHECK_EQ(raw3(SYS_mprotect, base + 2 * PAGE, 2 * PAGE, PROT_READ | PROT_WRITE), 0);
	mark_page(base, 2);
	mark_page(base, 3);
	CHECK(page_marked(base, 2) && page_marked(base, 3), "pages made writable again fail");
	/* A length that is not a page multiple is rounded up. */
	CHECK_EQ(raw3(SYS_mprotect, base, 100, PROT_READ | PROT_WRITE), 0);
}

static void check_noreplace_and_flags(long base)
{
	CHECK_EQ(map_anon(base + 3 * PAGE, PAGE, PROT_READ | PROT_WRITE, MAP_FIXED_NOREPLACE),
	         -EEXIST);
	CHECK(page_marked(base, 3), "a refused MAP_FIXED_NOREPLACE changed the page");

	long populated = map_anon(0, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_POPULATE);
	CHECK(populated > 0, "mmap with MAP_POPULATE returned %ld", populated);
	if (populated > 0) {
		CHECK(page_zero(populated, 0) && page_zero(populated, 3),
		      "a MAP_POPULATE mapping is not zero-filled");
		mark_page(populated, 3);
		CHECK_EQ(raw2(SYS_munmap, populated, 4 * PAGE), 0);
	}

	long noreserve = map_anon(0, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_NORESERVE);
	CHECK(noreserve > 0, "mmap with MAP_NORESERVE returned %ld", noreserve);
	if (noreserve > 0) {
		mark_page(noreserve, 0);
		CHECK_EQ(raw2(SYS_munmap, noreserve, 4 * PAGE), 0);
	}

	/* Read-only from the start, and a length that is not a page multiple. */
	long readonly = map_anon(0, 100, PROT_READ, 0);
	CHECK(readonly > 0, "read-only mmap of 100 bytes returned %ld", readonly);
	if (readonly > 0) {
		CHECK(page_zero(readonly, 0), "a read-only mapping is not zero-filled");
		CHECK_EQ(raw2(SYS_munmap, readonly, 100), 0);
	}
}

static void check_file_mapping_refused(void)
{
	CHECK_EQ(myrmex_syscall6(SYS_MMAP_RAW, 0, PAGE, PROT_READ, MAP_PRIVATE, 5, 0), -EBADF);
	CHECK_EQ(myrmex_syscall6(SYS_MMAP_RAW, 0, PAGE, PROT_READ, MAP_SHARED, 5, 0), -EBADF);
}

int main(void)
{
	long base = map_anon(0, PAGES * PAGE, PROT_READ | PROT_WRITE, 0);
	if (base < 0) {
		test_fail("mmap of %d pages returned %ld", PAGES, base);
		return 1;
	}
	CHECK((base & (PAGE - 1)) == 0, "mmap returned an unaligned address %#lx", base);

	check_basic_mapping(base);
	check_fixed_replace(base);
	check_unmap_middle(base);
	check_mprotect(base);
	check_noreplace_and_flags(base);
	check_file_mapping_refused();

	CHECK_EQ(raw2(SYS_munmap, base, PAGES * PAGE), 0);
	/* Unmapping a range with nothing mapped is not an error (as on Linux). */
	CHECK_EQ(raw2(SYS_munmap, base, PAGES * PAGE), 0);
	return test_exit_code();
}
