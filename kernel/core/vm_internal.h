/*
 * The address-space code's own helpers (kernel/core/vm.c), shared with the
 * parts of it kept in files of their own (vm_remap.c). Not for the rest of
 * the kernel: kernel/vm.h is the interface. All under the kernel lock.
 */
#ifndef KERNEL_CORE_VM_INTERNAL_H
#define KERNEL_CORE_VM_INTERNAL_H

#include <kernel/vm.h>

/* Promises pages to vm against its limit and the system's: 0 or -ENOMEM. */
int commit(struct vm_space *vm, uint64_t pages);
void uncommit(struct vm_space *vm, uint64_t pages);
/* The region containing addr, or NULL. */
struct vma *find_region(struct vm_space *vm, vaddr_t addr);
uint64_t region_pages(const struct vma *v);
bool range_is_free(struct vm_space *vm, vaddr_t start, vaddr_t end);
/* Merges v with neighbours that touch it and agree (v may be freed). */
void merge_around(struct vm_space *vm, struct vma *v);
/* Makes addr a region boundary: 0 or -ENOMEM. */
int vm_split_at(struct vm_space *vm, vaddr_t addr);
/* Removes [start, end), pages, commitments and regions: 0 or -ENOMEM (a cut
 * failed; nothing removed). */
int remove_range(struct vm_space *vm, vaddr_t start, vaddr_t end);
/* The highest free range of size bytes in the mmap area, or 0. */
vaddr_t find_gap(struct vm_space *vm, uint64_t size);
/* Allocates every absent page of [start, end), committing each first when
 * charge (a noreserve region): 0 or -ENOMEM. */
int populate(struct vm_space *vm, vaddr_t start, vaddr_t end, unsigned prot, bool charge);
/* Adds a region over a free range whose pages the caller has committed;
 * a file region's pages start at map page fpage. 0 or -ENOMEM. */
int vm_insert_region(struct vm_space *vm, vaddr_t start, vaddr_t end, unsigned prot,
                     struct fmap *m, uint64_t fpage, bool anon_shared, bool noreserve);

#endif
