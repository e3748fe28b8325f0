/*
 * file.c - the native file interface: the calls of include/myrmex/fs.h made
 * to the file manager server over the communication mechanism.
 *
 * The process has one channel: a one-page control ICA and two data ICAs,
 * one page and MYRMEX_FS_CHANNEL_BYTES; a call that carries a path or data
 * takes the smallest that fits, which travels to the file manager and comes
 * back with the result (ICAs move, they are not copied, and moving costs a
 * page-table entry per page: a 4 KiB read should not move 64 pages). A lock
 * lets one thread use the channel at a time. If the file manager dies
 * holding a data ICA (-EPIPE), a new one is allocated on the next call.
 */
#include "myrmex.h"

#include <errno.h>
#include <string.h>

uint64_t myrmex_fs_lib_copies;

#define SMALL_BYTES 4096u

static struct {
	volatile int lock;
	uint32_t ctl;                /* handles; 0 until allocated */
	uint32_t small, large;       /* data ICAs: one page, MYRMEX_FS_CHANNEL_BYTES */
	uint32_t data;               /* the one the current call uses */
} chan;

static void chan_lock(void)
{
	while (__atomic_exchange_n(&chan.lock, 1, __ATOMIC_ACQUIRE))
		myrmex_futex_wait(&chan.lock, 1, -1);
}

static void chan_unlock(void)
{
	__atomic_store_n(&chan.lock, 0, __ATOMIC_RELEASE);
	myrmex_futex_wake(&chan.lock, 1);
}

static long ensure(uint32_t *handle, uint32_t pages)
{
	if (!*handle) {
		long h = myrmex_ica_alloc(pages);
		if (h < 0)
			return h;
		*handle = (uint32_t)h;
	}
	return 0;
}

/* Gets the channel ready for a call moving up to bytes in its data ICA
 * (allocating what it lacks) and picks that ICA. 0 or -errno. Locked. */
static long chan_ready_for(size_t bytes)
{
	long r = ensure(&chan.ctl, 1);
	if (r == 0 && bytes <= SMALL_BYTES) {
		r = ensure(&chan.small, 1);
		chan.data = chan.small;
	} else if (r == 0) {
		r = ensure(&chan.large, MYRMEX_FS_CHANNEL_PAGES);
		chan.data = chan.large;
	}
	return r;
}

/* The data ICA of the call did not come back: forget it. */
static void chan_lost(void)
{
	if (chan.data == chan.small)
		chan.small = 0;
	else
		chan.large = 0;
	chan.data = 0;
}

static uint8_t *chan_data(void)
{
	return myrmex_ica_addr(chan.data);
}

/* One call, locked, with the channel ready: returns the status (or -errno of
 * callsync) and copies the result frame's arg[] to out when out is given. */
static long call_locked(uint32_t opcode, uint64_t a0, uint64_t a1, uint64_t a2, int with_data,
                        uint64_t out[8])
{
	struct myrmex_ctl_header *h = myrmex_ctl_init(myrmex_ica_addr(chan.ctl));
	struct myrmex_frame *f = myrmex_ctl_push(h, 1, MYRMEX_COREID_FS, opcode);
	if (!f)
		return -EINVAL;
	f->arg[0] = a0;
	f->arg[1] = a1;
	f->arg[2] = a2;
	if (with_data) {
		f->ndata = 1;
		f->data[0] = chan.data;
	}
	long r = myrmex_callsync(h);
	struct myrmex_frame *res = r == 0 ? myrmex_ctl_result(h) : NULL;
	/* The data ICA comes back with the result; without it, it is gone. */
	if (with_data && r != -EINVAL && r != -ESRCH && r != -EAGAIN &&
	    !(res && res->ndata >= 1 && res->data[0] == chan.data))
		chan_lost();
	if (r < 0)
		return r;
	if (!res)
		return -EIO;
	if (out)
		memcpy(out, res->arg, sizeof(res->arg));
	return (long)res->status;
}

long myrmex_fs_call(uint32_t opcode, uint64_t a0, uint64_t a1, uint64_t a2,
                    const void *payload, size_t payload_len, uint64_t out[8])
{
	if (payload_len > MYRMEX_FS_CHANNEL_BYTES)
		return -EINVAL;
	chan_lock();
	long r = chan_ready_for(payload_len);
	if (r == 0) {
		if (payload_len)
			memcpy(chan_data(), payload, payload_len);
		r = call_locked(opcode, a0, a1, a2, payload != NULL, out);
	}
	chan_unlock();
	return r;
}

