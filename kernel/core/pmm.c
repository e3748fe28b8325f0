/*
 * The physical page allocator (see kernel/pmm.h). The bitmap itself is
 * placed in the first free RAM range large enough to hold it, and reserved;
 * the reference counts of shared pages (two bytes per page) are then taken
 * from the free pages.
 */
#include <kernel/pmm.h>
#include <kernel/pagemap.h>
#include <kernel/pageref.h>
#include <kernel/boot.h>
#include <kernel/arch.h>
#include <kernel/spinlock.h>
#include <kernel/string.h>
#include <kernel/panic.h>
#include <kernel/printk.h>

static struct pagemap frames;
static struct pageref refs;
static struct spinlock pmm_lock = SPINLOCK_INIT("pmm");
static uint64_t total_pages;
static paddr_t max_phys;

static bool overlaps(paddr_t a0, paddr_t a1, paddr_t b0, paddr_t b1)
{
	return a0 < b1 && b0 < a1;
}

/* True when [start, end) is clear of the kernel, the modules and what the
 * port keeps reserved (below reserved_end). */
static bool range_is_free(const struct boot_info *bi, paddr_t start, paddr_t end)
{
	if (start < bi->reserved_end)
		return false;
	if (overlaps(start, end, bi->kernel_start, bi->kernel_end))
		return false;
	for (unsigned i = 0; i < bi->module_count; i++)
		if (overlaps(start, end, bi->modules[i].start, ALIGN_UP(bi->modules[i].end, PAGE_SIZE)))
			return false;
	return true;
}

void pmm_init(const struct boot_info *bi)
{
	for (unsigned i = 0; i < bi->ram_count; i++)
		max_phys = MAX(max_phys, bi->ram[i].end);
	max_phys = ALIGN_DOWN(max_phys, PAGE_SIZE);
	uint64_t npages = max_phys / PAGE_SIZE;
	size_t bytes = ALIGN_UP(pagemap_words(npages) * sizeof(uint64_t), PAGE_SIZE);

	/* Place the bitmap in the first usable spot that avoids everything reserved. */
	paddr_t bitmap_pa = 0;
	for (unsigned i = 0; i < bi->ram_count && !bitmap_pa; i++) {
		for (paddr_t pa = ALIGN_UP(bi->ram[i].start, PAGE_SIZE);
		     pa + bytes <= bi->ram[i].end; pa += PAGE_SIZE) {
			if (range_is_free(bi, pa, pa + bytes)) {
				bitmap_pa = pa;
				break;
			}
		}
	}
	if (!bitmap_pa)
		panic("pmm: no room for the page bitmap (%zu bytes)", bytes);

	pagemap_init(&frames, arch_phys_to_virt(bitmap_pa), npages);
	for (unsigned i = 0; i < bi->ram_count; i++) {
		paddr_t s = ALIGN_UP(bi->ram[i].start, PAGE_SIZE);
		paddr_t e = ALIGN_DOWN(bi->ram[i].end, PAGE_SIZE);
		if (e > s)
			pagemap_set_free(&frames, s / PAGE_SIZE, (e - s) / PAGE_SIZE);
	}
	pagemap_set_used(&frames, 0, ALIGN_UP(bi->reserved_end, PAGE_SIZE) / PAGE_SIZE);
	pagemap_set_used(&frames, bi->kernel_start / PAGE_SIZE,
	                 (ALIGN_UP(bi->kernel_end, PAGE_SIZE) - bi->kernel_start) / PAGE_SIZE);
	for (unsigned i = 0; i < bi->module_count; i++) {
		paddr_t s = ALIGN_DOWN(bi->modules[i].start, PAGE_SIZE);
		paddr_t e = ALIGN_UP(bi->modules[i].end, PAGE_SIZE);
		pagemap_set_used(&frames, s / PAGE_SIZE, (e - s) / PAGE_SIZE);
	}
	pagemap_set_used(&frames, bitmap_pa / PAGE_SIZE, bytes / PAGE_SIZE);
	uint64_t ref_pages = ALIGN_UP(npages * sizeof(uint16_t), PAGE_SIZE) / PAGE_SIZE;
	uint64_t ref_first = pagemap_alloc(&frames, ref_pages);
	if (ref_first == UINT64_MAX)
		panic("pmm: no room for the page reference counts (%llu pages)", (unsigned long long)ref_pages);
	pageref_init(&refs, arch_phys_to_virt(ref_first * PAGE_SIZE), npages);
	total_pages = frames.free;
	printk("pmm: %llu MiB of RAM, %llu pages free\n",
	       (unsigned long long)(max_phys >> 20), (unsigned long long)total_pages);
}

paddr_t pmm_alloc(uint64_t count)
{
	spin_lock(&pmm_lock);
	uint64_t first = pagemap_alloc(&frames, count);
	spin_unlock(&pmm_lock);
	if (first == UINT64_MAX)
		return 0;
	paddr_t pa = first * PAGE_SIZE;
	memset(arch_phys_to_virt(pa), 0, count * PAGE_SIZE);
	return pa;
}

void pmm_free(paddr_t pa, uint64_t count)
{
	for (uint64_t i = 0; i < count; i++)
		if (pageref_shared(&refs, pa / PAGE_SIZE + i))
			panic("pmm_free: page %#llx is still shared", (unsigned long long)(pa + i * PAGE_SIZE));
	spin_lock(&pmm_lock);
	int r = pagemap_free(&frames, pa / PAGE_SIZE, count);
	spin_unlock(&pmm_lock);
	if (r < 0 || (pa & PAGE_MASK))
		panic("pmm_free: bad or double free of %llu pages at %#llx",
		      (unsigned long long)count, (unsigned long long)pa);
}

void pmm_page_ref(paddr_t pa)
{
	spin_lock(&pmm_lock);
	int r = pageref_get(&refs, pa / PAGE_SIZE);
	spin_unlock(&pmm_lock);
	if (r < 0)
		panic("pmm_page_ref: cannot share page %#llx", (unsigned long long)pa);
}

void pmm_page_unref(paddr_t pa)
{
	spin_lock(&pmm_lock);
	int last = pageref_put(&refs, pa / PAGE_SIZE);
	spin_unlock(&pmm_lock);
	if (last < 0)
		panic("pmm_page_unref: page %#llx is outside RAM", (unsigned long long)pa);
	if (last)
		pmm_free_page(pa);
}

bool pmm_page_shared(paddr_t pa)
{
	return pageref_shared(&refs, pa / PAGE_SIZE);
}

uint64_t pmm_free_pages(void) { return frames.free; }
uint64_t pmm_total_pages(void) { return total_pages; }
paddr_t pmm_max_phys(void) { return max_phys; }
