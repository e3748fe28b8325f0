/*
 * The file protocol: what a program sends to the file manager server
 * (servers/fs/fileman) and what it gets back. Shared by the file manager,
 * libmyrmex's native file interface (lib/libmyrmex/file.c) and the tests.
 *
 * A call is one frame (include/myrmex/ica.h) with target MYRMEX_COREID_FS,
 * an opcode below, its arguments in arg[] and, where the opcode says so, one
 * data ICA (data[0]) that carries a path in or data in either direction and
 * always comes back with the result. Structures use Linux's x86-64 layouts
 * (struct stat, struct linux_dirent64, O_* flags, errno values) so that the
 * POSIX personality can hand them on unchanged. status is >= 0 on success,
 * -errno on failure.
 *
 * Descriptors belong to the calling process (the kernel's requester pid):
 * another process cannot use them. A descriptor points to an open-file
 * description (what an open or pipe made: the object, the offset, the
 * access mode and the status flags O_APPEND and O_NONBLOCK), which dup,
 * dup2, F_DUPFD and FS_FORK share (one offset); close-on-exec belongs to
 * the descriptor. A process has FS_MAX_FDS descriptors (0..63) and a
 * current directory ("/" at first); everything goes at FS_EXIT, or, for a
 * native program that ends without it, when the file manager needs the
 * room. Limits of the whole file manager: 64 processes with descriptors or
 * a current directory, 1024 descriptions and 64 pipes (-ENFILE beyond), 128
 * requests parked on pipes at once, 32 of one process (-EAGAIN beyond).
 *
 *   FS_OPEN      data: path (NUL-terminated, < FS_PATH_MAX bytes). arg[0]
 *                O_* flags: O_RDONLY/O_WRONLY/O_RDWR, O_CREAT, O_EXCL,
 *                O_TRUNC, O_APPEND, O_DIRECTORY, O_CLOEXEC, O_NONBLOCK,
 *                O_NOFOLLOW (-ELOOP on a symbolic link); O_NOCTTY and
 *                O_LARGEFILE are accepted and change nothing, other bits
 *                are ignored but O_TMPFILE (-EOPNOTSUPP). arg[1] mode for
 *                O_CREAT (& 07777; the kernel applies the umask). A
 *                symbolic link as the last name is followed, except with
 *                O_CREAT|O_EXCL (-EEXIST: the name exists); O_CREAT through
 *                a link to a missing file gives -EEXIST too (not created).
 *                O_CREAT on "name/" or on a directory -EISDIR. -EMFILE is
 *                checked before anything is created. status: the lowest
 *                free descriptor.
 *   FS_CLOSE     arg[0] fd.
 *   FS_READ      arg[0] fd, arg[1] length (at most the data ICA's size): the
 *                data ICA receives the bytes from the descriptor's offset,
 *                which advances. status: bytes (0 at the end).
 *   FS_WRITE     arg[0] fd, arg[1] length: the data ICA's first bytes are
 *                written at the offset (at the end with O_APPEND).
 *                FS_READ and FS_WRITE (and the P forms) say in the result's
 *                arg[7] what the descriptor is (FS_KIND_*), on success and
 *                on any error after the descriptor was found; for the
 *                console the frame that comes back as the result (the
 *                console server's, at resultp) carries it, and ours too.
 *                /dev/null: reads give 0, writes take everything.
 *   FS_PREAD     FS_READ at offset arg[2]; the descriptor's offset stays.
 *   FS_PWRITE    FS_WRITE at offset arg[2]. Both -ESPIPE on a pipe or the
 *                console.
 *   FS_LSEEK     arg[0] fd, arg[1] offset (signed), arg[2] SEEK_SET/CUR/END.
 *                status: the new offset (always 0 on /dev/null).
 *   FS_FSTAT     arg[0] fd: the data ICA receives a struct myrmex_stat.
 *                Pipes: S_IFIFO|0600 (both ends one st_ino); the console:
 *                S_IFCHR|0620, st_rdev 5:1 (Linux's (5 << 8) | 1); /dev/null
 *                S_IFCHR|0666, st_rdev 1:3; these have st_dev 2, the disk's
 *                files FS_ST_DEV_DISK.
 *   FS_STAT      data: path in, struct myrmex_stat out (at offset 0). With
 *                FS_AT_NOFOLLOW a symbolic link as the last name is not
 *                followed (lstat). With FS_AT_EMPTY_PATH an empty path
 *                means the descriptor arg[3] itself (with FS_AT_DIRFD; else
 *                the current directory). The special names answer as
 *                FS_FSTAT does ("/dev/tty": st_rdev 5:0).
 *   FS_READDIR   arg[0] fd of a directory: the data ICA receives whole
 *                struct myrmex_dirent64 records, as many as fit in arg[1]
 *                bytes. status: bytes (0 at the end). The position is the
 *                description's, shared like the offset.
 *   FS_MKDIR     data: path; arg[0] mode.
 *   FS_RMDIR     data: path.
 *   FS_UNLINK    data: path; arg[1] 0 or AT_REMOVEDIR (0x200: FS_RMDIR);
 *                other bits -EINVAL. "name/" -EISDIR for a directory,
 *                -ENOTDIR for anything else.
 *   FS_RENAME    data: old path, NUL, new path, NUL. With FS_AT_DIRFD both
 *                relative paths start at descriptor arg[3]. "." or ".." as
 *                the last name, or the root, -EBUSY.
 *   FS_FTRUNCATE arg[0] fd (open for writing), arg[1] new size. -EINVAL
 *                for a descriptor not open for writing or not a regular
 *                file (as Linux answers).
 *   FS_SYNC      every dirty block to the disk, then the disk's own cache
 *                flushed. status 0.
 *   FS_STATFS    the data ICA receives a struct myrmex_statfs.
 *   FS_STATS     no data; arg[0] 0: arg[0..7] receive the file manager's
 *                counters (FS_STAT_* indexes); arg[0] FS_STATS_MAPS: those
 *                of the file mappings (FS_MSTAT_* indexes); else -EINVAL.
 *   FS_DROP_CACHE writes back every dirty block and forgets every cached
 *                one (for cold-cache measurements). status 0.
 *   FS_SHUTDOWN  init only (pid 1): sync, unmount (the file system is
 *                marked clean) and refuse every later call with -ESHUTDOWN.
 *
 * The console: "/dev/console" and "/dev/tty" open the console
 * (servers/console), "/dev/null" the null device; the names are matched
 * after "." and ".." are taken out (absolute, or relative to the current
 * directory; not relative to a descriptor), whether or not the disk has a
 * /dev. Reads, writes and ioctls on a console descriptor are passed on to
 * the console server, which returns its result straight to the caller
 * (direct return); arg[0] of the passed-on frame is the descriptor. A
 * read with O_NONBLOCK asks CONSOLE_POLL first: -EAGAIN when no input
 * waits. -ENXIO when no console server runs.
 *
 * The POSIX side (the kernel forwards Linux calls here; docs/posix.md):
 *   FS_DUP       arg[0] fd, arg[1] lowest new fd, arg[2] 1 for close-on-exec.
 *                status: the new fd (sharing the open-file description).
 *                -EINVAL arg[1] >= FS_MAX_FDS or arg[2] > 1, -EMFILE.
 *   FS_DUP2      arg[0] old fd, arg[1] new fd, arg[2] 1 for close-on-exec:
 *                new fd is closed first if open; old == new returns new
 *                (close-on-exec unchanged). -EBADF new fd >= FS_MAX_FDS.
 *   FS_FCNTL     arg[0] fd, arg[1] F_GETFD/F_SETFD/F_GETFL/F_SETFL (also
 *                F_DUPFD and F_DUPFD_CLOEXEC, arg[2] the lowest fd), arg[2]
 *                the value. F_GETFL: the access mode | O_APPEND | O_NONBLOCK
 *                as set, | O_LARGEFILE for what FS_OPEN opened (as Linux).
 *                F_SETFL changes O_APPEND and O_NONBLOCK only. Other
 *                commands -EINVAL.
 *   FS_PIPE      arg[0] O_CLOEXEC | O_NONBLOCK (other bits -EINVAL). status
 *                0; the result's arg[0] and arg[1] are the read and write
 *                ends (O_RDONLY and O_WRONLY descriptions). -EMFILE (no
 *                two free descriptors: none is left open), -ENFILE.
 *   FS_FORK      process manager only (the requester is the server of
 *                MYRMEX_COREID_PM, else -EPERM): arg[0] parent pid, arg[1]
 *                child pid. The child gets a copy of the parent's table
 *                (same open-file descriptions, same close-on-exec flags)
 *                and its current directory. -EINVAL pids not in
 *                1..INT32_MAX or equal, -EEXIST the child has descriptors
 *                already, -EAGAIN no table free, -ENOMEM.
 *   FS_EXEC      process manager only: arg[0] pid. Closes its close-on-exec
 *                descriptors; the current directory stays.
 *   FS_EXIT      the process itself (sent by the kernel as it ends) or the
 *                process manager (-EPERM for others): arg[0] pid. Answers
 *                its requests parked on pipes with -EPIPE (nobody takes
 *                them), closes everything it had and forgets its current
 *                directory; 0 also when it had nothing.
 *   FS_CHDIR     data: path (FS_AT_DIRFD as for the other paths); or, with
 *                arg[0] = 1, the directory open as descriptor arg[1]
 *                (fchdir); other arg[0] -EINVAL. -ENOTDIR, -ENOENT. The
 *                current directory is kept as the directory itself and as
 *                its absolute path found from it (through ".." up to the
 *                root), so links on the way do not show, as on Linux.
 *   FS_GETCWD    the data ICA receives the current directory, NUL-terminated.
 *                status: its length with the NUL. -ERANGE longer than arg[0]
 *                (or the data ICA); -ENOENT once the directory was removed
 *                (relative paths then give -ENOENT too).
 *   FS_IOCTL     arg[0] fd, arg[1] request, arg[2] the integer argument;
 *                the data ICA carries the request's structure in and out.
 *                Any descriptor: FIOCLEX, FIONCLEX (close-on-exec);
 *                FIONREAD on a pipe (bytes waiting) or a regular file
 *                (bytes after the offset): an int at the data ICA's start.
 *                Console descriptors: everything else is passed on as
 *                CONSOLE_IOCTL (arg[1], arg[2], the data ICA). Others:
 *                -ENOTTY.
 *   FS_POLL      data: arg[0] struct pollfd records (Linux layout); fills
 *                revents without waiting. status: records with revents != 0;
 *                result arg[0]: FS_POLL_NOTICED (below) or 0.
 *                -EINVAL more records than the data ICA holds. A negative
 *                fd is skipped (revents 0), a descriptor not open gives
 *                POLLNVAL. Files, directories and /dev/null: POLLIN |
 *                POLLOUT | POLLRDNORM | POLLWRNORM; a pipe's read end
 *                POLLIN|POLLRDNORM with data, POLLHUP with no writer left;
 *                its write end POLLOUT|POLLWRNORM with PIPE_BUF (4096)
 *                bytes of room, POLLERR with no reader left; the console
 *                asks the console server once per request (CONSOLE_POLL),
 *                POLLERR when it cannot answer. revents holds what was
 *                asked for, plus POLLERR, POLLHUP, POLLNVAL.
 *   FS_ACCESS    data: path; arg[0] R_OK|W_OK|X_OK (other bits -EINVAL; a
 *                single root user: X_OK needs an execute bit or a
 *                directory, -EACCES; W_OK on a read-only mount -EROFS).
 *                FS_AT_NOFOLLOW: a link as the last name is not followed.
 *   FS_READLINK  data: path in, the link's target out (not NUL-terminated).
 *                status: bytes placed: the target's length, cut at arg[0]
 *                when arg[0] is not 0, and at the data ICA. -EINVAL not a
 *                symbolic link.
 *   FS_OPEN_AS   process manager only: FS_OPEN with the current directory of
 *                pid arg[5] (1..INT32_MAX; arg[4] must be 0, -EINVAL), for
 *                an execve: with the file-system ids the process manager
 *                stamps in its control ICA header (FS_CRED_*, believed on
 *                this call from it alone) and pid's supplementary groups,
 *                every directory on the way searchable (-EACCES) and the
 *                file executable for them (not readable: -EACCES; a
 *                directory: -EACCES). The descriptor is the process
 *                manager's.
 *   FS_LINK      data: old path, NUL, new path, NUL (a hard link; ops_link.c).
 *                The old path starts at arg[3] with FS_AT_DIRFD; the new
 *                one at descriptor arg[2] when arg[1] is 1 (AT_FDCWD there:
 *                the current directory), else where the old one does.
 *                arg[0] FS_LINK_FOLLOW: a symbolic link as the old path's
 *                last name is followed (linkat's AT_SYMLINK_FOLLOW; link
 *                itself does not follow). -EPERM a directory, -EEXIST the
 *                new name exists, -EXDEV a special name (/dev/null...),
 *                -EMLINK at EXT2_LINK_MAX links, -ENOENT, -ENOTDIR.
 *   FS_SYMLINK   data: the new link's path, NUL, its target, NUL (1..4095
 *                bytes, stored as it is: targets of up to 59 bytes in the
 *                inode itself, longer ones in a block, as Linux's ext2).
 *                arg[3]/arg[4] for the link's path. -EEXIST the name exists
 *                (a dangling link too).
 *   FS_SETATTR   data: path, or with FS_AT_EMPTY_PATH an empty path: the
 *                descriptor arg[3] itself (FS_AT_DIRFD; a pipe, the console
 *                or /dev/null: nothing changes, 0). arg[0] FS_SETATTR_*:
 *                MODE sets the permission bits arg[1] & 07777 (chmod);
 *                OWNER sets the uid arg[2] and the gid arg[5] where they are
 *                not 0xffffffff (chown), and, on anything but a directory,
 *                clears S_ISUID, and S_ISGID when S_IXGRP is set, as Linux;
 *                SIZE sets a regular file's size to arg[1] (truncate by path:
 *                -EISDIR a directory, -EINVAL anything else, -EFBIG). One of
 *                them per call, else -EINVAL. FS_AT_NOFOLLOW: a link as the
 *                last name is changed itself (lchown). Sets ctime.
 *   FS_UTIMES    data and arg[3]/arg[4] as FS_SETATTR (FS_AT_NOFOLLOW too).
 *                arg[0]/arg[1] the access time (seconds, nanoseconds),
 *                arg[2]/arg[5] the modification time; a nanosecond word of
 *                FS_UTIME_NOW means now, FS_UTIME_OMIT leaves that time; else
 *                0..999999999 (-EINVAL, checked after the lookup, as Linux).
 *                Sets ctime. Times are kept to the nanosecond in inodes with
 *                room for it (256-byte inodes), to the second in others.
 *   FS_CANCEL    arg[0] the handle of the control ICA of an earlier call of
 *                the same process, given up by its thread (a signal or the
 *                thread's end interrupted it): if that call waits on a pipe
 *                it is answered now with -EINTR (the result goes to nobody)
 *                and takes nothing more (a write keeps what it had put in).
 *                status 0 either way. Without it, a read left waiting would
 *                take the next bytes written, which nobody would then see.
 *   Pipes: a read takes what the pipe holds, up to its length; on an empty
 *   pipe it waits (parked in the file manager) for data, or returns 0 when
 *   no writer is left (a writer is an open-file description of the write
 *   end: its last descriptor, anywhere, must close). A write of at most
 *   PIPE_BUF (4096) bytes goes in whole or waits; a longer one puts in
 *   what fits and waits for room for the rest, and is answered when all of
 *   it is in (as Linux); with no reader left it is answered with what went
 *   in, or -EPIPE (the kernel then raises SIGPIPE). With O_NONBLOCK nothing
 *   waits: -EAGAIN when nothing can be done (an atomic write that does not
 *   fit whole), else what could be done now. Waiting requests are answered
 *   in the order they came.
 *
 * Path-taking opcodes (FS_OPEN, FS_STAT, FS_MKDIR, FS_RMDIR, FS_UNLINK,
 * FS_RENAME, FS_ACCESS, FS_READLINK, FS_CHDIR, FS_LINK, FS_SYMLINK,
 * FS_SETATTR, FS_UTIMES): a path not starting with '/'
 * is resolved against the process's current directory, or, when arg[4] has
 * FS_AT_DIRFD, against the directory open as descriptor arg[3] (AT_FDCWD,
 * -100, there means the current directory; -EBADF not open, -ENOTDIR not a
 * directory; an absolute path does not look at it). Unknown arg[4] bits
 * -EINVAL. "." and ".." are the directories' own entries (".." of the root
 * is the root); symbolic links on the way are followed (40 at most,
 * -ELOOP), an absolute target from the root, a relative one from the
 * link's directory; a '/' after the last name needs a directory (and
 * follows a link there). FS_MKDIR, FS_RMDIR, FS_UNLINK and FS_RENAME never
 * follow the last name.
 *
 * File mappings (docs/fmap.md). The kernel alone makes these calls (the
 * delivery's origin is MYRMEX_ORIGIN_KERNEL, else -EPERM): it keeps the
 * address-space side of every mapping (a kernel map id names it), the file
 * manager the file side (which cache blocks each map holds). A page the
 * file manager hands out is named by one of its ICAs and a page index in
 * it; the kernel maps that frame into the process. A block that a map
 * holds is pinned: its chunk is not evicted and its frame not reused for
 * another block until the map lets go (FS_UNMAP) or is revoked. Pages are
 * counted from the map's first file page ("map pages": map page p is file
 * page arg[1] + p of FS_MAP) in FS_PAGEIN, FS_SYNCMAP and fmap_revoke. A
 * hole gets a zero-filled block at its first page-in, in read-only maps too
 * (so that the mapping and later writes share it); on a read-only mount,
 * or with the disk full, a read-only map gets a shared zero page instead
 * (a writable one the error). Limits: 1024 maps (-EAGAIN), 32768 pages held
 * by all maps together, and pinned blocks in at most three quarters of the
 * cache's chunks (-ENOMEM).
 *   FS_MAP       arg[0] fd, arg[1] first file page, arg[2] page count
 *                (1..FS_MAP_MAX_PAGES; arg[1] + arg[2] <= 2^32), arg[3]
 *                FS_MAP_* flags (others, or FS_MAP_WRITE without
 *                FS_MAP_SHARED, -EINVAL), arg[4] the kernel's map id
 *                (non-zero, 32 bits; -EEXIST when in use). The descriptor
 *                must be a regular file open for reading (-EACCES; not a
 *                regular file -ENODEV); an unlinked file still open maps as any; FS_MAP_WRITE (a
 *                shared writable mapping) needs it open for writing too
 *                (-EACCES; -EROFS on a read-only mount). FS_MAP_OMF (readblock):
 *                writable when the descriptor is open for writing; blocks
 *                past the end of the file are allocated zero-filled for a
 *                writable descriptor (the size stays until FS_SYNCMAP
 *                extends it; those no FS_SYNCMAP covered are freed when the
 *                last map holding such blocks goes; -EFBIG past the largest
 *                file) and refused for a read-only one (-ENXIO).
 *                Without FS_MAP_OMF, pages past the end are not handed out
 *                (FS_PAGEIN -ENXIO: the kernel raises SIGBUS). With
 *                FS_MAP_POPULATE the data ICA receives one struct
 *                fs_map_page per page from arg[1] on, as many as fit and
 *                exist (up to the end of the file for mmap). status 0;
 *                result arg[0] 1 when the map may write the cache, arg[1]
 *                the file size in bytes, arg[2] the fs_map_page records
 *                written. -ENOMEM when too many blocks are pinned, -EAGAIN
 *                when the file manager's map table is full; -EINVAL
 *                FS_MAP_POPULATE without a data ICA. A failed FS_MAP holds
 *                nothing.
 *   FS_PAGEIN    arg[0] map id, arg[1] map page (< the map's page count,
 *                else -EINVAL), arg[2] 1 for a write fault of a shared
 *                mapping (-EACCES for a map that may not write). status 0;
 *                result arg[0] ICA handle, arg[1] page index in it (a page
 *                already held: the same again). -ENXIO past the end of the
 *                file (the page holding the end is handed out; the bytes
 *                after the end read as zeros) or revoked, -ENOENT an
 *                unknown map, -ENOMEM too many pins, -ENOSPC, -EIO.
 *                Fault-around: with arg[3] = n > 1 (at most
 *                FS_PAGEIN_AROUND) and a data ICA, the data ICA also
 *                receives struct fs_map_page records for map pages arg[1],
 *                arg[1] + 1, ... : the faulting page first (as above), then
 *                each following page while it is below the map's count, not
 *                revoked, inside the file and its block already in the cache
 *                (no disk read, no block allocated, no hole; the first page
 *                that is not stops the list). status: the records written
 *                (>= 1); arg[0]/arg[1] still name the first page.
 *   FS_UNMAP     arg[0] map id: the kernel has unmapped the map's last page
 *                (munmap, exit, exec). Its blocks are unpinned; those a
 *                writable map held are marked dirty (written back lazily,
 *                at FS_SYNC, eviction or shutdown). Sent asynchronously
 *                (status 0, -ENOENT unknown map; served unmounted too).
 *   FS_SYNCMAP   arg[0] map id, arg[1] first map page, arg[2] page count,
 *                arg[3] new size in bytes or 0: the blocks of those pages
 *                that the map holds are written to the disk now (msync,
 *                syncblock); when arg[3] is larger than the file, the file
 *                grows to it (syncblock's flg), which needs a writable map
 *                (-EBADF; -EINVAL beyond the map's last page, -ESTALE the
 *                file was freed under the map at FS_SHUTDOWN), keeping the bytes the map stored after the
 *                old end. The file's metadata (a new size, blocks the map
 *                allocated) is written too, then the disk flushed. -EINVAL
 *                a range outside the map. A read-only map writes nothing.
 *   While a writable map holds a block, every write-back treats the block
 *   as dirty. A truncation below mapped pages, or the end of an inode that
 *   is mapped, revokes the pages from the truncation on (the kernel call
 *   fmap_revoke, include/myrmex/omf.h): the kernel unmaps them everywhere
 *   and later touches raise SIGBUS. Revocation comes before the blocks are
 *   freed; if the kernel refuses it (other than -ENOENT), the truncation,
 *   unlink or rename fails with that error and frees nothing. A revoked page
 *   stays revoked, even if the file grows again. FS_EXIT leaves maps alone
 *   (a forked child may still map them); FS_DROP_CACHE keeps the blocks
 *   that maps hold; FS_SHUTDOWN revokes and lets go of every map left.
 *
 * Calls that need no disk (FS_STATS, FS_SHUTDOWN, FS_FORK, FS_EXEC,
 * FS_EXIT, FS_CANCEL) are served even when nothing is mounted.
 *
 * Errors, besides each call's own: -EBADF a descriptor that is not open (or
 * not open for that direction), -EINVAL bad arguments, no data ICA or one
 * too small, -ENAMETOOLONG a path of FS_PATH_MAX bytes or more or a name
 * over 255 bytes, -ENOENT, -ENOTDIR, -EISDIR, -EEXIST, -ENOTEMPTY, -ENOSPC,
 * -EMFILE no free descriptor, -EUCLEAN the file system is corrupt (the file
 * manager says where on its console), -EIO the disk failed, -ESTALE a
 * regular file's description after FS_SHUTDOWN (a file unlinked while open
 * lives on until its last close or unmap; a directory removed while open
 * answers readdir -ENOENT: docs/posix.md), -ENOSYS an unknown opcode. The kernel adds -EPIPE
 * if the file manager dies.
 */
