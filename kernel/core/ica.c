/*
 * ICA objects, handles and mappings (see kernel/ica.h). The handle table is
 * indexed by slot; a slot's generation changes on every reuse so that stale
 * handles fail the lookup.
 */
#include <kernel/ica.h>
#include <kernel/arch.h>
#include <kernel/errno.h>
#include <kernel/kmem.h>
#include <kernel/panic.h>
#include <kernel/pmm.h>
#include <kernel/proc.h>
#include <kernel/stats.h>
#include <kernel/vm.h>

static struct kmem_cache ica_cache = KMEM_CACHE_INIT(ica_cache, "ica", struct ica);
static struct ica *slots[MYRMEX_ICA_SLOTS];
static uint32_t generation[MYRMEX_ICA_SLOTS];
static uint64_t live;
static uint32_t user_live;   /* of them, allocated by processes without the server right */

static uint32_t slot_of(uint32_t handle)
{
	return handle & MYRMEX_ICA_SLOT_MASK;
}

bool ica_in_window(uptr_t start, uint64_t size)
{
	return start < MYRMEX_ICA_WINDOW + MYRMEX_ICA_WINDOW_SIZE && start + size > MYRMEX_ICA_WINDOW;
}

struct ica *ica_lookup(uint32_t handle)
{
	struct ica *ica = slots[slot_of(handle)];
	return ica && ica->handle == handle ? ica : NULL;
}

struct ica *ica_at(uptr_t addr)
{
	if (addr < MYRMEX_ICA_WINDOW || addr >= MYRMEX_ICA_WINDOW + MYRMEX_ICA_WINDOW_SIZE)
		return NULL;
	uint64_t off = addr - MYRMEX_ICA_WINDOW;
	if (off & (((uint64_t)1 << MYRMEX_ICA_SLOT_SHIFT) - 1))
		return NULL;
	return slots[off >> MYRMEX_ICA_SLOT_SHIFT];
}

/* A kernel channel's ICAs are never mapped in the process they serve: its
 * other threads could otherwise rewrite a call the kernel has made. */
static bool hidden_from(const struct ica *ica, const struct process *p)
{
	return ica->kernel_channel && p == ica->charged;
}

void ica_make_channel(struct ica *ica)
{
	if (ica->state == ICA_ATTACHED)
		ica_unmap(ica, ica->owner);
	ica->kernel_channel = true;
}

int ica_map(struct ica *ica, struct process *p)
{
	if (hidden_from(ica, p))
		return 0;
	int err = arch_ica_attach(&p->vm.as, ica_address(ica), ica->base, ica->npages,
	                          MAP_R | MAP_W | MAP_U);
	if (err)
		return err == -EAGAIN ? -ENOMEM : err;
	STAT_INC(ica_attaches);
	STAT_ADD(ica_pages_mapped, ica->npages);
	return 0;
}

void ica_unmap(struct ica *ica, struct process *p)
{
	if (hidden_from(ica, p))
		return;
	arch_ica_detach(&p->vm.as, ica_address(ica), ica->npages);
	STAT_INC(ica_detaches);
}

int ica_alloc(struct process *p, uint32_t npages, struct ica **out)
{
	if (npages == 0 || npages > MYRMEX_ICA_MAX_PAGES)
		return -EINVAL;
	uint32_t max_icas = p->may_serve ? ICA_MAX_PER_SERVER : ICA_MAX_PER_PROCESS;
	uint64_t max_pages = p->may_serve ? ICA_MAX_PAGES_SERVER : ICA_MAX_PAGES_CHARGED;
	if (p->ica_count >= max_icas || p->ica_pages + npages > max_pages)
		return -EAGAIN;
	/* Processes without the server right share all but ICA_SERVER_RESERVE
	 * slots, so that together they cannot leave the servers none. */
	if (!p->may_serve && user_live >= MYRMEX_ICA_SLOTS - ICA_SERVER_RESERVE) {
		STAT_INC(ipc_quota_refused);
		return -EAGAIN;
	}
	uint32_t slot = 0;
	while (slot < MYRMEX_ICA_SLOTS && slots[slot])
		slot++;
	if (slot == MYRMEX_ICA_SLOTS)
		return -EAGAIN;
	if (vm_reserve_pages(npages) < 0)
		return -ENOMEM;   /* ICAs share the system-wide memory budget */
	struct ica *ica = kmem_alloc(&ica_cache);
	if (!ica) {
		vm_release_pages(npages);
		return -ENOMEM;
	}
	ica->base = pmm_alloc(npages);
	if (!ica->base) {
		kmem_free(&ica_cache, ica);
		vm_release_pages(npages);
		return -ENOMEM;
	}
	uint32_t gen = generation[slot] = (generation[slot] + 1) & (UINT32_MAX >> MYRMEX_ICA_GEN_SHIFT);
	if (gen == 0)
		gen = generation[slot] = 1;
	ica->handle = slot | gen << MYRMEX_ICA_GEN_SHIFT;
	ica->npages = npages;
	list_init(&ica->call.link);
	int err = ica_map(ica, p);
	if (err) {
		pmm_free(ica->base, npages);
		kmem_free(&ica_cache, ica);
		vm_release_pages(npages);
		return err;
	}
	ica->state = ICA_ATTACHED;
	ica->owner = p;
	ica->charged = p;
	ica->carrier = NULL;
	ica->kernel_channel = false;
	ica->user_slot = !p->may_serve;
	user_live += ica->user_slot;
	p->ica_count++;
	p->ica_pages += npages;
	slots[slot] = ica;
	live++;
	*out = ica;
	return 0;
}

/* Frees an ICA's pages. A page that a file mapping still maps (the file
 * manager's cache, posix/fmap.h) carries more than one reference: the ICA
 * lets go of its own, and the last mapping frees the page. */
static void free_frames(struct ica *ica)
{
	for (uint32_t i = 0; i < ica->npages; i++) {
		paddr_t pa = ica->base + (paddr_t)i * PAGE_SIZE;
		if (pmm_page_shared(pa))
			pmm_page_unref(pa);
		else
			pmm_free_page(pa);
	}
}

void ica_destroy(struct ica *ica)
{
	if (ica->state == ICA_ATTACHED)
		ica_unmap(ica, ica->owner);
	if (ica->state == ICA_IN_FLIGHT && !ica->carrier) {
		struct ipc_call *c = &ica->call;
		if (c->home)
			ica_unmap(ica, c->home);
		if (c->handler && c->handler != c->home)
			ica_unmap(ica, c->handler);
		if (list_linked(&c->link))
			list_remove(&c->link);
		for (unsigned i = 0; i < c->ncarried; i++)
			ica_destroy(c->carried[i]);
	}
	if (ica->charged) {
		ica->charged->ica_count--;
		ica->charged->ica_pages -= ica->npages;
	}
	slots[slot_of(ica->handle)] = NULL;
	user_live -= ica->user_slot;
	free_frames(ica);
	vm_release_pages(ica->npages);
	kmem_free(&ica_cache, ica);
	live--;
}

void ica_for_each(void (*fn)(struct ica *ica, void *arg), void *arg)
{
	for (uint32_t s = 0; s < MYRMEX_ICA_SLOTS; s++)
		if (slots[s])
			fn(slots[s], arg);
}

uint64_t ica_live_count(void)
{
	return live;
}
