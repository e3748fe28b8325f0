/*
 * Linux calls on descriptors, forwarded to the file manager (docs/posix.md):
 * read/write and their vector and positioned forms, lseek, close, fstat,
 * preadv/pwritev(2), getdents64, ftruncate, fsync/fdatasync, sync/syncfs,
 * dup/dup2/dup3, pipe/pipe2, fcntl (with record locks), flock. A native
 * (non-POSIX) process keeps the kernel console of sys_console.c for
 * read/write/writev. Every user pointer is checked here; every number the
 * server answers is checked against what was asked.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <posix/forward.h>
#include <posix/posix.h>
#include <kernel/proc.h>
#include <posix/signal.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>
#include <posix/iovec.h>
#include <posix/signalfd.h>
#include <myrmex/fs.h>
#include <myrmex/fsevent.h>
#include <myrmex/fslock.h>
#include <arch/linux_abi.h>

#define O_NONBLOCK 04000
#define O_CLOEXEC  02000000
#define O_DIRECT   040000
#define F_DUPFD          0
#define F_GETFD          1
#define F_SETFD          2
#define F_GETFL          3
#define F_SETFL          4
#define F_GETLK          5
#define F_SETLK          6
#define F_SETLKW         7
#define F_DUPFD_CLOEXEC  1030
#define F_OFD_GETLK      36
#define F_OFD_SETLK      37
#define F_OFD_SETLKW     38
#define F_UNLCK          2

long posix_fs_call(uint32_t opcode, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t res[8])
{
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, opcode, 0);
	if (err)
		return err;
	f.arg[0] = a0;
	f.arg[1] = a1;
	f.arg[2] = a2;
	long r = forward_call(&f);
	if (res)
		memcpy(res, f.res, sizeof(f.res));
	return r;
}

/* Whether a write's -EPIPE raises SIGPIPE: a pipe without readers, a
 * connection that is gone (as Linux). */
static bool kind_raises_sigpipe(uint64_t kind)
{
	return kind == FS_KIND_PIPE || kind == FS_KIND_SOCKET;
}

/* Whether a transfer larger than one request goes on in further requests
 * on this kind of object: regular files and the memory devices (/dev/zero,
 * null, full, random: as Linux, whose read of /dev/zero fills the whole
 * buffer); pipes and the console give a short count instead. */
static bool kind_splits(uint64_t kind)
{
	return kind == FS_KIND_REGULAR || kind == FS_KIND_NULL;
}

/* ---- Small transfers in the frame (FS_IO_INLINE, include/myrmex/fs.h) ----
 * Up to FS_INLINE_BYTES travel in the request's and the result's words, no
 * data ICA to attach and detach, except on descriptors the file manager
 * refused them for (the console), which are remembered as a hint. */

static bool inline_ok(uint64_t fd)
{
	const uint64_t *bits = current_thread()->proc->px->no_inline;
	return fd < POSIX_INLINE_FDS && !(bits[fd / 64] >> (fd % 64) & 1);
}

/* Whether fd was last found on an object whose transfers never wait
 * (posix.h, quick_io): its call waits for the answer, signals or not. A
 * thread racing a close and reopen of the same number with its own read
 * may find a pipe there and wait uninterruptibly: a program's own race,
 * whose only cost is that a handled signal does not cut that read short. */
static bool quick_fd(uint64_t fd)
{
	const uint64_t *bits = current_thread()->proc->px->quick_io;
	return fd < POSIX_QUICK_FDS && (bits[fd / 64] >> (fd % 64) & 1);
}

/* The kinds whose transfers never wait (quick_io). */
#define QUICK_KINDS (1u << FS_KIND_REGULAR | 1u << FS_KIND_DIRECTORY | 1u << FS_KIND_NULL)

/* After a call on fd: refused inline, or answered by an object of kind. */
static void inline_learn(uint64_t fd, bool refused, uint64_t kind)
{
	if (fd >= POSIX_INLINE_FDS)
		return;
	struct posix_process *px = current_thread()->proc->px;
	uint64_t word = fd / 64, bit = 1ull << (fd % 64);
	if (refused)
		px->no_inline[word] |= bit;
	else if (kind != FS_KIND_CONSOLE)
		px->no_inline[word] &= ~bit;
	if (fd >= POSIX_QUICK_FDS)
		return;
	if (kind < 32 && (QUICK_KINDS >> kind & 1))
		px->quick_io[word] |= bit;
	else
		px->quick_io[word] &= ~bit;
}