#ifndef MYRMEX_FS_H
#define MYRMEX_FS_H

#include <stddef.h>
#include <stdint.h>

#define MYRMEX_COREID_FS      3u
#define MYRMEX_COREID_CONSOLE 4u

#define FS_OPEN        1u
#define FS_CLOSE       2u
#define FS_READ        3u
#define FS_WRITE       4u
#define FS_PREAD       5u
#define FS_PWRITE      6u
#define FS_LSEEK       7u
#define FS_FSTAT       8u
#define FS_STAT        9u
#define FS_READDIR     10u
#define FS_MKDIR       11u
#define FS_RMDIR       12u
#define FS_UNLINK      13u
#define FS_RENAME      14u
#define FS_FTRUNCATE   15u
#define FS_SYNC        16u
#define FS_STATFS      17u
#define FS_STATS       18u
#define FS_DROP_CACHE  19u
#define FS_SHUTDOWN    20u
/* The POSIX side (docs/posix.md). */
#define FS_DUP         21u
#define FS_DUP2        22u
#define FS_FCNTL       23u
#define FS_PIPE        24u
#define FS_FORK        25u
#define FS_EXEC        26u
#define FS_EXIT        27u
#define FS_CHDIR       28u
#define FS_GETCWD      29u
#define FS_IOCTL       30u
#define FS_POLL        31u
#define FS_ACCESS      32u
#define FS_READLINK    33u
#define FS_OPEN_AS     34u
#define FS_CANCEL      35u
#define FS_MAP         36u
#define FS_PAGEIN      37u
#define FS_UNMAP       38u
#define FS_SYNCMAP     39u
#define FS_LINK        40u
#define FS_SYMLINK     41u
#define FS_SETATTR     42u
#define FS_UTIMES      43u
/* Packet sockets (Linux AF_PACKET; docs/net.md, "AF_PACKET sockets"): the
 * descriptor is the file manager's, the frames go through the Ethernet
 * server (include/myrmex/net.h). */
