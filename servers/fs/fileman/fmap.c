/*
 * fmap.c - the file side of file mappings: mmap of a file and the On-Memory
 * File's readblock (include/myrmex/fs.h, "File mappings"; include/myrmex/
 * omf.h). The kernel keeps the address-space side and names each mapping
 * with a map id; here a map is the file, its range of pages, how it may be
 * used, and the cache block each of its pages holds. A held block is pinned
 * in the cache (cache.c): its frame is what the kernel mapped, so it must
 * stay that block's until the map lets go.
 *
 * Only the kernel makes these calls (the delivery's origin): a program that
 * could pin or unpin blocks could fill the cache with pins, or make the
 * cache reuse a frame that another process still maps.
 *
 * Pages are numbered from the map's first file page ("map pages"): page p
 * of a map is file page first + p, in FS_PAGEIN, FS_SYNCMAP and
 * fmap_revoke alike, as the kernel's regions count them.
 *
 * Holes. A page that is a hole in the file gets a block at its first
 * page-in, zero-filled, in every map on a read-write mount (read-only maps
 * too): then the mapping and the file share one block, and a later write()
 * into the hole shows in the mapping at once. On a read-only mount, or when
 * the disk is full, a read-only map gets the shared zero page instead (no
 * one can write that hole meanwhile, or the full disk refuses it anyway). A
 * writable map gets the error: the kernel raises SIGBUS, as Linux does when
 * a shared writable mapping of a hole meets a full disk.
 *
 * Blocks past the end. Only writable readblock maps take them (allocated,
 * zero-filled; the size changes only with FS_SYNCMAP's new size). When the
 * last map holding such blocks lets go, those no syncblock covered are
 * freed again (ext2_trim): e2fsck accepts no block past the end of a file.
 *
 * Revocation. Before blocks that maps hold are freed (a truncation, or an
 * unlinked file freed at FS_SHUTDOWN while still mapped: a map keeps an
 * unlinked file as a descriptor does, ofd.c's orphans) the kernel unmaps those pages everywhere
 * (myrmex_fmap_revoke) and the maps let them go; a revoked page stays
 * revoked (FS_PAGEIN -ENXIO, the kernel raises SIGBUS), and a map whose file
 * is gone holds nothing more.
 *
 * Cost. FS_MAP with populate looks the blocks of up to LOOKUP_RUN pages up
 * in one walk of the block map (ext2_file_blocks), not one per page; a
 * read fault's FS_PAGEIN hands out the pages after the faulting one whose
 * blocks are already cached (fault-around, never a disk read or an
 * allocation for them), so the kernel maps up to FS_PAGEIN_AROUND pages per
 * fault.
 *
 * Limits: FMAP_MAX maps (-EAGAIN), FMAP_PINS_MAX pages held by all maps
 * together and the cache's pinned-chunk limit (-ENOMEM).
 */
#include "fmap.h"

#include <errno.h>
#include <string.h>
#include <myrmex/omf.h>

#define MAP_FLAGS       (FS_MAP_SHARED | FS_MAP_WRITE | FS_MAP_POPULATE | FS_MAP_OMF)
#define BLOCK_UNKNOWN   UINT32_MAX   /* page_in: look the block up */
#define LOOKUP_RUN      64u     /* pages whose blocks one map_blocks call looks up */
/* Pages of the largest ext2 file (file.c's EXT2_MAX_FILE_SIZE): readblock
 * allocates no block that no size could ever cover. */
#define MAX_FILE_PAGES  (0x1ff00000000ull / FM_BLOCK)

static uint32_t zero_handle;            /* one zero-filled page, made at first use */
static uint64_t lost_seen;
static uint64_t calls_map, calls_pagein, calls_syncmap, revokes;

/* ---- the file ---- */

static uint64_t pages_of(uint64_t size)
{
	return (size + FM_BLOCK - 1) / FM_BLOCK;
}

