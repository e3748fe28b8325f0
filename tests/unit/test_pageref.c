/*
 * Host unit tests of the shared-frame reference counts (kernel/core/pageref.c):
 * a fresh frame is unshared and its one reference is the last, references
 * add and drop in order, the bounds and the saturation limit refuse without
 * changing anything, and a randomized run against a simple model.
 */
/* unit-sources: kernel/core/pageref.c */
#define UNIT_SUITE "pageref"
#include "unit.h"

#include <kernel/pageref.h>

#define PAGES 64

/* A table whose counter array is heap-allocated with its exact size, so
 * ASan catches any access beyond it. */
static uint16_t *new_table(struct pageref *r, uint64_t npages)
{
	uint16_t *extra = malloc(npages ? npages * sizeof(uint16_t) : 1);
	if (!extra)
		abort();
	for (uint64_t i = 0; i < npages; i++)
		extra[i] = 0x5a5a;   /* init must clear whatever was there */
	pageref_init(r, extra, npages);
	return extra;
}

UNIT_TEST(fresh_frames_are_unshared)
{
	struct pageref r;
	uint16_t *extra = new_table(&r, PAGES);
	for (uint64_t p = 0; p < PAGES; p++)
		CHECK(!pageref_shared(&r, p));
	CHECK_EQ(pageref_put(&r, 7), 1);      /* the only reference was the last */
	free(extra);
}

UNIT_TEST(get_and_put_in_order)
{
	struct pageref r;
	uint16_t *extra = new_table(&r, PAGES);
	CHECK_EQ(pageref_get(&r, 3), 0);
	CHECK(pageref_shared(&r, 3));
	CHECK(!pageref_shared(&r, 2) && !pageref_shared(&r, 4));
	CHECK_EQ(pageref_get(&r, 3), 0);      /* three holders */
	CHECK_EQ(pageref_put(&r, 3), 0);
	CHECK(pageref_shared(&r, 3));
	CHECK_EQ(pageref_put(&r, 3), 0);
	CHECK(!pageref_shared(&r, 3));
	CHECK_EQ(pageref_put(&r, 3), 1);
	free(extra);
}

UNIT_TEST(out_of_range_refused)
{
	struct pageref r;
	uint16_t *extra = new_table(&r, PAGES);
	CHECK_EQ(pageref_get(&r, PAGES), -1);
	CHECK_EQ(pageref_put(&r, PAGES), -1);
	CHECK_EQ(pageref_get(&r, UINT64_MAX), -1);
	CHECK(!pageref_shared(&r, PAGES));
	for (uint64_t p = 0; p < PAGES; p++)
		CHECK_EQ(extra[p], 0);
	free(extra);
}

UNIT_TEST(empty_table)
{
	struct pageref r;
	uint16_t *extra = new_table(&r, 0);
	CHECK_EQ(pageref_get(&r, 0), -1);
	CHECK_EQ(pageref_put(&r, 0), -1);
	CHECK(!pageref_shared(&r, 0));
	free(extra);
}

UNIT_TEST(saturation_refused)
{
	struct pageref r;
	uint16_t *extra = new_table(&r, PAGES);
	for (unsigned i = 0; i < PAGEREF_MAX_EXTRA; i++)
		REQUIRE(pageref_get(&r, 9) == 0);
	CHECK_EQ(pageref_get(&r, 9), -1);
	CHECK_EQ(extra[9], PAGEREF_MAX_EXTRA);
	CHECK_EQ(pageref_put(&r, 9), 0);
	CHECK_EQ(pageref_get(&r, 9), 0);
	free(extra);
}

/* Random gets and puts against a model of holder counts; a frame whose last
 * reference goes is "freed" and allocated again with one. */
UNIT_TEST(random_against_model)
{
	struct pageref r;
	uint16_t *extra = new_table(&r, PAGES);
	unsigned holders[PAGES];
	for (int p = 0; p < PAGES; p++)
		holders[p] = 1;
	unsigned seed = 12345;
	for (int step = 0; step < 200000; step++) {
		seed = seed * 1103515245u + 12345u;
		unsigned p = (seed >> 8) % PAGES;
		if ((seed >> 20) & 1) {
			if (holders[p] < 40) {
				CHECK_EQ(pageref_get(&r, p), 0);
				holders[p]++;
			}
		} else {
			int last = pageref_put(&r, p);
			CHECK_EQ(last, holders[p] == 1);
			/* the last one: freed, then reused with one */
			holders[p] = holders[p] == 1 ? 1 : holders[p] - 1;
		}
		if (pageref_shared(&r, p) != (holders[p] > 1)) {
			CHECK(pageref_shared(&r, p) == (holders[p] > 1));
			break;
		}
	}
	free(extra);
}
