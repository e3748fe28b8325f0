/*
 * User address spaces: a list of regions (VMAs) over the architecture's page
 * tables. Anonymous memory is demand-zero: a region promises memory, the page
 * fault that first touches a page allocates it. Every page a region may need
 * is committed when the region is made, against the process's limit and the
 * system-wide budget, so a fault in a valid region never runs out of memory.
 *
 * Locking: a vm_space and its regions are guarded by the kernel lock
 * (kernel/klock.h); [vm] in kernel/proc.h: each address space's own lock
 * when the kernel lock is split. The page allocator under it has pmm_lock.
 */
#ifndef KERNEL_VM_H
#define KERNEL_VM_H

#include <kernel/types.h>
#include <kernel/list.h>
#include <kernel/arch.h>
#include <myrmex/device.h>
#include <myrmex/ica.h>

/* User address-space layout (the top comes from the architecture). */
#define USER_BASE        0x10000ull                 /* nothing below: catches null pointers */
#define USER_STACK_TOP   ARCH_USER_TOP
#define USER_STACK_SIZE  (8ull << 20)
#define USER_MMAP_TOP    (USER_STACK_TOP - USER_STACK_SIZE - (1ull << 30))
/* The device and ICA windows (include/myrmex/device.h, ica.h) lie between the
 * program break, which stays below them, and the mmap area, which stays above
 * them; the kernel alone maps there. */
#define USER_MMAP_BASE   (MYRMEX_ICA_WINDOW + MYRMEX_ICA_WINDOW_SIZE)
#define USER_BRK_TOP     MYRMEX_DEVICE_WINDOW
/* The windows' addresses are the architecture's (include/myrmex/layout.h):
 * they must fit this port's user space in this order. */
_Static_assert(USER_BASE < MYRMEX_DEVICE_WINDOW &&
               MYRMEX_DEVICE_WINDOW + 6 * MYRMEX_DEVICE_BAR_SPAN <= MYRMEX_ICA_WINDOW &&
               USER_MMAP_BASE < USER_MMAP_TOP, "the user address-space layout");

/* Per-process limits (one process cannot exhaust kernel memory). */
#define VM_MAX_REGIONS        512
#define VM_MAX_COMMIT_PAGES   (256ull << 20 >> PAGE_SHIFT)  /* 256 MiB */
#define VM_MAX_TABLE_PAGES    512

/* Region flags for vm_map. */
#define VM_FIXED      1u   /* at exactly addr, replacing what is there */
#define VM_NOREPLACE  2u   /* at exactly addr, failing with -EEXIST if taken */
#define VM_POPULATE   4u   /* allocate every page now */
#define VM_SHARED     8u   /* anonymous, shared with forked children (implies VM_POPULATE) */

/* Access kinds for vm_fault. */
#define VM_ACCESS_READ  1u
#define VM_ACCESS_WRITE 2u
#define VM_ACCESS_EXEC  4u

struct fmap;
struct vm_space;

struct vma {
	struct list_node link;   /* on vm_space.regions, sorted by start */
	vaddr_t start, end;      /* [start, end), page aligned */
	unsigned prot;           /* MAP_R | MAP_W | MAP_X (MAP_U implied) */
	/* A file mapping (posix/fmap.h) maps the file manager's cache pages,
	 * fetched at faults (or all at once) from the pager; NULL: anonymous. */
	struct fmap *fmap;
	uint64_t fpage;              /* the map's page at start */
	/* Anonymous and shared (MAP_SHARED|MAP_ANONYMOUS): every page is
	 * allocated when the region is made, and fork gives the child the same
	 * frames, writable in both, not copy-on-write copies. */
	bool anon_shared;
	struct vm_space *space;      /* file mappings: the space the region is in */
	struct list_node fmap_link;  /* file mappings: on the fmap's region list */
};

struct vm_space {
	struct arch_as as;
	struct list_node regions;
	unsigned region_count;
	uint64_t committed_pages;     /* pages promised to this space's regions */
	vaddr_t brk_start, brk;       /* program break: [brk_start, brk) */
};

void vm_init(void);
int vm_space_init(struct vm_space *vm);
/* Frees every page, region and page table. The space must not be active. */
void vm_space_destroy(struct vm_space *vm);
/* Makes dst (fresh from vm_space_init) a copy-on-write copy of src: the same
 * regions, break and commitments (charged to dst like a copy), every page
 * of a region shared read-only by both (see kernel/core/vm.c). What lies
 * outside the regions (the ICA and device windows) is not copied. 0, or
 * -ENOMEM (limits, memory); on error dst holds part of the copy and the
 * caller destroys it. src's TLB entries are invalidated (kernel/arch.h). */
int vm_space_clone(struct vm_space *dst, struct vm_space *src);
/* Removes every region and the break (exec), releasing their pages and
 * commitments; the mappings outside the regions (the ICA and device
 * windows) stay. */