/* The size of file ino in *size: 0 or -errno. */
static int file_size(struct server_request *rq, uint32_t ino, uint64_t *size)
{
	struct ext2_stat st;
	int rc = ext2_stat(fm_fs_for(rq), ino, &st);
	if (rc < 0)
		return (int)fm_result(rc, "map");
	*size = st.size;
	return 0;
}

/* The shared zero page: its ICA, made at first use. */
static int zero_page(uint32_t *handle)
{
	if (!zero_handle) {
		long h = myrmex_ica_alloc(1);   /* zero-filled by the kernel, never written */
		if (h < 0)
			return (int)h;
		zero_handle = (uint32_t)h;
	}
	*handle = zero_handle;
	return 0;
}

/* The bytes after the end of the file in its last block, b, read as zeros
 * in a mapping, as on Linux. The library keeps them zero (it clears the
 * tail when a file shrinks or grows over it), but mke2fs or another system
 * may have left anything there; nothing maps b yet, and the disk's copy of
 * those bytes means nothing, so the cache's is cleared without a write. */
static void zero_after_end(struct server_request *rq, uint64_t b, uint64_t size)
{
	int err = 0;
	uint8_t *p = cache_get(rq, b, 1, &err);   /* pinned: a hit */
	if (p)
		memset(p + size % FM_BLOCK, 0, FM_BLOCK - size % FM_BLOCK);
}

/* The first file page after every page past end_page that a live map of
 * ino other than `but` holds (end_page when none holds any). */
static uint64_t held_past(uint32_t ino, const struct fmap *but, uint64_t end_page)
{
	uint64_t after = end_page;
	for (uint32_t s = 0; s < FMAP_MAX; s++) {
		const struct fmap *m = &fmap_maps[s];
		if (!m->id || m == but || m->ino != ino || !m->past_end)
			continue;
		for (uint32_t i = m->pins; i != FMAP_NONE; i = fmap_pins[i].map_next)
			if (m->first + fmap_pins[i].page >= after)
				after = m->first + fmap_pins[i].page + 1;
	}
	return after;
}

/* The map goes: its pages are let go, the blocks past the end of the file
 * that no other map holds are freed, the slot is free. */
static void map_release(struct server_request *rq, struct fmap *m)
{
	fmap_drop_from(m, 0);
	uint64_t size = 0;
	if (m->past_end && m->ino && fm_fs_state == 0 && !fm_fs.read_only &&
	    file_size(rq, m->ino, &size) == 0) {
		int rc = ext2_trim(fm_fs_for(rq), m->ino, held_past(m->ino, m, pages_of(size)));
		if (rc < 0)
			fm_log("map %u: freeing blocks past the end of inode %u: error %d", m->id,
			       m->ino, -rc);
	}
	fmap_free(m);
}

/*
 * Map page `page` of m into the cache and held: where it is in *handle and
 * *index. size is the file's size now; ahead how many pages the caller will
 * want next (read-ahead), 0 for fault-around: only a block already in the
 * cache (-EAGAIN otherwise, nothing held). block is the page's disk block
 * when the caller has looked it up (map_blocks; 0 a hole), else
 * BLOCK_UNKNOWN. Already held: the same place again.
 */
