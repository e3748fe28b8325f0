/*
 * A bitmap of physical page frames, one bit per page (1 = in use). It hands
 * out runs of n contiguous frames, which ICAs and DMA buffers need. Pure code
 * with no locking and no knowledge of physical addresses, so the host unit
 * tests exercise it directly; kernel/core/pmm.c wraps it.
 */
#ifndef KERNEL_PAGEMAP_H
#define KERNEL_PAGEMAP_H

#include <stdint.h>
#include <stddef.h>

struct pagemap {
	uint64_t *bits;      /* npages bits, 1 = used */
	uint64_t npages;
	uint64_t free;       /* number of 0 bits */
	uint64_t hint;       /* where the next search starts (next fit) */
};

/* bits must hold pagemap_words(npages) words; every page starts used. */
size_t pagemap_words(uint64_t npages);
void pagemap_init(struct pagemap *m, uint64_t *bits, uint64_t npages);
/* Marks [first, first + count) free or used, clipped to the map. */
void pagemap_set_free(struct pagemap *m, uint64_t first, uint64_t count);
void pagemap_set_used(struct pagemap *m, uint64_t first, uint64_t count);
/* Finds count contiguous free pages, marks them used and returns the first;
 * returns UINT64_MAX when no such run exists (count == 0 also fails). */
uint64_t pagemap_alloc(struct pagemap *m, uint64_t count);
/* Frees a run; returns -1 (and changes nothing) if any page was already free
 * or the run is outside the map: a double free is caught, not absorbed. */
int pagemap_free(struct pagemap *m, uint64_t first, uint64_t count);
int pagemap_is_used(const struct pagemap *m, uint64_t page);

#endif
