/*
 * User address spaces (see kernel/vm.h). Regions are kept sorted and
 * non-overlapping; neighbours with the same protection are merged, so that
 * the region limit counts real distinctions, not calls. Operations on a range
 * first cut regions at the range's ends (vm_split_at), then work on whole
 * regions: a failed cut leaves an equivalent layout behind, never a half-done
 * change.
 *
 * Copy-on-write: every page mapped in a region is an anonymous page with a
 * reference count (pmm_page_ref). A page that more than one space holds is
 * mapped read-only in all of them, whatever the region allows; the first
 * write to it in a writable region faults, and vm_fault gives the writer a
 * private copy (or, when the others have let go meanwhile, just makes it
 * writable again). So: in a writable region, a present read-only page is a
 * copy-on-write page, and nothing else is.
 *
 * File mappings (posix/fmap.h) map frames of the file manager's cache,
 * each holding a reference for the mapping. In a shared file mapping a page
 * is mapped with the region's protection although the frame is shared (the
 * cache itself is what the mapping writes); a private file mapping follows
 * the copy-on-write rule above: its cache pages are shared, so read-only,
 * and a write copies. A file region never merges with an anonymous one and
 * merges with a neighbour of the same map only where the map's pages
 * continue.
 *
 * Shared anonymous memory (MAP_SHARED|MAP_ANONYMOUS, vma.anon_shared) is
 * allocated whole when the region is made (it is committed then anyway), so
 * that every page has its frame before any fork: fork maps the same frames
 * in the child with the region's protection, like a shared file mapping,
 * and a write by either side is seen by the other. Such a region never
 * merges with a private one; its frames go when the last space lets go.
 */
#include <kernel/vm.h>
#include <kernel/errno.h>
#include <kernel/personality.h>
#include <kernel/kmem.h>
#include <kernel/panic.h>
#include <kernel/pmm.h>
#include <kernel/string.h>

/* Pages kept back from user commitments for kernel objects and tables. */
#define KERNEL_RESERVE_PAGES 4096

static struct kmem_cache vma_cache = KMEM_CACHE_INIT(vma_cache, "vma", struct vma);
static uint64_t commit_total, commit_limit;

void vm_init(void)
{
	uint64_t free = pmm_free_pages();
	commit_limit = free > KERNEL_RESERVE_PAGES ? free - KERNEL_RESERVE_PAGES : 0;
}

static int commit(struct vm_space *vm, uint64_t pages)
{
	if (pages > VM_MAX_COMMIT_PAGES - vm->committed_pages ||
	    pages > commit_limit - commit_total)
		return -ENOMEM;
	vm->committed_pages += pages;
	commit_total += pages;
	return 0;
}

static void uncommit(struct vm_space *vm, uint64_t pages)
{
	KASSERT(pages <= vm->committed_pages);
	vm->committed_pages -= pages;
	commit_total -= pages;
}

int vm_reserve_pages(uint64_t pages)
{
	if (pages > commit_limit - commit_total)
		return -ENOMEM;
	commit_total += pages;
	return 0;
}

void vm_release_pages(uint64_t pages)
{
	KASSERT(pages <= commit_total);
	commit_total -= pages;
}

/* Whether the region's pages may be shared writable with other spaces
 * (no copy-on-write). */
static bool keeps_shared(const struct vma *v)
{
	return v->anon_shared || (v->fmap && fmap_is_shared(v->fmap));
}

static struct vma *region_of(struct list_node *n)
{
	return container_of(n, struct vma, link);
}

/* The first region that ends above addr, or NULL. */
static struct vma *first_ending_above(struct vm_space *vm, vaddr_t addr)
{
	struct list_node *n;
	list_for_each(n, &vm->regions) {
		struct vma *v = region_of(n);
		if (v->end > addr)
			return v;
	}
	return NULL;
}

