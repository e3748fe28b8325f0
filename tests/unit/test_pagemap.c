/*
 * Host unit tests of the page-frame bitmap (kernel/core/pagemap.c): counts,
 * clipping, contiguous runs, next fit with wrap-around, double-free
 * detection, and a randomized run against a simple model.
 */
/* unit-sources: kernel/core/pagemap.c */
#define UNIT_SUITE "pagemap"
#include "unit.h"

#include <kernel/pagemap.h>

#define NONE UINT64_MAX

/* A map of n pages whose bit array is heap-allocated with its exact size, so
 * ASan catches any access beyond the last word. */
struct tmap {
	struct pagemap m;
	uint64_t *bits;
	uint64_t *saved;     /* a copy of bits, for "changes nothing" checks */
};

static void tmap_init(struct tmap *t, uint64_t n, int all_free)
{
	size_t words = pagemap_words(n);
	t->bits = malloc(words ? words * sizeof(uint64_t) : 1);
	t->saved = malloc(words ? words * sizeof(uint64_t) : 1);
	if (!t->bits || !t->saved)
		abort();
	pagemap_init(&t->m, t->bits, n);
	if (all_free)
		pagemap_set_free(&t->m, 0, n);
}

static void tmap_fini(struct tmap *t)
{
	free(t->bits);
	free(t->saved);
}

static void tmap_save(struct tmap *t)
{
	memcpy(t->saved, t->bits, pagemap_words(t->m.npages) * sizeof(uint64_t));
}

/* Is the map exactly as at the last tmap_save (bits, free count)? */
static int tmap_unchanged(const struct tmap *t, uint64_t free_before)
{
	return memcmp(t->saved, t->bits, pagemap_words(t->m.npages) * sizeof(uint64_t)) == 0 &&
	       t->m.free == free_before;
}

/* The free count recomputed from the bits. */
static uint64_t count_free(const struct pagemap *m)
{
	uint64_t n = 0;
	for (uint64_t i = 0; i < m->npages; i++)
		n += !pagemap_is_used(m, i);
	return n;
}

static int range_used(const struct pagemap *m, uint64_t first, uint64_t count)
{
	for (uint64_t i = first; i < first + count; i++)
		if (!pagemap_is_used(m, i))
			return 0;
	return 1;
}

/* The bits past npages in the last word (which the map keeps set). */
static int padding_set(const struct tmap *t)
{
	uint64_t n = t->m.npages;
	if (n % 64 == 0)
		return 1;
	uint64_t pad = ~(uint64_t)0 << (n % 64);
	return (t->bits[n / 64] & pad) == pad;
}

UNIT_TEST(words)
{
	CHECK_EQ(pagemap_words(0), 0);
	CHECK_EQ(pagemap_words(1), 1);
	CHECK_EQ(pagemap_words(63), 1);
	CHECK_EQ(pagemap_words(64), 1);
	CHECK_EQ(pagemap_words(65), 2);
	CHECK_EQ(pagemap_words(128), 2);
	CHECK_EQ(pagemap_words(1000), 16);
}

UNIT_TEST(init_all_used)
{
	struct tmap t;
	tmap_init(&t, 200, 0);
	CHECK_EQ(t.m.npages, 200);
	CHECK_EQ(t.m.free, 0);
	CHECK_EQ(count_free(&t.m), 0);
	CHECK(range_used(&t.m, 0, 200));
	CHECK(padding_set(&t));
	/* Outside the map counts as used. */
	CHECK_EQ(pagemap_is_used(&t.m, 200), 1);
	CHECK_EQ(pagemap_is_used(&t.m, NONE), 1);
	tmap_save(&t);
	CHECK_EQ(pagemap_alloc(&t.m, 1), NONE);
	CHECK(tmap_unchanged(&t, 0));
	tmap_fini(&t);
}

