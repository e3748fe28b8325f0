/*
 * fileman: the file manager server. What its files share.
 *
 *   main.c      start-up (the disk, the mount), then the server library's
 *               loop (lib/libmyrmex/server.h)
 *   table.c     opcode -> handler, and the library's callbacks
 *   request.c   what handlers ask of a request (paths, the caller, passing
 *               it on to another server), the checks before and the work
 *               after each handler
 *   diskio.c    calls to the disk driver, pushed onto the control ICA of the
 *               request they are made for (multi-stage calls) or onto our own
 *   cache.c     the block cache: 4 KiB blocks in 64-block chunk ICAs that the
 *               driver fills by DMA, write-back, LRU eviction, read-ahead,
 *               blocks pinned for file mappings
 *   fmap.c      file mappings (mmap, the On-Memory File's readblock): the
 *               kernel's maps and the blocks each holds, page-in, sync,
 *               unmap, and revocation when a file shrinks or goes
 *   fmap_table.c  their tables (fmap.h): maps by id, pin records per page
 *   ofd.c       open-file descriptions: the object, offset, flags, counted
 *               references (descriptors, parked requests)
 *   fdtable.c   descriptor tables per process: entries pointing to
 *               descriptions, close-on-exec, the current directory; fork,
 *               exec and exit of a process
 *   pipe.c      pipes: 64 KiB rings, and the reads and writes parked until
 *               data, room or the other end's last close
 *   path.c      path resolution (current directory, dirfd, ".", "..",
 *               symbolic links), a directory's absolute path, the special
 *               names /dev/null, /dev/tty, /dev/console
 *   devfile.c   the device files (/dev/null, zero, full, random, urandom,
 *               tty, console): names, numbers, modes, reads and writes
 *   procfs.c    /proc: paths under it asked of the procfs server, its
 *               answers kept as a snapshot per open description; the
 *               descriptors and current directories answered here
 *   inet.c      Internet sockets (AF_INET): every call passed on to the
 *               TCP/IP server with its handle, direct return
 *   ifconf.c    the interface ioctls of sockets (SIOCGIFCONF, SIOCGIFFLAGS...)
 *   socket.c    packet sockets (AF_PACKET): sends passed on to the Ethernet
 *               server, a receive of its own there per socket, frames kept
 *   console.c   the console's descriptors: reads, writes and ioctls passed
 *               on to the console server with direct return; its readiness
 *   ops_open.c  open, open-as, stat, access, readlink
 *   ops_file.c  close/read/write/lseek/fstat/truncate handlers
 *   ops_fd.c    dup, dup2, fcntl, pipe, ioctl, poll
 *   ops_proc.c  fork, exec, exit, chdir, getcwd
 *   ops_dir.c   readdir/mkdir/rmdir/unlink/rename
 *   ops_link.c  link (a hard link) and symlink
 *   ops_attr.c  setattr (chmod, chown, truncate by path) and utimes
 *   ops_fs.c    sync, statfs, stats, drop-cache, shutdown
 *   events.c    the event descriptors' hooks (read, write, poll, fstat,
 *               close, a process's end) for the files above
 *   epoll.c     epoll sets: interest lists over every pollable description
 *   eventfd.c   eventfd counters, reads and writes parked on them
 *   timerfd.c   timerfd timers, the thread that wakes their parked reads
 *   signalfd.c  signalfd masks (the kernel reads the signals)
 *   park.c      requests parked on an eventfd or a timerfd
 *   locks.c     record locks (fcntl) and flock locks, their parked waits
 *   text.c      the file each process runs, for ETXTBSY
 *   removed.c   a directory removed while current or open: "." and its stat
 *   perm.c      permission checks on the caller's identity (the kernel's stamp)
 *   notice.c    readiness notices to the kernel for the waits of poll and epoll
 *
 * With one serving thread (configurations one and split) one request runs
 * at a time, and while it waits for the disk other callers wait in the
 * queue. With several (ult, klt: fsconf.h, ult.c) one lock (lock.h) keeps
 * that true except while a thread waits for the disk (docs/fs.md):
 *   lock.c      the lock, the gate around each handler, the waits
 *   fsconf.c    the configuration, and klt's serving threads
 *   ult.c       ult's user-level threads and their scheduler
 *   timecalls.c the time calls answered here (one, ult, klt)
 */
#ifndef FILEMAN_H
#define FILEMAN_H

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <myrmex.h>
#include <myrmex/fs.h>
#include <myrmex/fsevent.h>
#include <server.h>

#include "../ext2/ext2.h"

#define FM_BLOCK 4096u

/* ---- request.c, table.c ---- */

/* A request is the server library's (lib/libmyrmex/server.h): the
 * delivery, the arguments copied from the caller's frame once (rq->in),
 * the results (server_out), the data ICA (rq->data, mapped before the
 * handler runs). A parked request (a pipe read or write waiting) is a copy
 * kept until server_reply_later. Handlers return a status or SERVER_LATER. */