static struct vma *find_region(struct vm_space *vm, vaddr_t addr)
{
	struct vma *v = first_ending_above(vm, addr);
	return v && v->start <= addr ? v : NULL;
}

bool vm_is_mapped(struct vm_space *vm, vaddr_t addr)
{
	return find_region(vm, addr) != NULL;
}

bool vm_shared_frame(struct vm_space *vm, vaddr_t addr, paddr_t *pa)
{
	struct vma *v = find_region(vm, addr);
	if (!v || !keeps_shared(v))
		return false;
	*pa = arch_as_lookup(&vm->as, ALIGN_DOWN(addr, PAGE_SIZE), NULL);
	return *pa != 0;
}

struct vma *vm_region_at(struct vm_space *vm, vaddr_t addr)
{
	return find_region(vm, addr);
}

bool vm_range_allows(struct vm_space *vm, vaddr_t start, uint64_t len, unsigned prot)
{
	vaddr_t at = start;
	while (at - start < len) {
		struct vma *v = find_region(vm, at);
		if (!v || (v->prot & prot) != prot)
			return false;
		at = v->end;   /* regions are sorted: the next must start here */
	}
	return true;
}

static uint64_t region_pages(const struct vma *v)
{
	return (v->end - v->start) / PAGE_SIZE;
}

/* Frees a region's descriptor, letting its file map go. */
static void free_region(struct vma *v)
{
	if (v->fmap)
		fmap_region_remove(v);
	kmem_free(&vma_cache, v);
}

/* Whether b, which starts where a ends, may become part of a. */
static bool mergeable(const struct vma *a, const struct vma *b)
{
	return a->end == b->start && a->prot == b->prot && a->fmap == b->fmap &&
	       a->anon_shared == b->anon_shared &&
	       (!a->fmap || a->fpage + region_pages(a) == b->fpage);
}

static bool range_is_free(struct vm_space *vm, vaddr_t start, vaddr_t end)
{
	struct vma *v = first_ending_above(vm, start);
	return !v || v->start >= end;
}

int vm_space_init(struct vm_space *vm)
{
	list_init(&vm->regions);
	vm->region_count = 0;
	vm->committed_pages = 0;
	vm->brk_start = vm->brk = 0;
	return arch_as_create(&vm->as, VM_MAX_TABLE_PAGES);
}

static void free_frame(paddr_t pa)
{
	pmm_page_unref(pa);
}

void vm_space_destroy(struct vm_space *vm)
{
	arch_as_destroy(&vm->as, free_frame);
	struct list_node *n, *tmp;
	list_for_each_safe(n, tmp, &vm->regions) {
		list_remove(n);
		free_region(region_of(n));
	}
	vm->region_count = 0;
	uncommit(vm, vm->committed_pages);
}

/* Merges v with its neighbours when they touch and agree on protection. */
static void merge_around(struct vm_space *vm, struct vma *v)
{
	if (v->link.prev != &vm->regions) {
		struct vma *p = region_of(v->link.prev);
		if (mergeable(p, v)) {
			p->end = v->end;
			list_remove(&v->link);
			free_region(v);
			vm->region_count--;
			v = p;
		}
	}
	if (v->link.next != &vm->regions) {
		struct vma *nx = region_of(v->link.next);
		if (mergeable(v, nx)) {
			v->end = nx->end;
			list_remove(&nx->link);
			free_region(nx);
			vm->region_count--;
		}
	}
}

/* Gives a fresh region descriptor its file map, if any. */
static void set_fmap(struct vm_space *vm, struct vma *v, struct fmap *m, uint64_t fpage)
{
	v->fmap = m;
	v->fpage = fpage;
	v->space = vm;
	if (m)
		fmap_region_add(m, v);
}