UNIT_TEST(set_free_set_used_counts)
{
	struct tmap t;
	tmap_init(&t, 200, 0);
	pagemap_set_free(&t.m, 10, 20);                 /* [10, 30) */
	CHECK_EQ(t.m.free, 20);
	CHECK_EQ(pagemap_is_used(&t.m, 9), 1);
	CHECK_EQ(pagemap_is_used(&t.m, 10), 0);
	CHECK_EQ(pagemap_is_used(&t.m, 29), 0);
	CHECK_EQ(pagemap_is_used(&t.m, 30), 1);
	pagemap_set_free(&t.m, 25, 10);                 /* 5 of these are new */
	CHECK_EQ(t.m.free, 25);
	pagemap_set_free(&t.m, 12, 3);                  /* all already free */
	CHECK_EQ(t.m.free, 25);
	pagemap_set_used(&t.m, 12, 3);
	CHECK_EQ(t.m.free, 22);
	CHECK(range_used(&t.m, 12, 3));
	pagemap_set_used(&t.m, 0, 12);                  /* 2 of these were free */
	CHECK_EQ(t.m.free, 20);
	pagemap_set_used(&t.m, 100, 50);                /* none was free */
	CHECK_EQ(t.m.free, 20);
	pagemap_set_free(&t.m, 40, 0);                  /* empty range */
	pagemap_set_used(&t.m, 15, 0);
	CHECK_EQ(t.m.free, 20);
	CHECK_EQ(count_free(&t.m), t.m.free);
	tmap_fini(&t);
}

UNIT_TEST(set_ranges_clipped)
{
	struct tmap t;
	tmap_init(&t, 100, 0);
	pagemap_set_free(&t.m, 90, 50);
	CHECK_EQ(t.m.free, 10);
	CHECK(padding_set(&t));
	pagemap_set_free(&t.m, 100, 5);
	pagemap_set_free(&t.m, 500, 5);
	CHECK_EQ(t.m.free, 10);
	pagemap_set_free(&t.m, NONE - 1, 5);            /* first + count wraps */
	CHECK_EQ(t.m.free, 10);
	pagemap_set_free(&t.m, 0, NONE);
	CHECK_EQ(t.m.free, 100);
	CHECK(padding_set(&t));
	CHECK_EQ(pagemap_is_used(&t.m, 100), 1);
	pagemap_set_used(&t.m, 95, NONE);
	CHECK_EQ(t.m.free, 95);
	pagemap_set_used(&t.m, 100, 1000);
	pagemap_set_used(&t.m, NONE, 1);
	CHECK_EQ(t.m.free, 95);
	CHECK_EQ(count_free(&t.m), 95);
	/* Nothing past the map can be handed out. */
	for (int i = 0; i < 95; i++)
		CHECK(pagemap_alloc(&t.m, 1) < 95);
	CHECK_EQ(pagemap_alloc(&t.m, 1), NONE);
	CHECK_EQ(t.m.free, 0);
	tmap_fini(&t);
}

UNIT_TEST(alloc_one)
{
	struct tmap t;
	tmap_init(&t, 130, 1);
	CHECK_EQ(t.m.free, 130);
	CHECK_EQ(pagemap_alloc(&t.m, 1), 0);
	CHECK_EQ(pagemap_alloc(&t.m, 1), 1);
	CHECK_EQ(pagemap_alloc(&t.m, 1), 2);
	CHECK_EQ(t.m.free, 127);
	CHECK(range_used(&t.m, 0, 3));
	CHECK_EQ(pagemap_is_used(&t.m, 3), 0);
	/* A single free page in the middle of used ones. */
	pagemap_set_used(&t.m, 0, 130);
	pagemap_set_free(&t.m, 77, 1);
	CHECK_EQ(pagemap_alloc(&t.m, 1), 77);
	CHECK_EQ(t.m.free, 0);
	CHECK_EQ(pagemap_alloc(&t.m, 1), NONE);
	tmap_fini(&t);
}