void posix_fd_made(uint64_t fd, uint64_t kind)
{
	posix_fd_gone(fd);
	inline_learn(fd, false, kind);
}

void posix_fd_gone(uint64_t fd)
{
	struct posix_process *px = current_thread()->proc->px;
	if (fd < POSIX_QUICK_FDS)
		px->quick_io[fd / 64] &= ~(1ull << (fd % 64));
}

/* Makes the inline call begun in f (a write's bytes in place) and learns
 * from the answer; *refused when the file manager wants a data ICA. */
static long inline_call(struct fwd *f, uint64_t fd, uint64_t count, int64_t offset,
                        bool *refused)
{
	f->arg[0] = fd;
	f->arg[1] = count;
	f->arg[2] = (uint64_t)offset;
	f->arg[3] = FS_IO_INLINE;
	long r = forward_call(f);
	*refused = r == -EINVAL && f->res[FS_RESULT_INLINE] == FS_INLINE_REFUSED;
	inline_learn(fd, *refused, f->res[FS_RESULT_KIND]);
	return r;
}

/* An inline read. */
static long read_inline(uint64_t fd, uptr_t buf, uint64_t count, int64_t offset, bool *refused)
{
	struct fwd f;
	*refused = false;
	int err = forward_begin(&f, SERVICE_FILES, offset < 0 ? FS_READ : FS_PREAD, 0);
	if (err)
		return err;
	f.uninterruptible = quick_fd(fd);
	long r = inline_call(&f, fd, count, offset, refused);
	if (r == -EAGAIN && f.res[FS_RESULT_KIND] == FS_KIND_SIGNAL)
		return signalfd_read(buf, count, f.res[0], f.res[1]);   /* the kernel's signals */
	if (r < 0)
		return r;
	if ((uint64_t)r > count)
		return -EIO;
	if (r > 0 && copy_to_user(buf, f.res, (uint64_t)r) < 0) {
		if (offset < 0 && f.res[FS_RESULT_KIND] == FS_KIND_REGULAR)
			posix_fs_call(FS_LSEEK, fd, (uint64_t)-r, 1 /* SEEK_CUR */, NULL);
		return -EFAULT;
	}
	return r;
}

/* An inline write. */
static long write_inline(uint64_t fd, uptr_t buf, uint64_t count, int64_t offset, bool *refused)
{
	struct fwd f;
	*refused = false;
	int err = forward_begin(&f, SERVICE_FILES, offset < 0 ? FS_WRITE : FS_PWRITE, 0);
	if (err)
		return err;
	f.uninterruptible = quick_fd(fd);
	if (count && copy_from_user(&f.arg[4], buf, count) < 0)
		return -EFAULT;
	long r = inline_call(&f, fd, count, offset, refused);
	if (r == -EPIPE && kind_raises_sigpipe(f.res[FS_RESULT_KIND]))
		posix_raise_sigpipe();
	if (r < 0)
		return r;
	return (uint64_t)r > count ? -EIO : r;
}

/* Reads count bytes at offset (-1: the descriptor's offset) into buf; long
 * reads of regular files go in several requests, small ones inline. */