void vm_space_clear(struct vm_space *vm);

/* Maps size bytes of demand-zero memory; *addr is a hint (or the exact address
 * with VM_FIXED/VM_NOREPLACE) and receives the result. Errors: -EINVAL,
 * -ENOMEM (limits, no room), -EEXIST (VM_NOREPLACE and taken). */
int vm_map(struct vm_space *vm, vaddr_t *addr, uint64_t size, unsigned prot, unsigned flags);
int vm_unmap(struct vm_space *vm, vaddr_t addr, uint64_t size);
/* vm_map for a file mapping: the region's pages are the map's from page 0,
 * fetched by vm_fault from the pager (kernel/fmap.c) or installed with
 * vm_install_file_pages. The region holds a reference on m. */
int vm_map_file(struct vm_space *vm, vaddr_t *addr, uint64_t size, unsigned prot,
                unsigned flags, struct fmap *m);
/* Maps a region of n pages at exactly addr (VM_NOREPLACE) whose pages are
 * the frames pas[0..n), which their owner keeps (the vDSO's, which the
 * personality maps into every POSIX process); each mapping adds a
 * reference. Since the owner holds one, they are always shared, so mapped
 * read-only whatever prot says: a store the region allows (after mprotect)
 * gets a private copy, as copy-on-write; fork shares them again. 0, or
 * vm_map's errors (-EEXIST: taken). */
int vm_map_frames(struct vm_space *vm, vaddr_t addr, const paddr_t *pas, uint64_t n,
                  unsigned prot);
/* Maps the cache frames pas[0..n) as the pages of map m from map page
 * fpage on, at va, if the region there still maps m at fpage (a page
 * already present is left alone). Each frame mapped gains a reference. A
 * write access to a private mapping gets its own copy of the first page (the
 * faulting one) at once. 0, -EFAULT (the region changed meanwhile) or
 * -ENOMEM. */
int vm_install_file_pages(struct vm_space *vm, vaddr_t va, struct fmap *m, uint64_t fpage,
                          const paddr_t *pas, uint64_t n, unsigned access);
/* Unmaps the pages of [start, end) and lets their frames go, keeping the
 * regions (a revoked file range faults again). */
void vm_release_range(struct vm_space *vm, vaddr_t start, vaddr_t end);
/* Removes every file mapping region (a process's end). */
void vm_unmap_files(struct vm_space *vm);
/* The region containing addr, or NULL. */
struct vma *vm_region_at(struct vm_space *vm, vaddr_t addr);
int vm_protect(struct vm_space *vm, vaddr_t addr, uint64_t size, unsigned prot);
/* Moves the program break; returns the new break, or the old one on failure. */
vaddr_t vm_set_brk(struct vm_space *vm, vaddr_t new_brk);
/* Resolves a fault at addr (demand-zero allocation, copy-on-write, a file
 * page from the pager, which blocks): 0, -EFAULT when the access is
 * outside every region or not allowed by its protection, -ENOMEM when no
 * page is left for it, -ENXIO a file page past the end of the file or
 * revoked (SIGBUS), -EIO the pager failed. */
int vm_fault(struct vm_space *vm, vaddr_t addr, unsigned access);
/* Whether addr lies in a region (whatever its protection): a fault there is
 * an access error (SEGV_ACCERR), elsewhere a mapping error. */
bool vm_is_mapped(struct vm_space *vm, vaddr_t addr);
/* Whether every byte of [start, start + len) lies in regions allowing
 * prot (MAP_W...): a copy there will not fault for want of a mapping,
 * unless the regions change first. len 0: true. The range must not wrap
 * (user_range_ok first). */
bool vm_range_allows(struct vm_space *vm, vaddr_t start, uint64_t len, unsigned prot);
/* Whether addr lies in a region whose pages other spaces may share
 * writable (anonymous shared or a shared file mapping) with its page
 * present; then *pa is the frame's address (the futex key of such words). */
bool vm_shared_frame(struct vm_space *vm, vaddr_t addr, paddr_t *pa);
/* Writes bytes into the space regardless of protection (the ELF loader and
 * the initial stack), allocating pages (and copying shared ones) as needed.
 * 0 or -EFAULT/-ENOMEM. */
int vm_write(struct vm_space *vm, vaddr_t va, const void *src, uint64_t n);
/* Writes bytes into a space that need not be the current one as a user
 * store would: -EFAULT unless regions that allow writing cover them all;
 * else as vm_write. */
int vm_store(struct vm_space *vm, vaddr_t va, const void *src, uint64_t n);
/* Takes pages from (or gives them back to) the system-wide budget for memory
 * that is not in an address space's regions (ICAs): 0 or -ENOMEM. */
int vm_reserve_pages(uint64_t pages);
void vm_release_pages(uint64_t pages);

#endif