UNIT_TEST(alloc_contiguous)
{
	struct tmap t;
	tmap_init(&t, 256, 1);
	CHECK_EQ(pagemap_alloc(&t.m, 10), 0);
	CHECK_EQ(pagemap_alloc(&t.m, 64), 10);          /* crosses a word boundary */
	CHECK_EQ(pagemap_alloc(&t.m, 100), 74);
	CHECK_EQ(t.m.free, 256 - 174);
	CHECK(range_used(&t.m, 0, 174));
	CHECK_EQ(pagemap_is_used(&t.m, 174), 0);
	CHECK_EQ(pagemap_alloc(&t.m, 82), 174);         /* exactly the rest */
	CHECK_EQ(t.m.free, 0);
	CHECK_EQ(count_free(&t.m), 0);
	tmap_fini(&t);

	/* A run behind fully used words, and one spanning three words. */
	tmap_init(&t, 320, 0);
	pagemap_set_free(&t.m, 60, 140);                /* [60, 200) */
	CHECK_EQ(pagemap_alloc(&t.m, 140), 60);
	CHECK_EQ(t.m.free, 0);
	tmap_fini(&t);

	tmap_init(&t, 320, 0);
	pagemap_set_free(&t.m, 192, 10);
	pagemap_set_free(&t.m, 250, 70);                /* [250, 320), to the end */
	CHECK_EQ(pagemap_alloc(&t.m, 11), 250);
	CHECK_EQ(pagemap_alloc(&t.m, 59), 261);
	CHECK_EQ(pagemap_alloc(&t.m, 10), 192);
	CHECK_EQ(t.m.free, 0);
	tmap_fini(&t);
}

UNIT_TEST(runs_never_cover_used_pages)
{
	static const uint64_t used[] = { 3, 4, 17, 63, 64, 65, 100, 127, 128, 190, 191, 250 };
	for (uint64_t count = 1; count <= 40; count++) {
		struct tmap t;
		tmap_init(&t, 256, 1);
		for (size_t i = 0; i < sizeof(used) / sizeof(used[0]); i++)
			pagemap_set_used(&t.m, used[i], 1);
		uint8_t taken[256] = { 0 };
		for (size_t i = 0; i < sizeof(used) / sizeof(used[0]); i++)
			taken[used[i]] = 1;
		for (;;) {
			uint64_t first = pagemap_alloc(&t.m, count);
			if (first == NONE)
				break;
			REQUIRE(first + count <= 256);
			for (uint64_t p = first; p < first + count; p++) {
				REQUIRE(!taken[p]);
				taken[p] = 1;
			}
		}
		/* It failed, so no free run of count pages is left. */
		uint64_t run = 0, longest = 0;
		for (int p = 0; p < 256; p++) {
			run = taken[p] ? 0 : run + 1;
			longest = run > longest ? run : longest;
		}
		CHECK(longest < count);
		CHECK_EQ(count_free(&t.m), t.m.free);
		tmap_fini(&t);
	}
}

UNIT_TEST(next_fit_wraps_around)
{
	struct tmap t;
	tmap_init(&t, 128, 1);
	CHECK_EQ(pagemap_alloc(&t.m, 100), 0);          /* the hint moves to 100 */
	CHECK_EQ(pagemap_free(&t.m, 0, 100), 0);
	/* Only 28 pages free after the hint: the search wraps to the start. */
	CHECK_EQ(pagemap_alloc(&t.m, 50), 0);
	/* Next fit: the next page comes after the last run, not from a hole. */
	CHECK_EQ(pagemap_free(&t.m, 10, 5), 0);
	CHECK_EQ(pagemap_alloc(&t.m, 1), 50);
	tmap_fini(&t);

	/* After the whole map was handed out the hint is past the end. */
	tmap_init(&t, 100, 1);
	CHECK_EQ(pagemap_alloc(&t.m, 100), 0);
	CHECK_EQ(pagemap_free(&t.m, 0, 100), 0);
	CHECK_EQ(pagemap_alloc(&t.m, 1), 0);
	tmap_fini(&t);
}

UNIT_TEST(run_straddling_hint)
{
	/* Free pages [lo, 60) only, with the hint at 50: a run of up to 10 pages
	 * comes from the hint on; a longer one must start before the hint, which
	 * the second pass finds, down to a run starting at hint - 1. */
	static const uint64_t los[] = { 40, 45, 49 };
	for (size_t l = 0; l < sizeof(los) / sizeof(los[0]); l++) {
		uint64_t lo = los[l];
		for (uint64_t count = 1; count <= 60 - lo + 1; count++) {
			struct tmap t;
			tmap_init(&t, 128, 1);
			CHECK_EQ(pagemap_alloc(&t.m, 50), 0);           /* hint = 50 */
			pagemap_set_used(&t.m, 60, 68);
			CHECK_EQ(pagemap_free(&t.m, lo, 50 - lo), 0);
			CHECK_EQ(t.m.free, 60 - lo);
			uint64_t got = pagemap_alloc(&t.m, count);
			if (count <= 10) {
				CHECK_EQ(got, 50);
			} else if (count <= 60 - lo) {
				CHECK_EQ(got, lo);
				CHECK(range_used(&t.m, lo, count));
				CHECK_EQ(t.m.free, 60 - lo - count);
			} else {
				CHECK_EQ(got, NONE);
				CHECK_EQ(t.m.free, 60 - lo);
			}
			tmap_fini(&t);
		}
	}
}