static long read_into(uint64_t fd, uptr_t buf, uint64_t count, int64_t offset)
{
	if ((int64_t)count < 0)
		return -EINVAL;
	if (!user_range_ok(buf, count))
		return -EFAULT;
	if (count <= FS_INLINE_BYTES && inline_ok(fd)) {
		bool refused;
		long r = read_inline(fd, buf, count, offset, &refused);
		if (!refused)
			return r;
	}
	uint64_t done = 0;
	do {
		uint32_t chunk = (uint32_t)MIN(count - done, FORWARD_LARGE_BYTES);
		struct fwd f;
		int err = forward_begin(&f, SERVICE_FILES, offset < 0 ? FS_READ : FS_PREAD,
		                        chunk ? chunk : 1);
		if (err)
			return done ? (long)done : err;
		f.uninterruptible = quick_fd(fd);
		f.arg[0] = fd;
		f.arg[1] = chunk;
		f.arg[2] = (uint64_t)offset + done;
		long r = forward_call(&f);
		if (r == -EAGAIN && f.res[FS_RESULT_KIND] == FS_KIND_SIGNAL)
			return signalfd_read(buf, count, f.res[0], f.res[1]);   /* the kernel's signals */
		if (r < 0)
			return done ? (long)done : r;
		inline_learn(fd, false, f.res[FS_RESULT_KIND]);
		if ((uint64_t)r > chunk || (r > 0 && !f.data))
			return done ? (long)done : -EIO;
		if (r > 0 && copy_to_user(buf + done, forward_data(&f), (uint64_t)r) < 0) {
			/* Nothing of this chunk reached the user: as on Linux the
			 * offset does not move past what was delivered. */
			if (offset < 0 && f.res[7] == FS_KIND_REGULAR)
				posix_fs_call(FS_LSEEK, fd, (uint64_t)-r, 1 /* SEEK_CUR */, NULL);
			return done ? (long)done : -EFAULT;
		}
		done += (uint64_t)r;
		if ((uint64_t)r < chunk || !kind_splits(f.res[7]))
			break;
	} while (done < count);
	return (long)done;
}

/* Writes count bytes from buf at offset (-1: the descriptor's offset),
 * small ones inline. A write to a pipe without readers raises SIGPIPE, as
 * on Linux. */
static long write_from(uint64_t fd, uptr_t buf, uint64_t count, int64_t offset)
{
	if ((int64_t)count < 0)
		return -EINVAL;
	if (!user_range_ok(buf, count))
		return -EFAULT;
	if (count <= FS_INLINE_BYTES && inline_ok(fd)) {
		bool refused;
		long r = write_inline(fd, buf, count, offset, &refused);
		if (!refused)
			return r;
	}
	uint64_t done = 0;
	do {
		uint32_t chunk = (uint32_t)MIN(count - done, FORWARD_LARGE_BYTES);
		struct fwd f;
		int err = forward_begin(&f, SERVICE_FILES, offset < 0 ? FS_WRITE : FS_PWRITE,
		                        chunk ? chunk : 1);
		if (err)
			return done ? (long)done : err;
		f.uninterruptible = quick_fd(fd);
		if (chunk && copy_from_user(forward_data(&f), buf + done, chunk) < 0)
			return done ? (long)done : -EFAULT;
		f.arg[0] = fd;
		f.arg[1] = chunk;
		f.arg[2] = (uint64_t)offset + done;
		long r = forward_call(&f);
		if (r == -EPIPE && kind_raises_sigpipe(f.res[FS_RESULT_KIND]))
			posix_raise_sigpipe();
		if (r < 0)
			return done ? (long)done : r;
		inline_learn(fd, false, f.res[FS_RESULT_KIND]);
		if ((uint64_t)r > chunk && f.res[FS_RESULT_KIND] == FS_KIND_SOCKET)
			r = (long)chunk;   /* a packet socket's answer counts the Ethernet header */
		if ((uint64_t)r > chunk)
			return done ? (long)done : -EIO;
		done += (uint64_t)r;
		if ((uint64_t)r < chunk || !kind_splits(f.res[7]))
			break;
	} while (done < count);
	return (long)done;
}

long sys_read(const struct syscall_args *a)
{
	if (!posix_process())
		return kconsole_read(a);
	return read_into(a->arg[0], a->arg[1], a->arg[2], -1);
}

long sys_write(const struct syscall_args *a)
{
	if (!posix_process())
		return kconsole_write(a);
	return write_from(a->arg[0], a->arg[1], a->arg[2], -1);
}

long sys_pread64(const struct syscall_args *a)
{
	if ((int64_t)a->arg[3] < 0)
		return -EINVAL;
	return read_into(a->arg[0], a->arg[1], a->arg[2], (int64_t)a->arg[3]);
}

long sys_pwrite64(const struct syscall_args *a)
{
	if ((int64_t)a->arg[3] < 0)
		return -EINVAL;
	return write_from(a->arg[0], a->arg[1], a->arg[2], (int64_t)a->arg[3]);
}

/* sendfile: each chunk is read into the channel's data ICA and written
 * from the same ICA, so the kernel copies nothing (the file manager copies
 * from and to its cache, as for read and write). */