#define FM_NAME "fileman"

/* table.c: the file manager for server_run. */
extern const struct server fm_server;

/* request.c: the library's callbacks. The check before each handler (the
 * file system mounted unless the operation needs no disk; the data ICA
 * mapped), the work after it, and a result that reaches get(). */
#define FM_NO_DISK SERVER_OP_USER   /* served even when nothing is mounted */
int64_t request_check(struct server_request *rq, const struct server_op *op);
/* An inline read or write (include/myrmex/fs.h, FS_IO_INLINE): rq->data
 * becomes the frame's bytes (a write's, in rq->in) or the result words a
 * read's bytes go back in (rq->out, marked to be written). */
void request_inline_data(struct server_request *rq, bool write);
/* copy is a copy of rq (a parked request): its data pointer, if it pointed
 * into rq itself (inline bytes), now points into copy. */
void request_rebase(struct server_request *copy, const struct server_request *rq);
void request_handled(struct server_request *rq, int64_t status);
void request_result(const struct myrmex_delivery *d);

/* The request's control ICA. */
static inline struct myrmex_ctl_header *request_ctl(const struct server_request *rq)
{
	return (struct myrmex_ctl_header *)(uintptr_t)rq->d.control;
}

/* The mounted file system, with its block device's disk calls going onto
 * rq's control ICA (rq NULL: onto the file manager's own). Every ext2 call
 * made for a request goes through it, so the request travels with the
 * call down to diskio.c. */
struct ext2_fs *fm_fs_for(struct server_request *rq);

/* Passes the request on to server target as the next stage of the caller's
 * own call (a frame with opcode, a0..a2, the result word FS_RESULT_KIND
 * already chosen with server_out, and the caller's data ICAs), with direct return: the
 * result goes from there straight to the caller. The control ICA is claimed
 * first, so that the caller's other threads cannot rewrite our frame.
 * Returns SERVER_LATER, or -errno when nothing was sent (the request is
 * still ours). */
int64_t request_pass_on(struct server_request *rq, uint32_t target, uint32_t opcode, uint64_t a0,
                        uint64_t a1, uint64_t a2);

/* request_pass_on with four argument words a[0..3]. */
int64_t request_pass_on_args(struct server_request *rq, uint32_t target, uint32_t opcode,
                             const uint64_t a[4]);
/* request_pass_on with n (at most 7) argument words a[0..n-1]. */
int64_t request_pass_on_n(struct server_request *rq, uint32_t target, uint32_t opcode,
                          const uint64_t *a, unsigned n);

/* The path in the request's data ICA, checked: NUL-terminated within
 * FS_PATH_MAX bytes and the ICA, not empty. Returns it or NULL with *err
 * set. */
const char *request_path(struct server_request *rq, int *err);

/* Where the request's relative path starts (struct fs_path_args, the
 * words every path-taking opcode shares): the process's current directory
 * or, with FS_AT_DIRFD in at_flags, the directory open as descriptor dirfd
 * (AT_FDCWD there: the current directory; for an absolute path the
 * descriptor is not looked at, as on Linux). *cwd gets the current
 * directory's text when that is the start (for the special names), else
 * NULL. 0 or -errno (-EBADF, -ENOTDIR, -EINVAL for unknown FS_AT_* bits). */
int request_base(struct server_request *rq, const char *path, uint32_t *dir, const char **cwd);
/* request_path and request_base together: the path, or NULL with *err set. */
const char *request_path_at(struct server_request *rq, uint32_t *dir, const char **cwd, int *err);

/* v is AT_FDCWD (-100) as a 32-bit or sign-extended 64-bit number. */
bool request_at_fdcwd(uint64_t v);

/* The requester is the process manager (the server of MYRMEX_COREID_PM). */
bool request_from_pm(const struct server_request *rq);

/* ---- diskio.c ----
 * Every disk call names the request it is made for (rq), whose control ICA
 * carries it as the next stage; rq NULL: the file manager's own control
 * ICA (mount, and work outside a request). */

/* Sets up our own control ICA and waits until a driver answers DISK_INFO;
 * the capacity in 512-byte sectors, or -errno. */
int64_t diskio_start(unsigned timeout_ms, uint32_t *info_flags);
/* DISK_READ / DISK_WRITE of count 4 KiB blocks at block `block` into or out
 * of ICA `ica` at byte offset `offset`. 0 or -errno; *lost is set when the
 * ICA did not come back (the driver died holding it). */
int diskio_transfer(struct server_request *rq, bool write, uint64_t block, uint32_t count,
                    uint32_t ica, uint64_t offset, bool *lost);
int diskio_flush(struct server_request *rq);

/* ---- cache.c ---- */

struct fm_stats {
	uint64_t v[8];                /* FS_STAT_* */
};
extern struct fm_stats fm_stats;
extern struct fm_stats fm_recovery;   /* FS_RSTAT_* */

/* ---- writeback.c ---- */

