/*
 * table.c - the file protocol (include/myrmex/fs.h) as the server library
 * runs it: opcode -> handler, with the flags checked before the handler
 * (SERVER_KERNEL_ONLY: the file mappings' calls, which only the kernel
 * makes; FM_NO_DISK: served even when no file system is mounted: the
 * counters, the shutdown, and the bookkeeping of processes and maps, which
 * touches no disk; an unmap frees blocks past the end only while mounted),
 * and the callbacks (request.c). FM_SHARED marks the read-only operations
 * that may run beside each other when several threads serve (lock.h).
 */
#include "fileman.h"
#include "lock.h"
#include <myrmex/fslock.h>
#include "../../time/timesvc/timesvc.h"

static const struct server_op ops[] = {
	[FS_OPEN] = { do_open, 0 },
	[FS_CLOSE] = { do_close, 0 },
	[FS_READ] = { do_read, FM_SHARED },
	[FS_WRITE] = { do_write, 0 },
	[FS_PREAD] = { do_read, FM_SHARED },
	[FS_PWRITE] = { do_write, 0 },
	[FS_LSEEK] = { do_lseek, FM_SHARED },
	[FS_FSTAT] = { do_fstat, FM_SHARED },
	[FS_STAT] = { do_stat, 0 },
	[FS_READDIR] = { do_readdir, FM_SHARED },
	[FS_MKDIR] = { do_mkdir, 0 },
	[FS_RMDIR] = { do_rmdir, 0 },
	[FS_UNLINK] = { do_unlink, 0 },
	[FS_RENAME] = { do_rename, 0 },
	[FS_FTRUNCATE] = { do_ftruncate, 0 },
	[FS_SYNC] = { do_sync, 0 },
	[FS_STATFS] = { do_statfs, 0 },
	[FS_STATS] = { do_stats, FM_NO_DISK },
	[FS_DROP_CACHE] = { do_drop_cache, 0 },
	[FS_SHUTDOWN] = { do_shutdown, FM_NO_DISK },
	[FS_DUP] = { do_dup, 0 },
	[FS_DUP2] = { do_dup2, 0 },
	[FS_FCNTL] = { do_fcntl, 0 },
	[FS_PIPE] = { do_pipe, 0 },
	[FS_FORK] = { do_fork, FM_NO_DISK },
	[FS_EXEC] = { do_exec, FM_NO_DISK },
	[FS_EXIT] = { do_exit, FM_NO_DISK },
	[FS_CHDIR] = { do_chdir, 0 },
	[FS_GETCWD] = { do_getcwd, 0 },
	[FS_IOCTL] = { do_ioctl, 0 },
	[FS_POLL] = { do_poll, 0 },
	[FS_ACCESS] = { do_access, 0 },
	[FS_READLINK] = { do_readlink, 0 },
	[FS_OPEN_AS] = { do_open_as, 0 },
	[FS_CANCEL] = { do_cancel, FM_NO_DISK },
	[FS_MAP] = { do_map, SERVER_KERNEL_ONLY },
	[FS_PAGEIN] = { do_pagein, SERVER_KERNEL_ONLY },
	[FS_UNMAP] = { do_unmap, SERVER_KERNEL_ONLY | FM_NO_DISK },
	[FS_SYNCMAP] = { do_syncmap, SERVER_KERNEL_ONLY },
	[FS_LINK] = { do_link, 0 },
	[FS_SYMLINK] = { do_symlink, 0 },
	[FS_SETATTR] = { do_setattr, 0 },
	[FS_UTIMES] = { do_utimes, 0 },
	[FS_SOCKET] = { do_socket, FM_NO_DISK },
	[FS_BIND] = { do_bind, FM_NO_DISK },
	[FS_SENDTO] = { do_sendto, FM_NO_DISK },
	[FS_RECVFROM] = { do_recvfrom, FM_NO_DISK },
	[FS_INET] = { do_inet, FM_NO_DISK },
	[FS_INET_ADOPT] = { do_inet_adopt, FM_NO_DISK | SERVER_KERNEL_ONLY },
	[FS_BATCH] = { do_batch, SERVER_KERNEL_ONLY },   /* ops_batch.c */
	[FS_EPOLL_CREATE] = { do_epoll_create, FM_NO_DISK },
	[FS_EPOLL_CTL] = { do_epoll_ctl, FM_NO_DISK },
	[FS_EPOLL_WAIT] = { do_epoll_wait, FM_NO_DISK },
	[FS_EVENTFD] = { do_eventfd, FM_NO_DISK },
	[FS_TIMERFD_CREATE] = { do_timerfd_create, FM_NO_DISK },
	[FS_TIMERFD_SET] = { do_timerfd_set, FM_NO_DISK },
	[FS_TIMERFD_GET] = { do_timerfd_get, FM_NO_DISK },
	[FS_TIMERFD_TICK] = { do_timerfd_tick, FM_NO_DISK },
	[FS_SIGNALFD] = { do_signalfd, FM_NO_DISK },
	[FS_LOCK] = { do_lock, 0 },     /* locks.c */
	[FS_FLOCK] = { do_flock, 0 },
};

/* The time protocol, for requests routed by MYRMEX_COREID_TIME (served in
 * one and klt, timecalls.c): no disk, no gate. */
#define FM_TIME (FM_NO_DISK | FM_NO_GATE)
static const struct server_op time_ops[] = {
	[TIME_GET] = { do_get, FM_TIME },
	[TIME_GETRES] = { do_getres, FM_TIME },
	[TIME_SLEEP] = { do_sleep, FM_TIME },
	[TIME_CANCEL] = { do_time_cancel, SERVER_KERNEL_ONLY | FM_TIME },
	[TIME_STATS] = { do_time_stats, FM_TIME },
	[TIME_SET] = { do_set, SERVER_KERNEL_ONLY | FM_TIME },
};

/* Results of our own calls come outside any request: under the lock too. */
static void result_locked(const struct myrmex_delivery *d)
{
	fm_lock();
	request_result(d);
	fm_unlock();
}

const struct server fm_server = {
	.name = FM_NAME,
	.ops = ops,
	.nops = SERVER_NOPS(ops),
	.check = request_check,
	.handled = request_handled,
	.result = result_locked,
	.also_coreid = MYRMEX_COREID_TIME,
	.also_ops = time_ops,
	.also_nops = SERVER_NOPS(time_ops),
};
