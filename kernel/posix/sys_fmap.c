/*
 * System calls of file mappings (docs/fmap.md): mmap of a file (from
 * sys_mmap), msync, and the On-Memory File's readblock and syncblock
 * (include/myrmex/omf.h), plus fmap_revoke for the file manager. Each
 * mapping call is one FS_MAP request to the file manager; with
 * MAP_POPULATE or readblock its answer lists every page, which are mapped
 * before the call returns.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <posix/fmap.h>
#include <posix/forward.h>
#include <kernel/ipc.h>
#include <kernel/proc.h>
#include <kernel/vm.h>
#include <myrmex/fs.h>
#include <myrmex/omf.h>

#define MS_ASYNC      1
#define MS_INVALIDATE 2
#define MS_SYNC       4

/* Page records one FS_MAP answer can carry (the channel's large data ICA). */
#define POPULATE_MAX (FORWARD_LARGE_BYTES / sizeof(struct fs_map_page))

struct map_request {
	int fd;
	uint64_t first, npages;   /* file pages */
	unsigned fs_flags;        /* FS_MAP_* */
	unsigned prot;            /* MAP_* (readblock: from the answer) */
	unsigned vm_flags;        /* VM_FIXED, VM_NOREPLACE */
	vaddr_t addr;             /* hint or fixed address */
};

/* Makes a file mapping: FS_MAP, the region, and the pages the answer
 * lists. The address, or -errno. */
static long map_file(const struct map_request *rq)
{
	struct process *p = current_thread()->proc;
	if (!posix_server(SERVICE_FILES))
		return -EBADF;   /* no file manager: no descriptor is open */
	bool omf = rq->fs_flags & FS_MAP_OMF;
	struct fmap *m = fmap_create(rq->fs_flags & FS_MAP_SHARED, omf);
	if (!m)
		return -ENOMEM;
	uint64_t want = (rq->fs_flags & FS_MAP_POPULATE)
	                ? (rq->npages < POPULATE_MAX ? rq->npages : POPULATE_MAX) : 0;
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_MAP,
	                        (uint32_t)(want * sizeof(struct fs_map_page)));
	if (err) {
		fmap_discard(m);
		return err;
	}
	f.arg[0] = (uint64_t)(int64_t)rq->fd;
	f.arg[1] = rq->first;
	f.arg[2] = rq->npages;
	f.arg[3] = rq->fs_flags;
	f.arg[4] = m->id;
	long r = forward_call(&f);
	if (r < 0) {
		/* The file manager may have made its side before the call was
		 * interrupted: the notice lets it go (an unknown id is ignored). */
		fmap_abandon(m);
		fmap_flush(p);
		return r == -EAGAIN ? -ENOMEM : r;   /* the file manager's map table: Linux's map count */
	}
	m->writable = m->shared && f.res[0] == 1;
	m->first = rq->first;
	m->npages = rq->npages;
	m->fd = omf ? rq->fd : -1;
	m->pid = p->pid;
	unsigned prot = omf ? (m->writable ? MAP_R | MAP_W : MAP_R) : rq->prot;
	if (!fmap_may_protect(m, prot)) {
		fmap_abandon(m);   /* a server that refused write access yet said 0 */
		fmap_flush(p);
		return -EACCES;
	}
	vaddr_t where = rq->addr;
	err = vm_map_file(&p->vm, &where, rq->npages * PAGE_SIZE, prot, rq->vm_flags, m);
	if (err) {
		fmap_abandon(m);
		fmap_flush(p);
		return err;
	}
	uint64_t got = f.res[2] < want ? f.res[2] : want;
	if (want && f.data)
		err = fmap_install(&p->vm, where, m, 0, forward_data(&f), got, 0);
	else if (want)
		err = -EIO;   /* the answer lost its data ICA */
	if (!err && omf && got < rq->npages)
		err = -EIO;   /* readblock maps everything or nothing */
	if (err) {
		vm_unmap(&p->vm, where, rq->npages * PAGE_SIZE);
		fmap_flush(p);
		return err;
	}
	fmap_flush(p);   /* maps a MAP_FIXED mapping replaced */
	return (long)where;
}