/* Starts the thread that has the dirty blocks written back every
 * FM_WRITEBACK_NS (an FS_SYNC to ourselves, served in turn). */
int writeback_start(void);

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
uint8_t *cache_get(struct server_request *rq, uint64_t b, unsigned ahead, int *err);
/* A block about to be overwritten whole: cached without reading it. */
uint8_t *cache_get_overwrite(struct server_request *rq, uint64_t b, int *err);
void cache_mark_dirty(uint64_t b);
/* Writes every dirty block (all = every chunk; else only what eviction
 * needs) and, with flush_device, asks the disk to flush its cache. */
int cache_sync(struct server_request *rq, bool flush_device);
/* cache_sync, then forgets every block. */
int cache_drop(struct server_request *rq);
/* The block device the ext2 library runs on (nblocks filled at mount); its
 * ctx is the request the disk calls are made for (fm_fs_for). */
extern const struct ext2_blockdev cache_blockdev;
/* (Every cache call that may reach the disk takes the request, as above.) */

/* Pinning, for file mappings. cache_pin caches block b (reading it as
 * cache_get does, with read-ahead) and pins it: until the matching
 * cache_unpin its chunk is neither evicted nor reused and the block stays
 * valid at chunk ICA *handle, page *page; with writable, every write-back
 * writes it. -ENOMEM when the block would pin one chunk more than the
 * cache may spare (a quarter of it, at least two chunks, stays unpinned),
 * or the cache's errors. cache_unpin of a writable hold marks the block
 * dirty. */
int cache_pin(struct server_request *rq, uint64_t b, unsigned ahead, bool writable,
              uint32_t *handle, uint32_t *page);
void cache_unpin(uint64_t b, bool writable);
/* Whether some map holds block b. */
bool cache_pinned(uint64_t b);
/* The ICA of the chunk caching block b now, or 0 when b is not cached. */
uint32_t cache_handle_of(uint64_t b);
/* Marks cached block b dirty and its chunk for cache_sync_marked, which
 * writes back the marked chunks (all their dirty blocks). */
void cache_sync_mark(uint64_t b);
int cache_sync_marked(struct server_request *rq);
/* Blocks pinned now, and chunks holding them. */
void cache_pin_counts(uint64_t *blocks, uint64_t *chunks);
/* Counts chunks lost (the driver died holding their ICA) while they held
 * pinned blocks: fmap.c revokes the pages that were there. */
extern uint64_t cache_pinned_lost;

/* ---- ofd.c: open-file descriptions ---- */

enum fm_kind { FM_FREE, FM_FILE, FM_DIR, FM_CONSOLE, FM_PIPE, FM_NULL, FM_ZERO, FM_FULL,
               FM_RANDOM, FM_URANDOM, FM_PROC, FM_SOCKET, FM_INET,
               FM_EPOLL, FM_EVENTFD, FM_TIMERFD, FM_SIGNALFD /* events.c */ };

struct pipe;
struct sock;
struct epoll;
struct eventfd;
struct timerfd;

/* What open, pipe or the special names made: shared by every descriptor
 * dup or fork made from the first (one offset), and by parked requests. */
#define FM_DESCRIPTIONS 1024u   /* open file descriptions at once (ofd.c) */

struct open_file {
	enum fm_kind kind;
	unsigned refs;                /* descriptors and parked requests using it */
	uint32_t ino;                 /* FM_FILE, FM_DIR; 0 once the directory is gone
	                                 (a file unlinked while open keeps it: an orphan,
	                                 freed at its last close, ofd.c) */
	int flags;                    /* access mode | O_APPEND | O_NONBLOCK | O_LARGEFILE */
	uint64_t offset;              /* a file's offset, a directory's read position */
	uint64_t next_sequential;     /* the offset a sequential reader asks next */
	struct pipe *pipe;            /* FM_PIPE: the read end (O_RDONLY) or write end */
	uint64_t rdev;                /* FM_CONSOLE: the name's device number (tty 5:0, console 5:1) */
	struct sock *sock;            /* FM_SOCKET: the packet socket (socket.c) */
	uint64_t inet;                /* FM_INET: the TCP/IP server's handle (inet.c) */
	struct procfs_snap *snap;     /* FM_PROC: what procfs answered at open (procfs.c) */
	struct epoll *ep;             /* FM_EPOLL: the set (epoll.c) */
	struct eventfd *efd;          /* FM_EVENTFD: the counter (eventfd.c) */
	struct timerfd *tfd;          /* FM_TIMERFD: the timer (timerfd.c) */
	uint64_t sigmask;             /* FM_SIGNALFD: the signals it reads (signalfd.c) */
	char *path;                   /* FM_FILE: the absolute path it was opened by (for
	                                 /proc/<pid>/fd links), or NULL: path_short when it
	                                 fits, else malloc'd (an open costs no malloc then) */
	char path_short[64];
};

/* The status flags F_SETFL may change. */
#define FM_STATUS_FLAGS (O_APPEND | O_NONBLOCK)

