/*
 * The physical page allocator: all RAM the boot loader reported as usable,
 * minus the kernel image, the boot modules and the first megabyte.
 * Contract: pmm_alloc returns zeroed pages (through the direct map) or 0.
 *
 * User pages may be mapped by several address spaces at once (copy-on-write
 * after fork): such a page carries a reference count (kernel/pageref.h). A
 * page starts with one reference; whoever maps it again takes another with
 * pmm_page_ref, and every holder lets go with pmm_page_unref, which frees
 * the page with the last reference. pmm_free is only for pages nobody shares.
 */
#ifndef KERNEL_PMM_H
#define KERNEL_PMM_H

#include <kernel/types.h>

struct boot_info;

void pmm_init(const struct boot_info *bi);
/* Allocates count physically contiguous zeroed pages; 0 when none. */
paddr_t pmm_alloc(uint64_t count);
static inline paddr_t pmm_alloc_page(void) { return pmm_alloc(1); }
/* Frees a run obtained from pmm_alloc (panics on a double free). */
void pmm_free(paddr_t pa, uint64_t count);
static inline void pmm_free_page(paddr_t pa) { pmm_free(pa, 1); }
/* Reference counts of single user pages (see above). */
void pmm_page_ref(paddr_t pa);
void pmm_page_unref(paddr_t pa);
/* True while more than one address space holds the page. */
bool pmm_page_shared(paddr_t pa);
uint64_t pmm_free_pages(void);
uint64_t pmm_total_pages(void);
/* The highest physical address of RAM (the direct map covers [0, this)). */
paddr_t pmm_max_phys(void);

#endif
