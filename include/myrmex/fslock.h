/*
 * fslock.h - file locks in the file protocol (servers/fs/fileman/locks.c,
 * docs/posix.md "File locks"): POSIX record locks (fcntl F_GETLK,
 * F_SETLK, F_SETLKW) and flock(2) locks, as Linux keeps them.
 *
 *   FS_LOCK   struct fs_lock_args -> 0; for FS_LOCK_GET the result words
 *             are a struct fs_lock_result (the first lock in the way, or
 *             type FS_LOCK_UNLOCK). Record locks belong to the requesting
 *             process, cover byte ranges of a regular file and go when the
 *             process closes any descriptor of that file or ends; a
 *             process's own locks never conflict with each other (a new one
 *             replaces what it overlaps; neighbours of one type merge).
 *             FS_LOCK_WAIT parks the request until the range is free
 *             (-EDEADLK when the wait would close a cycle of waiting
 *             processes; FS_CANCEL answers it -EINTR); FS_LOCK_SET answers
 *             -EAGAIN instead. With FS_LOCK_OFD the owner is the open
 *             file description: its locks go with its last descriptor, are
 *             shared by dups and forks, conflict with other owners' (POSIX
 *             locks included), and GET reports their pid as -1; no
 *             deadlock detection. -EBADF a bad descriptor, a read lock on one
 *             not open for reading, a write lock on one not open for
 *             writing; -EINVAL a bad type, whence or range; -ENOLCK no room.
 *   FS_FLOCK  struct fs_flock_args -> 0. One lock per open file
 *             description, shared or exclusive, on the whole file; it goes
 *             with the description's last descriptor. FS_FLOCK_NB answers
 *             -EAGAIN (EWOULDBLOCK) instead of waiting.
 *
 * Descriptors on anything but a regular file take the calls and keep
 * nothing (GET answers FS_LOCK_UNLOCK).
 */
#ifndef MYRMEX_FSLOCK_H
#define MYRMEX_FSLOCK_H

#include <stdint.h>

#define FS_LOCK  96u
#define FS_FLOCK 97u

/* fs_lock_args.cmd */
#define FS_LOCK_GET  0u   /* F_GETLK */
#define FS_LOCK_SET  1u   /* F_SETLK */
#define FS_LOCK_WAIT 2u   /* F_SETLKW */
#define FS_LOCK_OFD  4u   /* or'ed in: an OFD lock (F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW),
                             owned by the open file description, not the process */

/* Lock types: Linux's F_RDLCK, F_WRLCK, F_UNLCK. */
#define FS_LOCK_READ   0u
#define FS_LOCK_WRITE  1u
#define FS_LOCK_UNLOCK 2u

/* A range's end that means "to the end of the file, however it grows"
 * (Linux's OFFSET_MAX). */
#define FS_LOCK_TO_END INT64_MAX

struct fs_lock_args {        /* FS_LOCK */
	uint64_t fd;
	uint64_t cmd;            /* FS_LOCK_GET, FS_LOCK_SET, FS_LOCK_WAIT */
	uint64_t type;           /* FS_LOCK_READ, FS_LOCK_WRITE, FS_LOCK_UNLOCK */
	uint64_t whence;         /* SEEK_SET, SEEK_CUR, SEEK_END */
	int64_t start;           /* l_start, from whence */
	int64_t len;             /* l_len: 0 to the end, negative before start */
};
struct fs_lock_result {      /* FS_LOCK_GET */
	uint64_t type;           /* the conflicting lock's type, or FS_LOCK_UNLOCK */
	int64_t start;           /* its first byte */
	int64_t len;             /* its length, 0 for "to the end" */
	int64_t pid;             /* its owner */
};

/* fs_flock_args.op: Linux's LOCK_SH, LOCK_EX, LOCK_UN, with LOCK_NB. */
#define FS_FLOCK_SH 1u
#define FS_FLOCK_EX 2u
#define FS_FLOCK_NB 4u
#define FS_FLOCK_UN 8u

struct fs_flock_args {       /* FS_FLOCK */
	uint64_t fd;
	uint64_t op;
};

_Static_assert(sizeof(struct fs_lock_args) <= 64, "fs_lock_args fits arg[]");
_Static_assert(sizeof(struct fs_lock_result) <= 64, "fs_lock_result fits arg[]");
_Static_assert(sizeof(struct fs_flock_args) <= 64, "fs_flock_args fits arg[]");

#endif