/* A new description with one reference (the caller's), or NULL when all
 * are taken (-ENFILE). */
struct open_file *ofd_new(enum fm_kind kind, int flags);
void ofd_ref(struct open_file *f);
/* Drops a reference; the last lets the object go (a pipe end closes). */
void ofd_unref(struct open_file *f);
/* Marks every description open on ino stale (the file is gone). */
void ofd_forget_inode(uint32_t ino);
/* Unlink while open: regular file ino is open (a description) or mapped;
 * fm_fs.keep, so its last link going leaves it an orphan. */
bool ofd_inode_open(struct ext2_fs *fs, uint32_t ino);
/* Records orphan ino (its last link went while it was open). */
void orphan_add(uint32_t ino);
/* Frees the orphans no description or map holds any more (all: every one,
 * at FS_SHUTDOWN; their descriptions go stale). Disk calls on our own ICA. */
void orphans_reap(bool all);
/* FS_KIND_* of a description. */
uint32_t ofd_kind(const struct open_file *f);
/* After an open or a dup made descriptor fd of the requester (fd < 0:
 * none): its kind into the result's FS_RESULT_KIND word, so the kernel
 * knows from the first transfer whether a signal may cut it short. */
void result_kind(struct server_request *rq, int64_t fd);
bool ofd_can_read(const struct open_file *f);
bool ofd_can_write(const struct open_file *f);

/* ---- fdtable.c: descriptors and current directories per process ---- */

/* The description behind descriptor fd of process pid, or NULL (-EBADF). */
struct open_file *files_get(int pid, uint64_t fd);
/* A new descriptor of pid, the lowest free one >= lowest, for f (which
 * gains a reference): its number, or -EMFILE (none free), -EINVAL (lowest
 * out of range), -ENFILE (no table for pid). */
int files_install(int pid, struct open_file *f, uint64_t lowest, bool cloexec);
/* Descriptor fd of pid becomes f (closing what it was first). fd must be
 * < FS_MAX_FDS. 0 or -ENFILE. */
int files_install_at(int pid, uint64_t fd, struct open_file *f, bool cloexec);
/* -EMFILE when every descriptor of pid is taken, else 0. */
int files_room(int pid);
/* Closes descriptor fd of pid: 0 or -EBADF. */
int files_close(int pid, uint64_t fd);
/* Close-on-exec of an open descriptor (files_get first). */
bool files_cloexec(int pid, uint64_t fd);
void files_set_cloexec(int pid, uint64_t fd, bool on);
/* The child gets a copy of the parent's table (the same descriptions) and
 * its current directory. 0, -EEXIST (the child has a table), -EAGAIN. */
int files_fork(int parent, int child);
/* Closes pid's close-on-exec descriptors. */
void files_exec(int pid);
/* Closes everything pid had and forgets it. */
void files_exit(int pid);
/* pid's current directory: its inode (0 when it was removed) and text. */
uint32_t files_cwd(int pid, const char **text);
/* Makes directory ino, whose absolute path is text, pid's current one.
 * 0 or -ENOMEM, -ENFILE. */
int files_set_cwd(int pid, uint32_t ino, const char *text);
/* Every use of ino ends: descriptions go stale, current directories
 * unreachable. */
void files_forget_inode(uint32_t ino);

/* ---- pipe.c ---- */

#define FM_PIPE_SIZE  65536u   /* bytes a pipe holds */
#define FM_PIPE_BUF   4096u    /* writes up to this size are atomic */

/* A new pipe with no ends yet, or NULL (-ENFILE all taken, -ENOMEM). */
struct pipe *pipe_new(int *err);
/* A description of an end appears / its last reference went. The pipe
 * goes when both ends have none. */
void pipe_open_end(struct pipe *p, bool write);
void pipe_close_end(struct pipe *p, bool write);
/* Frees a pipe that never got an end (a failed FS_PIPE). */
void pipe_unused(struct pipe *p);
/* FS_READ / FS_WRITE on a pipe end f (length and data ICA checked): a
 * status, or SERVER_LATER when the request is parked. */
int64_t pipe_read(struct server_request *rq, struct open_file *f);
int64_t pipe_write(struct server_request *rq, struct open_file *f);
/* POLL* readiness of an end. */
unsigned pipe_poll(struct pipe *p, bool write);
/* Wake-ups of the readers (data in, the write end closed) and of the
 * writers (data out, the read end closed): epoll's EPOLLET. */
void pipe_wakes(const struct pipe *p, uint64_t *in, uint64_t *out);
/* Bytes waiting to be read; a number naming the pipe (st_ino). */
uint32_t pipe_available(const struct pipe *p);
uint32_t pipe_number(const struct pipe *p);
/* Answers every request of pid parked here with -EPIPE (it has ended). */
void pipe_drop_pid(int pid);
/* Answers pid's request parked with control ICA handle with -EINTR (its
 * thread gave it up); nothing when there is none. */