long sys_sendfile(const struct syscall_args *a)
{
	uint64_t out_fd = a->arg[0], in_fd = a->arg[1], count = a->arg[3];
	uptr_t offp = a->arg[2];
	int64_t off = -1;
	if (offp && copy_from_user(&off, offp, sizeof(off)) < 0)
		return -EFAULT;
	if (offp && off < 0)
		return -EINVAL;
	uint64_t done = 0;
	while (done < count) {
		uint32_t chunk = (uint32_t)MIN(count - done, FORWARD_LARGE_BYTES);
		struct fwd f;
		int err = forward_begin(&f, SERVICE_FILES, offp ? FS_PREAD : FS_READ, chunk);
		if (err)
			return done ? (long)done : err;
		f.arg[0] = in_fd;
		f.arg[1] = chunk;
		f.arg[2] = (uint64_t)off + done;
		long r = forward_call(&f);
		if (r <= 0 || (uint64_t)r > chunk || !f.data) {
			if (r > 0)
				r = -EIO;
			if (r < 0 && !done)
				return r;
			break;
		}
		bool more = (uint64_t)r == chunk && f.res[7] == FS_KIND_REGULAR;
		/* The same size asked for, so the same data ICA, bytes in place. */
		err = forward_begin(&f, SERVICE_FILES, FS_WRITE, chunk);
		if (err)
			return done ? (long)done : err;
		f.arg[0] = out_fd;
		f.arg[1] = (uint64_t)r;
		long w = forward_call(&f);
		if (w == -EPIPE && kind_raises_sigpipe(f.res[FS_RESULT_KIND]))
			posix_raise_sigpipe();
		if (w < 0)
			return done ? (long)done : w;
		done += (uint64_t)MIN((uint64_t)w, (uint64_t)r);
		if (w < r || !more)
			break;   /* a pipe or the console: one read's worth, as read gives */
	}
	if (offp) {
		int64_t end = off + (int64_t)done;
		copy_to_user(offp, &end, sizeof(end));
	}
	return (long)done;
}

/* readv/writev: every vector is checked first, then each goes in turn; a
 * short transfer ends the call (not atomic across vectors). */
static long read_vector(uptr_t base, uint64_t len, void *fd)
{
	return read_into(*(uint64_t *)fd, base, len, -1);
}

static long write_vector(uptr_t base, uint64_t len, void *fd)
{
	return write_from(*(uint64_t *)fd, base, len, -1);
}

long sys_readv(const struct syscall_args *a)
{
	if (!posix_process())
		return -EBADF;
	uint64_t fd = a->arg[0];
	return user_iovecs_move(a->arg[1], a->arg[2], read_vector, &fd);
}

long sys_writev(const struct syscall_args *a)
{
	if (!posix_process())
		return kconsole_writev(a);
	uint64_t fd = a->arg[0];
	return user_iovecs_move(a->arg[1], a->arg[2], write_vector, &fd);
}

/* preadv/pwritev and the v2 forms: the vectors in turn at a running
 * offset (the descriptor's offset stays), or, for the v2 forms with offset
 * -1, at the descriptor's offset as readv/writev. x86-64 passes the offset
 * whole in its low word (the high word is for 32-bit callers). */
struct at_offset {
	uint64_t fd;
	int64_t offset;   /* -1: the descriptor's */
};

static long pread_vector(uptr_t base, uint64_t len, void *ctx)
{
	struct at_offset *o = ctx;
	long r = read_into(o->fd, base, len, o->offset);
	if (r > 0 && o->offset >= 0)
		o->offset += r;
	return r;
}

static long pwrite_vector(uptr_t base, uint64_t len, void *ctx)
{
	struct at_offset *o = ctx;
	long r = write_from(o->fd, base, len, o->offset);
	if (r > 0 && o->offset >= 0)
		o->offset += r;
	return r;
}

static long positioned_vectors(const struct syscall_args *a, bool write, bool v2)
{
	struct at_offset o = { .fd = a->arg[0], .offset = (int64_t)a->arg[3] };
	/* RWF_* flags: Linux's answer for one it does not know; those it
	 * knows (HIPRI, DSYNC, SYNC, NOWAIT, APPEND) are not offered yet. */
	if (v2 && a->arg[5])
		return -EOPNOTSUPP;
	if (o.offset < 0 && !(v2 && o.offset == -1))
		return -EINVAL;
	if (!posix_process())
		return -EBADF;
	return user_iovecs_move(a->arg[1], a->arg[2], write ? pwrite_vector : pread_vector, &o);
}

