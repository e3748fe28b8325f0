/*
 * fmap_table.c - the file mappings' tables (fmap.h): the maps, found by
 * the kernel's map id through a hash, and the pin records, one per map
 * page held, found by (map, page) through a hash and listed per map. What
 * the pages are and when they are held is fmap.c's.
 */
#include "fmap.h"

#include <string.h>

#define MAP_HASH 1024u

struct fmap fmap_maps[FMAP_MAX];
struct fmap_pin fmap_pins[FMAP_PINS_MAX];
uint32_t fmap_live, fmap_held_pages;
bool fmap_ready;
static uint32_t map_hash[MAP_HASH];
uint32_t fmap_pin_hash[FMAP_PIN_HASH];
uint32_t fmap_pin_free = FMAP_NONE;

void fmap_init(void)
{
	if (fmap_ready)
		return;
	for (uint32_t i = 0; i < MAP_HASH; i++)
		map_hash[i] = FMAP_NONE;
	for (uint32_t i = 0; i < FMAP_PIN_HASH; i++)
		fmap_pin_hash[i] = FMAP_NONE;
	for (uint32_t i = FMAP_PINS_MAX; i-- > 0;) {
		fmap_pins[i].map = FMAP_NONE;
		fmap_pins[i].map_next = fmap_pin_free;
		fmap_pin_free = i;
	}
	fmap_ready = true;
}

/* ---- maps by id ---- */

struct fmap *fmap_find(uint64_t id)
{
	if (id == 0 || id > UINT32_MAX)
		return NULL;
	for (uint32_t s = map_hash[id % MAP_HASH]; s != FMAP_NONE; s = fmap_maps[s].id_next)
		if (fmap_maps[s].id == id)
			return &fmap_maps[s];
	return NULL;
}

struct fmap *fmap_new(uint32_t id)
{
	for (uint32_t s = 0; s < FMAP_MAX; s++) {
		struct fmap *m = &fmap_maps[s];
		if (m->id)
			continue;
		memset(m, 0, sizeof(*m));
		m->id = id;
		m->pins = FMAP_NONE;
		m->id_next = map_hash[id % MAP_HASH];
		map_hash[id % MAP_HASH] = s;
		fmap_live++;
		return m;
	}
	return NULL;
}

void fmap_free(struct fmap *m)
{
	uint32_t *pp = &map_hash[m->id % MAP_HASH];
	while (*pp != FMAP_NONE && *pp != fmap_slot(m))
		pp = &fmap_maps[*pp].id_next;
	if (*pp != FMAP_NONE)
		*pp = m->id_next;
	m->id = 0;
	fmap_live--;
}

/* ---- pin records ---- */

/* Lets go of the block of record i (not yet off the map's list). */
static void fmap_pin_drop(struct fmap *m, uint32_t i)
{
	struct fmap_pin *p = &fmap_pins[i];
	uint32_t *pp = &fmap_pin_hash[fmap_pin_bucket(p->map, p->page)];
	while (*pp != FMAP_NONE && *pp != i)
		pp = &fmap_pins[*pp].hash_next;
	if (*pp != FMAP_NONE)
		*pp = p->hash_next;
	if (p->block != ZERO_PAGE_BLOCK)
		cache_unpin(p->block, m->writable);
	p->map = FMAP_NONE;
	p->map_next = fmap_pin_free;
	fmap_pin_free = i;
	fmap_held_pages--;
}

/* Lets go of the map's pages from map page `from` on (0: all of them). */
void fmap_drop_from(struct fmap *m, uint32_t from)
{
	uint32_t *pp = &m->pins;
	while (*pp != FMAP_NONE) {
		uint32_t i = *pp;
		if (fmap_pins[i].page >= from) {
			*pp = fmap_pins[i].map_next;
			fmap_pin_drop(m, i);
		} else {
			pp = &fmap_pins[i].map_next;
		}
	}
}
