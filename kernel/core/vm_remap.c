/*
 * Resizing and moving a region (vm_remap, kernel/vm.h), as Linux's mremap
 * does it: shrinking unmaps the tail; growing extends the region in place
 * when the range after it is free, else (VM_REMAP_MAYMOVE) moves it to a
 * free range of the new size; VM_REMAP_FIXED moves it to a given address,
 * unmapping what was there first.
 *
 * A move keeps the pages: each present page's frame is mapped at the new
 * address with the page's own protection (a copy-on-write page stays
 * read-only, a shared one shared) and gains a reference there before the
 * old range goes, so that a failure half-way (page tables) leaves the old
 * mapping whole and only the new one to take down. The region keeps its
 * kind (anonymous private or shared, a file's pages from the same page of
 * the map, the protection); the pages added by growing are demand-zero or
 * the file's next pages (within the pages the map was made with), and
 * allocated at once for shared anonymous memory (vm.c: such memory has
 * every frame before any fork).
 */
#include <kernel/vm.h>
#include <kernel/errno.h>
#include <kernel/personality.h>
#include <kernel/pmm.h>

#include "vm_internal.h"

#define BATCH 64   /* pages moved per walk of the old range */

struct moved_page {
	vaddr_t va;
	paddr_t pa;
	unsigned prot;
};

struct batch {
	struct moved_page page[BATCH];
	unsigned n;
};

static int collect(vaddr_t va, paddr_t pa, unsigned prot, void *arg)
{
	struct batch *b = arg;
	b->page[b->n++] = (struct moved_page){ va, pa, prot };
	return b->n == BATCH;   /* full: stop the walk here */
}

/* Maps the present pages of [from, from + len) at to as well (each frame
 * gaining a reference): 0 or -ENOMEM (some mapped: the caller removes the
 * new range). */
static int copy_mappings(struct vm_space *vm, vaddr_t from, uint64_t len, vaddr_t to,
                         bool charge)
{
	vaddr_t at = from, end = from + len;
	while (at < end) {
		struct batch b = { .n = 0 };
		arch_as_walk(&vm->as, at, end, collect, &b);
		for (unsigned i = 0; i < b.n; i++) {
			const struct moved_page *mp = &b.page[i];
			if (charge && commit(vm, 1) < 0)
				return -ENOMEM;   /* a noreserve region commits what it maps */
			int err = arch_as_map(&vm->as, to + (mp->va - from), mp->pa, mp->prot);
			if (err) {
				if (charge)
					uncommit(vm, 1);
				return -ENOMEM;
			}
			pmm_page_ref(mp->pa);
		}
		if (b.n < BATCH)
			break;
		at = b.page[BATCH - 1].va + PAGE_SIZE;
	}
	return 0;
}

/* Whether a region may cover [start, end): inside user space, clear of the
 * kernel's device and ICA windows (as map_region wants of a fixed map). */
static bool placeable(vaddr_t start, vaddr_t end)
{
	return start >= USER_BASE && end <= ARCH_USER_TOP && end > start &&
	       !(start < USER_MMAP_BASE && end > USER_BRK_TOP);
}

/* Linux's vma_to_resize: the old range lies in one region. A file region
 * grows only within the pages its map was made with (the file manager
 * pages in no more): -ENOMEM past them. */
static int check_resize(struct vm_space *vm, vaddr_t addr, uint64_t old_len, uint64_t new_len,
                        struct vma **out)
{
	struct vma *v = find_region(vm, addr);
	if (!v)
		return -EFAULT;
	if (old_len > v->end - addr)
		return -EFAULT;   /* not across regions */
	if (v->fmap && new_len > old_len &&
	    v->fpage + (addr - v->start + new_len) / PAGE_SIZE > fmap_pages(v->fmap))
		return -ENOMEM;
	*out = v;
	return 0;
}