#define FS_SOCKET      44u   /* struct fs_socket_args -> a descriptor */
#define FS_BIND        45u   /* struct fs_bind_args -> 0 */
#define FS_SENDTO      46u   /* struct fs_sendto_args, data ICA 0 -> 0 once sent */
#define FS_RECVFROM    47u   /* struct fs_recvfrom_args, data ICA 0 -> bytes given */
/* Internet sockets (Linux AF_INET; docs/net.md, "TCP/IP"): the descriptor is
 * the file manager's, the socket the TCP/IP server's (include/myrmex/inet.h).
 * FS_SOCKET with domain FS_DOMAIN_INET makes one; FS_SENDTO, FS_RECVFROM,
 * FS_READ and FS_WRITE on it, and FS_INET, are passed on to the TCP/IP
 * server with the socket's handle in place of the descriptor and direct
 * return: its results (inet.h's words) come straight back. */
#define FS_INET        48u   /* struct fs_inet_args -> what the INET_* call answers */
#define FS_INET_ADOPT  49u   /* the kernel only: struct fs_inet_adopt_args -> a descriptor */
/* Forwarded calls of one wrapped-call batch in one request (issue 18,
 * docs/syscalls.md "Forwarded calls in one IPC"); kernel only. A number of
 * its own, apart from the others, so that new operations do not collide. */
