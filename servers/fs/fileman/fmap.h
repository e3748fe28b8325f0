/*
 * fmap.h - what fmap.c (the file side of file mappings: page-in, the
 * kernel's calls, revocation) shares with fmap_table.c (the tables: the
 * maps by id, and the pin records that say which cache block each map
 * page holds). Private to those two; the rest of the file manager sees
 * fmap.c's part of fileman.h.
 */
#ifndef FMAP_H
#define FMAP_H

#include "fileman.h"

#define FMAP_MAX        1024u
#define FMAP_PINS_MAX   32768u
#define FMAP_NONE       UINT32_MAX
#define FMAP_PIN_HASH   4096u
#define ZERO_PAGE_BLOCK 0u      /* a pin's block: the shared zero page */

_Static_assert(FMAP_PINS_MAX < 65536u, "cache.c counts pins per block in 16 bits");

struct fmap {
	uint32_t id;                /* the kernel's map id; 0: the slot is free */
	uint32_t ino;               /* 0 once the file is gone */
	uint64_t first;             /* the file page of map page 0 */
	uint32_t count;             /* pages */
	uint32_t revoked_from;      /* map pages from here on are revoked (count: none) */
	uint32_t flags;             /* FS_MAP_* as asked */
	bool writable;              /* the map writes the cache */
	bool past_end;              /* it has held or made a block past the end of the file */
	bool meta_dirty;            /* it allocated blocks since its last FS_SYNCMAP */
	int pid;                    /* who mapped (for the log) */
	uint32_t pins;              /* its first pin record, FMAP_NONE when it holds nothing */
	uint32_t id_next;           /* the map-id hash chain */
};

struct fmap_pin {
	uint32_t map;               /* slot in fmap_maps[]; FMAP_NONE: the record is free */
	uint32_t page;              /* map page */
	uint32_t block;             /* disk block, or ZERO_PAGE_BLOCK */
	uint32_t handle, index;     /* where the page is: an ICA of ours and a page in it */
	uint32_t hash_next;         /* the (map, page) hash chain */
	uint32_t map_next;          /* the map's list; the free list */
};

/* The maps (id 0: a free slot) and the pin records. */
extern struct fmap fmap_maps[FMAP_MAX];
extern struct fmap_pin fmap_pins[FMAP_PINS_MAX];
/* Maps live, and pages all of them hold. */
extern uint32_t fmap_live, fmap_held_pages;
/* fmap_init has run. */
extern bool fmap_ready;
/* The pin records' (map, page) hash chains, and their free list. */
extern uint32_t fmap_pin_hash[FMAP_PIN_HASH];
extern uint32_t fmap_pin_free;

/* Sets the tables up, the first time. */
void fmap_init(void);
/* The live map with the kernel's map id, or NULL. */
struct fmap *fmap_find(uint64_t id);
/* A new map with id in a free slot, holding nothing; NULL when all are
 * taken. */
struct fmap *fmap_new(uint32_t id);
/* Its slot goes free (what it held was let go first). */
void fmap_free(struct fmap *m);
/* The three calls below run once per page on the page-in and populate
 * paths, so they are inline here rather than calls into fmap_table.c. */

static inline uint32_t fmap_slot(const struct fmap *m)
{
	return (uint32_t)(m - fmap_maps);
}

static inline uint32_t fmap_pin_bucket(uint32_t slot, uint32_t page)
{
	return (slot * 2654435761u ^ page) % FMAP_PIN_HASH;
}

/* The record of map page `page` of m, or NULL when m does not hold it. */
static inline struct fmap_pin *fmap_pin_find(const struct fmap *m, uint32_t page)
{
	uint32_t slot = fmap_slot(m);
	for (uint32_t i = fmap_pin_hash[fmap_pin_bucket(slot, page)]; i != FMAP_NONE;
	     i = fmap_pins[i].hash_next)
		if (fmap_pins[i].map == slot && fmap_pins[i].page == page)
			return &fmap_pins[i];
	return NULL;
}

/* Whether a record is free for fmap_pin_add. */
static inline bool fmap_pin_room(void)
{
	return fmap_pin_free != FMAP_NONE;
}

/* m holds map page `page`: block (or ZERO_PAGE_BLOCK), at page index of
 * ICA handle (the block pinned by the caller). A record must be free. */
static inline void fmap_pin_add(struct fmap *m, uint32_t page, uint32_t block, uint32_t handle,
                                uint32_t index)
{
	uint32_t i = fmap_pin_free;
	struct fmap_pin *p = &fmap_pins[i];
	fmap_pin_free = p->map_next;
	uint32_t b = fmap_pin_bucket(fmap_slot(m), page);
	*p = (struct fmap_pin){ .map = fmap_slot(m), .page = page, .block = block, .handle = handle,
	                        .index = index, .hash_next = fmap_pin_hash[b], .map_next = m->pins };
	fmap_pin_hash[b] = i;
	m->pins = i;
	fmap_held_pages++;
}
/* Lets go of the map's pages from map page `from` on (0: all of them),
 * unpinning their blocks. */
void fmap_drop_from(struct fmap *m, uint32_t from);

#endif
