/*
 * model.c - the LRU structures of model.h: a data TLB and two L2 caches
 * counting their misses. Each lookup is a linear search of one set (64
 * entries for the TLB, 8 ways for an L2), with a shortcut for a repeat of
 * the most recent key, which is already the most recently used.
 */
#include "model.h"

#include <stdlib.h>

const uint64_t model_l2_bytes[MODEL_L2_COUNT] = { 256 * 1024, 512 * 1024 };

static int lru_init(struct model_lru *c, unsigned sets, unsigned ways, unsigned shift)
{
	c->sets = sets;
	c->ways = ways;
	c->shift = shift;
	c->clock = 0;
	c->last = 0;
	c->key = calloc((size_t)sets * ways, sizeof *c->key);
	c->stamp = calloc((size_t)sets * ways, sizeof *c->stamp);
	return c->key && c->stamp ? 0 : -1;
}

static void lru_free(struct model_lru *c)
{
	free(c->key);
	free(c->stamp);
	c->key = c->stamp = NULL;
}

static void lru_empty(struct model_lru *c)
{
	for (size_t i = 0; i < (size_t)c->sets * c->ways; i++)
		c->stamp[i] = 0;
	c->last = 0;
}

/* Looks key (an address >> shift) up; on a miss it replaces the least
 * recently used way (an empty one first: stamp 0 is the oldest). Returns 1
 * on a miss. */
static int lru_lookup(struct model_lru *c, uint64_t key)
{
	if (c->last == key + 1)
		return 0;
	c->last = key + 1;
	size_t base = (size_t)(key % c->sets) * c->ways;
	uint64_t *k = c->key + base, *s = c->stamp + base;
	unsigned victim = 0;
	c->clock++;
	for (unsigned w = 0; w < c->ways; w++) {
		if (s[w] && k[w] == key) {
			s[w] = c->clock;
			return 0;
		}
		if (s[w] < s[victim])
			victim = w;
	}
	k[victim] = key;
	s[victim] = c->clock;
	return 1;
}

int model_init(struct model *m)
{
	*m = (struct model){ 0 };
	int bad = lru_init(&m->dtlb, 1, MODEL_DTLB_ENTRIES, MODEL_PAGE_SHIFT);
	for (unsigned i = 0; i < MODEL_L2_COUNT; i++) {
		unsigned sets = (unsigned)(model_l2_bytes[i] >> MODEL_LINE_SHIFT) / MODEL_L2_WAYS;
		bad |= lru_init(&m->l2[i], sets, MODEL_L2_WAYS, MODEL_LINE_SHIFT);
	}
	if (bad)
		model_free(m);
	return bad ? -1 : 0;
}

void model_free(struct model *m)
{
	lru_free(&m->dtlb);
	for (unsigned i = 0; i < MODEL_L2_COUNT; i++)
		lru_free(&m->l2[i]);
}

void model_access(struct model *m, uint64_t vaddr, uint64_t paddr, unsigned size)
{
	uint64_t vlast = vaddr + (size ? size - 1 : 0);
	uint64_t plast = paddr + (size ? size - 1 : 0);
	m->n.accesses++;
	for (uint64_t p = vaddr >> MODEL_PAGE_SHIFT; p <= vlast >> MODEL_PAGE_SHIFT; p++)
		m->n.dtlb_misses += (uint64_t)lru_lookup(&m->dtlb, p);
	for (unsigned i = 0; i < MODEL_L2_COUNT; i++)
		for (uint64_t l = paddr >> MODEL_LINE_SHIFT; l <= plast >> MODEL_LINE_SHIFT; l++)
			m->n.l2_misses[i] += (uint64_t)lru_lookup(&m->l2[i], l);
}

void model_flush_tlb(struct model *m)
{
	lru_empty(&m->dtlb);
	m->n.tlb_flushes++;
}
