/*
 * readv/writev vectors: arrays of the port's struct linux_iovec
 * (<arch/linux_abi.h>) in user space, checked whole before anything moves.
 */
#ifndef POSIX_IOVEC_H
#define POSIX_IOVEC_H

#include <kernel/types.h>

#define USER_IOV_MAX 1024
/* Checks a readv/writev vector array before anything moves: count at most
 * USER_IOV_MAX and lengths that do not overflow (-EINVAL), every array
 * entry readable and every buffer range in user space (-EFAULT). */
int user_iovecs_check(uptr_t iov, uint64_t count);
/* readv/writev: checks the vectors (user_iovecs_check), then calls
 * move(base, len, ctx) for each non-empty one in turn; a short or failed
 * move ends the call. Returns the bytes moved, or the first error when
 * nothing moved. */
long user_iovecs_move(uptr_t iov, uint64_t count,
                      long (*move)(uptr_t base, uint64_t len, void *ctx), void *ctx);

#endif
