/*
 * The disk protocol: what a client sends to the disk driver server (today
 * servers/disk/virtio_blk) and what it gets back. Shared by the driver, the
 * file manager that will sit on top of it, and the tests.
 *
 * A call is one frame (include/myrmex/ica.h) with target MYRMEX_COREID_DISK,
 * one of the opcodes below, and its arguments in arg[]. Data travels in the
 * frame's first data ICA, which the device reads or fills directly by DMA
 * (nothing is copied); it comes back with the result. The unit is always a
 * 512-byte sector, whatever the device's preferred block size.
 *
 *   DISK_READ   arg[0] first sector, arg[1] sector count (>= 1), arg[2] the
 *               byte offset in the data ICA where the transfer starts (a
 *               multiple of 512; 0 for the start). The data ICA receives the
 *               sectors there; they must fit before its end.
 *               status: bytes read.
 *   DISK_WRITE  the same; count * 512 bytes from that offset are written.
 *               status: bytes written.
 *   DISK_INFO   no arguments, no data. status 0; arg[0] capacity in sectors,
 *               arg[1] sector size (DISK_SECTOR_SIZE), arg[2] the device's
 *               preferred block size in bytes, arg[3] DISK_INFO_* flags.
 *   DISK_FLUSH  no arguments: everything written before is on stable
 *               storage when it returns. status 0.
 *
 * Errors (status < 0): -EINVAL count 0, a range past the end of the disk
 * (checked before anything reaches the device), no data ICA, an unaligned
 * offset, or count sectors that do not fit in the ICA from that offset; -EROFS a write to a read-only disk; -EIO the device
 * failed the request; -EAGAIN the driver holds too many requests already;
 * -ENOSYS an unknown opcode. The kernel adds -EPIPE if the driver dies.
 */
#ifndef MYRMEX_DISK_H
#define MYRMEX_DISK_H

#include <stdint.h>

#define MYRMEX_COREID_DISK 2u

#define DISK_READ  1u
#define DISK_WRITE 2u
#define DISK_INFO  3u
#define DISK_FLUSH 4u

#define DISK_SECTOR_SIZE 512u

/* DISK_INFO arg[3] */
#define DISK_INFO_READONLY 1u   /* writes fail with -EROFS */
#define DISK_INFO_FLUSH    2u   /* the device has a write cache that DISK_FLUSH empties */

/* Typed views of the frame's uint64_t arg[8]: one uint64_t field per
 * argument word, as above, so that they hold on 32-bit targets too. */
struct disk_transfer_args {   /* DISK_READ, DISK_WRITE */
	uint64_t sector;          /* the first sector */
	uint64_t count;           /* sectors, >= 1 */
	uint64_t offset;          /* bytes into the data ICA, a multiple of 512 */
};
struct disk_info_result {     /* DISK_INFO */
	uint64_t sectors;         /* capacity */
	uint64_t sector_size;     /* DISK_SECTOR_SIZE */
	uint64_t block_size;      /* the device's preferred block size in bytes */
	uint64_t flags;           /* DISK_INFO_* */
};
_Static_assert(sizeof(struct disk_transfer_args) <= 64, "disk_transfer_args fits arg[]");
_Static_assert(sizeof(struct disk_info_result) <= 64, "disk_info_result fits arg[]");

#endif