#define FS_BATCH       64u   /* struct fs_batch_args, data ICA 0 -> sub-requests run */

/* Typed views of the frame's uint64_t arg[8] for the descriptor calls:
 * one uint64_t field per argument word, as described above, so that they
 * hold on 32-bit targets too. */
struct fs_fd_args {          /* FS_CLOSE, FS_FSTAT */
	uint64_t fd;
};
struct fs_io_args {          /* FS_READ, FS_WRITE, FS_PREAD, FS_PWRITE */
	uint64_t fd;
	uint64_t length;         /* at most the data ICA's size (FS_INLINE_BYTES inline) */
	uint64_t offset;         /* FS_PREAD, FS_PWRITE */
	uint64_t flags;          /* FS_IO_INLINE or 0 */
	uint8_t bytes[32];       /* an inline write's bytes */
};
/* Small transfers travel in the frame, without a data ICA (issue 15: a
 * data ICA's attach and detach cost more than the bytes): with
 * FS_IO_INLINE in flags and no data ICA (a request with one is never
 * inline, whatever the word holds), a write's length (at most
 * FS_INLINE_BYTES) bytes are in bytes[], and a read's come back in the
 * result words 0..3. The file manager refuses it where it must pass the
 * request on with a data ICA (the console): status -EINVAL with
 * FS_INLINE_REFUSED in result word FS_RESULT_INLINE, and the caller sends
 * it again with a data ICA. */
