/*
 * ICA attach and detach (kernel/arch.h; paper 002). Method (a), the
 * default: an ICA is mapped with page-table entries like any page, and its
 * translations reach the UTLB through TLB misses.
 */
#include <kernel/arch.h>

int arch_ica_attach(struct arch_as *as, vaddr_t va, paddr_t pa, uint64_t npages, unsigned prot)
{
	return arch_as_map_range(as, va, pa, npages, prot);
}

void arch_ica_detach(struct arch_as *as, vaddr_t va, uint64_t npages)
{
	arch_as_unmap_range(as, va, npages);
}