long sys_preadv(const struct syscall_args *a)
{
	return positioned_vectors(a, false, false);
}

long sys_pwritev(const struct syscall_args *a)
{
	return positioned_vectors(a, true, false);
}

long sys_preadv2(const struct syscall_args *a)
{
	return positioned_vectors(a, false, true);
}

long sys_pwritev2(const struct syscall_args *a)
{
	return positioned_vectors(a, true, true);
}

long sys_lseek(const struct syscall_args *a)
{
	return posix_fs_call(FS_LSEEK, a->arg[0], a->arg[1], a->arg[2], NULL);
}

/* Wrapped-call batches run lseek, close, fstat and the small transfers
 * in groups (batch_fwd.c), which must give what these handlers give. */
long sys_close(const struct syscall_args *a)
{
	posix_fd_gone(a->arg[0]);
	return posix_fs_call(FS_CLOSE, a->arg[0], 0, 0, NULL);
}

long posix_stat_out(uptr_t out, const struct myrmex_stat *m)
{
	struct linux_stat s;
	memset(&s, 0, sizeof(s));
	s.st_dev = m->st_dev;
	s.st_ino = m->st_ino;
	s.st_nlink = m->st_nlink;
	s.st_mode = m->st_mode;
	s.st_uid = m->st_uid;
	s.st_gid = m->st_gid;
	s.st_rdev = m->st_rdev;
	s.st_size = m->st_size;
	s.st_blksize = m->st_blksize;
	s.st_blocks = m->st_blocks;
	s.st_atime_sec = m->st_atime_sec;
	s.st_atime_nsec = m->st_atime_nsec;
	s.st_mtime_sec = m->st_mtime_sec;
	s.st_mtime_nsec = m->st_mtime_nsec;
	s.st_ctime_sec = m->st_ctime_sec;
	s.st_ctime_nsec = m->st_ctime_nsec;
	return copy_to_user(out, &s, sizeof(s)) < 0 ? -EFAULT : 0;
}

long sys_fstat(const struct syscall_args *a)
{
	uptr_t out = a->arg[1];
	if (!user_range_ok(out, sizeof(struct linux_stat)))
		return -EFAULT;
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_FSTAT, sizeof(struct myrmex_stat));
	if (err)
		return err;
	f.arg[0] = a->arg[0];
	f.arg[1] = 0;
	long r = forward_call(&f);
	if (r < 0)
		return r;
	if (!f.data)
		return -EIO;
	struct myrmex_stat m;
	memcpy(&m, forward_data(&f), sizeof(m));
	err = (int)posix_stat_out(out, &m);
	return err ? err : r;
}

long sys_getdents64(const struct syscall_args *a)
{
	uint64_t fd = a->arg[0], count = a->arg[2];
	uptr_t out = a->arg[1];
	if (!user_range_ok(out, count))
		return -EFAULT;
	uint32_t room = (uint32_t)MIN(count, FORWARD_LARGE_BYTES);
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_READDIR, room ? room : 1);
	if (err)
		return err;
	f.arg[0] = fd;
	f.arg[1] = room;
	long r = forward_call(&f);
	if (r <= 0)
		return r;
	if ((uint64_t)r > room || !f.data)
		return -EIO;
	return copy_to_user(out, forward_data(&f), (uint64_t)r) < 0 ? -EFAULT : r;
}

long sys_ftruncate(const struct syscall_args *a)
{
	if ((int64_t)a->arg[1] < 0)
		return -EINVAL;
	return posix_fs_call(FS_FTRUNCATE, a->arg[0], a->arg[1], 0, NULL);
}

/* fsync/fdatasync: the descriptor is checked (a pipe, the console or
 * /dev/null: -EINVAL, as Linux, whose objects of that kind have no fsync),
 * then everything is written back and the disk's cache flushed (the file
 * manager has one sync for all: FS_SYNC). */