/* Grows v (which ends at its old end) by extra bytes over a free range. */
static int grow_in_place(struct vm_space *vm, struct vma *v, uint64_t extra)
{
	int err = commit(vm, v->noreserve ? 0 : extra / PAGE_SIZE);
	if (err)
		return err;
	vaddr_t old_end = v->end;
	v->end += extra;
	if (v->anon_shared) {
		err = populate(vm, old_end, v->end, v->prot, false);
		if (err) {
			remove_range(vm, old_end, v->end);   /* uncommits the extra pages */
			return err;
		}
	}
	merge_around(vm, v);
	return 0;
}

/* Moves [addr, addr + old_len), inside one region, to [to, to + new_len)
 * (free, new_len >= old_len). */
static int move(struct vm_space *vm, vaddr_t addr, uint64_t old_len, vaddr_t to,
                uint64_t new_len)
{
	int err = vm_split_at(vm, addr);
	if (!err)
		err = vm_split_at(vm, addr + old_len);
	if (err)
		return err;
	struct vma *v = find_region(vm, addr);
	unsigned prot = v->prot;
	bool anon_shared = v->anon_shared;
	struct fmap *m = v->fmap;
	uint64_t fpage = v->fpage;
	bool noreserve = v->noreserve;
	uint64_t charge = noreserve ? 0 : new_len / PAGE_SIZE;
	err = commit(vm, charge);
	if (err)
		return err;
	err = vm_insert_region(vm, to, to + new_len, prot, m, fpage, anon_shared, noreserve);
	if (err) {
		uncommit(vm, charge);
		return err;
	}
	err = copy_mappings(vm, addr, old_len, to, noreserve);
	if (!err && anon_shared)
		err = populate(vm, to + old_len, to + new_len, prot, false);
	if (err) {
		remove_range(vm, to, to + new_len);   /* its references and commitment */
		return err;
	}
	return remove_range(vm, addr, addr + old_len);   /* cut already: cannot fail */
}

int vm_remap(struct vm_space *vm, vaddr_t addr, uint64_t old_len, uint64_t new_len,
             unsigned flags, vaddr_t *new_addr)
{
	struct vma *v;
	if (!find_region(vm, addr))
		return -EFAULT;
	if (flags & VM_REMAP_FIXED) {
		vaddr_t to = *new_addr;
		if ((to & PAGE_MASK) || new_len > ARCH_USER_TOP || to > ARCH_USER_TOP - new_len)
			return -EINVAL;
		if (addr + old_len > to && to + new_len > addr)
			return -EINVAL;   /* the two ranges overlap */
		if (to < USER_BASE)
			return -EPERM;
		if (!placeable(to, to + new_len))
			return -ENOMEM;
		/* As Linux: what was at the target goes first, and the old
		 * range's tail when it shrinks, before the checks below. */
		int err = remove_range(vm, to, to + new_len);
		if (!err && old_len > new_len) {
			err = remove_range(vm, addr + new_len, addr + old_len);
			old_len = new_len;
		}
		if (!err)
			err = check_resize(vm, addr, old_len, new_len, &v);
		if (!err)
			err = move(vm, addr, old_len, to, new_len);
		return err;
	}
	if (old_len >= new_len) {
		*new_addr = addr;
		return old_len > new_len ? remove_range(vm, addr + new_len, addr + old_len) : 0;
	}
	int err = check_resize(vm, addr, old_len, new_len, &v);
	if (err)
		return err;
	vaddr_t end = addr + new_len;
	if (addr + old_len == v->end && end > addr && placeable(v->start, end) &&
	    range_is_free(vm, v->end, end)) {
		*new_addr = addr;
		return grow_in_place(vm, v, new_len - old_len);
	}
	if (!(flags & VM_REMAP_MAYMOVE))
		return -ENOMEM;
	vaddr_t to = find_gap(vm, new_len);
	if (!to)
		return -ENOMEM;
	*new_addr = to;
	return move(vm, addr, old_len, to, new_len);
}
