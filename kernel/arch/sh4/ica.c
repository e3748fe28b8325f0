/*
 * ICA attach and detach (kernel/arch.h), by one of paper 002's two
 * methods, chosen at boot:
 *  (a) the default: an ICA is mapped with page-table entries like any
 *      page; its translations reach the UTLB through TLB misses, and detach
 *      drops them with associative writes (the hardware searches).
 *  (b) the boot option ica_tlb=N (1..48; the paper used 32): the top N
 *      UTLB entries are reserved for ICA pages. Attach loads each page's
 *      translation with LDTLB into a free reserved entry and remembers its
 *      number; detach clears that entry by number. ICAs get no page-table
 *      entry, so a miss in the ICA window finds nothing and is a fault that
 *      kills the offender (trap.c), and the first access to an attached ICA
 *      takes no miss. More attached ICA pages than N: -ENOMEM, nothing
 *      attached.
 * The reserved entries are shared by all address spaces (each entry is
 * tagged with its space's ASID). Attach and detach cost O(pages): free
 * entries are a chain, and each ICA's entries a chain from its window slot.
 */
#include <kernel/arch.h>
#include <kernel/boot.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/stats.h>
#include <myrmex/ica.h>
#include <arch/sh4.h>

#define ICA_TLB_MAX 48   /* at least 16 entries stay for private pages */
#define NONE 0xffu

/* Reserved entry i (UTLB entry 64 - N + i): whose page it holds. The
 * entries of one attached ICA form a chain from head[its window slot]
 * through next[], so that detach finds its entries by number without a
 * search; free entries form a chain from free_head. */
struct ica_slot {
	struct arch_as *as;   /* NULL: free */
	uint32_t va;
	uint32_t ptel;
	uint8_t next;
};

static struct ica_slot slot[ICA_TLB_MAX];
static uint8_t head[MYRMEX_ICA_SLOTS];   /* by ICA window slot: first entry, or NONE */
static uint8_t free_head = NONE;
static unsigned free_count;
static unsigned slots;   /* N; 0: method (a) */

static inline __attribute__((always_inline)) unsigned window_slot(uint32_t va)
{
	return (unsigned)((va - MYRMEX_ICA_WINDOW) >> MYRMEX_ICA_SLOT_SHIFT) & MYRMEX_ICA_SLOT_MASK;
}

/* Parses ica_tlb=N from the kernel command line; returns N (0: off). */
unsigned sh4_ica_boot_option(void)
{
	const char *p = boot_info.cmdline;
	while (*p) {
		while (*p == ' ')
			p++;
		const char *word = p;
		while (*p && *p != ' ')
			p++;
		if (p - word > 8 && __builtin_memcmp(word, "ica_tlb=", 8) == 0) {
			unsigned n = 0;
			const char *d = word + 8;
			while (d < p && *d >= '0' && *d <= '9' && n <= ICA_TLB_MAX)
				n = n * 10 + (unsigned)(*d++ - '0');
			if (d != p || n == 0 || n > ICA_TLB_MAX) {
				printk("boot: ica_tlb wants 1..%u entries; ICAs use page tables\n", ICA_TLB_MAX);
				return 0;
			}
			slots = n;
		}
	}
	for (unsigned i = 0; i < MYRMEX_ICA_SLOTS; i++)
		head[i] = NONE;
	for (unsigned i = slots; i-- > 0;) {
		slot[i].next = free_head;
		free_head = (uint8_t)i;
	}
	free_count = slots;
	if (slots)
		printk("boot: ICAs in %u reserved UTLB entries (ica_tlb=%u)\n", slots, slots);
	return slots;
}

static inline __attribute__((always_inline)) unsigned entry_of(unsigned i)
{
	return SH4_UTLB_ENTRIES - slots + i;
}

/* LDTLB of reserved slot i into its entry, under ASID asid; PTEH is left
 * holding the page, the caller restores the current ASID. */
