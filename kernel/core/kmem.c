/*
 * The kernel object allocator (see kernel/kmem.h). A slab is one page: a
 * header followed by objects; free objects are chained through their first
 * word. Empty slabs are returned to the page allocator immediately.
 */
#include <kernel/kmem.h>
#include <kernel/pmm.h>
#include <kernel/arch.h>
#include <kernel/string.h>
#include <kernel/panic.h>

struct slab {
	struct list_node link;     /* on the cache's partial or full list */
	struct kmem_cache *cache;
	void *free_list;
	unsigned in_use;
};

#define SLAB_HEADER ALIGN_UP(sizeof(struct slab), 16)

static uint64_t live_objects;

static void cache_setup(struct kmem_cache *c)
{
	c->object_size = ALIGN_UP(MAX(c->object_size, sizeof(void *)), 16);
	KASSERT(c->object_size <= PAGE_SIZE - SLAB_HEADER);
	c->per_slab = (unsigned)((PAGE_SIZE - SLAB_HEADER) / c->object_size);
}

static struct slab *slab_new(struct kmem_cache *c)
{
	paddr_t pa = pmm_alloc_page();
	if (!pa)
		return NULL;
	struct slab *s = arch_phys_to_virt(pa);
	s->cache = c;
	s->in_use = 0;
	s->free_list = NULL;
	char *base = (char *)s + SLAB_HEADER;
	for (unsigned i = c->per_slab; i-- > 0;) {
		void **obj = (void **)(base + i * c->object_size);
		*obj = s->free_list;
		s->free_list = obj;
	}
	list_init(&s->link);
	list_push_front(&c->partial, &s->link);
	return s;
}

void *kmem_alloc(struct kmem_cache *c)
{
	spin_lock(&c->lock);
	if (c->per_slab == 0)
		cache_setup(c);
	struct slab *s;
	if (list_empty(&c->partial)) {
		s = slab_new(c);
		if (!s) {
			spin_unlock(&c->lock);
			return NULL;
		}
	} else {
		s = container_of(c->partial.next, struct slab, link);
	}
	void **obj = s->free_list;
	s->free_list = *obj;
	if (++s->in_use == c->per_slab) {
		list_remove(&s->link);
		list_push_front(&c->full, &s->link);
	}
	c->live++;
	live_objects++;
	spin_unlock(&c->lock);
	memset(obj, 0, c->object_size);
	return obj;
}

void kmem_free(struct kmem_cache *c, void *obj)
{
	if (!obj)
		return;
	struct slab *s = (struct slab *)(uintptr_t)ALIGN_DOWN((uintptr_t)obj, PAGE_SIZE);
	if (s->cache != c)
		panic("kmem_free: object %p does not belong to cache %s", obj, c->name);
	spin_lock(&c->lock);
	*(void **)obj = s->free_list;
	s->free_list = obj;
	if (s->in_use-- == c->per_slab) {
		list_remove(&s->link);
		list_push_front(&c->partial, &s->link);
	}
	c->live--;
	live_objects--;
	if (s->in_use == 0) {
		list_remove(&s->link);
		pmm_free_page(arch_virt_to_phys(s));
	}
	spin_unlock(&c->lock);
}

uint64_t kmem_live_objects(void)
{
	return live_objects;
}