UNIT_TEST(alloc_zero_or_too_many_fails)
{
	struct tmap t;
	tmap_init(&t, 100, 1);
	tmap_save(&t);
	CHECK_EQ(pagemap_alloc(&t.m, 0), NONE);
	CHECK_EQ(pagemap_alloc(&t.m, 101), NONE);
	CHECK_EQ(pagemap_alloc(&t.m, NONE), NONE);
	CHECK(tmap_unchanged(&t, 100));
	CHECK_EQ(pagemap_alloc(&t.m, 100), 0);
	CHECK_EQ(pagemap_alloc(&t.m, 1), NONE);
	tmap_fini(&t);
}

UNIT_TEST(fragmentation)
{
	struct tmap t;
	tmap_init(&t, 200, 0);
	for (uint64_t p = 0; p < 200; p += 2)
		pagemap_set_free(&t.m, p, 1);
	CHECK_EQ(t.m.free, 100);
	tmap_save(&t);
	CHECK_EQ(pagemap_alloc(&t.m, 2), NONE);         /* 100 free pages, no pair */
	CHECK_EQ(pagemap_alloc(&t.m, 50), NONE);
	CHECK(tmap_unchanged(&t, 100));
	uint64_t p = pagemap_alloc(&t.m, 1);
	CHECK(p < 200 && p % 2 == 0);
	CHECK_EQ(t.m.free, 99);
	/* Freeing an odd neighbour makes a pair. */
	pagemap_set_free(&t.m, 101, 1);
	uint64_t pair = pagemap_alloc(&t.m, 2);
	CHECK(pair == 100 || pair == 101);
	CHECK_EQ(t.m.free, 98);
	tmap_fini(&t);
}

UNIT_TEST(free_then_reuse)
{
	struct tmap t;
	tmap_init(&t, 64, 1);
	CHECK_EQ(pagemap_alloc(&t.m, 30), 0);
	CHECK_EQ(pagemap_alloc(&t.m, 34), 30);
	CHECK_EQ(t.m.free, 0);
	CHECK_EQ(pagemap_free(&t.m, 0, 30), 0);
	CHECK_EQ(t.m.free, 30);
	CHECK_EQ(pagemap_is_used(&t.m, 0), 0);
	CHECK_EQ(pagemap_is_used(&t.m, 29), 0);
	CHECK_EQ(pagemap_is_used(&t.m, 30), 1);
	CHECK_EQ(pagemap_alloc(&t.m, 30), 0);
	CHECK_EQ(t.m.free, 0);
	/* Part of a run may be given back. */
	CHECK_EQ(pagemap_free(&t.m, 40, 4), 0);
	CHECK_EQ(pagemap_alloc(&t.m, 4), 40);
	tmap_fini(&t);
}

UNIT_TEST(double_free_detected)
{
	struct tmap t;
	tmap_init(&t, 128, 1);
	CHECK_EQ(pagemap_alloc(&t.m, 10), 0);
	CHECK_EQ(pagemap_free(&t.m, 0, 10), 0);
	tmap_save(&t);
	CHECK_EQ(pagemap_free(&t.m, 0, 10), -1);
	CHECK_EQ(pagemap_free(&t.m, 5, 1), -1);
	CHECK(tmap_unchanged(&t, 128));

	/* One free page inside the run: the whole free is refused. */
	CHECK_EQ(pagemap_alloc(&t.m, 20), 10);
	CHECK_EQ(pagemap_free(&t.m, 15, 1), 0);
	tmap_save(&t);
	uint64_t before = t.m.free;
	CHECK_EQ(pagemap_free(&t.m, 10, 20), -1);
	CHECK(tmap_unchanged(&t, before));
	CHECK(range_used(&t.m, 10, 5));
	CHECK(range_used(&t.m, 16, 14));
	/* The last page of the run already free. */
	CHECK_EQ(pagemap_free(&t.m, 29, 1), 0);
	tmap_save(&t);
	before = t.m.free;
	CHECK_EQ(pagemap_free(&t.m, 16, 14), -1);
	CHECK(tmap_unchanged(&t, before));
	tmap_fini(&t);
}