/* A call whose data ICA carries path (and, for rename, a second one). */
static long path_call(uint32_t opcode, const char *path, const char *second, uint64_t a0,
                      void *result, size_t result_len)
{
	size_t len = strlen(path) + 1, len2 = second ? strlen(second) + 1 : 0;
	if (len > FS_PATH_MAX || len2 > FS_PATH_MAX)
		return -ENAMETOOLONG;
	chan_lock();
	long r = chan_ready_for(len + len2);
	if (r == 0) {
		memcpy(chan_data(), path, len);
		if (second)
			memcpy(chan_data() + len, second, len2);
		r = call_locked(opcode, a0, 0, 0, 1, NULL);
		if (r >= 0 && result)
			memcpy(result, chan_data(), result_len);
	}
	chan_unlock();
	return r;
}

int myrmex_fs_open(const char *path, int flags, int mode)
{
	size_t len = strlen(path) + 1;
	if (len > FS_PATH_MAX)
		return -ENAMETOOLONG;
	return (int)myrmex_fs_call(FS_OPEN, (uint64_t)flags, (uint64_t)mode, 0, path, len, NULL);
}

int myrmex_fs_close(int fd)
{
	return (int)myrmex_fs_call(FS_CLOSE, (uint64_t)fd, 0, 0, NULL, 0, NULL);
}

static uint64_t blocks_touched(uint64_t bytes)
{
	return (bytes + 4095) / 4096;
}

/* read or pread (offset < 0: at the descriptor's offset), a channel-full
 * at a time. */
static long read_any(int fd, void *buf, size_t len, int64_t offset)
{
	size_t done = 0;
	long r = 0;
	chan_lock();
	while (done < len) {
		size_t n = len - done < MYRMEX_FS_CHANNEL_BYTES ? len - done : MYRMEX_FS_CHANNEL_BYTES;
		if ((r = chan_ready_for(n)) < 0)
			break;
		r = offset < 0 ? call_locked(FS_READ, (uint64_t)fd, n, 0, 1, NULL)
		               : call_locked(FS_PREAD, (uint64_t)fd, n, (uint64_t)offset + done, 1, NULL);
		if (r <= 0)
			break;
		memcpy((uint8_t *)buf + done, chan_data(), (size_t)r);
		myrmex_fs_lib_copies += blocks_touched((uint64_t)r);
		done += (size_t)r;
		if ((size_t)r < n)
			break;   /* the end of the file, or one line of the console */
	}
	chan_unlock();
	return done ? (long)done : r;
}

static long write_any(int fd, const void *buf, size_t len, int64_t offset)
{
	size_t done = 0;
	long r = 0;
	chan_lock();
	while (done < len) {
		size_t n = len - done < MYRMEX_FS_CHANNEL_BYTES ? len - done : MYRMEX_FS_CHANNEL_BYTES;
		if ((r = chan_ready_for(n)) < 0)
			break;
		memcpy(chan_data(), (const uint8_t *)buf + done, n);
		myrmex_fs_lib_copies += blocks_touched(n);
		r = offset < 0 ? call_locked(FS_WRITE, (uint64_t)fd, n, 0, 1, NULL)
		               : call_locked(FS_PWRITE, (uint64_t)fd, n, (uint64_t)offset + done, 1, NULL);
		if (r <= 0)
			break;
		done += (size_t)r;
		if ((size_t)r < n)
			break;   /* the disk is full */
	}
	chan_unlock();
	return done ? (long)done : r;
}

long myrmex_fs_read(int fd, void *buf, size_t len)
{
	return read_any(fd, buf, len, -1);
}

long myrmex_fs_write(int fd, const void *buf, size_t len)
{
	return write_any(fd, buf, len, -1);
}

long myrmex_fs_pread(int fd, void *buf, size_t len, uint64_t offset)
{
	if ((int64_t)offset < 0)
		return -EINVAL;
	return read_any(fd, buf, len, (int64_t)offset);
}

long myrmex_fs_pwrite(int fd, const void *buf, size_t len, uint64_t offset)
{
	if ((int64_t)offset < 0)
		return -EINVAL;
	return write_any(fd, buf, len, (int64_t)offset);
}