long sys_fsync(const struct syscall_args *a)
{
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_FSTAT, sizeof(struct myrmex_stat));
	if (err)
		return err;
	f.arg[0] = a->arg[0];
	long r = forward_call(&f);
	if (r < 0)
		return r;
	if (!f.data)
		return -EIO;
	struct myrmex_stat m;
	memcpy(&m, forward_data(&f), sizeof(m));
	uint32_t type = m.st_mode & 0170000u;
	if (type != 0100000u && type != 0040000u)
		return -EINVAL;   /* not a regular file or a directory */
	r = posix_fs_call(FS_SYNC, 0, 0, 0, NULL);
	return r < 0 ? r : 0;
}

/* sync: everything to the disk; it cannot fail (Linux's returns nothing). */
long sys_sync(const struct syscall_args *a)
{
	(void)a;
	posix_fs_call(FS_SYNC, 0, 0, 0, NULL);
	return 0;
}

/* syncfs: the file system of the descriptor; there is one, on one disk
 * (the file manager's own objects: nothing of theirs is cached). */
long sys_syncfs(const struct syscall_args *a)
{
	long r = posix_fs_call(FS_FCNTL, a->arg[0], F_GETFL, 0, NULL);
	if (r < 0)
		return r;
	r = posix_fs_call(FS_SYNC, 0, 0, 0, NULL);
	return r < 0 ? r : 0;
}

/* FS_DUP or FS_DUP2: the new descriptor, its kind learnt (posix_fd_made). */
static long dup_call(uint32_t opcode, uint64_t a0, uint64_t a1, uint64_t a2)
{
	uint64_t res[8];
	long r = posix_fs_call(opcode, a0, a1, a2, res);
	if (r >= 0)
		posix_fd_made((uint64_t)r, res[FS_RESULT_KIND]);
	return r;
}

long sys_dup(const struct syscall_args *a)
{
	return dup_call(FS_DUP, a->arg[0], 0, 0);
}

long sys_dup2(const struct syscall_args *a)
{
	if (a->arg[0] != a->arg[1])
		posix_fd_gone(a->arg[1]);   /* replaced (if it was open) */
	return dup_call(FS_DUP2, a->arg[0], a->arg[1], 0);
}

long sys_dup3(const struct syscall_args *a)
{
	if (a->arg[0] == a->arg[1] || (a->arg[2] & ~(uint64_t)O_CLOEXEC))
		return -EINVAL;
	posix_fd_gone(a->arg[1]);
	return dup_call(FS_DUP2, a->arg[0], a->arg[1], a->arg[2] ? 1 : 0);
}

static long make_pipe(uptr_t fds, uint64_t flags)
{
	if (flags & ~(uint64_t)(O_CLOEXEC | O_NONBLOCK | O_DIRECT))
		return -EINVAL;
	int32_t probe[2];
	if (copy_from_user(probe, fds, sizeof(probe)) < 0 || copy_to_user(fds, probe, sizeof(probe)) < 0)
		return -EFAULT;
	uint64_t res[8];
	/* Never EINTR, as Linux's pipe(): FS_PIPE waits for nothing, so
	 * forward_call waits for it uninterruptibly (a shell whose SIGCHLD
	 * handler has no SA_RESTART once saw "can't create pipe: Interrupted
	 * system call", its two ends left open in its table). */
	long r = posix_fs_call(FS_PIPE, flags & (O_CLOEXEC | O_NONBLOCK), 0, 0, res);
	if (r < 0)
		return r;
	int32_t ends[2] = { (int32_t)res[0], (int32_t)res[1] };
	if (copy_to_user(fds, ends, sizeof(ends)) < 0) {
		posix_fs_call(FS_CLOSE, res[0], 0, 0, NULL);
		posix_fs_call(FS_CLOSE, res[1], 0, 0, NULL);
		return -EFAULT;
	}
	return 0;
}

long sys_pipe(const struct syscall_args *a)
{
	return make_pipe(a->arg[0], 0);
}

long sys_pipe2(const struct syscall_args *a)
{
	return make_pipe(a->arg[0], a->arg[1]);
}

/* Record locks (F_GETLK, F_SETLK, F_SETLKW, and the F_OFD_ forms whose
 * owner is the open file description): the file manager keeps them
 * (include/myrmex/fslock.h); struct flock is read here and F_GETLK's
 * answer written back in Linux's form (whence SEEK_SET, the owner's pid,
 * -1 for an OFD lock). F_SETLKW may wait: a signal cuts it short (EINTR,
 * or a restart with SA_RESTART), as Linux's. */