UNIT_TEST(free_out_of_range)
{
	struct tmap t;
	tmap_init(&t, 100, 0);
	tmap_save(&t);
	CHECK_EQ(pagemap_free(&t.m, 100, 1), -1);
	CHECK_EQ(pagemap_free(&t.m, 99, 2), -1);
	CHECK_EQ(pagemap_free(&t.m, 0, 101), -1);
	CHECK_EQ(pagemap_free(&t.m, 0, 0), -1);
	CHECK_EQ(pagemap_free(&t.m, 50, 0), -1);
	CHECK_EQ(pagemap_free(&t.m, NONE, 2), -1);          /* first + count wraps */
	CHECK_EQ(pagemap_free(&t.m, 1, NONE), -1);
	CHECK_EQ(pagemap_free(&t.m, 50, NONE - 40), -1);
	CHECK(tmap_unchanged(&t, 0));
	CHECK(padding_set(&t));
	/* The last page itself is fine. */
	CHECK_EQ(pagemap_free(&t.m, 99, 1), 0);
	CHECK_EQ(t.m.free, 1);
	tmap_fini(&t);
}

UNIT_TEST(npages_not_multiple_of_64)
{
	static const uint64_t sizes[] = { 1, 2, 63, 65, 100, 127, 129, 1000 };
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		uint64_t n = sizes[s];
		struct tmap t;
		tmap_init(&t, n, 1);
		CHECK_EQ(t.m.free, n);
		CHECK(padding_set(&t));
		CHECK_EQ(pagemap_alloc(&t.m, n + 1), NONE);
		CHECK_EQ(pagemap_alloc(&t.m, n), 0);
		CHECK_EQ(pagemap_free(&t.m, 0, n), 0);
		/* One at a time: exactly pages 0 .. n-1, each once. */
		uint8_t *seen = calloc(n, 1);
		for (uint64_t i = 0; i < n; i++) {
			uint64_t p = pagemap_alloc(&t.m, 1);
			REQUIRE(p < n);
			CHECK(!seen[p]);
			seen[p] = 1;
		}
		free(seen);
		CHECK_EQ(pagemap_alloc(&t.m, 1), NONE);
		CHECK_EQ(t.m.free, 0);
		CHECK(padding_set(&t));
		/* A run that ends on the last page. */
		if (n >= 3) {
			CHECK_EQ(pagemap_free(&t.m, n - 3, 3), 0);
			CHECK_EQ(pagemap_alloc(&t.m, 3), n - 3);
		}
		tmap_fini(&t);
	}
}

/* ------------------------------------------------------------ randomized -- */

static uint64_t rng_state;

static uint64_t rng(void)
{
	/* xorshift64*: fixed seed, so every run does the same operations. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static uint64_t rng_below(uint64_t n)
{
	return rng() % n;
}

#define RND_PAGES 1000
#define RND_OPS 20000
#define RND_MAX_LIVE 4096

struct live_run {
	uint64_t first, count;
	int reserved;        /* taken with set_used (given back with set_free) */
};

static int model_has_run(const uint8_t *model, uint64_t n, uint64_t count)
{
	uint64_t run = 0;
	for (uint64_t p = 0; p < n; p++) {
		run = model[p] ? 0 : run + 1;
		if (run >= count)
			return 1;
	}
	return 0;
}

