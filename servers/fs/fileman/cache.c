/*
 * cache.c - the file manager's block cache.
 *
 * The cache holds 4 KiB disk blocks in chunks: a chunk is one 64-page ICA
 * caching the aligned run of 64 disk blocks it is keyed by (key = block /
 * 64), with a bit per block for "valid" (holds the disk's data or newer)
 * and "dirty" (newer than the disk). Keeping blocks in ICAs lets the disk
 * driver fill them by DMA, at the block's offset in the chunk, with no copy
 * between the servers, and lets a run of neighbouring blocks be read or
 * written in one request.
 *
 * Chunks are allocated as the cache grows, up to max_chunks; after that the
 * least recently used chunk is written back (runs of dirty blocks, one
 * request each) and reused. Write-back is lazy: dirty blocks reach the disk
 * on eviction, FS_SYNC, FS_DROP_CACHE and FS_SHUTDOWN.
 *
 * File mappings (fmap.c) pin blocks: the kernel maps the frame of a pinned
 * block into processes, so the block must stay where it is. A chunk holding
 * a pinned block is never evicted or reused, FS_DROP_CACHE keeps its pinned
 * blocks, and a block that a writable map holds counts as dirty for every
 * write-back (its frame may be written any time, and no dirty bit says
 * when). At most pin_chunk_limit chunks hold pinned blocks, so that normal
 * I/O always has chunks to work in.
 *
 * The driver fills a chunk by DMA only at blocks that are not valid (a
 * read stops at the first valid block), and a pinned block is always
 * valid, so a read never lands on a block that processes map. A write-back
 * may send a pinned block while a process stores into it: the disk gets
 * some mix, and the block stays dirty for the next write-back (a writable
 * pin), as with any page written while it is being cleaned.
 *
 * Invariants: a block that is dirty is valid; a pinned block is valid; a
 * chunk in the hash table has an ICA (handle != 0) or holds nothing (valid
 * == 0); pinned bit i is set exactly when pins[i] > 0, wpinned when
 * wpins[i] > 0, and pin_total is the sum of pins[].
 *
 * With several serving threads (lock.h) the lock goes while the driver
 * works on a chunk's ICA: that chunk is busy until the transfer is back,
 * and nobody else looks into it, reuses it or sends it again meanwhile (a
 * thread that wants it waits, then looks it up again: it may cache other
 * blocks by then).
 */
#include "fileman.h"
#include "lock.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#define CHUNK_BLOCKS 64u
#define HASH_SIZE 1024u

struct chunk {
	uint64_t key;
	uint32_t handle;             /* the chunk's ICA, 0 when it has none */
	uint64_t valid, dirty;       /* bit i: block key * 64 + i */
	uint64_t pinned, wpinned;    /* bit i: held by a map / by a writable map */
	uint32_t pin_total;          /* holds on its blocks, all maps together */
	bool hashed;
	bool sync_marked;            /* cache_sync_mark: written by cache_sync_marked */
	bool busy;                   /* its ICA is with the driver (lock.h) */
	struct chunk *hash_next;
	struct chunk *newer, *older; /* the LRU list, newest at lru.older */
	/* Holds per block (fewer than FMAP_PINS_MAX in all, so 16 bits do). */
	uint16_t pins[CHUNK_BLOCKS], wpins[CHUNK_BLOCKS];
};

struct fm_stats fm_stats;
struct fm_stats fm_recovery;

static struct chunk *chunks;
static unsigned chunk_count, chunk_max;
static struct chunk *hash[HASH_SIZE];
static struct chunk *last_found;  /* chunk_find's last answer: runs of blocks share a chunk */
static struct chunk lru;         /* sentinel: lru.older is the newest, lru.newer the oldest */
static uint64_t disk_blocks;
static unsigned pinned_chunks, pin_chunk_limit;
uint64_t cache_pinned_lost;

static uint64_t bit(unsigned i)
{
	return 1ull << i;
}

static uint8_t *chunk_base(const struct chunk *c)
{
	return myrmex_ica_addr(c->handle);
}

static void lru_unlink(struct chunk *c)
{
	c->newer->older = c->older;
	c->older->newer = c->newer;
}

static void lru_push_newest(struct chunk *c)
{
	c->older = lru.older;
	c->newer = &lru;
	lru.older->newer = c;
	lru.older = c;
}

