/*
 * test_cachemodel: the cache and TLB model of the plugin that counts paper
 * 001's misses (tools/cachesim/model.c), on patterns whose misses are known:
 * 64 pages fit the 64-entry LRU data TLB and 65 pages cycled miss on every
 * access; a 300 KiB sweep misses the 256 KiB L2 on every line and the
 * 512 KiB one only once per line; a 256 KiB sweep at the experiment's
 * 128-byte stride fits the 256 KiB L2; a CR3 write empties the TLB; an
 * access across a boundary looks both sides up.
 */
/* unit-sources: tools/cachesim/model.c */
#define UNIT_SUITE "cachemodel"
#include "unit.h"

#include "../../tools/cachesim/model.h"

#define KIB 1024u
#define PAGE 4096u
#define PASSES 10u
/* Virtual and physical bases: the physical pages contiguous, as the
 * kernel's array is. */
#define VBASE 0x400000u
#define PBASE 0x10000000u

/* PASSES sweeps over bytes bytes at a stride; returns the model's counts. */
static struct model_counts sweep(uint64_t bytes, uint64_t stride)
{
	struct model m;
	struct model_counts n = { 0 };
	if (model_init(&m) != 0)
		return n;
	for (unsigned p = 0; p < PASSES; p++)
		for (uint64_t off = 0; off < bytes; off += stride)
			model_access(&m, VBASE + off, PBASE + off, 8);
	n = m.n;
	model_free(&m);
	return n;
}

UNIT_TEST(tlb_64_pages_fit)
{
	struct model_counts n = sweep(64 * PAGE, PAGE);
	CHECK_EQ(n.accesses, 64u * PASSES);
	CHECK_EQ(n.dtlb_misses, 64u);
}

UNIT_TEST(tlb_65_pages_thrash)
{
	struct model_counts n = sweep(65 * PAGE, PAGE);
	CHECK_EQ(n.dtlb_misses, 65u * PASSES);
}

UNIT_TEST(tlb_repeats_hit)
{
	/* 32 accesses per page (the 128-byte stride): one miss per page. */
	struct model_counts n = sweep(64 * PAGE, 128);
	CHECK_EQ(n.accesses, 64u * 32u * PASSES);
	CHECK_EQ(n.dtlb_misses, 64u);
}

UNIT_TEST(l2_300k_sweep)
{
	struct model_counts n = sweep(300 * KIB, 64);
	uint64_t lines = 300 * KIB / 64;
	CHECK_EQ(n.l2_misses[0], lines * PASSES);   /* 256 KiB: every line, every pass */
	CHECK_EQ(n.l2_misses[1], lines);            /* 512 KiB: cold misses only */
}

UNIT_TEST(l2_256k_fits)
{
	struct model_counts n = sweep(256 * KIB, 64);
	CHECK_EQ(n.l2_misses[0], 256u * KIB / 64);
	CHECK_EQ(n.l2_misses[1], 256u * KIB / 64);
}

UNIT_TEST(l2_stride128_256k_fits)
{
	/* The experiment's stride touches every other line: 256 KiB of width
	 * use half the sets, all 8 ways of them, and still fit. */
	struct model_counts n = sweep(256 * KIB, 128);
	CHECK_EQ(n.l2_misses[0], 256u * KIB / 128);
	/* 288 KiB do not: those half-sets then hold 9 lines each, and the 256 KiB
	 * L2 misses on every access of their sets. */
	n = sweep(288 * KIB, 128);
	CHECK_EQ(n.l2_misses[0], 288u * KIB / 128 * PASSES);
	CHECK_EQ(n.l2_misses[1], 288u * KIB / 128);
}

UNIT_TEST(flush_empties_tlb)
{
	struct model m;
	REQUIRE(model_init(&m) == 0);
	for (unsigned i = 0; i < 10; i++)
		model_access(&m, VBASE + i * PAGE, PBASE + i * PAGE, 4);
	for (unsigned i = 0; i < 10; i++)
		model_access(&m, VBASE + i * PAGE, PBASE + i * PAGE, 4);
	CHECK_EQ(m.n.dtlb_misses, 10u);
	model_flush_tlb(&m);
	for (unsigned i = 0; i < 10; i++)
		model_access(&m, VBASE + i * PAGE, PBASE + i * PAGE, 4);
	CHECK_EQ(m.n.dtlb_misses, 20u);
	CHECK_EQ(m.n.tlb_flushes, 1u);
	CHECK_EQ(m.n.l2_misses[0], 10u);    /* the caches keep their lines */
	model_free(&m);
}

UNIT_TEST(crossing_access)
{
	struct model m;
	REQUIRE(model_init(&m) == 0);
	model_access(&m, VBASE + PAGE - 4, PBASE + PAGE - 4, 8);   /* two pages, two lines */
	CHECK_EQ(m.n.accesses, 1u);
	CHECK_EQ(m.n.dtlb_misses, 2u);
	CHECK_EQ(m.n.l2_misses[0], 2u);
	model_access(&m, VBASE + 60, PBASE + 60, 4);                /* within one line */
	CHECK_EQ(m.n.l2_misses[0], 3u);
	model_free(&m);
}