static int page_in(struct server_request *rq, struct fmap *m, uint32_t page, uint64_t size, unsigned ahead,
                   uint32_t block, uint32_t *handle, uint32_t *index)
{
	if (page >= m->count)
		return -EINVAL;
	if (page >= m->revoked_from || m->ino == 0)
		return -ENXIO;
	struct fmap_pin *held = fmap_pin_find(m, page);
	if (held) {
		*handle = held->handle;
		*index = held->index;
		return 0;
	}
	uint64_t fpage = m->first + page;
	bool past_end = fpage >= pages_of(size);
	if (past_end && !((m->flags & FS_MAP_OMF) && m->writable))
		return -ENXIO;   /* mmap: SIGBUS; readblock on a read-only fd */
	if (!fmap_pin_room())
		return -ENOMEM;
	uint64_t disk = block;
	int rc = 0;
	if (block == BLOCK_UNKNOWN)
		rc = ext2_file_block(fm_fs_for(rq), m->ino, fpage, false, &disk);
	if (ahead == 0 && (rc < 0 || disk == 0 || !cache_handle_of(disk)))
		return -EAGAIN;   /* fault-around: no disk read, no allocation */
	if (rc == 0 && past_end)
		m->past_end = true;   /* freed at the map's end, even if the pin fails */
	if (rc == 0 && disk == 0) {
		/* A hole, or past the end: a zero-filled block (see the top). */
		rc = ext2_file_block(fm_fs_for(rq), m->ino, fpage, true, &disk);
		if (rc == 0)
			m->meta_dirty = true;
		else if ((rc == -EROFS || rc == -ENOSPC) && !m->writable)
			rc = 0;   /* the shared zero page */
	}
	if (rc < 0)
		return (int)fm_result(rc, "page-in");
	if (disk > UINT32_MAX)
		return -EIO;   /* ext2 block numbers are 32 bits */
	bool first_hold = disk != ZERO_PAGE_BLOCK && !cache_pinned(disk);
	if (disk == ZERO_PAGE_BLOCK) {
		rc = zero_page(handle);
		*index = 0;
	} else {
		rc = cache_pin(rq, disk, ahead, m->writable, handle, index);
	}
	if (rc < 0)
		return (int)fm_result(rc, "page-in");
	if (first_hold && fpage + 1 == pages_of(size) && size % FM_BLOCK)
		zero_after_end(rq, disk, size);
	fmap_pin_add(m, page, (uint32_t)disk, *handle, *index);
	return 0;
}

/* The disk blocks of map pages page .. page + n - 1 (n <= LOOKUP_RUN) into
 * blocks[] (0: a hole or past the end), one walk of the block map for the
 * run rather than one per page. */
static int map_blocks(struct server_request *rq, const struct fmap *m, uint32_t page, uint32_t n, uint32_t *blocks)
{
	int rc = ext2_file_blocks(fm_fs_for(rq), m->ino, m->first + page, n, blocks);
	return rc < 0 ? (int)fm_result(rc, "page-in") : 0;
}

/* FS_MAP_POPULATE: map pages 0 .. n - 1 of the new map m held, their
 * records in out[]. 0, or the first page's error (the caller lets go). */