static void hash_remove(struct chunk *c)
{
	struct chunk **pp = &hash[c->key % HASH_SIZE];
	while (*pp && *pp != c)
		pp = &(*pp)->hash_next;
	if (*pp)
		*pp = c->hash_next;
	c->hashed = false;
	if (c == last_found)
		last_found = NULL;
}

static void hash_insert(struct chunk *c)
{
	c->hash_next = hash[c->key % HASH_SIZE];
	hash[c->key % HASH_SIZE] = c;
	c->hashed = true;
}

void cache_init(unsigned max_chunks, uint64_t blocks)
{
	static struct chunk storage[ICA_LIMIT_FOR_CACHE];
	chunks = storage;
	chunk_max = max_chunks < ICA_LIMIT_FOR_CACHE ? max_chunks : ICA_LIMIT_FOR_CACHE;
	chunk_count = 0;
	last_found = NULL;
	lru.older = lru.newer = &lru;
	disk_blocks = blocks;
	/* A quarter of the cache, and at least two chunks, stay unpinned. */
	unsigned reserve = chunk_max / 4 < 2 ? 2 : chunk_max / 4;
	pin_chunk_limit = chunk_max > reserve ? chunk_max - reserve : 0;
	pinned_chunks = 0;
}

/* The chunk lost its ICA (the driver died holding it): what it held is gone.
 * Pins stay counted until the maps let go (fmap.c revokes them when it sees
 * cache_pinned_lost move); the frames stay with the processes that map
 * them, but the chunk no longer caches those blocks. */
static void chunk_lost(struct chunk *c)
{
	c->handle = 0;
	c->valid = c->dirty = 0;
	if (c->pin_total)
		cache_pinned_lost++;
}

/* What a write-back of c writes: the dirty blocks and those a writable map
 * holds (valid, as every pinned block). */
static uint64_t to_write(const struct chunk *c)
{
	return (c->dirty | c->wpinned) & c->valid;
}

/* Writes the dirty blocks of c, a run per request (c busy meanwhile). */
static int chunk_write_runs(struct server_request *rq, struct chunk *c)
{
	uint64_t todo = to_write(c);
	unsigned i = 0;
	while (todo && i < CHUNK_BLOCKS) {
		if (!(todo & bit(i))) {
			i++;
			continue;
		}
		unsigned n = 1;
		while (i + n < CHUNK_BLOCKS && (todo & bit(i + n)))
			n++;
		bool lost = false;
		int rc = diskio_transfer(rq, true, c->key * CHUNK_BLOCKS + i, n, c->handle,
		                         (uint64_t)i * FM_BLOCK, &lost);
		if (lost)
			chunk_lost(c);
		if (rc < 0)
			return rc;
		uint64_t run = ((n == 64 ? 0 : bit(n)) - 1) << i;
		c->dirty &= ~run;
		todo &= ~run;
		i += n;
	}
	c->sync_marked = false;   /* whatever cache_sync_mark asked is written */
	return 0;
}

/* chunk_write_runs once c is not busy; busy while it runs. */
static int chunk_write_back(struct server_request *rq, struct chunk *c)
{
	while (c->busy)
		fm_wait();
	c->busy = true;
	int rc = chunk_write_runs(rq, c);
	c->busy = false;
	fm_wake_all();
	return rc;
}

static struct chunk *chunk_find(uint64_t key)
{
	if (last_found && last_found->key == key)
		return last_found;   /* still hashed: hash_remove forgets it */
	struct chunk *c = hash[key % HASH_SIZE];
	while (c && c->key != key)
		c = c->hash_next;
	if (c)
		last_found = c;
	return c;
}

/* The least recently used chunk that holds no pinned block, or NULL. */
static struct chunk *lru_victim(void)
{
	for (struct chunk *c = lru.newer; c != &lru; c = c->newer)
		if (c->pin_total == 0 && !c->busy)
			return c;
	return NULL;
}

