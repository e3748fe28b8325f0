/*
 * ops_file.c - the handlers for descriptors and their data: close,
 * read/pread, write/pwrite, lseek, fstat, ftruncate, and the struct stat
 * every kind of object answers with.
 *
 * A read or write first finds the description and says its kind in the
 * result's arg[7] (FS_KIND_*), then goes by kind: pipes (pipe.c), the
 * console (passed on, console.c), /dev/null (nothing to read, everything
 * swallowed) and ext2 files, below.
 *
 * A file read looks its blocks up a run at a time (one inode read and one
 * walk of the block map per run, ext2_file_blocks) and copies each block
 * from the cache into the caller's data ICA (one copy per block, counted),
 * asking the cache for read-ahead when the description is read
 * sequentially. A write goes through the ext2 library, whose whole-block
 * writes land in the cache as one copy from the data ICA; the copies are
 * counted per block.
 */
#include "fileman.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#define READ_AHEAD_BLOCKS 64u
#define READ_RUN 64u   /* blocks looked up in one walk of the block map */

static void count_copies(uint64_t off, uint64_t bytes)
{
	if (bytes == 0)
		return;
	fm_stats.v[FS_STAT_COPIES] += (off + bytes - 1) / FM_BLOCK - off / FM_BLOCK + 1;
	fm_stats.v[FS_STAT_COPY_BYTES] += bytes;
}

int64_t do_close(struct server_request *rq)
{
	return files_close(rq->d.requester, SERVER_IN(rq, struct fs_fd_args)->fd);
}

/* The disk blocks of count file blocks from fb: one inode read and one
 * walk of the block map for the run (ext2_file_blocks). Should the run's
 * walk fail, block by block (ext2_file_block), so that the blocks before
 * a bad one are still read, as they were. 0, or -errno with *got blocks
 * found before the error. */
static int lookup_run(struct server_request *rq, uint32_t ino, uint64_t fb, uint32_t count,
                      uint32_t *disk, uint32_t *got)
{
	*got = 0;
	int rc = ext2_file_blocks(fm_fs_for(rq), ino, fb, count, disk);
	if (rc == 0) {
		*got = count;
		return 0;
	}
	for (uint32_t i = 0; i < count; i++) {
		uint64_t d = 0;
		rc = ext2_file_block(fm_fs_for(rq), ino, fb + i, false, &d);
		if (rc < 0)
			return rc;
		disk[i] = (uint32_t)d;
		*got = i + 1;
	}
	return 0;
}

/* Copies n bytes of file ino at off into dst, a block at a time from the
 * cache, the blocks looked up READ_RUN at a time. Returns the bytes copied
 * (short on an error after some), or -errno. */
static int64_t read_blocks(struct server_request *rq, uint32_t ino, uint64_t off, uint8_t *dst,
                           uint64_t n, bool sequential)
{
	uint64_t done = 0;
	uint32_t disk[READ_RUN];
	uint32_t have = 0, next = 0;   /* disk[next .. have) are the blocks from here on */
	int rc = 0;
	while (done < n) {
		uint64_t pos = off + done;
		uint32_t in_block = (uint32_t)(pos % FM_BLOCK);
		uint64_t chunk = FM_BLOCK - in_block;
		if (chunk > n - done)
			chunk = n - done;
		uint64_t left = (n - done + in_block + FM_BLOCK - 1) / FM_BLOCK;   /* blocks to go */
		if (next == have) {
			uint32_t want = left < READ_RUN ? (uint32_t)left : READ_RUN;
			rc = lookup_run(rq, ino, pos / FM_BLOCK, want, disk, &have);
			next = 0;
			if (have == 0)
				goto failed;
		}
		uint32_t d = disk[next++];
		if (d == 0) {
			memset(dst + done, 0, chunk);   /* a hole */
		} else {
			unsigned ahead = sequential ? READ_AHEAD_BLOCKS : (unsigned)(left < 64 ? left : 64);
			const uint8_t *p = cache_get(rq, d, ahead, &rc);
			if (!p)
				goto failed;
			memcpy(dst + done, p + in_block, chunk);
		}
		done += chunk;
		rc = 0;
	}
	count_copies(off, done);
	return (int64_t)done;
failed:
	count_copies(off, done);
	return done ? (int64_t)done : fm_result(rc, "read");
}

/* What read and write check alike: the descriptor and its direction, the
 * kind (said in the result's arg[7]), the length (arg[1]) against the data
 * ICA or the inline bytes, and for a file the offset (arg[2] for the
 * positioned forms, else the description's) in *off. NULL with *status set. */