long fmap_sys_mmap(uint64_t addr, uint64_t len, unsigned prot, bool shared, bool populate,
                   unsigned vm_flags, uint64_t fd, uint64_t offset)
{
	if (fd > INT32_MAX)
		return -EBADF;
	uint64_t npages = ALIGN_UP(len, PAGE_SIZE) / PAGE_SIZE;
	if (npages > FS_MAP_MAX_PAGES)
		return -ENOMEM;
	struct map_request rq = {
		.fd = (int)fd, .first = offset / PAGE_SIZE, .npages = npages,
		.fs_flags = (shared ? FS_MAP_SHARED : 0) | (shared && (prot & MAP_W) ? FS_MAP_WRITE : 0) |
		            (populate ? FS_MAP_POPULATE : 0),
		.prot = prot, .vm_flags = vm_flags, .addr = addr,
	};
	return map_file(&rq);
}

long sys_readblock(const struct syscall_args *a)
{
	uint64_t fd = a->arg[0], nblocks = a->arg[1], blkoff = a->arg[2];
	if (fd > INT32_MAX)
		return -EBADF;
	if (nblocks == 0 || nblocks > MYRMEX_OMF_MAX_BLOCKS || blkoff > UINT32_MAX)
		return -EINVAL;
	struct map_request rq = {
		.fd = (int)fd, .first = blkoff, .npages = nblocks,
		.fs_flags = FS_MAP_SHARED | FS_MAP_POPULATE | FS_MAP_OMF,
	};
	return map_file(&rq);
}

/* FS_SYNCMAP of map pages [page, page + count) of m. */
static long sync_map(struct fmap *m, uint64_t page, uint64_t count, uint64_t new_size)
{
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_SYNCMAP, 0);
	if (err)
		return err;
	f.arg[0] = m->id;
	f.arg[1] = page;
	f.arg[2] = count;
	f.arg[3] = new_size;
	return forward_call(&f);
}

long sys_syncblock(const struct syscall_args *a)
{
	uint64_t fd = a->arg[0], buf = a->arg[1], size = a->arg[2], blkoff = a->arg[3];
	bool extend = a->arg[4] != 0;
	struct vm_space *vm = &current_thread()->proc->vm;
	if (fd > INT32_MAX)
		return -EBADF;
	struct vma *v = (buf & PAGE_MASK) || buf >= ARCH_USER_TOP ? NULL : vm_region_at(vm, buf);
	if (!v || !v->fmap || !v->fmap->omf || v->fmap->fd != (int)fd || size == 0)
		return -EINVAL;
	struct fmap *m = v->fmap;
	uint64_t page = v->fpage + (buf - v->start) / PAGE_SIZE;
	uint64_t count = ALIGN_UP(size, PAGE_SIZE) / PAGE_SIZE;
	if (m->first + page != blkoff || count > m->npages - page)
		return -EINVAL;
	return sync_map(m, page, count, extend ? blkoff * PAGE_SIZE + size : 0);
}

long sys_msync(const struct syscall_args *a)
{
	uint64_t addr = a->arg[0], len = a->arg[1], flags = a->arg[2];
	struct vm_space *vm = &current_thread()->proc->vm;
	if ((addr & PAGE_MASK) || (flags & ~(uint64_t)(MS_ASYNC | MS_INVALIDATE | MS_SYNC)) ||
	    ((flags & MS_ASYNC) && (flags & MS_SYNC)))
		return -EINVAL;
	if (addr >= ARCH_USER_TOP || len > ARCH_USER_TOP - addr)
		return -ENOMEM;
	vaddr_t end = addr + ALIGN_UP(len, PAGE_SIZE);
	for (vaddr_t at = addr; at < end;) {   /* all of it mapped, as Linux asks */
		struct vma *v = vm_region_at(vm, at);
		if (!v)
			return -ENOMEM;
		at = v->end;
	}
	if (!(flags & MS_SYNC))
		return 0;   /* the cache is the file: MS_ASYNC has nothing to start */
	for (vaddr_t at = addr; at < end;) {
		struct vma *v = vm_region_at(vm, at);   /* afresh: the last call blocked */
		if (!v)
			return -ENOMEM;
		vaddr_t stop = v->end < end ? v->end : end;
		struct fmap *m = v->fmap;
		if (m && m->writable) {
			long r = sync_map(m, v->fpage + (at - v->start) / PAGE_SIZE,
			                  (stop - at) / PAGE_SIZE, 0);
			if (r < 0)
				return r;
		}
		at = stop;
	}
	return 0;
}

long sys_fmap_revoke(const struct syscall_args *a)
{
	if (posix_server(SERVICE_FILES) != current_thread()->proc)
		return -EPERM;
	if (a->arg[0] > UINT32_MAX)
		return -ENOENT;
	return fmap_revoke((uint32_t)a->arg[0], a->arg[1]);
}