static long record_lock(uint64_t fd, uint64_t cmd, uptr_t arg)
{
	bool ofd = cmd == F_OFD_GETLK || cmd == F_OFD_SETLK || cmd == F_OFD_SETLKW;
	if (ofd)
		cmd = cmd == F_OFD_GETLK ? F_GETLK : cmd == F_OFD_SETLK ? F_SETLK : F_SETLKW;
	struct linux_flock lk;
	if (copy_from_user(&lk, arg, sizeof(lk)) < 0) {
		/* Linux looks the descriptor up first: a bad one is EBADF. */
		long r = posix_fs_call(FS_FCNTL, fd, F_GETFL, 0, NULL);
		return r < 0 ? r : -EFAULT;
	}
	if (ofd && lk.l_pid != 0)
		return -EINVAL;   /* as Linux: an OFD request names no pid */
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_LOCK, 0);
	if (err)
		return err;
	struct fs_lock_args *la = (struct fs_lock_args *)(void *)f.arg;
	la->fd = fd;
	la->cmd = (cmd == F_GETLK ? FS_LOCK_GET : cmd == F_SETLK ? FS_LOCK_SET : FS_LOCK_WAIT) |
	          (ofd ? FS_LOCK_OFD : 0);
	la->type = (uint64_t)(uint16_t)lk.l_type;   /* F_RDLCK, F_WRLCK, F_UNLCK: FS_LOCK_*;
	                                               the file manager checks it */
	la->whence = (uint64_t)(uint16_t)lk.l_whence;
	la->start = lk.l_start;
	la->len = lk.l_len;
	long r = forward_call(&f);
	if (r < 0 || cmd != F_GETLK)
		return r;
	const struct fs_lock_result *res = (const struct fs_lock_result *)(const void *)f.res;
	if (res->type > FS_LOCK_UNLOCK)
		return -EIO;
	lk.l_type = (int16_t)res->type;
	if (res->type != FS_LOCK_UNLOCK) {
		lk.l_whence = 0;   /* SEEK_SET */
		lk.l_start = res->start;
		lk.l_len = res->len;
		lk.l_pid = (int32_t)res->pid;
	}
	return copy_to_user(arg, &lk, sizeof(lk)) < 0 ? -EFAULT : 0;
}

/* flock(2): a lock on the whole file held by the open file description.
 * The operation is checked before the descriptor, as Linux does (EINVAL
 * before EBADF). */
long sys_flock(const struct syscall_args *a)
{
	uint64_t op = a->arg[1];
	uint64_t kind = op & ~(uint64_t)FS_FLOCK_NB;
	if (kind != FS_FLOCK_SH && kind != FS_FLOCK_EX && kind != FS_FLOCK_UN)
		return -EINVAL;
	if ((int64_t)a->arg[0] < 0 || (int64_t)a->arg[0] > INT32_MAX)
		return -EBADF;
	return posix_fs_call(FS_FLOCK, a->arg[0], op, 0, NULL);
}

long sys_fcntl(const struct syscall_args *a)
{
	uint64_t fd = a->arg[0], cmd = a->arg[1], arg = a->arg[2];
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		if ((int64_t)arg < 0 || arg >= FS_MAX_FDS)
			return -EINVAL;
		return dup_call(FS_DUP, fd, arg, cmd == F_DUPFD_CLOEXEC);
	case F_GETFD:
	case F_SETFD:
	case F_GETFL:
	case F_SETFL:
		return posix_fs_call(FS_FCNTL, fd, cmd, arg, NULL);
	case F_GETLK:
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_GETLK:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		return record_lock(fd, cmd, arg);
	default:
		return -EINVAL;
	}
}

/* A write found no reader: SIGPIPE to the writing thread, as on Linux (it
 * ends the process unless handled or ignored; the call returns -EPIPE). */
void posix_raise_sigpipe(void)
{
	struct thread *t = current_thread();
	struct sig_info info = { .code = 0 /* SI_USER */, .pid = t->proc->pid };
	signal_send_thread(t, SIGPIPE, &info);
}