void pipe_cancel(int pid, uint32_t handle);

/* ---- socket.c: packet sockets (Linux AF_PACKET) over the Ethernet server ---- */

int64_t do_socket(struct server_request *rq);
int64_t do_bind(struct server_request *rq);
int64_t do_sendto(struct server_request *rq);
int64_t do_recvfrom(struct server_request *rq);
/* FS_READ and FS_WRITE on packet socket f: recv, and send to where it is
 * bound (the bytes at offset 0 of the data ICA, moved behind the header's
 * room), as Linux's read and write on a packet socket. */
int64_t socket_read(struct server_request *rq, struct open_file *f);
int64_t socket_write(struct server_request *rq, struct open_file *f);
/* getsockname (peer 0) of packet socket s: result words 0..3 its
 * protocol, ifindex, the MAC when bound, whether bound; FS_RESULT_FAMILY
 * FS_FAMILY_PACKET. getpeername: -EOPNOTSUPP, as Linux. */
int64_t socket_name(struct server_request *rq, struct sock *s, uint64_t peer);
/* The last description of socket s went: its frames are let go, its
 * receive at the Ethernet server (if any) is forgotten when it comes back. */
void socket_close(struct sock *s);
/* POLL* readiness (POLLIN: a frame waits). */
unsigned socket_poll(struct sock *s);
/* SIOCGIFINDEX, SIOCGIFHWADDR on a socket: the ifreq in rq's data ICA. */
/* NET_INFO of the Ethernet server: the MAC (byte i in bits 8i..), or -errno. */
int64_t socket_eth_mac(void);
/* ifconf.c: the interface ioctls (SIOCGIF*) of packet and inet sockets. */
int64_t ifconf_ioctl(struct server_request *rq, uint64_t request);
/* A result of the file manager's own calls: true when it was a socket's
 * receive (then handled here). */
bool socket_result(const struct myrmex_delivery *d);
/* As pipe_drop_pid and pipe_cancel, for receives parked on sockets. */
void socket_drop_pid(int pid);
void socket_cancel(int pid, uint32_t handle);

/* ---- inet.c: Internet sockets (AF_INET) ---- */
/* FS_SOCKET with domain FS_DOMAIN_INET: a socket at the TCP/IP server. */
int64_t inet_socket(struct server_request *rq);
int64_t do_inet(struct server_request *rq);
int64_t do_inet_adopt(struct server_request *rq);
/* FS_SENDTO and FS_RECVFROM, read and write, on an FM_INET description. */
int64_t inet_sendto(struct server_request *rq, struct open_file *f);
int64_t inet_recvfrom(struct server_request *rq, struct open_file *f);
int64_t inet_io(struct server_request *rq, struct open_file *f, bool write);
/* POLL* bits of the socket, asked of the server. */
unsigned inet_poll(const struct open_file *f);
/* The last reference to the description went: the socket closes. */
void inet_close(uint64_t handle);
/* INET_IFINFO's result words (include/myrmex/inet.h): 0, or -errno when no
 * TCP/IP server answers. */
int inet_info(uint64_t res[8]);

/* procnet.c: /proc/net. rest is the path below /proc ("net/route"): 0 with
 * the text (valid until the next call), its length, PROCFS_FILE or _DIR
 * and an inode number; 1 when rest is not below net; or -ENOENT. */
int procnet_answer(const char *rest, const char **bytes, uint32_t *len, uint32_t *type, uint64_t *ino);
/* The routing ioctls SIOCADDRT and SIOCDELRT (a struct rtentry in the
 * data ICA): 0 or -errno. */
int64_t route_ioctl(struct server_request *rq, uint64_t request);
/* inet.c: a synchronous call op(a0, a1) of ours to the TCP/IP server: its
 * status (-ENETDOWN when none runs), its result words in res (may be NULL). */
int64_t inet_ask(uint32_t op, uint64_t a0, uint64_t a1, uint64_t res[8]);

/* ---- path.c ---- */

#define FM_SYMLOOP_MAX 40u   /* symbolic links followed in one resolution */

/* path (absolute, or relative to directory base; base 0: a removed
 * directory, -ENOENT) to *ino. A symbolic link as the last component is
 * followed with follow (always when a '/' comes after it); elsewhere
 * always. -ENOENT, -ENOTDIR, -ENAMETOOLONG, -ELOOP, -EUCLEAN. */
int path_lookup(struct server_request *rq, uint32_t base, const char *path, bool follow, uint32_t *ino);
/* All but the last component of path to *dir, the last name in name (""
 * for the root itself; "." and ".." as written), *trailing: a '/' came
 * after it. The last component is not followed. */
int path_parent(struct server_request *rq, uint32_t base, const char *path, uint32_t *dir, char name[EXT2_NAME_MAX + 1],
                bool *trailing);
/* The absolute path of directory ino into buf (size bytes, NUL included):
 * its length, or -ENOENT (not reachable from the root), -ENAMETOOLONG. */