#define FS_IO_INLINE      1u
#define FS_INLINE_BYTES   32u
#define FS_RESULT_INLINE  6u
#define FS_INLINE_REFUSED 1u
struct fs_lseek_args {       /* FS_LSEEK */
	uint64_t fd;
	int64_t offset;
	uint64_t whence;         /* SEEK_SET, SEEK_CUR, SEEK_END */
};
struct fs_ftruncate_args {   /* FS_FTRUNCATE */
	uint64_t fd;
	uint64_t size;
};
struct fs_ioctl_args {       /* FS_IOCTL */
	uint64_t fd;
	uint64_t request;
	uint64_t value;          /* the integer argument */
};
struct fs_socket_args {      /* FS_SOCKET */
	uint64_t type;           /* FS_SOCK_RAW or FS_SOCK_DGRAM; inet: INET_STREAM, _DGRAM, _RAW */
	uint64_t protocol;       /* the EtherType received (host order), 0: none yet; INET_RAW: the IP protocol */
	uint64_t flags;          /* O_NONBLOCK | O_CLOEXEC */
	uint64_t domain;         /* 0: packet (AF_PACKET), FS_DOMAIN_INET */
};
#define FS_DOMAIN_INET 2u    /* Linux's AF_INET */
struct fs_inet_args {        /* FS_INET */
	uint64_t fd;
	uint64_t op;             /* INET_BIND ... INET_GETOPT (not SOCKET, CLOSE, POLL) */
	uint64_t arg[6];         /* the call's arg1..arg6 (arg0 is the handle) */
};
struct fs_inet_adopt_args {  /* FS_INET_ADOPT */
	uint64_t handle;         /* a socket INET_ACCEPT gave the kernel */
	uint64_t flags;          /* O_NONBLOCK | O_CLOEXEC */
};
#define FS_SOCK_DGRAM 2u     /* Linux's SOCK_DGRAM: payloads, the server writes the header */
#define FS_SOCK_RAW   3u     /* Linux's SOCK_RAW: whole frames */
#define FS_SOCK_IFINDEX 2u   /* the one interface's index ("eth0"; 1 is Linux's lo) */
struct fs_bind_args {        /* FS_BIND */
	uint64_t fd;
	uint64_t ifindex;        /* FS_SOCK_IFINDEX, or 0: any */
	uint64_t protocol;       /* the EtherType (host order); 0 keeps the socket's */
};
/* The bytes to send are in data ICA 0 at offset NET_ETH_HLEN (14), behind
 * headroom for the header: a payload (SOCK_DGRAM), or a whole frame
 * (SOCK_RAW: its destination and type are read from it). */
struct fs_sendto_args {      /* FS_SENDTO */
	uint64_t fd;
	uint64_t length;         /* payload (DGRAM) or frame (RAW) bytes */
	uint64_t mac;            /* DGRAM: the destination (byte i in bits 8i..) */
	uint64_t protocol;       /* DGRAM: the EtherType; 0: the socket's */
	uint64_t addressed;      /* 1: the caller gave an address (else the socket must be bound) */
	uint64_t dontwait;       /* inet: 1 for MSG_DONTWAIT */
};
/* The frame (RAW) or payload (DGRAM) is written at offset 0 of data ICA 0,
 * at most length bytes (the rest is cut off, as Linux's datagrams). */
struct fs_recvfrom_args {    /* FS_RECVFROM */
	uint64_t fd;
	uint64_t length;         /* room in the caller's buffer */
	uint64_t dontwait;       /* 1: -EAGAIN rather than wait (MSG_DONTWAIT) */
	uint64_t peek;           /* inet: 1 for MSG_PEEK */
	uint64_t waitall;        /* inet: 1 for MSG_WAITALL */
};
struct fs_recvfrom_result {  /* FS_RECVFROM's result words */
	uint64_t mac;            /* the source */
	uint64_t protocol;       /* the EtherType */
	uint64_t full;           /* the frame's or payload's whole length (MSG_TRUNC) */
	uint64_t pkttype;        /* Linux's PACKET_HOST (0), BROADCAST (1), MULTICAST (2) */
};
/* Result word 4 of FS_RECVFROM says whose answer it is: FS_FAMILY_PACKET
 * (the words above) or INET_FAMILY (the TCP/IP server's, inet.h). */
#define FS_RESULT_FAMILY 4u
#define FS_FAMILY_PACKET 17u   /* Linux's AF_PACKET */
_Static_assert(sizeof(struct fs_sendto_args) <= 64, "fs_sendto_args fits arg[]");
_Static_assert(sizeof(struct fs_recvfrom_result) <= 64, "fs_recvfrom_result fits arg[]");
#define FS_RESULT_KIND 7u    /* the result word of FS_READ/FS_WRITE (and P forms), and of
                                FS_OPEN, FS_DUP, FS_DUP2 for the new descriptor: FS_KIND_* */

