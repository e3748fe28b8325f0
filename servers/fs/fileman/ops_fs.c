/*
 * ops_fs.c - the handlers for the file system as a whole: sync, statfs,
 * stats (the cache's counters, the file mappings' or recovery's), drop-cache
 * (blocks that maps hold stay) and shutdown (maps still held are revoked
 * first; only from the init or our service manager).
 *
 * FS_SYNC writes the dirty blocks back itself, then passes the last step,
 * the disk's DISK_FLUSH, on to the driver with direct return: the file
 * manager has nothing left to do, so the driver's result goes straight to
 * the caller without passing through here again.
 */
#include "fileman.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <myrmex/disk.h>

int64_t do_sync(struct server_request *rq)
{
	if (rq->d.requester == getpid())
		fm_recovery.v[FS_RSTAT_WRITEBACKS]++;   /* our own periodic write-back */
	int rc = cache_sync(rq, false);
	if (rc < 0)
		return fm_result(rc, "sync");
	return request_pass_on(rq, MYRMEX_COREID_DISK, DISK_FLUSH, 0, 0, 0);
}

int64_t do_statfs(struct server_request *rq)
{
	if (!rq->data || rq->data_size < sizeof(struct myrmex_statfs))
		return -EINVAL;
	struct ext2_statfs s;
	ext2_get_statfs(fm_fs_for(rq), &s);
	struct myrmex_statfs out = {
		.block_size = s.block_size,
		.blocks = s.blocks,
		.free_blocks = s.free_blocks,
		.available_blocks = s.free_blocks > s.reserved_blocks ? s.free_blocks - s.reserved_blocks : 0,
		.inodes = s.inodes,
		.free_inodes = s.free_inodes,
		.name_max = s.name_max,
	};
	memcpy(rq->data, &out, sizeof(out));
	return 0;
}

int64_t do_stats(struct server_request *rq)
{
	uint64_t which = SERVER_IN(rq, struct fs_stats_args)->which;
	if (which != 0 && which != FS_STATS_MAPS && which != FS_STATS_RECOVERY)
		return -EINVAL;
	struct fs_stats_result *res = SERVER_OUT(rq, struct fs_stats_result);
	if (which == FS_STATS_MAPS) {
		fmap_stats(res->v);
	} else if (which == FS_STATS_RECOVERY) {
		memcpy(res->v, fm_recovery.v, sizeof(res->v));
	} else {
		fm_stats.v[FS_STAT_CACHED] = cache_cached_blocks();
		memcpy(res->v, fm_stats.v, sizeof(res->v));
	}
	return 0;
}

int64_t do_drop_cache(struct server_request *rq)
{
	(void)rq;
	return fm_result(cache_drop(rq), "drop-cache");
}

/* Only the init or the service manager that started us may shut us down. */
int64_t do_shutdown(struct server_request *rq)
{
	if (rq->d.requester != 1 && rq->d.requester != getppid())
		return -EPERM;
	if (fm_fs_state != 0)
		return 0;   /* nothing mounted: nothing to write */
	fmap_shutdown(rq);   /* no one writes the cache once it is written for good */
	orphans_reap(true);   /* files unlinked while still open: freed now */
	int rc = cache_sync(rq, false);
	int unmount = ext2_unmount(fm_fs_for(rq));
	if (rc == 0)
		rc = unmount;
	int flushed = cache_sync(rq, true);   /* the superblock, now marked clean */
	if (rc == 0)
		rc = flushed;
	fm_fs_state = -ESHUTDOWN;
	if (rc < 0)
		fm_log("shutdown: error %d; the disk may need e2fsck", -rc);
	return rc;
}