int path_of_dir(struct server_request *rq, uint32_t ino, char *buf, size_t size);
/* The special file path names (FM_CONSOLE, FM_NULL) or FM_FREE; rdev gets
 * its Linux device number. cwd is the text of the directory a relative
 * path starts from (NULL: relative paths name no special file). */
enum fm_kind path_special(const char *cwd, const char *path, uint64_t *rdev);
/* path made absolute from cwd's text and lexically normalised ("." and ".."
 * taken out): a static buffer, or NULL (relative and no cwd text). */
const char *path_normal(const char *cwd, const char *path);

/* ---- handlers (ops_*.c, fmap.c): a status, or SERVER_LATER ---- */

int64_t do_open(struct server_request *rq);
int64_t do_open_as(struct server_request *rq);
int64_t do_stat(struct server_request *rq);
int64_t do_access(struct server_request *rq);
int64_t do_readlink(struct server_request *rq);
int64_t do_close(struct server_request *rq);
int64_t do_read(struct server_request *rq);
int64_t do_write(struct server_request *rq);
int64_t do_lseek(struct server_request *rq);
int64_t do_fstat(struct server_request *rq);
int64_t do_ftruncate(struct server_request *rq);
int64_t do_dup(struct server_request *rq);
int64_t do_dup2(struct server_request *rq);
int64_t do_fcntl(struct server_request *rq);
int64_t do_pipe(struct server_request *rq);
int64_t do_ioctl(struct server_request *rq);
int64_t do_poll(struct server_request *rq);
int64_t do_fork(struct server_request *rq);
int64_t do_exec(struct server_request *rq);
int64_t do_exit(struct server_request *rq);
int64_t do_chdir(struct server_request *rq);
int64_t do_getcwd(struct server_request *rq);
int64_t do_cancel(struct server_request *rq);
int64_t do_readdir(struct server_request *rq);
int64_t do_mkdir(struct server_request *rq);
int64_t do_rmdir(struct server_request *rq);
int64_t do_unlink(struct server_request *rq);
int64_t do_rename(struct server_request *rq);
int64_t do_sync(struct server_request *rq);
int64_t do_statfs(struct server_request *rq);
int64_t do_stats(struct server_request *rq);
int64_t do_drop_cache(struct server_request *rq);
int64_t do_shutdown(struct server_request *rq);
int64_t do_map(struct server_request *rq);
int64_t do_pagein(struct server_request *rq);
int64_t do_unmap(struct server_request *rq);
int64_t do_syncmap(struct server_request *rq);
int64_t do_link(struct server_request *rq);
int64_t do_symlink(struct server_request *rq);
int64_t do_setattr(struct server_request *rq);
int64_t do_utimes(struct server_request *rq);
int64_t do_batch(struct server_request *rq);   /* ops_batch.c: FS_BATCH */

/* ---- fmap.c: what the rest of the file manager tells the file mappings ---- */

/* File ino is about to shrink to size bytes: the pages of its maps from the
 * first page wholly past size on are revoked (fmap_revoke: unmapped in every
 * process) and let go, before the blocks are freed. 0, or the kernel's
 * refusal (then nothing may be freed). */
int fmap_truncate(uint32_t ino, uint64_t size);
/* File ino is about to be freed (its last link goes): every page of its
 * maps is revoked; the maps stay until FS_UNMAP, holding nothing. */
int fmap_inode_gone(uint32_t ino);
/* A map of file ino exists (it keeps an unlinked file, as a descriptor does). */
bool fmap_holds(uint32_t ino);
/* After each request: revokes the pages of chunks the cache lost. */
void fmap_after_request(void);
/* FS_SHUTDOWN: every map is revoked and let go (the blocks past the end
 * that readblock allocated are freed), before the last write-back. */
void fmap_shutdown(struct server_request *rq);
/* FS_STATS with FS_STATS_MAPS: the FS_MSTAT_* counters. */
void fmap_stats(uint64_t out[8]);

/* ops_file.c: a Linux struct stat into the request's data ICA, of inode
 * ino or of a special object (mode, device number, inode number). 0 or
 * -errno. */
int64_t stat_inode(struct server_request *rq, uint32_t ino);
int64_t stat_special(struct server_request *rq, uint32_t mode, uint64_t rdev, uint64_t ino);
/* fstat of description f (every kind). */
int64_t stat_description(struct server_request *rq, const struct open_file *f);

/* devfile.c: the device files. devfile_by_name: the device whose absolute path is
 * normal (lexically normalised), its kind and Linux device number; NULL
 * when none. devfile_stat: its struct stat (the console's two names told apart
 * by rdev). devfile_is_device: null, zero, full, random or urandom.
 * devfile_read fills len bytes of the data ICA (checked by the caller);
 * devfile_write: what a write of len bytes returns. */