/* Adds a region over a free range (the caller has committed its pages). */
static int insert_region(struct vm_space *vm, vaddr_t start, vaddr_t end, unsigned prot,
                         struct fmap *m, bool anon_shared)
{
	if (vm->region_count >= VM_MAX_REGIONS)
		return -ENOMEM;
	struct vma *v = kmem_alloc(&vma_cache);
	if (!v)
		return -ENOMEM;
	v->start = start;
	v->end = end;
	v->prot = prot;
	v->anon_shared = anon_shared;
	set_fmap(vm, v, m, 0);
	struct vma *after = first_ending_above(vm, start);
	list_insert_before(after ? &after->link : &vm->regions, &v->link);
	vm->region_count++;
	merge_around(vm, v);
	return 0;
}

/* Makes addr a region boundary, cutting the region that spans it. */
static int vm_split_at(struct vm_space *vm, vaddr_t addr)
{
	struct vma *v = find_region(vm, addr);
	if (!v || v->start == addr)
		return 0;
	if (vm->region_count >= VM_MAX_REGIONS)
		return -ENOMEM;
	struct vma *tail = kmem_alloc(&vma_cache);
	if (!tail)
		return -ENOMEM;
	tail->start = addr;
	tail->end = v->end;
	tail->prot = v->prot;
	tail->anon_shared = v->anon_shared;
	set_fmap(vm, tail, v->fmap, v->fpage + (addr - v->start) / PAGE_SIZE);
	v->end = addr;
	list_insert_before(v->link.next, &tail->link);
	vm->region_count++;
	return 0;
}

static int release_page(vaddr_t va, paddr_t pa, unsigned prot, void *arg)
{
	struct vm_space *vm = arg;
	(void)prot;
	arch_as_unmap(&vm->as, va);
	pmm_page_unref(pa);
	return 0;
}

static void release_pages(struct vm_space *vm, vaddr_t start, vaddr_t end)
{
	arch_as_walk(&vm->as, start, end, release_page, vm);
}

void vm_release_range(struct vm_space *vm, vaddr_t start, vaddr_t end)
{
	release_pages(vm, start, end);
}

/* How a page of a region with protection prot is mapped: a shared page
 * stays read-only (see the top of this file); a page of a PROT_NONE region
 * keeps its frame but loses the user bit, so that every user access faults
 * (and vm_fault refuses it) until mprotect gives access back. */
static unsigned page_prot(const struct vma *v, unsigned prot, paddr_t pa)
{
	if (!(prot & MAP_R))
		return 0;
	bool cow = pmm_page_shared(pa) && !keeps_shared(v);
	return (cow ? prot & ~MAP_W : prot) | MAP_U;
}

struct protect_args {
	struct vm_space *vm;
	const struct vma *v;
	unsigned prot;
};

static int protect_page(vaddr_t va, paddr_t pa, unsigned prot, void *arg)
{
	const struct protect_args *p = arg;
	(void)prot;
	arch_as_protect(&p->vm->as, va, page_prot(p->v, p->prot, pa));
	return 0;
}

/* Gives va, mapped to the shared page pa, a private copy mapped with the
 * region's protection prot. 0 or -ENOMEM (nothing changed). */
static int unshare_page(struct vm_space *vm, vaddr_t va, paddr_t pa, unsigned prot)
{
	paddr_t copy = pmm_alloc_page();
	if (!copy)
		return -ENOMEM;
	memcpy(arch_phys_to_virt(copy), arch_phys_to_virt(pa), PAGE_SIZE);
	arch_as_unmap(&vm->as, va);
	int err = arch_as_map(&vm->as, va, copy, prot | MAP_U);
	KASSERT(err == 0);   /* the page table is there: the old mapping used it */
	pmm_page_unref(pa);
	return 0;
}

/* Removes [start, end) from the space; holes are fine. */
static int remove_range(struct vm_space *vm, vaddr_t start, vaddr_t end)
{
	int err = vm_split_at(vm, start);
	if (!err)
		err = vm_split_at(vm, end);
	if (err)
		return err;
	struct vma *v = first_ending_above(vm, start);
	while (v && v->start < end) {
		struct list_node *next = v->link.next;
		release_pages(vm, v->start, v->end);
		uncommit(vm, region_pages(v));
		list_remove(&v->link);
		free_region(v);
		vm->region_count--;
		v = next == &vm->regions ? NULL : region_of(next);
	}
	return 0;
}

