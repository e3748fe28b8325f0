/*
 * omf.c - the On-Memory File calls (include/myrmex/omf.h): readblock,
 * syncblock and fmap_revoke as raw system calls, and readbyte, a library
 * over readblock that keeps a window of blocks mapped per descriptor.
 *
 * readbyte keeps one window per descriptor in a small fixed table (the
 * oldest window gives way when a new descriptor finds the table full). A
 * window is MYRMEX_READBYTE_WINDOW blocks from the block of the read that
 * made it (one more when a read of up to a window's bytes straddles a
 * block boundary), cut at the end of the file so that a read near the end
 * does not ask for blocks the file does not have (readblock refuses them on
 * a read-only descriptor and allocates them on a writable one). The size
 * of the file is asked once per descriptor and again only when a read
 * reaches past what it said. Not thread-safe: one thread per descriptor.
 */
#include "myrmex.h"

#include <errno.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <myrmex/fs.h>
#include <myrmex/omf.h>

#define WINDOWS 16u

void *myrmex_readblock(int fd, uint64_t nblocks, uint64_t blkoff, long *err)
{
	long r = myrmex_syscall6(MYRMEX_SYS_READBLOCK, fd, (long)nblocks, (long)blkoff, 0, 0, 0);
	if (r < 0 && r >= -4095) {
		if (err)
			*err = r;
		return NULL;
	}
	if (err)
		*err = 0;
	return (void *)(uintptr_t)r;
}

long myrmex_syncblock(int fd, void *buf, uint64_t size, uint64_t blkoff, int flg)
{
	return myrmex_syscall6(MYRMEX_SYS_SYNCBLOCK, fd, (long)buf, (long)size, (long)blkoff, flg,
	                       0);
}

long myrmex_fmap_revoke(uint32_t map, uint64_t from_page)
{
	return myrmex_syscall6(MYRMEX_SYS_FMAP_REVOKE, (long)map, (long)from_page, 0, 0, 0, 0);
}

/* ---- readbyte ---- */

struct window {
	bool used;
	int fd;
	const uint8_t *base;          /* the mapping readblock made */
	uint64_t first, nblocks;      /* the blocks it holds */
	uint64_t size;                /* the file's size when last asked */
	uint64_t age;                 /* when it was made (the oldest gives way) */
};

static struct window windows[WINDOWS];
static uint64_t clock_ticks;

static struct window *window_of(int fd)
{
	for (unsigned i = 0; i < WINDOWS; i++)
		if (windows[i].used && windows[i].fd == fd)
			return &windows[i];
	return NULL;
}

/* The window fd gets: its own, a free one, or the oldest, emptied. */
static struct window *window_for(int fd)
{
	struct window *w = window_of(fd), *oldest = &windows[0];
	for (unsigned i = 0; !w && i < WINDOWS; i++) {
		if (!windows[i].used)
			w = &windows[i];
		else if (windows[i].age < oldest->age)
			oldest = &windows[i];
	}
	if (!w) {
		myrmex_readbyte_close(oldest->fd);
		w = oldest;
	}
	if (!w->used) {
		w->used = true;
		w->fd = fd;
		w->base = NULL;
		w->first = w->nblocks = 0;
		w->size = 0;
	}
	return w;
}

static void window_unmap(struct window *w)
{
	if (w->base)
		myrmex_syscall6(SYS_munmap, (long)w->base, (long)(w->nblocks * MYRMEX_OMF_BLOCK), 0,
		                0, 0, 0);
	w->base = NULL;
	w->nblocks = 0;
}

/* The size of the file open as fd: the Linux call where the kernel forwards
 * it (a POSIX process), else the native file interface. */
static long file_size(int fd, uint64_t *size)
{
	struct stat st;
	long r = myrmex_syscall6(SYS_fstat, fd, (long)&st, 0, 0, 0, 0);
	if (r == 0) {
		*size = (uint64_t)st.st_size;
		return 0;
	}
	struct myrmex_stat mst;
	r = myrmex_fs_fstat(fd, &mst);
	if (r == 0)
		*size = (uint64_t)mst.st_size;
	return r;
}

const void *myrmex_readbyte(int fd, size_t size, uint64_t offset, long *err)
{
	long dummy;
	if (!err)
		err = &dummy;
	*err = 0;
	if (fd < 0) {
		*err = -EBADF;
		return NULL;
	}
	if (size == 0 || size > (size_t)MYRMEX_READBYTE_WINDOW * MYRMEX_OMF_BLOCK ||
	    offset > UINT64_MAX - size) {
		*err = -EINVAL;
		return NULL;
	}
	uint64_t first = offset / MYRMEX_OMF_BLOCK;
	uint64_t last = (offset + size - 1) / MYRMEX_OMF_BLOCK;
	struct window *w = window_of(fd);
	if (w && w->base && first >= w->first && last < w->first + w->nblocks)
		return w->base + (offset - w->first * MYRMEX_OMF_BLOCK);

	/* A new window: as long as the file lets it be, and at least the
	 * blocks this read needs. */
	w = window_for(fd);
	uint64_t need = last - first + 1;
	uint64_t n = need > MYRMEX_READBYTE_WINDOW ? need : MYRMEX_READBYTE_WINDOW;
	uint64_t blocks = (w->size + MYRMEX_OMF_BLOCK - 1) / MYRMEX_OMF_BLOCK;
	if (first + n > blocks) {
		long r = file_size(fd, &w->size);
		if (r < 0) {
			*err = r;
			return NULL;
		}
		blocks = (w->size + MYRMEX_OMF_BLOCK - 1) / MYRMEX_OMF_BLOCK;
		if (first + n > blocks)
			n = blocks > first + need ? blocks - first : need;
	}
	const uint8_t *base = myrmex_readblock(fd, n, first, err);
	if (!base)
		return NULL;
	window_unmap(w);
	w->base = base;
	w->first = first;
	w->nblocks = n;
	w->age = ++clock_ticks;
	return base + (offset - first * MYRMEX_OMF_BLOCK);
}

void myrmex_readbyte_close(int fd)
{
	struct window *w = window_of(fd);
	if (!w)
		return;
	window_unmap(w);
	w->used = false;
}
