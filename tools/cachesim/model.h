/*
 * model.h - the cache and TLB model of paper 001's CPUs (issue 18), driven
 * by the guest's data accesses (plugin.c) and unit-tested on the host
 * (tests/unit/test_cachemodel.c). Pure C, no QEMU.
 *
 * What it models (docs/benchmarks.md, "Caches and the TLB"):
 *  - a data TLB of MODEL_DTLB_ENTRIES fully associative entries, 4 KiB
 *    pages, LRU, looked up by virtual address; emptied by model_flush_tlb
 *    (a CR3 write: the Pentium 4 has no PCID; global pages are not told
 *    apart, so the kernel's entries go too);
 *  - two unified L2 caches, 256 KiB and 512 KiB, 8-way, 64-byte lines,
 *    LRU, looked up by physical address. There is no L1: every data access
 *    looks the L2 up, as if the L1 were absent (an L1 in front would only
 *    filter hits, and change the L2's LRU order of the lines it keeps hot).
 *    Instruction fetches and page-table walks are not modelled.
 * An access that crosses a line (page) boundary looks up both lines
 * (pages).
 */
#ifndef CACHESIM_MODEL_H
#define CACHESIM_MODEL_H

#include <stdint.h>

#define MODEL_DTLB_ENTRIES 64
#define MODEL_PAGE_SHIFT   12
#define MODEL_LINE_SHIFT   6
#define MODEL_L2_WAYS      8
#define MODEL_L2_COUNT     2
#define MODEL_L2_MAX_SETS  1024   /* 512 KiB / (64 B x 8 ways) */

/* Set-associative LRU cache of lines (or, with one set, a fully
 * associative one of pages: the TLB). stamp 0 marks an empty way. */
struct model_lru {
	unsigned sets, ways, shift;   /* shift: bits of an address below the tag */
	uint64_t clock;
	uint64_t last;                /* the most recent key + 1: a repeat is a hit */
	uint64_t *key;                /* sets * ways */
	uint64_t *stamp;
};

struct model_counts {
	uint64_t accesses;            /* data accesses looked up */
	uint64_t dtlb_misses;
	uint64_t l2_misses[MODEL_L2_COUNT];   /* the 256 KiB L2, the 512 KiB L2 */
	uint64_t tlb_flushes;         /* model_flush_tlb calls (CR3 writes) */
};

struct model {
	struct model_lru dtlb;
	struct model_lru l2[MODEL_L2_COUNT];
	struct model_counts n;
};

/* The L2 sizes in bytes, in the order of model_counts.l2_misses. */
extern const uint64_t model_l2_bytes[MODEL_L2_COUNT];

/* Sets m up empty (counts 0). Returns 0, or -1 out of memory. */
int model_init(struct model *m);
void model_free(struct model *m);
/* One data access of size bytes (1..64) at virtual vaddr, physical paddr. */
void model_access(struct model *m, uint64_t vaddr, uint64_t paddr, unsigned size);
/* Empties the data TLB (a CR3 write). */
void model_flush_tlb(struct model *m);

#endif
