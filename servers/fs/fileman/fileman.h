/*
 * fileman: the file manager server. What its files share.
 *
 *   main.c     start-up (the disk, the mount), the get() loop, the reply
 *   request.c  one request: arguments copied once, the opcode table, reply
 *   diskio.c   calls to the disk driver, pushed onto the control ICA of the
 *              request being served (multi-stage calls) or onto our own
 *   cache.c    the block cache: 4 KiB blocks in 64-block chunk ICAs that the
 *              driver fills by DMA, write-back, LRU eviction, read-ahead
 *   files.c    descriptors, per requesting process
 *   ops_file.c open/close/read/write/lseek/stat/truncate handlers
 *   ops_dir.c  readdir/mkdir/rmdir/unlink/rename and path handling
 *   ops_fs.c   sync, statfs, stats, drop-cache, shutdown
 *   console.c  /dev/console: reads and writes passed on to the console
 *              server with direct return
 *
 * The server is one thread serving one request at a time, so nothing needs
 * a lock; while it waits for the disk, other callers wait in its queue.
 */
#ifndef FILEMAN_H
#define FILEMAN_H

#include <stdbool.h>
#include <stdint.h>
#include <myrmex.h>
#include <myrmex/fs.h>

#include "../ext2/ext2.h"

#define FM_BLOCK 4096u
#define FM_LATER INT64_MIN    /* a handler's status: passed on, the reply comes from elsewhere */

/* ---- request.c ---- */

/* The request being served. The delivery is the kernel's trusted account;
 * the arguments are copied from the caller's frame once, on arrival,
 * because the caller's other threads may still write its control ICA. */
struct request {
	struct myrmex_delivery d;
	struct myrmex_ctl_header *ctl;
	struct myrmex_frame *frame;   /* the caller's frame, in ctl */
	uint64_t arg[3];
	int pid;                      /* the requester (from the delivery) */
	uint8_t *data;                /* the data ICA, NULL when none came */
	uint64_t data_size;           /* its size in bytes */
	uint64_t out[8];              /* results for arg[] (FS_STATS) */
	bool has_out;
};

/* Serves one request delivery: runs its handler and replies. */
void request_serve(const struct myrmex_delivery *d);

/* Writes status (and the data ICA, back to its owner) into the caller's
 * frame and returns it with ret(). */
void request_reply(struct request *rq, int64_t status);

/* Passes the request on to server target as the next stage of the caller's
 * own call (a frame with opcode, a0, a1 and the caller's data ICAs), with
 * direct return: the result goes from there straight to the caller. Returns
 * FM_LATER, or -errno when nothing was sent (the request is still ours). */
int64_t request_pass_on(struct request *rq, uint32_t target, uint32_t opcode, uint64_t a0,
                        uint64_t a1);

/* The path in the request's data ICA, checked: NUL-terminated within
 * FS_PATH_MAX bytes and the ICA. Returns it or NULL with *err set. */
const char *request_path(struct request *rq, int *err);

/* ---- diskio.c ---- */

/* Where disk calls go: onto the control ICA of the request being served
 * (NULL: onto the file manager's own). */
void diskio_use(struct myrmex_ctl_header *ctl);
/* Sets up our own control ICA and waits until a driver answers DISK_INFO;
 * the capacity in 512-byte sectors, or -errno. */
int64_t diskio_start(unsigned timeout_ms, uint32_t *info_flags);
/* DISK_READ / DISK_WRITE of count 4 KiB blocks at block `block` into or out
 * of ICA `ica` at byte offset `offset`. 0 or -errno; *lost is set when the
 * ICA did not come back (the driver died holding it). */
int diskio_transfer(bool write, uint64_t block, uint32_t count, uint32_t ica, uint64_t offset,
                    bool *lost);
int diskio_flush(void);

/* ---- cache.c ---- */

struct fm_stats {
	uint64_t v[8];                /* FS_STAT_* */
};
extern struct fm_stats fm_stats;