const char *devfile_by_name(const char *normal, enum fm_kind *kind, uint64_t *rdev);
int64_t devfile_stat(struct server_request *rq, enum fm_kind kind, uint64_t rdev);
bool devfile_is_device(enum fm_kind kind);
int64_t devfile_read(struct server_request *rq, enum fm_kind kind, uint64_t len);
int64_t devfile_write(enum fm_kind kind, uint64_t len);

/* procfs.c: /proc. procfs_rest: the part of normalised path normal below
 * /proc ("" for /proc itself), or NULL when it is not under /proc. The
 * handlers' /proc branches take that rest. */
struct procfs_snap;
const char *procfs_rest(const char *normal);
/* If path (from cwd) names a /proc link to a path on the disk (a
 * process's cwd or exe; "self" meaning process self), that path, copied
 * to out (size bytes); else NULL. open follows these, as Linux does
 * (busybox runs its applets by exec'ing /proc/self/exe). */
const char *procfs_disk_target(struct server_request *rq, const char *cwd, const char *path,
                               int self, char *out, size_t size);
/* A write to a /proc file: renames the writer through /proc/<pid>/comm;
 * -EIO for any other file. */
int64_t procfs_write(struct server_request *rq, struct open_file *f);
int64_t procfs_open(struct server_request *rq, const char *rest, int keep, bool cloexec, int flags);
int64_t procfs_stat(struct server_request *rq, const char *rest, bool follow);
int64_t procfs_readlink(struct server_request *rq, const char *rest);
int64_t procfs_access(struct server_request *rq, const char *rest, uint64_t want);
int64_t procfs_read(struct server_request *rq, struct open_file *f, uint64_t off, uint64_t len);
int64_t procfs_readdir(struct server_request *rq, struct open_file *f, uint64_t room);
int64_t procfs_fstat(struct server_request *rq, const struct open_file *f);
uint64_t procfs_size(const struct open_file *f);
void procfs_snap_free(struct procfs_snap *s);
/* The executable's path for /proc/<pid>/exe: opened by the process
 * manager for pid (FS_OPEN_AS), made pid's at FS_EXEC, copied at fork. */
/* File locks (locks.c, include/myrmex/fslock.h): the handlers; pid closed
 * a descriptor of ino (its record locks there go); a description's last
 * reference went (its flock goes); pid ended (its locks and waits go);
 * pid gave up the wait with control ICA handle (-EINTR). */
int64_t do_lock(struct server_request *rq);
int64_t do_flock(struct server_request *rq);
void locks_closed(int pid, uint32_t ino);
void locks_description_gone(struct open_file *f);
void locks_drop_pid(int pid);
void locks_cancel(int pid, uint32_t handle);
/* The programs processes run (text.c), for ETXTBSY: ino opened by the
 * process manager for pid's exec; the exec done; fork; exit; whether a
 * process runs ino. */
void text_opened(int pid, uint32_t ino);
void text_exec(int pid);
void text_fork(int parent, int child);
void text_exit(int pid);
bool text_busy(uint32_t ino);
/* ino was freed: the processes that run it keep running, but the number
 * may name another file from now on. */
void text_forget(uint32_t ino);
/* Whether a description of regular file ino is open for writing (ofd.c). */
bool ofd_inode_writable(uint32_t ino);
void procfs_exe_opened(int pid, const char *cwd, const char *path);
void procfs_exe_exec(int pid);
void procfs_exe_fork(int parent, int child);
void procfs_exe_exit(int pid);

/* console.c: a read or write on the console description f passed on to
 * the console server; SERVER_LATER when passed on, else -errno. */
int64_t console_forward(struct server_request *rq, const struct open_file *f, bool write);
/* An ioctl passed on as CONSOLE_IOCTL. */
int64_t console_ioctl(struct server_request *rq);
/* The console's readiness (POLLIN | POLLOUT, as the console server says),
 * or -errno. */
int console_poll(void);

/* ---- events.c, epoll.c, eventfd.c, timerfd.c: the event descriptors ---- */

/* FM_EPOLL, FM_EVENTFD, FM_TIMERFD or FM_SIGNALFD. */
bool events_kind(enum fm_kind kind);
/* FS_READ / FS_WRITE on one (checked by data_call): a status or SERVER_LATER. */
int64_t events_read(struct server_request *rq, struct open_file *f);
int64_t events_write(struct server_request *rq, struct open_file *f);
int64_t events_stat(struct server_request *rq, const struct open_file *f);
unsigned events_poll(const struct open_file *f, int *console);
/* The last reference to f went (any kind): its object is let go and every
 * epoll set forgets it. */
void events_release(struct open_file *f);
/* As pipe_drop_pid and pipe_cancel, for reads parked on eventfds, timerfds. */
void events_drop_pid(int pid);
void events_cancel(int pid, uint32_t handle);

/* ops_fd.c: what description f is ready for now (POLL* bits); *console
 * caches the console server's answer for one request (-1: not asked yet). */