static struct open_file *data_call(struct server_request *rq, bool write, uint64_t *off,
                                   int64_t *status)
{
	const struct fs_io_args *a = SERVER_IN(rq, struct fs_io_args);
	struct open_file *f = files_get(rq->d.requester, a->fd);
	if (!f) {
		*status = -EBADF;
		return NULL;
	}
	server_out(rq, FS_RESULT_KIND, ofd_kind(f));
	if ((a->flags & FS_IO_INLINE) && rq->d.ndata == 0) {
		/* The bytes ride in the frame (include/myrmex/fs.h): the console
		 * server needs a data ICA, so its calls come again with one. */
		if (f->kind == FM_CONSOLE || f->kind == FM_INET || f->kind == FM_SOCKET) {
			server_out(rq, FS_RESULT_INLINE, FS_INLINE_REFUSED);
			*status = -EINVAL;
			return NULL;
		}
		if (a->length > FS_INLINE_BYTES) {
			*status = -EINVAL;
			return NULL;
		}
		request_inline_data(rq, write);
	}
	bool positioned = rq->d.opcode == (write ? FS_PWRITE : FS_PREAD);
	*status = 0;
	if (!(write ? ofd_can_write(f) : ofd_can_read(f)))
		*status = -EBADF;
	else if (f->kind == FM_DIR)
		*status = -EISDIR;
	else if (f->kind == FM_FILE && f->ino == 0)
		*status = -ESTALE;
	else if (positioned && (f->kind == FM_PIPE || f->kind == FM_CONSOLE || f->kind == FM_INET ||
	                        f->kind == FM_SOCKET ||
	                        events_kind(f->kind)))
		*status = -ESPIPE;
	else if (!rq->data || a->length > rq->data_size)
		*status = -EINVAL;
	if (*status < 0)
		return NULL;
	*off = positioned ? a->offset : f->offset;
	if (f->kind == FM_FILE && (int64_t)*off < 0) {
		*status = -EINVAL;
		return NULL;
	}
	return f;
}

int64_t do_read(struct server_request *rq)
{
	int64_t status;
	uint64_t off, len = SERVER_IN(rq, struct fs_io_args)->length;
	struct open_file *f = data_call(rq, false, &off, &status);
	if (!f)
		return status;
	if (events_kind(f->kind))
		return events_read(rq, f);
	switch (f->kind) {
	case FM_PIPE:
		return pipe_read(rq, f);
	case FM_CONSOLE:
		return console_forward(rq, f, false);
	case FM_SOCKET:
		return socket_read(rq, f);   /* recv, as on Linux */
	case FM_INET:
		return inet_io(rq, f, false);
	case FM_PROC: {
		int64_t got = procfs_read(rq, f, off, len);
		if (got > 0 && rq->d.opcode != FS_PREAD)
			f->offset = off + (uint64_t)got;
		return got;
	}
	default:
		if (devfile_is_device(f->kind))
			return devfile_read(rq, f->kind, len);
		break;
	}
	bool positioned = rq->d.opcode == FS_PREAD;
	struct ext2_stat st;
	int rc = ext2_stat(fm_fs_for(rq), f->ino, &st);
	if (rc < 0)
		return fm_result(rc, "read");
	if (off >= st.size || len == 0)
		return 0;
	uint64_t n = st.size - off < len ? st.size - off : len;
	int64_t got = read_blocks(rq, f->ino, off, rq->data, n, off == f->next_sequential);
	if (got > 0) {
		f->next_sequential = off + (uint64_t)got;
		if (!positioned)
			f->offset = off + (uint64_t)got;
	}
	return got;
}

int64_t do_write(struct server_request *rq)
{
	int64_t status;
	uint64_t off, len = SERVER_IN(rq, struct fs_io_args)->length;
	struct open_file *f = data_call(rq, true, &off, &status);
	if (!f)
		return status;
	if (events_kind(f->kind))
		return events_write(rq, f);
	switch (f->kind) {
	case FM_PIPE:
		return pipe_write(rq, f);
	case FM_CONSOLE:
		return console_forward(rq, f, true);
	case FM_SOCKET:
		return socket_write(rq, f);   /* send to where it is bound, as on Linux */
	case FM_INET:
		return inet_io(rq, f, true);
	case FM_PROC:
		return procfs_write(rq, f);   /* /proc/<pid>/comm, or -EIO */
	default:
		if (devfile_is_device(f->kind))
			return devfile_write(f->kind, len);
		break;
	}
	bool positioned = rq->d.opcode == FS_PWRITE;
	if (!positioned && (f->flags & O_APPEND)) {
		struct ext2_stat st;
		int rc = ext2_stat(fm_fs_for(rq), f->ino, &st);
		if (rc < 0)
			return fm_result(rc, "write");
		off = st.size;
	}
	int64_t put = ext2_write(fm_fs_for(rq), f->ino, off, rq->data, len);
	if (put < 0)
		return fm_result(put, "write");
	count_copies(off, (uint64_t)put);
	if (!positioned)
		f->offset = off + (uint64_t)put;
	return put;
}