/* Highest free range of size bytes in [USER_MMAP_BASE, USER_MMAP_TOP); 0 when none. */
static vaddr_t find_gap(struct vm_space *vm, uint64_t size)
{
	vaddr_t end = USER_MMAP_TOP;
	struct list_node *n;
	for (n = vm->regions.prev; n != &vm->regions; n = n->prev) {
		struct vma *v = region_of(n);
		if (v->start >= end)
			continue;
		if (end - USER_MMAP_BASE >= size && v->end <= end - size)
			return end - size;
		end = v->start;
		if (end <= USER_MMAP_BASE)
			return 0;
	}
	return end - USER_MMAP_BASE >= size ? end - size : 0;
}

static int populate(struct vm_space *vm, vaddr_t start, vaddr_t end, unsigned prot)
{
	for (vaddr_t va = start; va < end; va += PAGE_SIZE) {
		if (arch_as_lookup(&vm->as, va, NULL))
			continue;
		paddr_t pa = pmm_alloc_page();
		if (!pa)
			return -ENOMEM;
		int err = arch_as_map(&vm->as, va, pa, (prot & MAP_R) ? prot | MAP_U : 0);
		if (err) {
			pmm_free_page(pa);
			return err == -EAGAIN ? -ENOMEM : err;
		}
	}
	return 0;
}

static int map_region(struct vm_space *vm, vaddr_t *addr, uint64_t size, unsigned prot,
                      unsigned flags, struct fmap *m)
{
	if (size == 0)
		return -EINVAL;
	if (size > ARCH_USER_TOP)
		return -ENOMEM;
	size = ALIGN_UP(size, PAGE_SIZE);
	vaddr_t start;
	if (flags & (VM_FIXED | VM_NOREPLACE)) {
		start = *addr;
		if (start & PAGE_MASK)
			return -EINVAL;
		if (start > ARCH_USER_TOP || size > ARCH_USER_TOP - start)
			return -ENOMEM;
		if (start < USER_BASE)
			return -EPERM;
		if (start < USER_MMAP_BASE && start + size > USER_BRK_TOP)
			return -ENOMEM;   /* the device and ICA windows are the kernel's */
		if ((flags & VM_NOREPLACE) && !range_is_free(vm, start, start + size))
			return -EEXIST;
	} else {
		start = ALIGN_DOWN(*addr, PAGE_SIZE);
		bool hint_ok = start >= USER_MMAP_BASE && start <= USER_MMAP_TOP &&
		               size <= USER_MMAP_TOP - start && range_is_free(vm, start, start + size);
		if (!hint_ok)
			start = find_gap(vm, size);
		if (!start)
			return -ENOMEM;
	}
	int err = commit(vm, size / PAGE_SIZE);
	if (err)
		return err;
	if (flags & VM_FIXED) {
		err = remove_range(vm, start, start + size);
		if (err) {
			uncommit(vm, size / PAGE_SIZE);
			return err;
		}
	}
	bool anon_shared = (flags & VM_SHARED) && !m;
	err = insert_region(vm, start, start + size, prot, m, anon_shared);
	if (err) {
		uncommit(vm, size / PAGE_SIZE);
		return err;
	}
	if ((flags & (VM_POPULATE | VM_SHARED)) && !m) {
		err = populate(vm, start, start + size, prot);
		if (err) {
			remove_range(vm, start, start + size);
			return err;
		}
	}
	*addr = start;
	return 0;
}

int vm_map(struct vm_space *vm, vaddr_t *addr, uint64_t size, unsigned prot, unsigned flags)
{
	return map_region(vm, addr, size, prot, flags, NULL);
}

