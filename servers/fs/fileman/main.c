/*
 * fileman: the file manager server. The init starts it with the server
 * right, after the disk driver:
 *
 *     fileman [cache MiB] [one|split|klt]
 *
 * The last argument is the configuration (fsconf.h; default split).
 * It registers MYRMEX_COREID_FS at once (early callers wait in its queue),
 * waits for the disk driver, mounts the ext2 file system on the disk through
 * its block cache, and serves the file protocol (include/myrmex/fs.h)
 * forever with the server library (table.c). When the disk holds no usable
 * file system it stays up and answers every call with the reason (-EUCLEAN
 * for a corrupt one, -ENODEV without a disk), so that no client hangs.
 */
/* server-libraries: servers/fs/ext2 servers/time/timesvc */
#include "fileman.h"
#include "fsconf.h"
#include "lock.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <myrmex/disk.h>

#define DEFAULT_CACHE_MIB 32u
#define DRIVER_WAIT_MS 5000u

struct ext2_fs fm_fs;
int fm_fs_state = -ENODEV;

void fm_log(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	myrmex_vlog("fileman", fmt, ap);
	va_end(ap);
}

int64_t fm_result(int64_t rc, const char *what)
{
	if (rc == -EUCLEAN)
		fm_log("%s: the file system is corrupt: %s", what,
		       fm_fs.error ? fm_fs.error : "(no detail)");
	return rc;
}

/* The cache size argument in MiB, within what the kernel lets a server hold. */
static unsigned cache_chunks(int argc, char **argv)
{
	unsigned long mib = DEFAULT_CACHE_MIB;
	if (argc > 1) {
		char *end;
		mib = strtoul(argv[1], &end, 10);
		if (*argv[1] == '\0' || *end != '\0' || mib == 0) {
			fm_log("bad cache size '%s' (MiB); using %u", argv[1], DEFAULT_CACHE_MIB);
			mib = DEFAULT_CACHE_MIB;
		}
	}
	unsigned long chunks = mib * 4;   /* 256 KiB each */
	return chunks < ICA_LIMIT_FOR_CACHE ? (unsigned)chunks : ICA_LIMIT_FOR_CACHE;
}

/* Waits for the driver and mounts the disk; sets fm_fs_state. */
static void mount_disk(unsigned chunks)
{
	uint32_t flags = 0;
	int64_t sectors = diskio_start(DRIVER_WAIT_MS, &flags);
	if (sectors < 0) {
		fm_log("no disk driver answers (error %lld): serving -ENODEV", (long long)-sectors);
		fm_fs_state = -ENODEV;
		return;
	}
	uint64_t blocks = (uint64_t)sectors / (FM_BLOCK / DISK_SECTOR_SIZE);
	cache_init(chunks, blocks);
	struct ext2_blockdev dev = cache_blockdev;
	dev.nblocks = blocks;
	bool read_only = flags & DISK_INFO_READONLY;
	int rc = ext2_mount(&fm_fs, &dev, read_only);
	if (rc < 0) {
		fm_log("cannot mount the disk: %s (error %d): serving -EUCLEAN",
		       fm_fs.error ? fm_fs.error : "not an ext2 file system", -rc);
		fm_fs_state = -EUCLEAN;
		return;
	}
	fm_fs.keep = ofd_inode_open;   /* unlink while open: orphans (ofd.c) */
	struct ext2_statfs s;
	ext2_get_statfs(&fm_fs, &s);
	fm_log("ext2 mounted %s: %llu of %llu blocks free, %llu inodes free; cache up to %u KiB",
	       read_only ? "read-only" : "read-write", (unsigned long long)s.free_blocks,
	       (unsigned long long)s.blocks, (unsigned long long)s.free_inodes, chunks * 256);
	fm_fs_state = 0;
}

int main(int argc, char **argv)
{
	long r = myrmex_registserver(MYRMEX_COREID_FS);
	if (r < 0) {
		fm_log("registserver(%u): error %ld", MYRMEX_COREID_FS, -r);
		return 1;
	}
	/* The configuration: our second argument, else the boot's (svcman
	 * hands sysinit's fsconf=<name> down as FSCONF). */
	const char *conf = argc > 2 ? argv[2] : getenv("FSCONF");
	if (fsconf_parse(conf) < 0)
		fm_log("unknown configuration '%s': serving as %s", conf, fsconf_name());
	int err = timecalls_start();
	if (err < 0)
		fm_log("%s: cannot answer the time calls (error %d)", fsconf_name(), -err);
	fm_lock();   /* the disk calls of the mount let it go (lock.h) */
	mount_disk(cache_chunks(argc, argv));
	fm_unlock();
	if (fm_fs_state == 0 && writeback_start() < 0)
		fm_log("cannot start the write-back thread: dirty blocks wait for sync or shutdown");
	fsconf_serve(&fm_server);
}
