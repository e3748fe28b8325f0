/*
 * x86-64 page tables: the kernel's own tables (a direct map of all RAM at
 * DIRECT_MAP and the kernel image at KERNEL_VMA, both global) and user address
 * spaces, which share the kernel half by copying the kernel's top-level
 * entries 256..511 (those entries never change after boot).
 *
 * TLB rules: with PCIDs each address space has its own tag and a CR3 load
 * keeps its entries; an address space whose tag may hold stale entries
 * (a recycled PCID, or a page unmapped while the space was not active) is
 * flushed by its next activation. Without PCIDs every CR3 load flushes.
 */
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/panic.h>
#include <kernel/pmm.h>
#include <kernel/printk.h>
#include <kernel/stats.h>
#include <kernel/string.h>
#include <arch/x86.h>
#include <myrmex/ica.h>

#define PTE_P    (1ull << 0)
#define PTE_W    (1ull << 1)
#define PTE_U    (1ull << 2)
#define PTE_PWT  (1ull << 3)
#define PTE_PCD  (1ull << 4)
#define PTE_PS   (1ull << 7)
#define PTE_G    (1ull << 8)
#define PTE_NX   (1ull << 63)
#define PTE_ADDR 0x000ffffffffff000ull

#define LAPIC_PHYS 0xfee00000ull
#define IOAPIC_PHYS 0xfec00000ull
#define PCID_COUNT 4096

static uint64_t kernel_pml4;   /* physical */
static uint8_t pcid_used[PCID_COUNT / 8];

static inline uint64_t *table_va(uint64_t entry)
{
	return (uint64_t *)(DIRECT_MAP + (entry & PTE_ADDR));
}

static inline unsigned index_at(vaddr_t va, int level)   /* level 3 = PML4 ... 0 = PT */
{
	return (unsigned)((va >> (12 + 9 * level)) & 0x1ff);
}

_Static_assert(DIRECT_MAP == 0xffff800000000000ull, "arch_phys_to_virt's offset");

paddr_t arch_virt_to_phys(const void *va)
{
	uint64_t v = (uint64_t)va;
	return v >= KERNEL_VMA ? v - KERNEL_VMA : v - DIRECT_MAP;
}

/* Boot-time mapping helper for the kernel tables: a 4 KiB or 2 MiB page. */
static void kernel_map(vaddr_t va, paddr_t pa, uint64_t flags, bool large)
{
	uint64_t *table = arch_phys_to_virt(kernel_pml4);
	int leaf_level = large ? 1 : 0;
	for (int level = 3; level > leaf_level; level--) {
		uint64_t *e = &table[index_at(va, level)];
		if (!(*e & PTE_P)) {
			paddr_t t = pmm_alloc_page();
			if (!t)
				panic("paging: out of memory building the kernel tables");
			*e = t | PTE_P | PTE_W;
		}
		KASSERT(!(*e & PTE_PS));
		table = table_va(*e);
	}
	table[index_at(va, leaf_level)] = pa | flags | (large ? PTE_PS : 0);
}

void arch_paging_init(paddr_t max_phys)
{
	kernel_pml4 = pmm_alloc_page();
	KASSERT(kernel_pml4);
	uint64_t nx = x86_features.nx ? PTE_NX : 0;
	const uint64_t two_mib = 2ull << 20;
	/* All RAM, data only. */
	for (paddr_t pa = 0; pa < ALIGN_UP(max_phys, two_mib); pa += two_mib)
		kernel_map(DIRECT_MAP + pa, pa, PTE_P | PTE_W | PTE_G | nx, true);
	/* The kernel image: the first GiB at KERNEL_VMA, as the boot tables had it. */
	for (paddr_t pa = 0; pa < (1ull << 30); pa += two_mib)
		kernel_map(KERNEL_VMA + pa, pa, PTE_P | PTE_W | PTE_G, true);
	/* The local APIC's registers, uncached. */
	KASSERT(max_phys <= LAPIC_PHYS);
	kernel_map(DIRECT_MAP + LAPIC_PHYS, LAPIC_PHYS, PTE_P | PTE_W | PTE_G | PTE_PCD | PTE_PWT | nx, false);
	kernel_map(DIRECT_MAP + IOAPIC_PHYS, IOAPIC_PHYS, PTE_P | PTE_W | PTE_G | PTE_PCD | PTE_PWT | nx, false);
	/* Fill every kernel-half top-level entry now, so that user spaces can copy them. */
	uint64_t *pml4 = arch_phys_to_virt(kernel_pml4);
	for (int i = 256; i < 512; i++) {
		if (!(pml4[i] & PTE_P)) {
			paddr_t t = pmm_alloc_page();
			KASSERT(t);
			pml4[i] = t | PTE_P | PTE_W;
		}
	}
	write_cr3(kernel_pml4);
	if (x86_features.pcid)
		write_cr4(read_cr4() | CR4_PCIDE);
	pcid_used[0] = 1;   /* PCID 0 is the kernel's */
	printk("paging: direct map of %lu MiB, PCIDs %s\n", (unsigned long)(max_phys >> 20),
	       x86_features.pcid ? "on" : "off");
}