/* A chunk for key: found, new, or the least recently used one reused. */
static struct chunk *chunk_for(struct server_request *rq, uint64_t key, int *err)
{
again:;
	struct chunk *c = chunk_find(key);
	if (c && c->busy) {
		fm_wait();   /* in flight: it may hold other blocks once back */
		goto again;
	}
	if (c) {
		lru_unlink(c);
		lru_push_newest(c);
	} else if (chunk_count < chunk_max) {
		c = &chunks[chunk_count++];
		memset(c, 0, sizeof(*c));
		lru_push_newest(c);
	} else {
		c = lru_victim();
		if (!c) {
			*err = -ENOMEM;   /* every chunk is pinned */
			return NULL;
		}
		int rc = chunk_write_back(rq, c);
		if (rc < 0) {
			*err = rc;
			return NULL;
		}
		/* The lock went during the write-back: another thread may have
		 * cached key, or used c, since. Choose again then. */
		if (chunk_find(key) || c->busy || c->pin_total || to_write(c))
			goto again;
		hash_remove(c);
		c->valid = c->dirty = 0;
		lru_unlink(c);
		lru_push_newest(c);
	}
	if (!c->hashed) {
		c->key = key;
		hash_insert(c);
	}
	if (c->handle == 0) {
		long h = myrmex_ica_alloc(CHUNK_BLOCKS);
		if (h < 0) {
			*err = (int)h;
			return NULL;
		}
		c->handle = (uint32_t)h;
		c->valid = c->dirty = 0;
	}
	return c;
}

/* Block b cached and valid (read as cache_get says): its chunk, or NULL
 * with *err set. */
static struct chunk *block_in(struct server_request *rq, uint64_t b, unsigned ahead, int *err)
{
	struct chunk *c = chunk_for(rq, b / CHUNK_BLOCKS, err);
	if (!c)
		return NULL;
	unsigned i = (unsigned)(b % CHUNK_BLOCKS);
	if (c->valid & bit(i)) {
		fm_stats.v[FS_STAT_CACHE_HITS]++;
		return c;
	}
	fm_stats.v[FS_STAT_CACHE_MISSES]++;
	/* Read b and the uncached blocks after it, as far as asked. */
	unsigned n = 1;
	while (n < ahead && i + n < CHUNK_BLOCKS && !(c->valid & bit(i + n)) && b + n < disk_blocks)
		n++;
	bool lost = false;
	c->busy = true;
	int rc = diskio_transfer(rq, false, b, n, c->handle, (uint64_t)i * FM_BLOCK, &lost);
	c->busy = false;
	fm_wake_all();
	if (lost)
		chunk_lost(c);
	if (rc < 0) {
		*err = rc;
		return NULL;
	}
	c->valid |= ((n == 64 ? 0 : bit(n)) - 1) << i;
	return c;
}

uint8_t *cache_get(struct server_request *rq, uint64_t b, unsigned ahead, int *err)
{
	struct chunk *c = block_in(rq, b, ahead, err);
	return c ? chunk_base(c) + (b % CHUNK_BLOCKS) * FM_BLOCK : NULL;
}

uint8_t *cache_get_overwrite(struct server_request *rq, uint64_t b, int *err)
{
	struct chunk *c = chunk_for(rq, b / CHUNK_BLOCKS, err);
	if (!c)
		return NULL;
	unsigned i = (unsigned)(b % CHUNK_BLOCKS);
	c->valid |= bit(i);   /* the caller fills it now */
	return chunk_base(c) + (uint64_t)i * FM_BLOCK;
}

void cache_mark_dirty(uint64_t b)
{
	struct chunk *c = chunk_find(b / CHUNK_BLOCKS);
	if (c && (c->valid & bit((unsigned)(b % CHUNK_BLOCKS))))
		c->dirty |= bit((unsigned)(b % CHUNK_BLOCKS));
}

int cache_sync(struct server_request *rq, bool flush_device)
{
	int first_error = 0;
	for (unsigned i = 0; i < chunk_count; i++) {
		while (chunks[i].busy)
			fm_wait();
		int rc = to_write(&chunks[i]) ? chunk_write_back(rq, &chunks[i]) : 0;
		if (rc < 0 && !first_error)
			first_error = rc;
	}
	if (!first_error && flush_device)
		first_error = diskio_flush(rq);
	return first_error;
}

int cache_drop(struct server_request *rq)
{
	int rc = cache_sync(rq, false);
	if (rc < 0)
		return rc;
	for (unsigned i = 0; i < chunk_count; i++) {
		struct chunk *c = &chunks[i];
		while (c->busy)
			fm_wait();
		if (c->pin_total) {   /* processes map these blocks: they stay */
			c->valid &= c->pinned;
			c->dirty &= c->pinned;
			continue;
		}
		if (c->hashed)
			hash_remove(c);
		c->valid = c->dirty = 0;
	}
	return 0;
}

/* ---- pinning, for file mappings (fmap.c) ---- */

