/*
 * ICA attach and detach on x86-64 (kernel/arch.h): an ICA is mapped with
 * ordinary page-table entries, walked once per page table, and detaching
 * invalidates exactly its pages with invlpg (or flushes the PCID when that
 * is cheaper, as arch_as_unmap_range decides). Paper 002's SH-4 port maps
 * ICAs in reserved TLB entries instead; the core sees no difference.
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