static uint16_t pcid_alloc(void)
{
	if (!x86_features.pcid)
		return 0;
	for (unsigned i = 1; i < PCID_COUNT; i++) {
		if (!(pcid_used[i / 8] & (1u << (i % 8)))) {
			pcid_used[i / 8] |= (uint8_t)(1u << (i % 8));
			return (uint16_t)i;
		}
	}
	return 0;   /* all taken: share the kernel's tag, flushing on every load */
}

static void pcid_free(uint16_t pcid)
{
	if (pcid)
		pcid_used[pcid / 8] &= (uint8_t)~(1u << (pcid % 8));
}

int arch_as_create(struct arch_as *as, uint64_t table_limit)
{
	paddr_t pml4 = pmm_alloc_page();
	if (!pml4)
		return -ENOMEM;
	uint64_t *dst = arch_phys_to_virt(pml4), *src = arch_phys_to_virt(kernel_pml4);
	memcpy(dst + 256, src + 256, 256 * sizeof(uint64_t));
	as->pml4 = pml4;
	as->pcid = pcid_alloc();
	as->needs_flush = true;   /* the tag may have been used before */
	as->table_pages = 1;
	as->table_limit = table_limit;
	memset(as->ica_tables, 0, sizeof(as->ica_tables));
	return 0;
}

static void free_tables(uint64_t *table, int level, void (*release)(paddr_t))
{
	for (unsigned i = 0; i < 512; i++) {
		if (!(table[i] & PTE_P))
			continue;
		if (level == 0)
			release(table[i] & PTE_ADDR);
		else {
			free_tables(table_va(table[i]), level - 1, release);
			pmm_free_page(table[i] & PTE_ADDR);
		}
	}
}

void arch_as_destroy(struct arch_as *as, void (*release)(paddr_t pa))
{
	uint64_t *pml4 = arch_phys_to_virt(as->pml4);
	for (unsigned i = 0; i < 256; i++) {
		if (pml4[i] & PTE_P) {
			free_tables(table_va(pml4[i]), 2, release);
			pmm_free_page(pml4[i] & PTE_ADDR);
		}
	}
	KASSERT(x86_cpu0.active_as != as);
	pmm_free_page(as->pml4);
	pcid_free(as->pcid);
	as->pml4 = 0;
}

/* Returns the leaf entry for va, creating tables when create is set. NULL
 * when absent (or, creating, out of memory / over the limit: *err says). */
static uint64_t *walk(struct arch_as *as, vaddr_t va, bool create, int *err)
{
	uint64_t *table = arch_phys_to_virt(as->pml4);
	for (int level = 3; level > 0; level--) {
		uint64_t *e = &table[index_at(va, level)];
		if (!(*e & PTE_P)) {
			if (!create)
				return NULL;
			if (as->table_pages >= as->table_limit) {
				*err = -EAGAIN;
				return NULL;
			}
			paddr_t t = pmm_alloc_page();
			if (!t) {
				*err = -ENOMEM;
				return NULL;
			}
			as->table_pages++;
			/* Intermediate entries allow everything; the leaf decides. */
			*e = t | PTE_P | PTE_W | PTE_U;
		}
		table = table_va(*e);
	}
	return &table[index_at(va, 0)];
}

static uint64_t leaf_flags(unsigned prot)
{
	uint64_t f = PTE_P | ((prot & MAP_U) ? PTE_U : 0);   /* no MAP_U: PROT_NONE */
	if (prot & MAP_W)
		f |= PTE_W;
	if (!(prot & MAP_X) && x86_features.nx)
		f |= PTE_NX;
	if (prot & MAP_DEVICE)
		f |= PTE_PCD | PTE_PWT;
	return f;
}