/* FS_READ (offset < 0) or FS_PREAD into the channel, left there. */
static long read_direct(int fd, size_t len, int64_t offset, const void **data)
{
	if (len > MYRMEX_FS_CHANNEL_BYTES)
		len = MYRMEX_FS_CHANNEL_BYTES;
	chan_lock();
	long r = chan_ready_for(len);
	if (r == 0)
		r = offset < 0 ? call_locked(FS_READ, (uint64_t)fd, len, 0, 1, NULL)
		               : call_locked(FS_PREAD, (uint64_t)fd, len, (uint64_t)offset, 1, NULL);
	if (r >= 0)
		*data = chan_data();
	chan_unlock();
	return r;
}

long myrmex_fs_read_direct(int fd, size_t len, const void **data)
{
	return read_direct(fd, len, -1, data);
}

long myrmex_fs_pread_direct(int fd, size_t len, uint64_t offset, const void **data)
{
	if ((int64_t)offset < 0)
		return -EINVAL;
	return read_direct(fd, len, (int64_t)offset, data);
}

long myrmex_fs_lseek(int fd, int64_t offset, int whence)
{
	return myrmex_fs_call(FS_LSEEK, (uint64_t)fd, (uint64_t)offset, (uint64_t)whence, NULL, 0, NULL);
}

int myrmex_fs_fstat(int fd, struct myrmex_stat *st)
{
	chan_lock();
	long r = chan_ready_for(sizeof(*st));
	if (r == 0)
		r = call_locked(FS_FSTAT, (uint64_t)fd, 0, 0, 1, NULL);
	if (r == 0)
		memcpy(st, chan_data(), sizeof(*st));
	chan_unlock();
	return (int)r;
}

int myrmex_fs_stat(const char *path, struct myrmex_stat *st)
{
	return (int)path_call(FS_STAT, path, NULL, 0, st, sizeof(*st));
}

long myrmex_fs_readdir(int fd, void *buf, size_t len)
{
	if (len > MYRMEX_FS_CHANNEL_BYTES)
		len = MYRMEX_FS_CHANNEL_BYTES;
	chan_lock();
	long r = chan_ready_for(len);
	if (r == 0)
		r = call_locked(FS_READDIR, (uint64_t)fd, len, 0, 1, NULL);
	if (r > 0)
		memcpy(buf, chan_data(), (size_t)r);
	chan_unlock();
	return r;
}

int myrmex_fs_mkdir(const char *path, int mode)
{
	return (int)path_call(FS_MKDIR, path, NULL, (uint64_t)mode, NULL, 0);
}

int myrmex_fs_rmdir(const char *path)
{
	return (int)path_call(FS_RMDIR, path, NULL, 0, NULL, 0);
}

int myrmex_fs_unlink(const char *path)
{
	return (int)path_call(FS_UNLINK, path, NULL, 0, NULL, 0);
}

int myrmex_fs_rename(const char *from, const char *to)
{
	return (int)path_call(FS_RENAME, from, to, 0, NULL, 0);
}

int myrmex_fs_ftruncate(int fd, uint64_t size)
{
	return (int)myrmex_fs_call(FS_FTRUNCATE, (uint64_t)fd, size, 0, NULL, 0, NULL);
}

int myrmex_fs_sync(void)
{
	return (int)myrmex_fs_call(FS_SYNC, 0, 0, 0, NULL, 0, NULL);
}

int myrmex_fs_statfs(struct myrmex_statfs *out)
{
	chan_lock();
	long r = chan_ready_for(sizeof(*out));
	if (r == 0)
		r = call_locked(FS_STATFS, 0, 0, 0, 1, NULL);
	if (r == 0)
		memcpy(out, chan_data(), sizeof(*out));
	chan_unlock();
	return (int)r;
}

int myrmex_fs_stats(uint64_t counters[8])
{
	return (int)myrmex_fs_call(FS_STATS, 0, 0, 0, NULL, 0, counters);
}

int myrmex_fs_drop_cache(void)
{
	return (int)myrmex_fs_call(FS_DROP_CACHE, 0, 0, 0, NULL, 0, NULL);
}

int myrmex_fs_shutdown(void)
{
	return (int)myrmex_fs_call(FS_SHUTDOWN, 0, 0, 0, NULL, 0, NULL);
}

int myrmex_fs_wait(unsigned timeout_ms)
{
	uint64_t counters[8];
	long r = -ESRCH;
	for (unsigned waited = 0; r == -ESRCH && waited <= timeout_ms; waited++) {
		r = myrmex_fs_stats(counters);
		if (r == -ESRCH)
			myrmex_sleep_ns(1000000);
	}
	return r < 0 ? (int)r : 0;
}
