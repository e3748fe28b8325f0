/*
 * User address spaces: a two-level table of the port's own format, read
 * only by software (the SH-4 has no page-table walker: the TLB-miss paths,
 * vectors.S's fast one and sh4_tlb_refill, read it). The directory has 512
 * words, one per 4 MiB of U0; a leaf table has 1024 entries of 4 KiB
 * pages. An entry is the PTEL value LDTLB wants (frame, V, size, PR, C, D:
 * sh4_ptel_of) plus one soft bit in PTEL's reserved bits, PTE_X, cleared
 * before loading; V marks it used. A directory word is the leaf's P1
 * address. The kernel needs no tables: it runs in P1.
 */
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/pmm.h>
#include <kernel/boot.h>
#include <kernel/printk.h>
#include <kernel/stats.h>
#include <arch/sh4.h>

#define DIR_ENTRIES  512
#define LEAF_ENTRIES 1024
#define PTE_PRESENT  PTEL_V
#define PTE_X        (1u << 9)      /* soft: MAP_X (PTEL's bits 9..11 are reserved) */
#define PTE_SOFT     (7u << 9)      /* cleared before LDTLB (vectors.S too) */
#define PTE_FRAME    0x1ffff000u

/* The entry for frame pa with the portable protection prot, and back. */
static uint32_t pte_make(uint32_t pa, unsigned prot)
{
	return sh4_ptel_of(pa, prot) | ((prot & MAP_X) ? PTE_X : 0);
}

static unsigned pte_prot(uint32_t pte)
{
	unsigned prot = MAP_R;
	if (pte & PTEL_PR_KRW)           /* PR bit 0: writable */
		prot |= MAP_W;
	if (pte & PTEL_PR_URO)           /* PR bit 1: user */
		prot |= MAP_U;
	if (pte & PTE_X)
		prot |= MAP_X;
	if (!(pte & PTEL_C))
		prot |= MAP_DEVICE;
	return prot;
}

/* The fast TLB-miss path's view (vectors.S): the active space's directory,
 * or NULL (the kernel's space, or tlb_fast=off: every miss takes the
 * general entry and sh4_tlb_refill). */
uint32_t *sh4_refill_dir;
static bool refill_fast = true;

/* TLB misses answered from the page tables (docs/sh4.md). */
uint64_t sh4_tlb_refills;

/* The address space the TLB-miss path refills from (NULL: the kernel's). */
static struct arch_as *active_as;

struct arch_as *sh4_active_as(void);
struct arch_as *sh4_active_as(void)
{
	return active_as;
}

void arch_paging_init(paddr_t max_phys)
{
	(void)max_phys;   /* P1 maps all of it already */
	sh4_tlb_init(sh4_ica_boot_option());
	refill_fast = !boot_option("tlb_fast=off");
	if (!refill_fast)
		printk("boot: the TLB-refill fast path is off (tlb_fast=off)\n");
}

static uint32_t *leaf_of(struct arch_as *as, uint32_t va)
{
	return (uint32_t *)(uintptr_t)as->dir[va >> 22];
}

/* The entry for va, allocating its leaf table when alloc: NULL with *err. */
static uint32_t *pte_get(struct arch_as *as, uint32_t va, bool alloc, int *err)
{
	if (va >= ARCH_USER_TOP) {   /* the directory covers U0 only */
		if (err)
			*err = -EFAULT;
		return NULL;
	}
	uint32_t *leaf = leaf_of(as, va);
	if (!leaf) {
		if (!alloc)
			return NULL;
		if (as->table_pages >= as->table_limit) {
			*err = -EAGAIN;
			return NULL;
		}
		paddr_t pa = pmm_alloc_page();
		if (!pa) {
			*err = -ENOMEM;
			return NULL;
		}
		as->table_pages++;
		leaf = arch_phys_to_virt(pa);
		as->dir[va >> 22] = (uint32_t)(uintptr_t)leaf;
	}
	return &leaf[(va >> 12) & (LEAF_ENTRIES - 1)];
}

/* Drops a stale translation of as from this CPU's TLB. */
static void flush_page(struct arch_as *as, uint32_t va)
{
	if (as->asid_gen == sh4_asid_gen)
		sh4_tlb_flush_page(as->asid, va);
}

int arch_as_create(struct arch_as *as, uint64_t table_limit)
{
	paddr_t pa = pmm_alloc_page();
	if (!pa)
		return -ENOMEM;
	as->dir = arch_phys_to_virt(pa);
	as->asid_gen = 0;
	as->asid = 0;
	as->table_pages = 1;
	as->table_limit = (uint32_t)MIN(table_limit, 0xffffffffull);
	return 0;
}

void arch_as_destroy(struct arch_as *as, void (*release)(paddr_t pa))
{
	if (active_as == as) {
		active_as = NULL;
		sh4_refill_dir = NULL;
	}
	sh4_ica_release_all(as);
	for (unsigned d = 0; d < DIR_ENTRIES; d++) {
		uint32_t *leaf = (uint32_t *)(uintptr_t)as->dir[d];
		if (!leaf)
			continue;
		for (unsigned i = 0; i < LEAF_ENTRIES; i++)
			if (leaf[i] & PTE_PRESENT)
				release(leaf[i] & PTE_FRAME);
		pmm_free_page(arch_virt_to_phys(leaf));
	}
	pmm_free_page(arch_virt_to_phys(as->dir));
	as->dir = NULL;
	/* Its ASID is not reused before the next generation's flush. */
}

int arch_as_map(struct arch_as *as, vaddr_t va, paddr_t pa, unsigned prot)
{
	int err = 0;
	uint32_t *pte = pte_get(as, (uint32_t)va, true, &err);
	if (!pte)
		return err;
	if (*pte & PTE_PRESENT)
		return -EEXIST;
	*pte = pte_make((uint32_t)pa, prot);
	return 0;
}