static int populate(struct server_request *rq, struct fmap *m, uint64_t size, uint32_t n, struct fs_map_page *out)
{
	uint32_t blocks[LOOKUP_RUN];
	for (uint32_t p = 0; p < n; p += LOOKUP_RUN) {
		uint32_t run = n - p < LOOKUP_RUN ? n - p : LOOKUP_RUN;
		int rc = map_blocks(rq, m, p, run, blocks);
		for (uint32_t j = 0; rc == 0 && j < run; j++) {
			uint32_t left = n - p - j;
			rc = page_in(rq, m, p + j, size, left < 64 ? left : 64, blocks[j],
			             &out[p + j].handle, &out[p + j].page);
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Fault-around: records for the want pages after `page` (held already,
 * or their blocks in the cache), into out[], up to the first that is not.
 * Returns how many. */
static uint32_t page_in_around(struct server_request *rq, struct fmap *m, uint32_t page, uint64_t size, uint32_t want,
                               struct fs_map_page *out)
{
	uint32_t blocks[FS_PAGEIN_AROUND];
	if (want == 0 || map_blocks(rq, m, page + 1, want, blocks) < 0)
		return 0;
	uint32_t n = 0;
	while (n < want && page_in(rq, m, page + 1 + n, size, 0, blocks[n], &out[n].handle,
	                           &out[n].page) == 0)
		n++;
	return n;
}

/* ---- the handlers ---- */

/* FS_MAP: struct fs_map_args (fd, first file page, pages, flags, map id). */
int64_t do_map(struct server_request *rq)
{
	fmap_init();
	const struct fs_map_args *a = SERVER_IN(rq, struct fs_map_args);
	uint64_t first = a->first, count = a->count, flags = a->flags, id = a->id;
	bool omf = flags & FS_MAP_OMF;
	if (id == 0 || id > UINT32_MAX || count == 0 || count > FS_MAP_MAX_PAGES ||
	    (flags & ~(uint64_t)MAP_FLAGS) ||
	    ((flags & FS_MAP_WRITE) && !(flags & FS_MAP_SHARED)) ||
	    first > (1ull << 32) - count)
		return -EINVAL;
	if (fmap_find(id))
		return -EEXIST;
	struct open_file *f = files_get(rq->d.requester, a->fd);
	if (!f)
		return -EBADF;
	if (f->kind != FM_FILE)
		return -ENODEV;   /* directories, pipes, the console, /dev/null: as Linux */
	if (f->ino == 0)
		return -ESTALE;
	if (!ofd_can_read(f))
		return -EACCES;
	bool writable;
	if (omf) {
		writable = ofd_can_write(f) && !fm_fs.read_only;
	} else {
		writable = flags & FS_MAP_WRITE;
		if (writable && !ofd_can_write(f))
			return -EACCES;
		if (writable && fm_fs.read_only)
			return -EROFS;
	}
	if ((flags & FS_MAP_POPULATE) && !rq->data)
		return -EINVAL;
	uint64_t size = 0;
	int rc = file_size(rq, f->ino, &size);
	if (rc < 0)
		return rc;
	if (omf && !writable && first + count > pages_of(size))
		return -ENXIO;   /* readblock past the end of a read-only file */
	if (omf && writable && first + count > MAX_FILE_PAGES)
		return -EFBIG;
	struct fmap *m = fmap_new((uint32_t)id);
	if (!m)
		return -EAGAIN;
	m->ino = f->ino;
	m->first = first;
	m->count = (uint32_t)count;
	m->revoked_from = (uint32_t)count;
	m->flags = (uint32_t)flags;
	m->writable = writable;
	m->pid = rq->d.requester;
	uint64_t records = 0;
	if (flags & FS_MAP_POPULATE) {
		uint64_t n = count;
		if (!omf)
			n = first < pages_of(size) ? pages_of(size) - first : 0;
		if (n > count)
			n = count;
		if (n > rq->data_size / sizeof(struct fs_map_page))
			n = rq->data_size / sizeof(struct fs_map_page);
		rc = populate(rq, m, size, (uint32_t)n, (struct fs_map_page *)rq->data);
		if (rc < 0) {
			map_release(rq, m);   /* nothing stays held */
			return rc;
		}
		records = n;
	}
	calls_map++;
	struct fs_map_result *res = SERVER_OUT(rq, struct fs_map_result);
	res->writable = writable;
	res->size = size;
	res->records = records;
	return 0;
}

/* Map id, for a call only the kernel may make (the table's
 * SERVER_KERNEL_ONLY): 0, or -ENOENT (no such map). */
static int64_t kernel_map(uint64_t id, struct fmap **out)
{
	fmap_init();
	*out = fmap_find(id);
	return *out ? 0 : -ENOENT;
}

/* FS_PAGEIN: struct fs_pagein_args (map id, map page, 1 for a write fault,
 * pages wanted with fault-around: with a data ICA for the records; 0 or 1,
 * or no data ICA: the one page, status 0). */
int64_t do_pagein(struct server_request *rq)
{
	const struct fs_pagein_args *a = SERVER_IN(rq, struct fs_pagein_args);
	struct fmap *m;
	int64_t found = kernel_map(a->id, &m);
	if (found < 0)
		return found;
	if (a->page >= m->count || a->write > 1)
		return -EINVAL;
	if (a->write == 1 && !m->writable)
		return -EACCES;
	uint32_t page = (uint32_t)a->page;
	if (page >= m->revoked_from || m->ino == 0)
		return -ENXIO;
	uint64_t size = 0;
	int rc = file_size(rq, m->ino, &size);
	if (rc < 0)
		return rc;
	/* Read ahead what a sequential toucher of the map will ask next. */
	uint64_t left = m->count - page;
	uint32_t handle, index;
	rc = page_in(rq, m, page, size, left < 64 ? (unsigned)left : 64, BLOCK_UNKNOWN, &handle,
	             &index);
	if (rc < 0)
		return rc;
	calls_pagein++;
	struct fs_pagein_result *res = SERVER_OUT(rq, struct fs_pagein_result);
	res->handle = handle;
	res->page = index;
	uint64_t want = a->around < FS_PAGEIN_AROUND ? a->around : FS_PAGEIN_AROUND;
	if (rq->data_size / sizeof(struct fs_map_page) < want)
		want = rq->data_size / sizeof(struct fs_map_page);
	if (!rq->data || want <= 1)
		return 0;   /* no fault-around asked: as before */
	/* The records: the faulting page, then the following pages inside the
	 * map, not revoked, and inside the file. */
	struct fs_map_page *out = (struct fs_map_page *)rq->data;
	out[0] = (struct fs_map_page){ .handle = handle, .page = index };
	uint64_t limit = m->revoked_from;   /* <= m->count */
	uint64_t file_pages = pages_of(size) > m->first ? pages_of(size) - m->first : 0;
	if (limit > file_pages)
		limit = file_pages;
	if (limit <= page)
		want = 1;   /* an OMF page past the end: that one only */
	else if (want > limit - page)
		want = limit - page;
	return 1 + page_in_around(rq, m, page, size, (uint32_t)want - 1, out + 1);
}

/* FS_UNMAP: struct fs_unmap_args (map id). Sent asynchronously: the status
 * goes to nobody. */
int64_t do_unmap(struct server_request *rq)
{
	struct fmap *m;
	int64_t found = kernel_map(SERVER_IN(rq, struct fs_unmap_args)->id, &m);
	if (found < 0)
		return found;
	map_release(rq, m);
	return 0;
}

/* FS_SYNCMAP: struct fs_syncmap_args (map id, first map page, pages, the
 * new size or 0). */
int64_t do_syncmap(struct server_request *rq)
{
	const struct fs_syncmap_args *a = SERVER_IN(rq, struct fs_syncmap_args);
	struct fmap *m;
	int64_t found = kernel_map(a->id, &m);
	if (found < 0)
		return found;
	uint64_t from = a->first, count = a->count, new_size = a->size;
	if (from > m->count || count > m->count - from)
		return -EINVAL;
	if (new_size) {
		if (!m->writable)
			return -EBADF;
		if (m->ino == 0)
			return -ESTALE;
		if (new_size > (m->first + m->count) * FM_BLOCK)
			return -EINVAL;   /* beyond what the map holds */
	}
	/* What a read-only map holds is as the disk has it, or as someone
	 * else's write left it: theirs to write back. */
	for (uint32_t i = m->pins; m->writable && i != FMAP_NONE; i = fmap_pins[i].map_next)
		if (fmap_pins[i].page >= from && fmap_pins[i].page - from < count &&
		    fmap_pins[i].block != ZERO_PAGE_BLOCK)
			cache_sync_mark(fmap_pins[i].block);
	int rc = 0;
	if (new_size) {
		uint64_t size = 0;
		rc = file_size(rq, m->ino, &size);
		if (rc == 0 && new_size > size) {
			rc = (int)fm_result(ext2_extend(fm_fs_for(rq), m->ino, new_size), "syncblock");
			m->meta_dirty = true;   /* the inode changed */
		}
	}
	/* Blocks allocated (bitmaps, indirect blocks) or a new size: the
	 * metadata goes to the disk too, with everything else dirty. */
	if (rc == 0 && m->meta_dirty) {
		rc = cache_sync(rq, false);
		if (rc == 0)
			m->meta_dirty = false;
	} else if (rc == 0) {
		rc = cache_sync_marked(rq);
	}
	if (rc == 0)
		rc = diskio_flush(rq);
	if (rc < 0)
		return fm_result(rc, "syncblock");
	calls_syncmap++;
	return 0;
}

/* ---- revocation ---- */

/* The kernel unmaps m's pages from map page `from` on everywhere; then they
 * are let go here. 0, or the kernel's refusal (nothing let go). */
static int revoke_from(struct fmap *m, uint32_t from)
{
	if (from >= m->revoked_from)
		return 0;
	long r = myrmex_fmap_revoke(m->id, from);
	revokes++;
	/* -ENOENT: the kernel has dropped the map already; its FS_UNMAP is on
	 * the way. */
	if (r < 0 && r != -ENOENT) {
		fm_log("fmap_revoke(map %u, page %u): error %ld", m->id, from, -r);
		return (int)r;
	}
	m->revoked_from = from;
	fmap_drop_from(m, from);
	return 0;
}

int fmap_truncate(uint32_t ino, uint64_t size)
{
	if (!fmap_ready)
		return 0;
	uint64_t end = pages_of(size);   /* the first page wholly past size */
	for (uint32_t s = 0; s < FMAP_MAX; s++) {
		struct fmap *m = &fmap_maps[s];
		if (!m->id || m->ino != ino || m->first + m->count <= end)
			continue;
		int rc = revoke_from(m, end > m->first ? (uint32_t)(end - m->first) : 0);
		if (rc < 0)
			return rc;
	}
	return 0;
}

bool fmap_holds(uint32_t ino)
{
	if (!fmap_ready || ino == 0)
		return false;
	for (uint32_t s = 0; s < FMAP_MAX; s++)
		if (fmap_maps[s].id && fmap_maps[s].ino == ino)
			return true;
	return false;
}

int fmap_inode_gone(uint32_t ino)
{
	if (!fmap_ready || ino == 0)
		return 0;
	for (uint32_t s = 0; s < FMAP_MAX; s++) {
		struct fmap *m = &fmap_maps[s];
		if (!m->id || m->ino != ino)
			continue;
		int rc = revoke_from(m, 0);
		if (rc < 0)
			return rc;
		m->ino = 0;   /* never to be confused with a file that reuses the inode */
	}
	return 0;
}

void fmap_after_request(void)
{
	if (!fmap_ready || cache_pinned_lost == lost_seen)
		return;
	lost_seen = cache_pinned_lost;
	/* A page whose chunk no longer sits in the ICA it was handed out from
	 * is not the cache's any more: revoke from the first such page. */
	for (uint32_t s = 0; s < FMAP_MAX; s++) {
		struct fmap *m = &fmap_maps[s];
		if (!m->id)
			continue;
		uint32_t from = m->revoked_from;
		for (uint32_t i = m->pins; i != FMAP_NONE; i = fmap_pins[i].map_next)
			if (fmap_pins[i].block != ZERO_PAGE_BLOCK && fmap_pins[i].page < from &&
			    cache_handle_of(fmap_pins[i].block) != fmap_pins[i].handle)
				from = fmap_pins[i].page;
		if (from < m->revoked_from && revoke_from(m, from) < 0) {
			m->revoked_from = from;   /* the pages are not the cache's anyway */
			fmap_drop_from(m, from);
		}
	}
}

void fmap_shutdown(struct server_request *rq)
{
	if (!fmap_ready)
		return;
	for (uint32_t s = 0; s < FMAP_MAX; s++) {
		struct fmap *m = &fmap_maps[s];
		if (!m->id)
			continue;
		fm_log("shutdown: map %u of pid %d (inode %u) still held: revoked", m->id, m->pid,
		       m->ino);
		revoke_from(m, 0);
		map_release(rq, m);
	}
}

void fmap_stats(uint64_t out[8])
{
	uint64_t blocks, chunks;
	cache_pin_counts(&blocks, &chunks);
	out[FS_MSTAT_MAPS] = fmap_live;
	out[FS_MSTAT_PAGES_HELD] = fmap_held_pages;
	out[FS_MSTAT_PINNED_BLOCKS] = blocks;
	out[FS_MSTAT_PINNED_CHUNKS] = chunks;
	out[FS_MSTAT_MAP_CALLS] = calls_map;
	out[FS_MSTAT_PAGEINS] = calls_pagein;
	out[FS_MSTAT_SYNCMAPS] = calls_syncmap;
	out[FS_MSTAT_REVOKES] = revokes;
}
