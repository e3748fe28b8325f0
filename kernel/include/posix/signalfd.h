/*
 * signalfd's kernel side (kernel/posix/sys_signalfd.c): the file manager
 * keeps the descriptor and its mask (include/myrmex/fsevent.h); the
 * signals are taken here.
 */
#ifndef POSIX_SIGNALFD_H
#define POSIX_SIGNALFD_H

#include <kernel/types.h>

/* The current thread's pending signals and its process's (blocked or
 * not): the word FS_POLL and FS_EPOLL_WAIT carry for signalfd readiness. */
uint64_t signalfd_pending(void);
/* A read of a signalfd whose mask and O_NONBLOCK the file manager gave:
 * up to count / 128 struct signalfd_siginfo at buf, the signals taken off
 * the pending sets. Bytes, or -EINVAL (count < 128), -EAGAIN, -EFAULT,
 * -EINTR (restarted with SA_RESTART, as Linux's -ERESTARTSYS). */
long signalfd_read(uptr_t buf, uint64_t count, uint64_t mask, bool nonblock);

#endif
