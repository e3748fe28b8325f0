/*
 * File map objects (see posix/fmap.h): their regions, the page-fault path
 * to the pager, the FS_UNMAP notices, revocation, and turning the file
 * manager's page records into frames.
 *
 * Invariant: a map is on live_maps from its creation until its last region
 * goes, then on dead_maps until fmap_flush has sent its notice; nregions
 * counts the regions on its list. A map that never got a region (its
 * system call failed after FS_MAP) goes to dead_maps directly.
 */
#include <posix/fmap.h>
#include <kernel/errno.h>
#include <posix/forward.h>
#include <kernel/ica.h>
#include <kernel/ipc.h>
#include <kernel/kmem.h>
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/stats.h>
#include <kernel/vm.h>
#include <myrmex/fs.h>

static struct kmem_cache fmap_cache = KMEM_CACHE_INIT(fmap_cache, "fmap", struct fmap);
static struct list_node live_maps = LIST_INIT(live_maps);
static struct list_node dead_maps = LIST_INIT(dead_maps);
static unsigned map_count;
static uint32_t last_id;

struct fmap *fmap_create(bool shared, bool omf)
{
	if (map_count >= FMAP_MAX)
		return NULL;
	struct fmap *m = kmem_alloc(&fmap_cache);
	if (!m)
		return NULL;
	if (++last_id == 0)
		last_id = 1;
	m->id = last_id;
	m->shared = shared;
	m->omf = omf;
	m->fd = -1;
	m->limit = UINT64_MAX;
	list_init(&m->regions);
	list_push_back(&live_maps, &m->link);
	map_count++;
	return m;
}

void fmap_abandon(struct fmap *m)
{
	KASSERT(m->nregions == 0);
	list_remove(&m->link);
	list_push_back(&dead_maps, &m->link);
}

static void fmap_free(struct fmap *m)
{
	list_remove(&m->link);
	kmem_free(&fmap_cache, m);
	map_count--;
}

void fmap_discard(struct fmap *m)
{
	KASSERT(m->nregions == 0);
	fmap_free(m);
}

void fmap_region_add(struct fmap *m, struct vma *v)
{
	list_push_back(&m->regions, &v->fmap_link);
	m->nregions++;
}

void fmap_region_remove(struct vma *v)
{
	struct fmap *m = v->fmap;
	list_remove(&v->fmap_link);
	v->fmap = NULL;
	if (--m->nregions == 0)
		fmap_abandon(m);
}

uint64_t fmap_pages(const struct fmap *m)
{
	return m->npages;
}

bool fmap_is_shared(const struct fmap *m)
{
	return m->shared;
}

bool fmap_may_protect(const struct fmap *m, unsigned prot)
{
	return !(m->shared && (prot & MAP_W) && !m->writable);
}

struct fmap *fmap_find(uint32_t id)
{
	struct list_node *n;
	list_for_each(n, &live_maps) {
		struct fmap *m = container_of(n, struct fmap, link);
		if (m->id == id)
			return m;
	}
	return NULL;
}

/* The frame a page record names: a page of an ICA the file manager
 * allocated (its cache), wherever the ICA is now — a chunk may be at the
 * disk driver for a neighbouring block, its frames stay the same — but not
 * a channel's. 0 when the record is bad. */
static paddr_t record_frame(const struct fs_map_page *r, struct process *pager)
{
	struct ica *ica = ica_lookup(r->handle);
	if (!pager || !ica || ica->kernel_channel || ica->charged != pager || r->page >= ica->npages)
		return 0;
	return ica->base + (paddr_t)r->page * PAGE_SIZE;
}

