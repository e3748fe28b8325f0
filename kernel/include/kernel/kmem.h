/*
 * The kernel object allocator: a cache per object type, each carving
 * one-page slabs into equal objects. A slab whose objects are all free goes
 * back to the page allocator at once, so the free-page count returns to the
 * same value when every object is freed (the booted tests check for leaks
 * that way). Objects are zeroed on allocation.
 */
#ifndef KERNEL_KMEM_H
#define KERNEL_KMEM_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/spinlock.h>

struct kmem_cache {
	const char *name;
	size_t object_size;        /* rounded up to 16 bytes */
	unsigned per_slab;
	struct list_node partial;  /* slabs with at least one free object */
	struct list_node full;
	uint64_t live;             /* objects allocated now */
	struct spinlock lock;
};

#define KMEM_CACHE_INIT(var, n, type) \
	{ .name = n, .object_size = sizeof(type), .partial = LIST_INIT(var.partial), \
	  .full = LIST_INIT(var.full), .lock = SPINLOCK_INIT(n) }

void *kmem_alloc(struct kmem_cache *c);
void kmem_free(struct kmem_cache *c, void *obj);
/* Objects live in all caches (for kstats). */
uint64_t kmem_live_objects(void);

#endif
