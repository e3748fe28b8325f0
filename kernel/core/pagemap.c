/*
 * Bitmap of page frames with contiguous-run allocation (see kernel/pagemap.h).
 * The search is next fit: it starts where the last allocation ended, skips
 * fully used 64-page words at once, and wraps around once.
 */
#include <kernel/pagemap.h>

#define WORD_BITS 64u

static inline int bit_get(const struct pagemap *m, uint64_t i)
{
	return (int)((m->bits[i / WORD_BITS] >> (i % WORD_BITS)) & 1u);
}

static inline void bit_put(struct pagemap *m, uint64_t i, int used)
{
	uint64_t mask = (uint64_t)1 << (i % WORD_BITS);
	if (used)
		m->bits[i / WORD_BITS] |= mask;
	else
		m->bits[i / WORD_BITS] &= ~mask;
}

size_t pagemap_words(uint64_t npages)
{
	return (size_t)((npages + WORD_BITS - 1) / WORD_BITS);
}

void pagemap_init(struct pagemap *m, uint64_t *bits, uint64_t npages)
{
	m->bits = bits;
	m->npages = npages;
	m->free = 0;
	m->hint = 0;
	for (size_t w = 0; w < pagemap_words(npages); w++)
		bits[w] = ~(uint64_t)0;
}

void pagemap_set_free(struct pagemap *m, uint64_t first, uint64_t count)
{
	for (uint64_t i = first; i < m->npages && i - first < count; i++) {
		if (bit_get(m, i)) {
			bit_put(m, i, 0);
			m->free++;
		}
	}
}

void pagemap_set_used(struct pagemap *m, uint64_t first, uint64_t count)
{
	for (uint64_t i = first; i < m->npages && i - first < count; i++) {
		if (!bit_get(m, i)) {
			bit_put(m, i, 1);
			m->free--;
		}
	}
}

/* Searches [from, to) for count free pages; returns the first or UINT64_MAX. */
static uint64_t find_run(const struct pagemap *m, uint64_t from, uint64_t to, uint64_t count)
{
	uint64_t run_start = from, run_len = 0;
	uint64_t i = from;
	while (i < to) {
		if (i % WORD_BITS == 0 && m->bits[i / WORD_BITS] == ~(uint64_t)0) {
			run_len = 0;
			i += WORD_BITS;
			run_start = i;
			continue;
		}
		if (bit_get(m, i)) {
			run_len = 0;
			run_start = i + 1;
		} else if (++run_len == count) {
			return run_start;
		}
		i++;
	}
	return UINT64_MAX;
}

uint64_t pagemap_alloc(struct pagemap *m, uint64_t count)
{
	if (count == 0 || count > m->free)
		return UINT64_MAX;
	uint64_t hint = m->hint < m->npages ? m->hint : 0;
	uint64_t first = find_run(m, hint, m->npages, count);
	if (first == UINT64_MAX && hint > 0) {
		/* A run may straddle the hint, so the second pass overlaps it. */
		uint64_t to = hint + count - 1 < m->npages ? hint + count - 1 : m->npages;
		first = find_run(m, 0, to, count);
	}
	if (first == UINT64_MAX)
		return UINT64_MAX;
	for (uint64_t i = first; i < first + count; i++)
		bit_put(m, i, 1);
	m->free -= count;
	m->hint = first + count;
	return first;
}

int pagemap_free(struct pagemap *m, uint64_t first, uint64_t count)
{
	if (count == 0 || first >= m->npages || count > m->npages - first)
		return -1;
	for (uint64_t i = first; i < first + count; i++)
		if (!bit_get(m, i))
			return -1;
	for (uint64_t i = first; i < first + count; i++)
		bit_put(m, i, 0);
	m->free += count;
	return 0;
}

int pagemap_is_used(const struct pagemap *m, uint64_t page)
{
	return page < m->npages ? bit_get(m, page) : 1;
}