int fmap_install(struct vm_space *vm, vaddr_t va, struct fmap *m, uint64_t fpage,
                 const struct fs_map_page *records, uint64_t n, unsigned access)
{
	paddr_t batch[64];
	struct process *pager = posix_server(SERVICE_FILES);
	while (n > 0) {
		uint64_t k = n < 64 ? n : 64;
		for (uint64_t i = 0; i < k; i++) {
			struct fs_map_page r = records[i];   /* the server's memory: read once */
			batch[i] = record_frame(&r, pager);
			if (!batch[i])
				return -EIO;
		}
		int err = vm_install_file_pages(vm, va, m, fpage, batch, k, access);
		if (err)
			return err;
		records += k;
		n -= k;
		va += k * PAGE_SIZE;
		fpage += k;
	}
	return 0;
}

int fmap_fault(struct vm_space *vm, struct fmap *m, uint64_t fpage, vaddr_t va, unsigned access,
               uint64_t room)
{
	if (fpage >= m->limit)
		return -ENXIO;
	uint32_t id = m->id;
	/* Fault-around, as Linux's read faults: the pages after this one that
	 * the file manager has cached come in the same call. A write fault
	 * takes its own page only. */
	uint64_t around = access & VM_ACCESS_WRITE ? 1 : FS_PAGEIN_AROUND;
	if (around > room)
		around = room;
	if (around > m->limit - fpage)
		around = m->limit - fpage;
	uint64_t arg[8] = { id, fpage, (access & VM_ACCESS_WRITE) && m->shared ? 1 : 0, around };
	uint64_t res[8];
	void *data = NULL;
	long r = forward_pager_call(FS_PAGEIN, arg, res, around > 1 ? &data : NULL);
	STAT_INC(pager_calls);
	if (r == -EINTR)
		return -EINTR;   /* the thread dies: nothing to map */
	if (r == -ENXIO || r == -ENOENT)
		return -ENXIO;
	if (r < 0)
		return r == -ENOMEM ? -ENOMEM : -EIO;
	/* While the thread waited, the map may have been revoked or left the
	 * region (munmap, and a new map may even have taken its place): the
	 * install checks the region, the limit is checked here. */
	if (fmap_find(id) != m || fpage >= m->limit)
		return 0;   /* the access faults again and finds out */
	uint64_t n = (uint64_t)r;
	if (n > around)
		n = around;
	if (n > m->limit - fpage)
		n = m->limit - fpage;   /* revoked meanwhile */
	int err;
	if (n >= 1 && data) {
		err = fmap_install(vm, va, m, fpage, data, 1, access);
		if (!err && n > 1)
			err = fmap_install(vm, va + PAGE_SIZE, m, fpage + 1,
			                   (const struct fs_map_page *)data + 1, n - 1, 0);
	} else {
		struct fs_map_page rec = { (uint32_t)res[0], (uint32_t)res[1] };
		err = fmap_install(vm, va, m, fpage, &rec, 1, access);
	}
	return err == -EFAULT ? 0 : err;
}

void fmap_flush(struct process *p)
{
	while (!list_empty(&dead_maps)) {
		struct fmap *m = container_of(dead_maps.next, struct fmap, link);
		int err = forward_notify(p, SERVICE_FILES, FS_UNMAP, m->id);
		if (err == -EAGAIN || err == -ENOMEM)
			return;   /* the next flush tries again */
		fmap_free(m);
	}
}

void fmap_process_exit(struct process *p)
{
	vm_unmap_files(&p->vm);
	fmap_flush(p);
}

int fmap_revoke(uint32_t id, uint64_t from)
{
	struct fmap *m = fmap_find(id);
	if (!m)
		return -ENOENT;
	if (from < m->limit)
		m->limit = from;
	struct list_node *n;
	list_for_each(n, &m->regions) {
		struct vma *v = container_of(n, struct vma, fmap_link);
		uint64_t pages = (v->end - v->start) / PAGE_SIZE;
		if (v->fpage + pages <= from)
			continue;
		uint64_t skip = from > v->fpage ? from - v->fpage : 0;
		vm_release_range(v->space, v->start + skip * PAGE_SIZE, v->end);
		STAT_INC(fmap_revocations);
	}
	return 0;
}