int64_t do_lseek(struct server_request *rq)
{
	struct open_file *f = files_get(rq->d.requester, SERVER_IN(rq, struct fs_lseek_args)->fd);
	if (!f)
		return -EBADF;
	if (f->kind == FM_CONSOLE || f->kind == FM_PIPE || f->kind == FM_SOCKET || f->kind == FM_INET ||
	    f->kind == FM_EPOLL)
		return -ESPIPE;
	if (events_kind(f->kind))
		return 0;   /* as Linux's eventfd and timerfd (noop_llseek) */
	if (devfile_is_device(f->kind))
		return 0;   /* as Linux: the memory devices stay at 0 */
	int64_t offset = SERVER_IN(rq, struct fs_lseek_args)->offset, base;
	switch (SERVER_IN(rq, struct fs_lseek_args)->whence) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = (int64_t)f->offset;
		break;
	case SEEK_END: {
		if (f->kind == FM_PROC) {
			base = (int64_t)procfs_size(f);
			break;
		}
		if (f->ino == 0)
			return -ESTALE;
		struct ext2_stat st;
		int rc = ext2_stat(fm_fs_for(rq), f->ino, &st);
		if (rc < 0)
			return fm_result(rc, "lseek");
		base = (int64_t)st.size;
		break;
	}
	default:
		return -EINVAL;
	}
	if ((offset > 0 && base > INT64_MAX - offset) || base + offset < 0)
		return -EINVAL;
	f->offset = (uint64_t)(base + offset);
	return (int64_t)f->offset;
}

static int64_t put_stat(struct server_request *rq, const struct myrmex_stat *st)
{
	if (!rq->data || rq->data_size < sizeof(*st))
		return -EINVAL;
	memcpy(rq->data, st, sizeof(*st));
	return 0;
}

int64_t stat_inode(struct server_request *rq, uint32_t ino)
{
	if (!rq->data || rq->data_size < sizeof(struct myrmex_stat))
		return -EINVAL;
	struct ext2_stat st;
	int rc = ext2_stat(fm_fs_for(rq), ino, &st);
	if (rc < 0)
		return fm_result(rc, "stat");
	struct myrmex_stat out;
	memset(&out, 0, sizeof(out));
	out.st_dev = FS_ST_DEV_DISK;
	out.st_ino = st.ino;
	out.st_nlink = st.links;
	out.st_mode = st.mode;
	out.st_uid = st.uid;
	out.st_gid = st.gid;
	out.st_size = (int64_t)st.size;
	out.st_blksize = FM_BLOCK;
	out.st_blocks = (int64_t)st.blocks;
	out.st_atime_sec = st.atime;
	out.st_atime_nsec = st.atime_nsec;
	out.st_mtime_sec = st.mtime;
	out.st_mtime_nsec = st.mtime_nsec;
	out.st_ctime_sec = st.ctime;
	out.st_ctime_nsec = st.ctime_nsec;
	return put_stat(rq, &out);
}

int64_t stat_special(struct server_request *rq, uint32_t mode, uint64_t rdev, uint64_t ino)
{
	struct myrmex_stat out;
	memset(&out, 0, sizeof(out));
	out.st_dev = FS_ST_DEV_DEVICES;   /* not the disk: the file manager's own objects */
	out.st_ino = ino;
	out.st_mode = mode;
	out.st_rdev = rdev;
	out.st_nlink = 1;
	out.st_blksize = FM_BLOCK;
	return put_stat(rq, &out);
}

int64_t stat_description(struct server_request *rq, const struct open_file *f)
{
	if (events_kind(f->kind))
		return events_stat(rq, f);
	switch (f->kind) {
	case FM_CONSOLE:
		return devfile_stat(rq, FM_CONSOLE, f->rdev ? f->rdev : (5u << 8) | 1u);
	case FM_NULL:
	case FM_ZERO:
	case FM_FULL:
	case FM_RANDOM:
	case FM_URANDOM:
		return devfile_stat(rq, f->kind, 0);
	case FM_PIPE:
		return stat_special(rq, EXT2_S_IFIFO | 0600, 0, 1000u + pipe_number(f->pipe));
	case FM_PROC:
		return procfs_fstat(rq, f);
	case FM_SOCKET:
	case FM_INET:
		return stat_special(rq, EXT2_S_IFSOCK | 0777, 0, 2000u);
	default:
		if (f->kind == FM_DIR && f->ino == 0)
			return removed_dir_stat(rq);   /* removed.c */
		return f->ino ? stat_inode(rq, f->ino) : -ESTALE;
	}
}

int64_t do_fstat(struct server_request *rq)
{
	struct open_file *f = files_get(rq->d.requester, SERVER_IN(rq, struct fs_fd_args)->fd);
	return f ? stat_description(rq, f) : -EBADF;
}

int64_t do_ftruncate(struct server_request *rq)
{
	const struct fs_ftruncate_args *a = SERVER_IN(rq, struct fs_ftruncate_args);
	uint64_t size = a->size;
	struct open_file *f = files_get(rq->d.requester, a->fd);
	if (!f)
		return -EBADF;
	if (f->kind != FM_FILE || !ofd_can_write(f))
		return -EINVAL;   /* as Linux: not a regular file open for writing */
	if (f->ino == 0)
		return -ESTALE;
	if ((int64_t)size < 0)
		return -EINVAL;
	/* Shrinking frees blocks: the maps let go of them first. */
	struct ext2_stat st;
	int rc = ext2_stat(fm_fs_for(rq), f->ino, &st);
	if (rc == 0 && size < st.size)
		rc = fmap_truncate(f->ino, size);
	if (rc == 0)
		rc = ext2_truncate(fm_fs_for(rq), f->ino, size);
	return fm_result(rc, "ftruncate");
}
