/*
 * File mappings: mmap of a file and the On-Memory File's readblock
 * (docs/fmap.md). The kernel keeps the address-space side: a map object per
 * mmap/readblock call, referenced by the regions (struct vma) that map it,
 * in any number of address spaces after fork. The file manager keeps the
 * file side under the same map id (which cache blocks the map holds). A
 * missing page is asked of the file manager (FS_PAGEIN) by the faulting
 * thread itself, over its kernel channel; the answer names a page of one of
 * the file manager's ICAs, whose frame the kernel maps with a reference of
 * its own, so the frame outlives the ICA if it must.
 *
 * When the last region of a map goes, the map waits on a list until a
 * process can carry the FS_UNMAP notice (fmap_flush): the notice is an
 * asynchronous call made in some live process's name.
 */
#ifndef KERNEL_FMAP_H
#define KERNEL_FMAP_H

#include <kernel/types.h>
#include <kernel/personality.h>
#include <kernel/list.h>

struct fs_map_page;
struct process;
struct vm_space;
struct vma;

#define FMAP_MAX 4096   /* maps in the system (each is one mmap or readblock) */

struct fmap {
	uint32_t id;              /* the map id the file manager knows it by; never 0 */
	bool shared;              /* MAP_SHARED (readblock too) */
	bool writable;            /* shared and allowed to write the cache */
	bool omf;                 /* made by readblock */
	int fd;                   /* readblock's descriptor (syncblock checks it), else -1 */
	int pid;                  /* the process that made it */
	uint64_t first;           /* the file page of map page 0 */
	uint64_t npages;          /* the map's pages */
	uint64_t limit;           /* map pages from here on were revoked (SIGBUS) */
	unsigned nregions;
	struct list_node regions; /* struct vma.fmap_link */
	struct list_node link;    /* on the live or the dead list */
};

/* A new live map with no region (NULL: FMAP_MAX maps, or no memory). */
struct fmap *fmap_create(bool shared, bool omf);
/* A map whose FS_MAP failed: the file manager knows nothing of it. */
void fmap_discard(struct fmap *m);
/* A map whose FS_MAP succeeded but got no region: the notice must go. */
void fmap_abandon(struct fmap *m);
/* The live map with this id, or NULL. */
struct fmap *fmap_find(uint32_t id);
/* Maps the frames n page records name (from the file manager's data ICA,
 * read once each) at va, as map pages fpage on. 0, -EIO a record that
 * names no page of the file manager's, or vm_install_file_pages' errors. */
int fmap_install(struct vm_space *vm, vaddr_t va, struct fmap *m, uint64_t fpage,
                 const struct fs_map_page *records, uint64_t n, unsigned access);
/* mmap of file descriptor fd (sys_fmap.c): the address or -errno. */
long fmap_sys_mmap(uint64_t addr, uint64_t len, unsigned prot, bool shared, bool populate,
                   unsigned vm_flags, uint64_t fd, uint64_t offset);
/* Unmaps map pages from `from` on in every region, for good. -ENOENT. */
int fmap_revoke(uint32_t id, uint64_t from);

/* Region bookkeeping for vm.c and the page-fault path: fmap_region_add,
 * fmap_region_remove, fmap_is_shared, fmap_may_protect and fmap_fault in
 * kernel/personality.h. */
/* Sends the FS_UNMAP notices of the maps whose last region went, in p's
 * name (p must be alive and its address space usable). */
void fmap_flush(struct process *p);
/* A process ends: its file regions go and their notices are sent. */
void fmap_process_exit(struct process *p);

#endif