/* Invalidates va's TLB entry in as: now if as is active here, else by
 * flushing the whole tag at its next activation. */
static void invalidate(struct arch_as *as, vaddr_t va)
{
	if (x86_cpu0.active_as == as) {
		invlpg(va);
		STAT_INC(tlb_invalidations);
	} else if (x86_features.pcid) {
		as->needs_flush = true;
	}
}

int arch_as_map(struct arch_as *as, vaddr_t va, paddr_t pa, unsigned prot)
{
	int err = 0;
	uint64_t *pte = walk(as, va, true, &err);
	if (!pte)
		return err;
	if (*pte & PTE_P)
		return -EEXIST;
	*pte = pa | leaf_flags(prot);   /* not present before: nothing to invalidate */
	return 0;
}

void arch_as_unmap_range(struct arch_as *as, vaddr_t va, uint64_t npages)
{
	uint64_t i = 0;
	while (i < npages) {
		uint64_t *pte = walk(as, va + i * PAGE_SIZE, false, NULL);
		unsigned index = index_at(va + i * PAGE_SIZE, 0);
		if (!pte) {   /* no page table here: skip to the next one */
			i += 512 - index;
			continue;
		}
		for (; i < npages && index < 512; i++, index++, pte++) {
			if (*pte & PTE_P) {
				*pte = 0;
				invalidate(as, va + i * PAGE_SIZE);
			}
		}
	}
}