UNIT_TEST(randomized_against_model)
{
	struct tmap t;
	tmap_init(&t, RND_PAGES, 1);
	static uint8_t model[RND_PAGES];        /* 1 = in use */
	static struct live_run live[RND_MAX_LIVE];
	memset(model, 0, sizeof(model));
	int nlive = 0;
	uint64_t model_free = RND_PAGES;
	uint64_t allocs = 0, failed_allocs = 0, frees = 0, refused = 0;
	rng_state = 0x6d79726d6578ull;          /* "myrmex" */

	for (int op = 0; op < RND_OPS; op++) {
		uint64_t r = rng_below(100);
		if (r < 40 && nlive < RND_MAX_LIVE) {
			/* Allocate: mostly small runs, sometimes large ones. */
			uint64_t k = rng_below(100);
			uint64_t count = k < 70 ? 1 + rng_below(8)
			               : k < 95 ? 9 + rng_below(56) : 65 + rng_below(236);
			uint64_t first = pagemap_alloc(&t.m, count);
			if (first == NONE) {
				failed_allocs++;
				REQUIRE(!model_has_run(model, RND_PAGES, count));
			} else {
				allocs++;
				REQUIRE(first < RND_PAGES && count <= RND_PAGES - first);
				for (uint64_t p = first; p < first + count; p++) {
					REQUIRE(!model[p]);        /* never handed out twice */
					model[p] = 1;
				}
				model_free -= count;
				live[nlive++] = (struct live_run){ first, count, 0 };
			}
		} else if (r < 85 && nlive > 0) {
			/* Give back a run, or only its first part. */
			int i = (int)rng_below((uint64_t)nlive);
			struct live_run *lr = &live[i];
			uint64_t count = rng_below(4) == 0 ? 1 + rng_below(lr->count) : lr->count;
			if (lr->reserved) {
				pagemap_set_free(&t.m, lr->first, count);
			} else {
				REQUIRE_EQ(pagemap_free(&t.m, lr->first, count), 0);
			}
			frees++;
			memset(model + lr->first, 0, count);
			model_free += count;
			lr->first += count;
			lr->count -= count;
			if (lr->count == 0)
				*lr = live[--nlive];
		} else if (r < 95) {
			/* A free that covers at least one free page must be refused. */
			if (model_free == 0)
				continue;
			uint64_t p;
			do
				p = rng_below(RND_PAGES);
			while (model[p]);
			uint64_t before = rng_below(4), after = rng_below(4);
			uint64_t first = p >= before ? p - before : 0;
			uint64_t end = p + 1 + after <= RND_PAGES ? p + 1 + after : RND_PAGES;
			tmap_save(&t);
			REQUIRE_EQ(pagemap_free(&t.m, first, end - first), -1);
			REQUIRE(tmap_unchanged(&t, model_free));
			refused++;
		} else if (nlive < RND_MAX_LIVE) {
			/* Reserve a free range in place, as the boot code does. */
			uint64_t count = 1 + rng_below(16);
			uint64_t first = rng_below(RND_PAGES - count + 1);
			int all_free = 1;
			for (uint64_t p = first; p < first + count; p++)
				all_free &= !model[p];
			if (!all_free)
				continue;
			pagemap_set_used(&t.m, first, count);
			memset(model + first, 1, count);
			model_free -= count;
			live[nlive++] = (struct live_run){ first, count, 1 };
		}
		REQUIRE_EQ(t.m.free, model_free);
		if (op % 64 == 0) {
			for (uint64_t p = 0; p < RND_PAGES; p++)
				REQUIRE_EQ(pagemap_is_used(&t.m, p), model[p]);
			REQUIRE(padding_set(&t));
		}
	}
	/* The run did exercise every path. */
	CHECK(allocs > 1000);
	CHECK(failed_allocs > 10);
	CHECK(frees > 1000);
	CHECK(refused > 100);
	/* Give everything back: the map is whole again. */
	while (nlive > 0) {
		struct live_run *lr = &live[--nlive];
		if (lr->reserved)
			pagemap_set_free(&t.m, lr->first, lr->count);
		else
			CHECK_EQ(pagemap_free(&t.m, lr->first, lr->count), 0);
	}
	CHECK_EQ(t.m.free, RND_PAGES);
	CHECK_EQ(count_free(&t.m), RND_PAGES);
	CHECK_EQ(pagemap_alloc(&t.m, RND_PAGES), 0);
	tmap_fini(&t);
}