static inline __attribute__((always_inline)) void load_entry(unsigned i, uint8_t asid)
{
	uint32_t mmucr = mmio_read32(SH4_MMUCR) & ~(MMUCR_URC_MASK | MMUCR_TI);
	mmio_write32(SH4_MMUCR, mmucr | (entry_of(i) << MMUCR_URC_SHIFT));
	mmio_write32(SH4_PTEH, slot[i].va | asid);
	mmio_write32(SH4_PTEL, slot[i].ptel);
	sh4_ldtlb();
}

static void load(unsigned i)
{
	uint8_t asid = sh4_asid_of(slot[i].as);
	uint32_t current = mmio_read32(SH4_PTEH) & 0xff;
	load_entry(i, asid);
	mmio_write32(SH4_PTEH, current);
}

int arch_ica_attach(struct arch_as *as, vaddr_t va, paddr_t pa, uint64_t npages, unsigned prot)
{
	if (!slots)
		return arch_as_map_range(as, va, pa, npages, prot);
	if (npages > free_count)
		return -ENOMEM;   /* checked first: all or nothing */
	uint32_t n = (uint32_t)npages, v = (uint32_t)va;
	uint32_t ptel = sh4_ptel_of((uint32_t)pa, prot);
	uint8_t asid = sh4_asid_of(as);   /* may start a generation: before any load */
	uint32_t current = mmio_read32(SH4_PTEH) & 0xff;
	uint8_t *chain = &head[window_slot(v)];
	for (uint32_t k = 0; k < n; k++, v += PAGE_SIZE, ptel += PAGE_SIZE) {
		unsigned i = free_head;
		free_head = slot[i].next;
		slot[i].as = as;
		slot[i].va = v;
		slot[i].ptel = ptel;
		slot[i].next = *chain;
		*chain = (uint8_t)i;
		load_entry(i, asid);
	}
	mmio_write32(SH4_PTEH, current);
	free_count -= n;
	return 0;
}

/* Clears the entries of as in [start, end) on the chain of window slot w:
 * each by its number, and the four ITLB entries, which may hold a copy. */
static void detach_chain(unsigned w, struct arch_as *as, uint32_t start, uint32_t end)
{
	uint8_t *link = &head[w];
	bool cleared = false;
	while (*link != NONE) {
		unsigned i = *link;
		if (slot[i].as == as && slot[i].va >= start && slot[i].va < end) {
			mmio_write32(SH4_UTLB_ADDR | (entry_of(i) << 8), 0);
			*link = slot[i].next;
			slot[i].as = NULL;
			slot[i].next = free_head;
			free_head = (uint8_t)i;
			free_count++;
			cleared = true;
		} else {
			link = &slot[i].next;
		}
	}
	if (cleared) {
		mmio_write32(SH4_ITLB_ADDR | (0u << 8), 0);
		mmio_write32(SH4_ITLB_ADDR | (1u << 8), 0);
		mmio_write32(SH4_ITLB_ADDR | (2u << 8), 0);
		mmio_write32(SH4_ITLB_ADDR | (3u << 8), 0);
	}
}

void arch_ica_detach(struct arch_as *as, vaddr_t va, uint64_t npages)
{
	if (!slots) {
		arch_as_unmap_range(as, va, npages);
		return;
	}
	/* An ICA lies in one window slot (at most MYRMEX_ICA_MAX_PAGES pages). */
	uint32_t start = (uint32_t)va, end = start + (uint32_t)npages * PAGE_SIZE;
	unsigned last = window_slot(end - 1);
	for (unsigned w = window_slot(start); w <= last; w++)
		detach_chain(w, as, start, end);
}

/* The space goes: its reserved entries are freed. */
void sh4_ica_release_all(struct arch_as *as)
{
	for (unsigned i = 0; i < slots; i++)
		if (slot[i].as == as)
			detach_chain(window_slot(slot[i].va), as, slot[i].va, slot[i].va + PAGE_SIZE);
}

/* After a whole-TLB flush (a new ASID generation): every reserved entry
 * is loaded again, under its space's new ASID. */
void sh4_ica_reload_all(void)
{
	for (unsigned i = 0; i < slots; i++)
		if (slot[i].as)
			load(i);
}