/* FS_BATCH: data ICA 0 starts with count records, one per sub-request, in
 * the order the caller made the calls; each names its data as a slice of
 * the same ICA after the records (a read's room, a write's bytes, fstat's
 * struct myrmex_stat). Only FS_READ, FS_WRITE, FS_PREAD, FS_PWRITE (never
 * inline), FS_LSEEK, FS_FSTAT and FS_CLOSE. The server runs them in order, each as
 * the request of its own opcode would run, and stops before one it does not
 * run in a batch: another opcode, a slice outside the ICA or over the
 * records, a read or write of a pipe or the console (which may wait or go
 * on to another server). The status is the number run (0..count); each run
 * record holds its status and result words. */
#define FS_BATCH_MAX 64u
struct fs_batch_args {       /* FS_BATCH */
	uint64_t count;          /* 1..FS_BATCH_MAX records */
};
struct fs_batch_sub {
	uint32_t opcode;
	uint32_t data_len;       /* its slice's bytes */
	uint64_t data_off;       /* its slice's offset in data ICA 0 */
	uint64_t arg[4];         /* its argument words, as its opcode's structure */
	int64_t status;          /* answer: its status */
	uint64_t res[8];         /* answer: its result words (0 where none is set) */
};
_Static_assert(sizeof(struct fs_batch_sub) == 120, "fs_batch_sub layout");
_Static_assert(sizeof(struct fs_fd_args) <= 64, "fs_fd_args fits arg[]");
_Static_assert(sizeof(struct fs_io_args) <= 64, "fs_io_args fits arg[]");
_Static_assert(sizeof(struct fs_lseek_args) <= 64, "fs_lseek_args fits arg[]");
_Static_assert(sizeof(struct fs_ftruncate_args) <= 64, "fs_ftruncate_args fits arg[]");
_Static_assert(sizeof(struct fs_ioctl_args) <= 64, "fs_ioctl_args fits arg[]");

/* The other opcodes, the same way. A word an opcode does not use is named
 * unused<i> (its index). FS_SYNC, FS_STATFS, FS_DROP_CACHE and FS_SHUTDOWN
 * take no argument words and return none. */
struct fs_readdir_args {     /* FS_READDIR */
	uint64_t fd;
	uint64_t length;         /* bytes of records at most */
};
struct fs_stats_args {       /* FS_STATS */
	uint64_t which;          /* 0 or FS_STATS_MAPS */
};
struct fs_stats_result {     /* FS_STATS: v[FS_STAT_*], or v[FS_MSTAT_*] */
	uint64_t v[8];
};
struct fs_dup_args {         /* FS_DUP */
	uint64_t fd;
	uint64_t lowest;         /* the lowest new descriptor */
	uint64_t cloexec;        /* 0 or 1 */
};
struct fs_dup2_args {        /* FS_DUP2 */
	uint64_t fd;
	uint64_t newfd;
	uint64_t cloexec;        /* 0 or 1 */
};
struct fs_fcntl_args {       /* FS_FCNTL */
	uint64_t fd;
	uint64_t cmd;            /* F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_DUPFD(_CLOEXEC) */
	uint64_t value;          /* F_DUPFD: the lowest new descriptor */
};
struct fs_pipe_args {        /* FS_PIPE */
	uint64_t flags;          /* O_CLOEXEC | O_NONBLOCK */
};
struct fs_pipe_result {      /* FS_PIPE */
	uint64_t read_fd;
	uint64_t write_fd;
};
struct fs_fork_args {        /* FS_FORK */
	uint64_t parent;         /* pids */
	uint64_t child;
};
struct fs_pid_args {         /* FS_EXEC, FS_EXIT */
	uint64_t pid;
};
struct fs_getcwd_args {      /* FS_GETCWD */
	uint64_t size;           /* the caller's buffer */
};
struct fs_poll_args {        /* FS_POLL */
	uint64_t nfds;           /* struct pollfd records in the data ICA */
	uint64_t pending;        /* the caller's pending signals (signalfd, fsevent.h) */
};
/* FS_POLL's and FS_EPOLL_WAIT's result arg[0] when nothing is ready:
 * FS_POLL_NOTICED if every descriptor looked at is of a kind whose changes
 * the kernel hears of (MYRMEX_SYS_POLL_NOTICE: pipes, eventfds, signalfds,
 * the console; timerfds by arg[1]), so that the waiter may sleep until the
 * next notice; 0 when one is not (sockets): the kernel then asks again in
 * 10 ms. arg[1]: the earliest next expiry of an armed timerfd looked at,
 * on the monotonic clock (ns; 0: none), when the waiter should look again. */
#define FS_POLL_NOTICED 1u
struct fs_poll_result {      /* FS_POLL, FS_EPOLL_WAIT */
	uint64_t noticed;
	uint64_t wake_by;
};
/* poll_notice() (a native call, MYRMEX_SYS_BASE from include/myrmex/syscall.h):
 * something a poll, select, epoll or signalfd wait may wait for has changed;
 * every such waiter looks again. Only the file server and the console
 * server may (-EPERM); they make it only when a poll found nothing since
 * their last notice. docs/posix.md, "Waiting for readiness". */
#define MYRMEX_SYS_POLL_NOTICE (MYRMEX_SYS_BASE + 64)
struct fs_cancel_args {      /* FS_CANCEL */
	uint64_t handle;         /* the control ICA of the call given up */
};
_Static_assert(sizeof(struct fs_readdir_args) <= 64, "fs_readdir_args fits arg[]");
_Static_assert(sizeof(struct fs_stats_args) <= 64, "fs_stats_args fits arg[]");
_Static_assert(sizeof(struct fs_stats_result) <= 64, "fs_stats_result fits arg[]");
_Static_assert(sizeof(struct fs_dup_args) <= 64, "fs_dup_args fits arg[]");
_Static_assert(sizeof(struct fs_dup2_args) <= 64, "fs_dup2_args fits arg[]");
_Static_assert(sizeof(struct fs_fcntl_args) <= 64, "fs_fcntl_args fits arg[]");
_Static_assert(sizeof(struct fs_pipe_args) <= 64, "fs_pipe_args fits arg[]");
_Static_assert(sizeof(struct fs_pipe_result) <= 64, "fs_pipe_result fits arg[]");
_Static_assert(sizeof(struct fs_fork_args) <= 64, "fs_fork_args fits arg[]");
_Static_assert(sizeof(struct fs_pid_args) <= 64, "fs_pid_args fits arg[]");
_Static_assert(sizeof(struct fs_getcwd_args) <= 64, "fs_getcwd_args fits arg[]");
_Static_assert(sizeof(struct fs_poll_args) <= 64, "fs_poll_args fits arg[]");
_Static_assert(sizeof(struct fs_poll_result) <= 64, "fs_poll_result fits arg[]");
_Static_assert(sizeof(struct fs_cancel_args) <= 64, "fs_cancel_args fits arg[]");

/* The path-taking opcodes: their own words first, then arg[3] and arg[4]
 * in the same places in each (struct fs_path_args; asserted below). */