int vm_map_file(struct vm_space *vm, vaddr_t *addr, uint64_t size, unsigned prot,
                unsigned flags, struct fmap *m)
{
	return map_region(vm, addr, size, prot, flags & ~(VM_POPULATE | VM_SHARED), m);
}

int vm_map_frames(struct vm_space *vm, vaddr_t addr, const paddr_t *pas, uint64_t n,
                  unsigned prot)
{
	vaddr_t at = addr;
	int err = vm_map(vm, &at, n * PAGE_SIZE, prot, VM_NOREPLACE);
	if (err)
		return err;
	for (uint64_t i = 0; i < n; i++) {
		vaddr_t va = addr + i * PAGE_SIZE;
		err = arch_as_map(&vm->as, va, pas[i], (prot & MAP_R) ? (prot & ~MAP_W) | MAP_U : 0);
		if (err) {
			remove_range(vm, addr, addr + n * PAGE_SIZE);   /* unrefs what was mapped */
			return err == -EAGAIN ? -ENOMEM : err;
		}
		pmm_page_ref(pas[i]);
	}
	return 0;
}

int vm_unmap(struct vm_space *vm, vaddr_t addr, uint64_t size)
{
	if ((addr & PAGE_MASK) || size == 0 || addr > ARCH_USER_TOP || size > ARCH_USER_TOP - addr)
		return -EINVAL;
	return remove_range(vm, addr, addr + ALIGN_UP(size, PAGE_SIZE));
}

int vm_protect(struct vm_space *vm, vaddr_t addr, uint64_t size, unsigned prot)
{
	if (addr & PAGE_MASK)
		return -EINVAL;
	if (size == 0)
		return 0;
	if (addr > ARCH_USER_TOP || size > ARCH_USER_TOP - addr)
		return -ENOMEM;
	vaddr_t end = addr + ALIGN_UP(size, PAGE_SIZE);
	/* The whole range must be mapped (Linux: -ENOMEM otherwise). */
	vaddr_t covered = addr;
	for (struct vma *v = first_ending_above(vm, addr); v && v->start <= covered && covered < end;
	     v = v->link.next == &vm->regions ? NULL : region_of(v->link.next))
		covered = v->end;
	if (covered < end)
		return -ENOMEM;
	int err = vm_split_at(vm, addr);
	if (!err)
		err = vm_split_at(vm, end);
	if (err)
		return err;
	for (struct vma *v = find_region(vm, addr); v && v->start < end;
	     v = v->link.next == &vm->regions ? NULL : region_of(v->link.next))
		if (v->fmap && !fmap_may_protect(v->fmap, prot))
			return -EACCES;   /* before any change (the cuts change nothing visible) */
	struct vma *v = find_region(vm, addr);
	while (v && v->start < end) {
		v->prot = prot;
		struct protect_args args = { vm, v, prot };
		arch_as_walk(&vm->as, v->start, v->end, protect_page, &args);
		v = v->link.next == &vm->regions ? NULL : region_of(v->link.next);
	}
	/* Re-merge what the cuts separated. */
	struct vma *first = find_region(vm, addr);
	if (first)
		merge_around(vm, first);
	struct vma *last = find_region(vm, end - PAGE_SIZE);
	if (last)
		merge_around(vm, last);
	return 0;
}

vaddr_t vm_set_brk(struct vm_space *vm, vaddr_t new_brk)
{
	if (new_brk < vm->brk_start || new_brk > USER_BRK_TOP)
		return vm->brk;
	vaddr_t old_end = ALIGN_UP(vm->brk, PAGE_SIZE), new_end = ALIGN_UP(new_brk, PAGE_SIZE);
	if (new_end > old_end) {
		uint64_t pages = (new_end - old_end) / PAGE_SIZE;
		if (!range_is_free(vm, old_end, new_end) || commit(vm, pages) < 0)
			return vm->brk;
		if (insert_region(vm, old_end, new_end, MAP_R | MAP_W, NULL, false) < 0) {
			uncommit(vm, pages);
			return vm->brk;
		}
	} else if (new_end < old_end) {
		if (remove_range(vm, new_end, old_end) < 0)
			return vm->brk;
	}
	vm->brk = new_brk;
	return new_brk;
}