int cache_pin(struct server_request *rq, uint64_t b, unsigned ahead, bool writable,
              uint32_t *handle, uint32_t *page)
{
	struct chunk *c = chunk_find(b / CHUNK_BLOCKS);
	if ((!c || c->pin_total == 0) && pinned_chunks >= pin_chunk_limit)
		return -ENOMEM;   /* one more pinned chunk would squeeze normal I/O */
	int err = 0;
	c = block_in(rq, b, ahead, &err);
	if (!c)
		return err;
	unsigned i = (unsigned)(b % CHUNK_BLOCKS);
	if (c->pin_total++ == 0)
		pinned_chunks++;
	c->pins[i]++;
	c->pinned |= bit(i);
	if (writable) {
		c->wpins[i]++;
		c->wpinned |= bit(i);
	}
	*handle = c->handle;
	*page = i;
	return 0;
}

void cache_unpin(uint64_t b, bool writable)
{
	struct chunk *c = chunk_find(b / CHUNK_BLOCKS);
	unsigned i = (unsigned)(b % CHUNK_BLOCKS);
	if (!c || c->pins[i] == 0 || (writable && c->wpins[i] == 0)) {
		fm_log("unpin of block %llu that is not pinned", (unsigned long long)b);
		return;
	}
	if (writable) {
		if (--c->wpins[i] == 0)
			c->wpinned &= ~bit(i);
		if (c->valid & bit(i))
			c->dirty |= bit(i);   /* what the map stored is written back lazily */
	}
	if (--c->pins[i] == 0)
		c->pinned &= ~bit(i);
	if (--c->pin_total == 0)
		pinned_chunks--;
}

bool cache_pinned(uint64_t b)
{
	struct chunk *c = chunk_find(b / CHUNK_BLOCKS);
	return c && c->pins[b % CHUNK_BLOCKS] > 0;
}

uint32_t cache_handle_of(uint64_t b)
{
	struct chunk *c = chunk_find(b / CHUNK_BLOCKS);
	return c && (c->valid & bit((unsigned)(b % CHUNK_BLOCKS))) ? c->handle : 0;
}

void cache_sync_mark(uint64_t b)
{
	struct chunk *c = chunk_find(b / CHUNK_BLOCKS);
	unsigned i = (unsigned)(b % CHUNK_BLOCKS);
	if (c && (c->valid & bit(i))) {
		c->dirty |= bit(i);
		c->sync_marked = true;
	}
}

int cache_sync_marked(struct server_request *rq)
{
	int first_error = 0;
	for (unsigned i = 0; i < chunk_count; i++) {
		struct chunk *c = &chunks[i];
		if (!c->sync_marked)
			continue;
		c->sync_marked = false;
		int rc = chunk_write_back(rq, c);
		if (rc < 0 && !first_error)
			first_error = rc;
	}
	return first_error;
}

void cache_pin_counts(uint64_t *blocks, uint64_t *pinned)
{
	uint64_t n = 0;
	for (unsigned i = 0; i < chunk_count; i++)
		n += (uint64_t)__builtin_popcountll(chunks[i].pinned);
	*blocks = n;
	*pinned = pinned_chunks;
}

uint64_t cache_cached_blocks(void)
{
	uint64_t n = 0;
	for (unsigned i = 0; i < chunk_count; i++)
		n += (uint64_t)__builtin_popcountll(chunks[i].valid);
	return n;
}

/* ---- the block device of the ext2 library ---- */

/* ctx: the request the ext2 call is made for (fm_fs_for), or NULL. */
static int dev_read(void *ctx, uint64_t b, void *buf)
{
	int err = 0;
	const uint8_t *p = cache_get(ctx, b, 1, &err);
	if (!p)
		return err;
	memcpy(buf, p, FM_BLOCK);
	return 0;
}

static int dev_write(void *ctx, uint64_t b, const void *buf)
{
	int err = 0;
	uint8_t *p = cache_get_overwrite(ctx, b, &err);
	if (!p)
		return err;
	if (p != buf)
		memcpy(p, buf, FM_BLOCK);
	cache_mark_dirty(b);
	return 0;
}

static const void *dev_peek(void *ctx, uint64_t b)
{
	int err = 0;
	return cache_get(ctx, b, 1, &err);
}

static uint32_t dev_now(void *ctx)
{
	(void)ctx;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint32_t)ts.tv_sec;
}

const struct ext2_blockdev cache_blockdev = {
	.read = dev_read,
	.write = dev_write,
	.now = dev_now,
	.peek = dev_peek,
};