void arch_as_unmap_range(struct arch_as *as, vaddr_t va, uint64_t npages)
{
	for (uint64_t i = 0; i < npages; i++) {
		uint32_t v = (uint32_t)(va + i * PAGE_SIZE);
		uint32_t *pte = pte_get(as, v, false, NULL);
		if (pte && (*pte & PTE_PRESENT)) {
			*pte = 0;
			flush_page(as, v);
		}
	}
}

int arch_as_map_range(struct arch_as *as, vaddr_t va, paddr_t pa, uint64_t npages, unsigned prot)
{
	for (uint64_t i = 0; i < npages; i++) {
		int err = arch_as_map(as, va + i * PAGE_SIZE, pa + i * PAGE_SIZE, prot);
		if (err) {
			arch_as_unmap_range(as, va, i);
			return err;
		}
	}
	return 0;
}

int arch_as_map_list(struct arch_as *as, vaddr_t va, const paddr_t *pas, unsigned n,
                     unsigned prot, uint64_t *mapped)
{
	*mapped = 0;
	for (unsigned i = 0; i < n && i < 64; i++) {
		int err = arch_as_map(as, va + i * PAGE_SIZE, pas[i], prot);
		if (err == -EEXIST)
			continue;
		if (err)
			return err;
		*mapped |= 1ull << i;
	}
	return 0;
}

paddr_t arch_as_unmap(struct arch_as *as, vaddr_t va)
{
	uint32_t *pte = pte_get(as, (uint32_t)va, false, NULL);
	if (!pte || !(*pte & PTE_PRESENT))
		return 0;
	paddr_t pa = *pte & PTE_FRAME;
	*pte = 0;
	flush_page(as, (uint32_t)va);
	return pa;
}

int arch_as_protect(struct arch_as *as, vaddr_t va, unsigned prot)
{
	uint32_t *pte = pte_get(as, (uint32_t)va, false, NULL);
	if (!pte || !(*pte & PTE_PRESENT))
		return -ENOENT;
	*pte = pte_make(*pte & PTE_FRAME, prot);
	flush_page(as, (uint32_t)va);
	return 0;
}

paddr_t arch_as_lookup(struct arch_as *as, vaddr_t va, unsigned *prot)
{
	if (va >= ARCH_USER_TOP)
		return 0;
	uint32_t *pte = pte_get(as, (uint32_t)va, false, NULL);
	if (!pte || !(*pte & PTE_PRESENT))
		return 0;
	if (prot)
		*prot = pte_prot(*pte);
	return *pte & PTE_FRAME;
}

int arch_as_walk(struct arch_as *as, vaddr_t start, vaddr_t end,
                 int (*visit)(vaddr_t va, paddr_t pa, unsigned prot, void *arg), void *arg)
{
	uint32_t va = (uint32_t)ALIGN_DOWN(start, PAGE_SIZE);
	end = MIN(end, ARCH_USER_TOP);
	while (va < end) {
		uint32_t *leaf = leaf_of(as, va);
		if (!leaf) {
			va = (va | 0x3fffffu) + 1;   /* the next 4 MiB */
			if (va == 0)
				break;
			continue;
		}
		uint32_t pte = leaf[(va >> 12) & (LEAF_ENTRIES - 1)];
		if (pte & PTE_PRESENT) {
			int r = visit(va, pte & PTE_FRAME, pte_prot(pte), arg);
			if (r)
				return r;
		}
		va += PAGE_SIZE;
	}
	return 0;
}

void arch_as_activate(struct arch_as *as)
{
	active_as = as;
	sh4_refill_dir = refill_fast ? as->dir : NULL;
	sh4_tlb_set_asid(sh4_asid_of(as));
}

void arch_as_activate_kernel(void)
{
	active_as = NULL;
	sh4_refill_dir = NULL;
	sh4_tlb_set_asid(0);
}

/* PTEL for frame pa with the portable protection prot: a 4 KiB page,
 * dirty when writable (no initial page-write exceptions), cached unless
 * device memory. */
uint32_t sh4_ptel_of(uint32_t pa, unsigned prot)
{
	uint32_t ptel = (pa & 0x1ffff000u) | PTEL_V | PTEL_SZ0;
	if (!(prot & MAP_DEVICE))
		ptel |= PTEL_C;
	if (prot & MAP_W)
		ptel |= PTEL_D | ((prot & MAP_U) ? PTEL_PR_URW : PTEL_PR_KRW);
	else
		ptel |= (prot & MAP_U) ? PTEL_PR_URO : PTEL_PR_KRO;
	return ptel;
}

/*
 * The TLB-miss path's general half (vectors.S's fast half does the same
 * in assembly when the entry is there): loads the translation of va from the active address
 * space into a private UTLB entry (tlb.c: a never-used one, else the
 * random counter's). 0, or -EFAULT when there is no entry allowing the
 * access (the caller asks vm_fault). Under the reserved-entry method ICAs
 * have no page-table entry: a miss in the ICA window ends here, a fault.
 */
int sh4_tlb_refill(uint32_t va, int write, int user)
{
	if (!active_as || va >= ARCH_USER_TOP)
		return -EFAULT;
	uint32_t *pte = pte_get(active_as, va, false, NULL);
	if (!pte || !(*pte & PTE_PRESENT))
		return -EFAULT;
	if ((write && !(*pte & PTEL_PR_KRW)) || (user && !(*pte & PTEL_PR_URO)))
		return -EFAULT;
	sh4_tlb_load(-1, va & ~PAGE_MASK, active_as->asid, *pte & ~PTE_SOFT);
	sh4_tlb_refills++;
	return 0;
}