int vm_fault(struct vm_space *vm, vaddr_t addr, unsigned access)
{
	struct vma *v = find_region(vm, addr);
	if (!v)
		return -EFAULT;
	if (((access & VM_ACCESS_WRITE) && !(v->prot & MAP_W)) ||
	    ((access & VM_ACCESS_EXEC) && !(v->prot & MAP_X)) ||
	    ((access & VM_ACCESS_READ) && !(v->prot & MAP_R)))
		return -EFAULT;
	vaddr_t va = ALIGN_DOWN(addr, PAGE_SIZE);
	unsigned mapped;
	paddr_t pa = arch_as_lookup(&vm->as, va, &mapped);
	if (!pa && v->fmap)   /* blocks: v is not to be trusted afterwards */
		return fmap_fault(vm, v->fmap, v->fpage + (va - v->start) / PAGE_SIZE, va, access,
		                  (v->end - va) / PAGE_SIZE);
	if (!pa)
		return populate(vm, va, va + PAGE_SIZE, v->prot);
	if (!(access & VM_ACCESS_WRITE) || (mapped & MAP_W))
		return -EFAULT;   /* present yet faulting: a protection violation */
	if (keeps_shared(v))
		return -EFAULT;   /* shared pages are mapped as the region allows */
	/* A write the region allows to a read-only page: copy-on-write. */
	if (!pmm_page_shared(pa))   /* the other holders have let go: ours alone */
		return arch_as_protect(&vm->as, va, v->prot | MAP_U);
	return unshare_page(vm, va, pa, v->prot);
}

int vm_write(struct vm_space *vm, vaddr_t va, const void *src, uint64_t n)
{
	const uint8_t *from = src;
	while (n > 0) {
		vaddr_t page = ALIGN_DOWN(va, PAGE_SIZE);
		struct vma *v = find_region(vm, va);
		if (!v || v->fmap)
			return -EFAULT;   /* the loader and signal frames never write files */
		int err = populate(vm, page, page + PAGE_SIZE, v->prot);
		if (err)
			return err;
		paddr_t pa = arch_as_lookup(&vm->as, page, NULL);
		if (pmm_page_shared(pa) && !v->anon_shared) {
			err = unshare_page(vm, page, pa, v->prot);
			if (err)
				return err;
			pa = arch_as_lookup(&vm->as, page, NULL);
		}
		uint64_t chunk = MIN(n, PAGE_SIZE - (va & PAGE_MASK));
		memcpy((uint8_t *)arch_phys_to_virt(pa) + (va & PAGE_MASK), from, chunk);
		va += chunk;
		from += chunk;
		n -= chunk;
	}
	return 0;
}

int vm_store(struct vm_space *vm, vaddr_t va, const void *src, uint64_t n)
{
	if (n == 0)
		return 0;
	if (va >= ARCH_USER_TOP || n > ARCH_USER_TOP - va)
		return -EFAULT;
	for (vaddr_t at = va; at < va + n;) {
		struct vma *v = find_region(vm, at);
		if (!v || !(v->prot & MAP_W))
			return -EFAULT;
		at = v->end;
	}
	return vm_write(vm, va, src, n);
}

struct clone_args {
	struct vm_space *dst, *src;
	unsigned prot;     /* the region's */
	bool keep;         /* a shared file mapping: both keep the page as it is */
};

/* Shares one page of a region: read-only in the copy and, when the parent
 * may write it, read-only in the parent too, so that whichever side writes
 * first gets its own copy. */