struct fs_path_args {        /* FS_RMDIR, FS_RENAME; the words all of them share */
	uint64_t unused0, unused1, unused2;
	uint64_t dirfd;          /* with FS_AT_DIRFD: where relative paths start (AT_FDCWD too) */
	uint64_t at_flags;       /* FS_AT_* */
};
struct fs_open_args {        /* FS_OPEN, FS_OPEN_AS */
	uint64_t flags;          /* O_* */
	uint64_t mode;           /* for O_CREAT */
	uint64_t unused2;
	uint64_t dirfd;
	uint64_t at_flags;       /* FS_OPEN_AS: 0 */
	uint64_t pid;            /* FS_OPEN_AS: whose current directory */
};
struct fs_stat_args {        /* FS_STAT */
	uint64_t unused0, unused1, unused2;
	uint64_t dirfd;          /* with FS_AT_EMPTY_PATH: the descriptor itself */
	uint64_t at_flags;
};
struct fs_mkdir_args {       /* FS_MKDIR */
	uint64_t mode;
	uint64_t unused1, unused2;
	uint64_t dirfd;
	uint64_t at_flags;
};
struct fs_unlink_args {      /* FS_UNLINK */
	uint64_t unused0;
	uint64_t flags;          /* 0 or AT_REMOVEDIR */
	uint64_t unused2;
	uint64_t dirfd;
	uint64_t at_flags;
};
struct fs_access_args {      /* FS_ACCESS */
	uint64_t mode;           /* R_OK | W_OK | X_OK */
	uint64_t unused1, unused2;
	uint64_t dirfd;
	uint64_t at_flags;
};
struct fs_readlink_args {    /* FS_READLINK */
	uint64_t size;           /* the caller's buffer, 0: the data ICA's */
	uint64_t unused1, unused2;
	uint64_t dirfd;
	uint64_t at_flags;
};
struct fs_chdir_args {       /* FS_CHDIR */
	uint64_t by_fd;          /* 0: the path; 1: descriptor fd (fchdir) */
	uint64_t fd;
	uint64_t unused2;
	uint64_t dirfd;
	uint64_t at_flags;
};
struct fs_link_args {        /* FS_LINK */
	uint64_t flags;          /* FS_LINK_FOLLOW */
	uint64_t new_at;         /* 1: the new path starts at new_dirfd */
	uint64_t new_dirfd;
	uint64_t dirfd;          /* the old path's */
	uint64_t at_flags;
};
struct fs_setattr_args {     /* FS_SETATTR */
	uint64_t what;           /* one FS_SETATTR_* */
	uint64_t value;          /* MODE: the mode; SIZE: the size */
	uint64_t uid;            /* OWNER; 0xffffffff: unchanged */
	uint64_t dirfd;
	uint64_t at_flags;
	uint64_t gid;            /* OWNER; 0xffffffff: unchanged */
};
struct fs_utimes_args {      /* FS_UTIMES */
	uint64_t atime_sec;
	uint64_t atime_nsec;     /* or FS_UTIME_NOW, FS_UTIME_OMIT */
	uint64_t mtime_sec;
	uint64_t dirfd;
	uint64_t at_flags;
	uint64_t mtime_nsec;
};
#define FS_LINK_FOLLOW    1u
#define FS_SETATTR_MODE   1u
#define FS_SETATTR_OWNER  2u
#define FS_SETATTR_SIZE   4u
#define FS_UTIME_NOW      ((1u << 30) - 1)   /* Linux's UTIME_NOW */
#define FS_UTIME_OMIT     ((1u << 30) - 2)   /* Linux's UTIME_OMIT */
#define FS_ID_UNCHANGED   0xffffffffu