/* The most chunks (64-block ICAs, 256 KiB each) the cache may hold: under
 * the kernel's ICA limit for a server (512), leaving room for the rest. */
#define ICA_LIMIT_FOR_CACHE 480u

/* max_chunks chunk ICAs at most (allocated as needed). */
void cache_init(unsigned max_chunks, uint64_t disk_blocks);
uint64_t cache_cached_blocks(void);
/* The cached copy of disk block b, read from the disk when it is not
 * cached (read-ahead: up to `ahead` blocks from b in the same chunk, which
 * stops at the first block already cached). NULL with *err on failure. The
 * pointer is valid until the next cache call. */
uint8_t *cache_get(uint64_t b, unsigned ahead, int *err);
/* A block about to be overwritten whole: cached without reading it. */
uint8_t *cache_get_overwrite(uint64_t b, int *err);
void cache_mark_dirty(uint64_t b);
/* Writes every dirty block (all = every chunk; else only what eviction
 * needs) and, with flush_device, asks the disk to flush its cache. */
int cache_sync(bool flush_device);
/* cache_sync, then forgets every block. */
int cache_drop(void);
/* The block device the ext2 library runs on (nblocks filled at mount). */
extern const struct ext2_blockdev cache_blockdev;

/* ---- files.c ---- */

enum fm_kind { FM_FREE, FM_FILE, FM_DIR, FM_CONSOLE };

struct open_file {
	enum fm_kind kind;
	uint32_t ino;
	int flags;                    /* O_* as opened */
	uint64_t offset;
	uint64_t next_sequential;     /* the offset a sequential reader asks next */
};

/* The descriptor fd of process pid, or NULL (-EBADF). */
struct open_file *files_get(int pid, uint64_t fd);
/* A free descriptor of pid: its number, or -EMFILE / -ENFILE. */
int files_alloc(int pid, struct open_file **out);
void files_close(int pid, int fd);
/* Marks every descriptor open on ino stale (the file is gone). */
void files_forget_inode(uint32_t ino);
/* How many descriptors are open on ino. */
unsigned files_open_count(uint32_t ino);

/* ---- ops_dir.c: paths ---- */

/* The directory that would hold path's last name, and that name (trailing
 * slashes ignored; "" for the root). 0 or -errno (-ENAMETOOLONG, -ENOENT,
 * -ENOTDIR, -EUCLEAN). */
int path_parent(const char *path, uint32_t *dir, char name[EXT2_NAME_MAX + 1]);

/* ---- handlers (ops_*.c, console.c): a status, or FM_LATER ---- */

typedef int64_t (*fm_handler)(struct request *rq);

int64_t op_open(struct request *rq);
int64_t op_close(struct request *rq);
int64_t op_read(struct request *rq);
int64_t op_write(struct request *rq);
int64_t op_lseek(struct request *rq);
int64_t op_fstat(struct request *rq);
int64_t op_stat(struct request *rq);
int64_t op_ftruncate(struct request *rq);
int64_t op_readdir(struct request *rq);
int64_t op_mkdir(struct request *rq);
int64_t op_rmdir(struct request *rq);
int64_t op_unlink(struct request *rq);
int64_t op_rename(struct request *rq);
int64_t op_sync(struct request *rq);
int64_t op_statfs(struct request *rq);
int64_t op_stats(struct request *rq);
int64_t op_drop_cache(struct request *rq);
int64_t op_shutdown(struct request *rq);

/* console.c: passes a read or write on the console descriptor f to the
 * console server; FM_LATER when passed on, else -errno. */
int64_t console_forward(struct request *rq, bool write);

/* ---- the mounted file system (main.c) ---- */

extern struct ext2_fs fm_fs;
extern int fm_fs_state;            /* 0 mounted, else the -errno every call gets */

/* "fileman: <message>" on stderr, one write. */
__attribute__((format(printf, 1, 2)))
void fm_log(const char *fmt, ...);

/* ext2 result to a status, logging what the library found when it says the
 * file system is corrupt. */
int64_t fm_result(int64_t rc, const char *what);

#endif