static int share_page(vaddr_t va, paddr_t pa, unsigned prot, void *arg)
{
	const struct clone_args *c = arg;
	unsigned shared = c->keep ? prot : (c->prot & ~MAP_W) | MAP_U;
	int err = arch_as_map(&c->dst->as, va, pa, shared);
	if (err)
		return err == -EAGAIN ? -ENOMEM : err;
	pmm_page_ref(pa);
	if ((prot & MAP_W) && !c->keep)
		arch_as_protect(&c->src->as, va, shared);   /* invalidates its TLB entry */
	return 0;
}

int vm_space_clone(struct vm_space *dst, struct vm_space *src)
{
	KASSERT(dst->region_count == 0 && dst->committed_pages == 0);
	int err = commit(dst, src->committed_pages);
	if (err)
		return err;
	struct list_node *n;
	list_for_each(n, &src->regions) {
		const struct vma *from = region_of(n);
		struct vma *v = kmem_alloc(&vma_cache);
		if (!v)
			return -ENOMEM;
		v->start = from->start;
		v->end = from->end;
		v->prot = from->prot;
		v->anon_shared = from->anon_shared;
		set_fmap(dst, v, from->fmap, from->fpage);
		list_push_back(&dst->regions, &v->link);   /* same order, already merged */
		dst->region_count++;
		struct clone_args c = { dst, src, from->prot, keeps_shared(from) };
		err = arch_as_walk(&src->as, from->start, from->end, share_page, &c);
		if (err)
			return err;
	}
	dst->brk_start = src->brk_start;
	dst->brk = src->brk;
	return 0;
}

void vm_space_clear(struct vm_space *vm)
{
	struct list_node *n, *tmp;
	list_for_each_safe(n, tmp, &vm->regions) {
		struct vma *v = region_of(n);
		release_pages(vm, v->start, v->end);
		list_remove(n);
		free_region(v);
	}
	vm->region_count = 0;
	uncommit(vm, vm->committed_pages);
	vm->brk_start = vm->brk = 0;
}

void vm_unmap_files(struct vm_space *vm)
{
	struct list_node *n, *tmp;
	list_for_each_safe(n, tmp, &vm->regions) {
		struct vma *v = region_of(n);
		if (!v->fmap)
			continue;
		release_pages(vm, v->start, v->end);
		uncommit(vm, region_pages(v));
		list_remove(n);
		free_region(v);
		vm->region_count--;
	}
}

int vm_install_file_pages(struct vm_space *vm, vaddr_t va, struct fmap *m, uint64_t fpage,
                          const paddr_t *pas, uint64_t n, unsigned access)
{
	struct vma *v = find_region(vm, va);
	if (!v || v->fmap != m || v->fpage + (va - v->start) / PAGE_SIZE != fpage ||
	    n > (v->end - va) / PAGE_SIZE)
		return -EFAULT;
	bool shared = fmap_is_shared(m);
	unsigned prot = (v->prot & MAP_R) ? (shared ? v->prot : v->prot & ~MAP_W) | MAP_U : 0;
	bool copy = !shared && (access & VM_ACCESS_WRITE) && (v->prot & MAP_W);
	while (n > 0) {
		unsigned k = n < 64 ? (unsigned)n : 64;
		uint64_t mapped;
		int err = arch_as_map_list(&vm->as, va, pas, k, prot, &mapped);
		for (unsigned i = 0; i < k; i++)
			if (mapped & (1ull << i))
				pmm_page_ref(pas[i]);
		if (err)
			return err == -EAGAIN ? -ENOMEM : err;
		if (copy && (mapped & 1)) {   /* a write fault: the faulting page, first */
			err = unshare_page(vm, va, pas[0], v->prot);
			if (err)
				return err;
		}
		copy = false;
		pas += k;
		n -= k;
		va += (vaddr_t)k * PAGE_SIZE;
	}
	return 0;
}
