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
 * tagged with its space's ASID); slot[i] describes entry 64 - N + i.
 */
#include <kernel/arch.h>
#include <kernel/boot.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/stats.h>
#include <arch/sh4.h>

#define ICA_TLB_MAX 48   /* at least 16 entries stay for private pages */

struct ica_slot {
	struct arch_as *as;   /* NULL: free */
	uint32_t va;
	uint32_t ptel;
};

static struct ica_slot slot[ICA_TLB_MAX];
static unsigned slots;   /* N; 0: method (a) */

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
	if (slots)
		printk("boot: ICAs in %u reserved UTLB entries (ica_tlb=%u)\n", slots, slots);
	return slots;
}

static unsigned entry_of(unsigned i)
{
	return SH4_UTLB_ENTRIES - slots + i;
}

static void load(unsigned i)
{
	sh4_tlb_load((int)entry_of(i), slot[i].va, sh4_asid_of(slot[i].as), slot[i].ptel);
}

static void clear(unsigned i)
{
	sh4_tlb_clear_entry(entry_of(i));
	slot[i].as = NULL;
}

int arch_ica_attach(struct arch_as *as, vaddr_t va, paddr_t pa, uint64_t npages, unsigned prot)
{
	if (!slots)
		return arch_as_map_range(as, va, pa, npages, prot);
	unsigned free = 0;
	for (unsigned i = 0; i < slots; i++)
		free += slot[i].as == NULL;
	if (npages > free)
		return -ENOMEM;   /* checked first: all or nothing */
	uint32_t ptel = sh4_ptel_of(0, prot);
	unsigned i = 0;
	for (uint64_t k = 0; k < npages; k++) {
		while (slot[i].as)
			i++;
		slot[i].as = as;
		slot[i].va = (uint32_t)(va + k * PAGE_SIZE);
		slot[i].ptel = ptel | (uint32_t)(pa + k * PAGE_SIZE);
		load(i);
	}
	return 0;
}

void arch_ica_detach(struct arch_as *as, vaddr_t va, uint64_t npages)
{
	if (!slots) {
		arch_as_unmap_range(as, va, npages);
		return;
	}
	uint32_t start = (uint32_t)va, end = (uint32_t)(va + npages * PAGE_SIZE);
	for (unsigned i = 0; i < slots; i++)
		if (slot[i].as == as && slot[i].va >= start && slot[i].va < end)
			clear(i);
}

/* The space goes: its reserved entries are freed. */
void sh4_ica_release_all(struct arch_as *as)
{
	for (unsigned i = 0; i < slots; i++)
		if (slot[i].as == as)
			clear(i);
}

/* After a whole-TLB flush (a new ASID generation): every reserved entry
 * is loaded again, under its space's new ASID. */
void sh4_ica_reload_all(void)
{
	for (unsigned i = 0; i < slots; i++)
		if (slot[i].as)
			load(i);
}