unsigned fm_readiness(const struct open_file *f, int *console);
/* Counters of the wake-ups of f's readers (in) and writers (out): they
 * change on each write into a pipe or eventfd, read out of it, end closed,
 * timer expired (epoll's EPOLLET). 0 for kinds without. */
void fm_wakes(const struct open_file *f, uint64_t *in, uint64_t *out);

int64_t do_epoll_create(struct server_request *rq);
int64_t do_epoll_ctl(struct server_request *rq);
int64_t do_epoll_wait(struct server_request *rq);
unsigned epoll_poll(struct epoll *ep, int *console);
void epoll_free(struct epoll *ep);
/* Description f goes: every set's entries for it go too. */
void epoll_forget(const struct open_file *f);

int64_t do_eventfd(struct server_request *rq);
int64_t eventfd_read(struct server_request *rq, struct open_file *f);
int64_t eventfd_write(struct server_request *rq, struct open_file *f);
unsigned eventfd_poll(struct eventfd *e);
void eventfd_wakes(const struct eventfd *e, uint64_t *in, uint64_t *out);
void eventfd_free(struct eventfd *e);

int64_t do_timerfd_create(struct server_request *rq);
int64_t do_timerfd_set(struct server_request *rq);
int64_t do_timerfd_get(struct server_request *rq);
int64_t do_timerfd_tick(struct server_request *rq);
int64_t timerfd_read(struct server_request *rq, struct open_file *f);
unsigned timerfd_poll(struct timerfd *t);
void timerfd_wakes(struct timerfd *t, uint64_t *in);
void timerfd_free(struct timerfd *t);

int64_t do_signalfd(struct server_request *rq);
int64_t signalfd_read(struct server_request *rq, const struct open_file *f);
unsigned signalfd_poll(const struct open_file *f);
/* The pending signals of the process whose FS_POLL or FS_EPOLL_WAIT is
 * being served (the kernel's word in the request), for signalfd_poll. */
extern uint64_t fm_caller_pending;

/* Reads parked on an eventfd or timerfd (park.c): a FIFO per object. */
struct parked_read;
struct park_queue {
	struct parked_read *head;
};
/* Parks rq (a reference to f taken) at the end of q; false when full. */
bool park_add(struct park_queue *q, struct server_request *rq, struct open_file *f, bool write);
/* The oldest parked request of q (read or write as asked), or NULL; its
 * request and length. */
struct server_request *park_first(struct park_queue *q, bool write, uint64_t *len);
/* Answers the request park_first gave with status, off the queue. */
void park_finish(struct park_queue *q, bool write, int64_t status);
void park_drop_pid(int pid);
void park_cancel(int pid, uint32_t handle);

/* notice.c: a poll's or an epoll wait's answer is framed by
 * notice_answer_begin and notice_answer_end(rq), which writes the result
 * words (struct fs_poll_result); readiness of an armed timerfd calls
 * notice_wake_by(its next expiry, monotonic). Each object a poll may wait for keeps a flag that its poll
 * sets; every change to it calls notice_changed(&flag), which tells the
 * kernel when the flag was set, and clears it. */
void notice_answer_begin(void);
void notice_wake_by(uint64_t monotonic_ns);
void notice_answer_end(struct server_request *rq);
void notice_changed(bool *polled);

/* perm.c: the caller's file-system uid and gid (root for all but the
 * kernel's forwarded calls); whether it may do want (PERM_R | PERM_W |
 * PERM_X) to an inode of stat st or number ino (-EACCES); remove victim
 * from sticky directory dir (-EPERM unless it owns one of them); change an
 * inode's mode or times (its owner: -EPERM); give it owner uid and group
 * gid (UINT32_MAX: unchanged; -EPERM). 0 when allowed, root always (but
 * execute: some execute bit). */
#define PERM_R 4u
#define PERM_W 2u
#define PERM_X 1u
struct fm_cred {
	uint32_t uid, gid;
	int pid;   /* whose supplementary groups count: the requester, or FS_OPEN_AS's pid */
};
struct fm_cred request_cred(const struct server_request *rq);
int perm_check(const struct server_request *rq, const struct ext2_stat *st, unsigned want);
int perm_inode(struct server_request *rq, uint32_t ino, unsigned want);
/* Looking a name up in directory dir (path.c): search permission. */
int perm_search(struct server_request *rq, uint32_t dir);
int perm_sticky(struct server_request *rq, uint32_t dir, uint32_t victim);
int perm_owner(struct server_request *rq, uint32_t ino);
int perm_chown(struct server_request *rq, uint32_t ino, uint32_t uid, uint32_t gid);

/* removed.c: path is "." (or "./.", ...) from a removed directory (base
 * 0); its stat (a directory, no link); an open of it (read-only, else
 * -EISDIR): a description of inode 0, whose readdir gives -ENOENT. */
bool removed_dot(uint32_t base, const char *path);
int64_t removed_dir_stat(struct server_request *rq);
int64_t removed_dir_open(struct server_request *rq, int flags, int keep, bool cloexec);

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