#define FS_PATH_ARGS_SHARED(type) \
	_Static_assert(sizeof(struct type) <= 64 && \
	               offsetof(struct type, dirfd) == offsetof(struct fs_path_args, dirfd) && \
	               offsetof(struct type, at_flags) == offsetof(struct fs_path_args, at_flags), \
	               #type " fits arg[], dirfd and at_flags in place")
FS_PATH_ARGS_SHARED(fs_path_args);
FS_PATH_ARGS_SHARED(fs_open_args);
FS_PATH_ARGS_SHARED(fs_stat_args);
FS_PATH_ARGS_SHARED(fs_mkdir_args);
FS_PATH_ARGS_SHARED(fs_unlink_args);
FS_PATH_ARGS_SHARED(fs_access_args);
FS_PATH_ARGS_SHARED(fs_readlink_args);
FS_PATH_ARGS_SHARED(fs_chdir_args);
FS_PATH_ARGS_SHARED(fs_link_args);
FS_PATH_ARGS_SHARED(fs_setattr_args);
FS_PATH_ARGS_SHARED(fs_utimes_args);
_Static_assert(offsetof(struct fs_path_args, dirfd) == 3 * 8, "dirfd is arg[3]");
_Static_assert(offsetof(struct fs_path_args, at_flags) == 4 * 8, "at_flags is arg[4]");
_Static_assert(offsetof(struct fs_open_args, pid) == 5 * 8, "FS_OPEN_AS: pid is arg[5]");
#undef FS_PATH_ARGS_SHARED

/* The file mappings' calls (only the kernel makes them). */
struct fs_map_args {         /* FS_MAP */
	uint64_t fd;
	uint64_t first;          /* the first file page */
	uint64_t count;          /* pages */
	uint64_t flags;          /* FS_MAP_* */
	uint64_t id;             /* the kernel's map id */
};
struct fs_map_result {       /* FS_MAP */
	uint64_t writable;       /* 1: the map may write the cache */
	uint64_t size;           /* the file's size in bytes */
	uint64_t records;        /* struct fs_map_page records written (FS_MAP_POPULATE) */
};
struct fs_pagein_args {      /* FS_PAGEIN */
	uint64_t id;             /* map id */
	uint64_t page;           /* map page */
	uint64_t write;          /* 1: a write fault of a shared mapping */
	uint64_t around;         /* pages wanted with fault-around */
};
struct fs_pagein_result {    /* FS_PAGEIN: where the (first) page is */
	uint64_t handle;         /* an ICA of the file manager */
	uint64_t page;           /* the page's index in it */
};
struct fs_unmap_args {       /* FS_UNMAP */
	uint64_t id;
};
struct fs_syncmap_args {     /* FS_SYNCMAP */
	uint64_t id;
	uint64_t first;          /* the first map page */
	uint64_t count;          /* pages */
	uint64_t size;           /* the new size in bytes, or 0 */
};
_Static_assert(sizeof(struct fs_map_args) <= 64, "fs_map_args fits arg[]");
_Static_assert(sizeof(struct fs_map_result) <= 64, "fs_map_result fits arg[]");
_Static_assert(sizeof(struct fs_pagein_args) <= 64, "fs_pagein_args fits arg[]");
_Static_assert(sizeof(struct fs_pagein_result) <= 64, "fs_pagein_result fits arg[]");
_Static_assert(sizeof(struct fs_unmap_args) <= 64, "fs_unmap_args fits arg[]");
_Static_assert(sizeof(struct fs_syncmap_args) <= 64, "fs_syncmap_args fits arg[]");

/* FS_MAP flags and records. */
#define FS_MAP_SHARED     1u   /* MAP_SHARED (else MAP_PRIVATE: the kernel copies on write) */
#define FS_MAP_WRITE      2u   /* shared and writable: the map writes the cache */
#define FS_MAP_POPULATE   4u   /* hand out every page now (MAP_POPULATE, readblock) */
#define FS_MAP_OMF        8u   /* readblock's rules (see above) */
#define FS_MAP_MAX_PAGES  65536u
#define FS_PAGEIN_AROUND  16u     /* pages one FS_PAGEIN may hand out (fault-around) */

struct fs_map_page {
	uint32_t handle;     /* one of the file manager's ICAs */
	uint32_t page;       /* the page's index in it */
};

/* The caller's identity on a Linux call the kernel forwards (delivery
 * origin MYRMEX_ORIGIN_KERNEL): its file-system uid and gid in the control
 * ICA header's reserved[FS_CRED_UID] and reserved[FS_CRED_GID], written by
 * the kernel on a channel the program cannot touch. The file manager
 * checks permissions with them (servers/fs/fileman/perm.c); other callers
 * (servers, native programs) count as root. */
#define FS_CRED_UID 0u
#define FS_CRED_GID 1u
/* proc_groups(int pid, uint32_t out[FS_GROUPS_MAX]) -> the number of
 * supplementary groups of POSIX process pid, written to out (a native call,
 * MYRMEX_SYS_BASE from include/myrmex/syscall.h): only the file server may
 * make it (-EPERM); -ESRCH no such POSIX process; -EFAULT. The file manager
 * asks it when a check's group bits hang on them (perm.c). */
#define MYRMEX_SYS_PROC_GROUPS (MYRMEX_SYS_BASE + 90)
#define FS_GROUPS_MAX 64u

/* FS_READ/FS_WRITE results: arg[7] says what the descriptor is, so that the
 * kernel splits long transfers only on regular files. */
#define FS_KIND_REGULAR   1u
#define FS_KIND_DIRECTORY 2u
#define FS_KIND_PIPE      3u
#define FS_KIND_CONSOLE   4u
#define FS_KIND_NULL      5u
#define FS_KIND_SOCKET    6u

/* arg[4] of the path-taking opcodes (see above). */
#define FS_AT_DIRFD       1u
#define FS_AT_NOFOLLOW    2u      /* FS_STAT, FS_ACCESS, FS_SETATTR, FS_UTIMES: the last name
                                     is not followed (lstat) */
#define FS_AT_EMPTY_PATH  4u      /* FS_STAT, FS_SETATTR, FS_UTIMES: an empty path means the
                                     descriptor arg[3] itself */

#define FS_PATH_MAX    4096u     /* bytes in a path, its NUL included */
#define FS_MAX_FDS     64u       /* open descriptors per process */

/* FS_STATS: arg[] indexes. Copies are memcpy()s of file data between the
 * cache and a client's data ICA, counted in 4 KiB blocks touched. */
#define FS_STAT_REQUESTS     0   /* requests served */
#define FS_STAT_CACHE_HITS   1   /* block lookups found in the cache */
#define FS_STAT_CACHE_MISSES 2   /* block lookups that went to the disk */
#define FS_STAT_DISK_READS   3   /* DISK_READ calls to the driver */
#define FS_STAT_DISK_WRITES  4   /* DISK_WRITE calls to the driver */
#define FS_STAT_COPIES       5   /* data copies cache <-> client (per block) */
#define FS_STAT_COPY_BYTES   6   /* bytes copied cache <-> client */
#define FS_STAT_CACHED       7   /* blocks in the cache now */

/* FS_STATS with arg[0] = FS_STATS_MAPS: the file mappings' counters. */
#define FS_STATS_MAPS          1u
#define FS_MSTAT_MAPS          0   /* maps held now */
#define FS_MSTAT_PAGES_HELD    1   /* pages the maps hold now (per map) */
#define FS_MSTAT_PINNED_BLOCKS 2   /* cache blocks pinned now */
#define FS_MSTAT_PINNED_CHUNKS 3   /* cache chunks holding pinned blocks now */
#define FS_MSTAT_MAP_CALLS     4   /* FS_MAP calls served */
#define FS_MSTAT_PAGEINS       5   /* FS_PAGEIN calls served */
#define FS_MSTAT_SYNCMAPS      6   /* FS_SYNCMAP calls served */
#define FS_MSTAT_REVOKES       7   /* fmap_revoke calls made */

/* FS_STATS with arg[0] = FS_STATS_RECOVERY: surviving the others' deaths. */
#define FS_STATS_RECOVERY      2u
#define FS_RSTAT_DISK_RETRIES  0   /* disk calls made again after the driver died */
#define FS_RSTAT_WRITEBACKS    1   /* periodic write-backs of the dirty blocks */

/* Linux's struct stat on x86-64 (144 bytes). */
/* st_dev of the disk's files: 254:0, the number Linux gives the first
 * virtio disk (vda), so that stat prints the same device on both. */
#define FS_ST_DEV_DISK 0xfe00u
#define FS_ST_DEV_DEVICES 2u   /* the device files and /dev (devtmpfs to statfs) */
#define FS_ST_DEV_PROC    3u   /* /proc */

struct myrmex_stat {
	uint64_t st_dev;
	uint64_t st_ino;
	uint64_t st_nlink;
	uint32_t st_mode;
	uint32_t st_uid;
	uint32_t st_gid;
	uint32_t pad0;
	uint64_t st_rdev;
	int64_t st_size;
	int64_t st_blksize;
	int64_t st_blocks;        /* 512-byte units */
	uint64_t st_atime_sec, st_atime_nsec;
	uint64_t st_mtime_sec, st_mtime_nsec;
	uint64_t st_ctime_sec, st_ctime_nsec;
	int64_t reserved[3];
};
_Static_assert(sizeof(struct myrmex_stat) == 144, "struct stat layout");

/* Linux's struct linux_dirent64: records are 8-byte aligned; d_off is the
 * position after this entry. d_type is a DT_* value. */
struct myrmex_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	uint16_t d_reclen;
	uint8_t d_type;
	char d_name[];            /* NUL-terminated, padded to d_reclen */
};

struct myrmex_statfs {
	uint64_t block_size;
	uint64_t blocks, free_blocks, available_blocks;
	uint64_t inodes, free_inodes;
	uint64_t name_max;
};

#endif
