/*
 * Memory system calls: brk and mmap/munmap/mprotect, over the process's
 * address space (kernel/vm.h). File mappings are made in sys_fmap.c.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/proc.h>
#include <kernel/vm.h>
#include <posix/fmap.h>

#define PROT_READ  1
#define PROT_WRITE 2
#define PROT_EXEC  4
#define PROT_KNOWN (PROT_READ | PROT_WRITE | PROT_EXEC)

#define MAP_TYPE            0x03
#define MAP_PRIVATE         0x02
#define MAP_FIXED           0x10
#define MAP_ANONYMOUS       0x20
#define MAP_NORESERVE       0x4000
#define MAP_POPULATE        0x8000
#define MAP_FIXED_NOREPLACE 0x100000

static struct vm_space *my_vm(void)
{
	return &current_thread()->proc->vm;
}

/* x86 pages are always readable when writable or executable. */
static unsigned prot_to_map(uint64_t prot)
{
	unsigned m = 0;
	if (prot & (PROT_READ | PROT_WRITE | PROT_EXEC))
		m |= MAP_R;
	if (prot & PROT_WRITE)
		m |= MAP_W;
	if (prot & PROT_EXEC)
		m |= MAP_X;
	return m;
}

long sys_brk(const struct syscall_args *a)
{
	return (long)vm_set_brk(my_vm(), a->arg[0]);
}

long sys_mmap(const struct syscall_args *a)
{
	uint64_t addr = a->arg[0], len = a->arg[1], prot = a->arg[2], flags = a->arg[3];
	uint64_t offset = a->arg[5];
	uint64_t type = flags & MAP_TYPE;
	if (type == 0)
		return -EINVAL;
	if (prot & ~(uint64_t)PROT_KNOWN)
		return -EINVAL;
	if (offset & PAGE_MASK)
		return -EINVAL;
	if (len == 0)
		return -EINVAL;
	unsigned vm_flags = 0;
	if (flags & MAP_FIXED_NOREPLACE)
		vm_flags |= VM_NOREPLACE;
	else if (flags & MAP_FIXED)
		vm_flags |= VM_FIXED;
	if (!(flags & MAP_ANONYMOUS))
		return fmap_sys_mmap(addr, len, prot_to_map(prot), type != MAP_PRIVATE,
		                     flags & MAP_POPULATE, vm_flags, a->arg[4], offset);
	if (flags & MAP_POPULATE)
		vm_flags |= VM_POPULATE;
	/* Committed page by page as it is touched: a POSIX process's private
	 * anonymous memory, as Linux overcommits (its heuristic refuses only a
	 * mapping larger than all memory; the out-of-memory policy, oom.c, acts
	 * when touches find none); MAP_NORESERVE and PROT_NONE reservations of
	 * native programs too. Native programs otherwise commit up front. */
	bool posix = current_thread()->proc->posix;
	if (type == MAP_PRIVATE && (posix || (flags & MAP_NORESERVE) || !(prot & PROT_KNOWN))) {
		if ((prot & PROT_WRITE) && !(flags & MAP_NORESERVE) &&
		    ALIGN_UP(len, PAGE_SIZE) / PAGE_SIZE > vm_commit_limit_pages())
			return -ENOMEM;   /* Linux's heuristic: more than all memory */
		vm_flags |= VM_NORESERVE;
	}
	if (type != MAP_PRIVATE)   /* MAP_SHARED (or MAP_SHARED_VALIDATE) */
		vm_flags |= VM_SHARED;
	vaddr_t where = addr;
	int err = vm_map(my_vm(), &where, len, prot_to_map(prot), vm_flags);
	fmap_flush(current_thread()->proc);   /* a MAP_FIXED over a file mapping */
	return err ? err : (long)where;
}

long sys_munmap(const struct syscall_args *a)
{
	int err = vm_unmap(my_vm(), a->arg[0], a->arg[1]);
	fmap_flush(current_thread()->proc);   /* the notices of the file maps that went */
	return err;
}

long sys_mprotect(const struct syscall_args *a)
{
	if (a->arg[2] & ~(uint64_t)PROT_KNOWN)
		return -EINVAL;
	return vm_protect(my_vm(), a->arg[0], a->arg[1], prot_to_map(a->arg[2]));
}

/* Linux's mremap flags. MREMAP_DONTUNMAP (move, leaving the old range
 * mapped and empty) is not built: -EINVAL, as a kernel without it. */
#define MREMAP_MAYMOVE 1
#define MREMAP_FIXED   2

/* PAGE_ALIGN as Linux: a length within a page of the top wraps to 0. */
static uint64_t page_align(uint64_t len)
{
	return (len + PAGE_SIZE - 1) & ~(uint64_t)PAGE_MASK;
}

long sys_mremap(const struct syscall_args *a)
{
	uint64_t addr = a->arg[0], flags = a->arg[3];
	uint64_t old_len = page_align(a->arg[1]), new_len = page_align(a->arg[2]);
	if (flags & ~(uint64_t)(MREMAP_MAYMOVE | MREMAP_FIXED))
		return -EINVAL;
	if ((flags & MREMAP_FIXED) && !(flags & MREMAP_MAYMOVE))
		return -EINVAL;
	if ((addr & PAGE_MASK) || new_len == 0)
		return -EINVAL;
	/* A zero old_len duplicates a shared mapping on Linux (not built);
	 * of a private one it is -EINVAL there too. */
	if (old_len == 0)
		return -EINVAL;
	if (addr > ARCH_USER_TOP || old_len > ARCH_USER_TOP - addr)
		return -EFAULT;   /* no region can hold it */
	unsigned vflags = ((flags & MREMAP_MAYMOVE) ? VM_REMAP_MAYMOVE : 0) |
	                  ((flags & MREMAP_FIXED) ? VM_REMAP_FIXED : 0);
	vaddr_t where = a->arg[4];
	int err = vm_remap(my_vm(), addr, old_len, new_len, vflags, &where);
	fmap_flush(current_thread()->proc);   /* notices of file pages that went */
	return err ? err : (long)where;
}
