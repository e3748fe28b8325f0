/*
 * The On-Memory File function (paper 000): a program shares the file
 * manager's cache instead of copying out of it. User-visible ABI, shared by
 * the kernel, libmyrmex (lib/libmyrmex/omf.c) and the tests. docs/fmap.md
 * describes the whole design, mmap of files included.
 *
 * readblock(fd, nblocks, blkoff) -> address, or -errno
 *     Maps nblocks 4 KiB blocks of the file, from block blkoff, into the
 *     caller: the file manager's cache blocks themselves, all of them before
 *     the call returns (one request to the file manager, whatever nblocks;
 *     no page fault afterwards; the disk is read only for blocks not cached).
 *     Writable when fd is open for writing (a store changes the cache that
 *     every reader sees; no write() is needed), read-only otherwise. Blocks
 *     past the end of the file: allocated zero-filled for a writable fd
 *     (the size changes only with syncblock's flg), -ENXIO for a read-only
 *     one. The mapping stays after close(fd); munmap removes it (whole or
 *     part); it ends with the process. -EBADF fd not open, -EACCES not open
 *     for reading, -ENODEV not a regular file, -EINVAL nblocks 0 or over
 *     MYRMEX_OMF_MAX_BLOCKS, -ENOMEM no room (address space, pins).
 *
 * syncblock(fd, buf, size, blkoff, flg) -> 0, or -errno
 *     Writes the blocks holding bytes [0, size) of the mapping buf (which
 *     readblock returned for block blkoff of the file open as fd) to the
 *     disk. With flg != 0 the file is extended to blkoff * 4096 + size
 *     bytes when that is longer (needs fd open for writing: -EBADF).
 *     -EINVAL buf is not such a mapping, size 0 or beyond the mapping.
 *
 * fmap_revoke(map, from_page) -> 0, or -errno (the file manager only)
 *     Unmaps, in every address space, the pages of kernel map id `map` from
 *     page from_page on (counted from the map's first page, as FS_PAGEIN
 *     counts); touching them later raises SIGBUS. -EPERM for
 *     anyone but the server of MYRMEX_COREID_FS, -ENOENT unknown map.
 */
#ifndef MYRMEX_OMF_H
#define MYRMEX_OMF_H

#include <stddef.h>
#include <stdint.h>
#include <myrmex/syscall.h>

#define MYRMEX_SYS_READBLOCK    (MYRMEX_SYS_BASE + 40)
#define MYRMEX_SYS_SYNCBLOCK    (MYRMEX_SYS_BASE + 41)
#define MYRMEX_SYS_FMAP_REVOKE  (MYRMEX_SYS_BASE + 42)

#define MYRMEX_OMF_BLOCK        4096u
#define MYRMEX_OMF_MAX_BLOCKS   8192u    /* 32 MiB per readblock */

/* libmyrmex (lib/libmyrmex/omf.c): the calls, returning -errno as a
 * negative number (readblock: a pointer, or NULL with *err set). */
void *myrmex_readblock(int fd, uint64_t nblocks, uint64_t blkoff, long *err);
long myrmex_syncblock(int fd, void *buf, uint64_t size, uint64_t blkoff, int flg);
long myrmex_fmap_revoke(uint32_t map, uint64_t from_page);

/* readbyte(fd, size, offset): a pointer to the file's bytes [offset,
 * offset + size), read through readblock and kept mapped by the library
 * (a window of MYRMEX_READBYTE_WINDOW blocks per descriptor, replaced when
 * a read falls outside it), so that reads within the window make no call.
 * NULL with *err set on failure; size larger than the window -EINVAL.
 * The pointer stays valid until the next readbyte on fd or
 * myrmex_readbyte_close(fd). */
#define MYRMEX_READBYTE_WINDOW  16u
const void *myrmex_readbyte(int fd, size_t size, uint64_t offset, long *err);
void myrmex_readbyte_close(int fd);

#endif