int arch_as_map_range(struct arch_as *as, vaddr_t va, paddr_t pa, uint64_t npages, unsigned prot)
{
	uint64_t flags = leaf_flags(prot);
	uint64_t i = 0;
	while (i < npages) {
		int err = 0;
		uint64_t *pte = walk(as, va + i * PAGE_SIZE, true, &err);
		if (pte) {
			unsigned index = index_at(va + i * PAGE_SIZE, 0);
			for (; i < npages && index < 512; i++, index++, pte++) {
				if (*pte & PTE_P) {
					err = -EEXIST;
					break;
				}
				*pte = (pa + i * PAGE_SIZE) | flags;
			}
		}
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
	uint64_t flags = leaf_flags(prot);
	*mapped = 0;
	unsigned i = 0;
	while (i < n) {
		int err = 0;
		uint64_t *pte = walk(as, va + (uint64_t)i * PAGE_SIZE, true, &err);
		if (!pte)
			return err;
		for (unsigned index = index_at(va + (uint64_t)i * PAGE_SIZE, 0); i < n && index < 512;
		     i++, index++, pte++) {
			if (*pte & PTE_P)
				continue;   /* present already: left alone */
			*pte = pas[i] | flags;
			*mapped |= 1ull << i;
		}
	}
	return 0;
}

paddr_t arch_as_unmap(struct arch_as *as, vaddr_t va)
{
	uint64_t *pte = walk(as, va, false, NULL);
	if (!pte || !(*pte & PTE_P))
		return 0;
	paddr_t pa = *pte & PTE_ADDR;
	*pte = 0;
	invalidate(as, va);
	return pa;
}

int arch_as_protect(struct arch_as *as, vaddr_t va, unsigned prot)
{
	uint64_t *pte = walk(as, va, false, NULL);
	if (!pte || !(*pte & PTE_P))
		return -ENOENT;
	*pte = (*pte & PTE_ADDR) | leaf_flags(prot);
	invalidate(as, va);
	return 0;
}

/* The portable protection of a present user leaf entry. */
static unsigned pte_prot(uint64_t pte)
{
	return MAP_R | MAP_U | ((pte & PTE_W) ? MAP_W : 0) | ((pte & PTE_NX) ? 0 : MAP_X);
}

paddr_t arch_as_lookup(struct arch_as *as, vaddr_t va, unsigned *prot)
{
	uint64_t *pte = walk(as, va, false, NULL);
	if (!pte || !(*pte & PTE_P))
		return 0;
	if (prot)
		*prot = pte_prot(*pte);
	return *pte & PTE_ADDR;
}

/* The page table that maps va, or NULL when a level above is absent; then
 * *next is the first address past the hole. */
static uint64_t *leaf_table(struct arch_as *as, vaddr_t va, vaddr_t *next)
{
	uint64_t *table = arch_phys_to_virt(as->pml4);
	for (int level = 3; level > 0; level--) {
		uint64_t e = table[index_at(va, level)];
		if (!(e & PTE_P)) {
			uint64_t span = 1ull << (12 + 9 * level);
			*next = ALIGN_DOWN(va, span) + span;
			return NULL;
		}
		table = table_va(e);
	}
	return table;
}

int arch_as_walk(struct arch_as *as, vaddr_t start, vaddr_t end,
                 int (*visit)(vaddr_t va, paddr_t pa, unsigned prot, void *arg), void *arg)
{
	KASSERT(end <= ARCH_USER_TOP);
	vaddr_t va = ALIGN_DOWN(start, PAGE_SIZE);
	while (va < end) {
		vaddr_t next = end;
		uint64_t *table = leaf_table(as, va, &next);
		if (!table) {
			va = next;
			continue;
		}
		for (unsigned i = index_at(va, 0); i < 512 && va < end; i++, va += PAGE_SIZE) {
			uint64_t e = table[i];   /* read before visit may change it */
			if (!(e & PTE_P))
				continue;
			int r = visit(va, e & PTE_ADDR, pte_prot(e), arg);
			if (r)
				return r;
		}
	}
	return 0;
}

void arch_as_activate(struct arch_as *as)
{
	if (x86_cpu0.active_as == as)
		return;
	uint64_t cr3 = as->pml4 | as->pcid;
	bool flush = !x86_features.pcid || as->needs_flush || as->pcid == 0;
	if (!flush)
		cr3 |= 1ull << 63;   /* keep this tag's entries */
	as->needs_flush = false;
	write_cr3(cr3);
	x86_cpu0.active_as = as;
	STAT_INC(address_space_switches);
	if (flush)
		STAT_INC(tlb_flushes_full);
}

void arch_as_activate_kernel(void)
{
	if (x86_cpu0.active_as == NULL)
		return;
	write_cr3(kernel_pml4 | (x86_features.pcid ? (1ull << 63) : 0));
	x86_cpu0.active_as = NULL;
	STAT_INC(address_space_switches);
}

/* ICA attach and detach (kernel/arch.h): on x86-64 an ICA is mapped with
 * ordinary page-table entries. An ICA lies in one slot of the window, and a
 * slot (256 KiB, aligned) in one page table, so both find that table once,
 * most often in the address space's cache (struct arch_as), and write the
 * entries; detaching invalidates exactly its pages. They sit on every IPC.
 * The SH-4 port will load ICAs into reserved TLB entries instead (paper 002). */
static uint64_t *ica_ptes(struct arch_as *as, vaddr_t va, bool create, int *err)
{
	uint32_t region = (uint32_t)((va - MYRMEX_ICA_WINDOW) >> 21);
	unsigned k = region % ARCH_ICA_TABLE_CACHE;
	uint64_t *table = as->ica_tables[k];
	if (!table || as->ica_region[k] != region) {
		uint64_t *pte = walk(as, va, create, err);
		if (!pte)
			return NULL;
		table = pte - index_at(va, 0);
		as->ica_tables[k] = table;
		as->ica_region[k] = region;
	}
	return &table[index_at(va, 0)];
}

int arch_ica_attach(struct arch_as *as, vaddr_t va, paddr_t pa, uint64_t npages, unsigned prot)
{
	KASSERT(index_at(va, 0) + npages <= 512);
	int err = 0;
	uint64_t *pte = ica_ptes(as, va, true, &err);
	if (!pte)
		return err;
	uint64_t flags = leaf_flags(prot);
	for (uint64_t i = 0; i < npages; i++) {
		if (pte[i] & PTE_P) {
			arch_ica_detach(as, va, i);
			return -EEXIST;
		}
		pte[i] = (pa + i * PAGE_SIZE) | flags;   /* not present before: nothing to invalidate */
	}
	return 0;
}

void arch_ica_detach(struct arch_as *as, vaddr_t va, uint64_t npages)
{
	uint64_t *pte = ica_ptes(as, va, false, NULL);
	if (!pte)
		return;
	for (uint64_t i = 0; i < npages; i++) {
		if (pte[i] & PTE_P) {
			pte[i] = 0;
			invalidate(as, va + i * PAGE_SIZE);
		}
	}
}
