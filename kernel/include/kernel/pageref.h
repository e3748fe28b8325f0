/*
 * Reference counts of page frames that several address spaces map at once
 * (copy-on-write after fork). The table counts the references beyond the
 * first, so a frame nobody shares reads 0: allocating and freeing an
 * unshared page costs nothing here, and frames that are never shared (page
 * tables, ICAs, kernel stacks) need no bookkeeping. Pure code without
 * locking, like kernel/pagemap.h: pmm.c keeps the machine's one table
 * (pmm_page_ref and friends, kernel/pmm.h); the host unit tests use it
 * directly.
 */
#ifndef KERNEL_PAGEREF_H
#define KERNEL_PAGEREF_H

#include <stdint.h>
#include <stdbool.h>

#define PAGEREF_MAX_EXTRA UINT16_MAX

struct pageref {
	uint16_t *extra;     /* per frame: references beyond the first */
	uint64_t npages;
};

/* extra must hold npages counters; all start at 0 (one reference each). */
void pageref_init(struct pageref *r, uint16_t *extra, uint64_t npages);
/* Adds a reference to page: 0, or -1 (changing nothing) when page is
 * outside the table or already has PAGEREF_MAX_EXTRA extra references. */
int pageref_get(struct pageref *r, uint64_t page);
/* Drops a reference: 1 when it was the last one (the caller frees the
 * frame), 0 when others remain, -1 when page is outside the table. */
int pageref_put(struct pageref *r, uint64_t page);
/* True when page has more than one reference (false outside the table). */
bool pageref_shared(const struct pageref *r, uint64_t page);

#endif
