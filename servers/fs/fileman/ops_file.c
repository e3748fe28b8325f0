/*
 * ops_file.c - the handlers for descriptors and file data: open, close,
 * read/pread, write/pwrite, lseek, fstat, stat, ftruncate.
 *
 * read copies each block from the cache into the caller's data ICA (one
 * copy per block, counted) after looking the block up itself, so that it can
 * ask the cache for read-ahead when the descriptor is read sequentially.
 * write goes through the ext2 library, whose whole-block writes land in the
 * cache as one copy from the data ICA; the copies are counted per block.
 */
#include "fileman.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#define READ_AHEAD_BLOCKS 64u

static bool can_read(const struct open_file *f)
{
	return (f->flags & O_ACCMODE) != O_WRONLY;
}

static bool can_write(const struct open_file *f)
{
	return (f->flags & O_ACCMODE) != O_RDONLY;
}

static void count_copies(uint64_t off, uint64_t bytes)
{
	if (bytes == 0)
		return;
	fm_stats.v[FS_STAT_COPIES] += (off + bytes - 1) / FM_BLOCK - off / FM_BLOCK + 1;
	fm_stats.v[FS_STAT_COPY_BYTES] += bytes;
}

/* The descriptor of the request's arg[0], or NULL with *status = -EBADF. */
static struct open_file *request_file(struct request *rq, int64_t *status)
{
	struct open_file *f = files_get(rq->pid, rq->arg[0]);
	*status = f ? 0 : -EBADF;
	return f;
}

/* For data calls on a file: stale and kind checks. */
static int64_t check_data_file(const struct open_file *f)
{
	if (f->kind == FM_DIR)
		return -EISDIR;
	if (f->ino == 0)
		return -ESTALE;
	return 0;
}

int64_t op_open(struct request *rq)
{
	int err = 0;
	const char *path = request_path(rq, &err);
	if (!path)
		return err;
	int flags = (int)rq->arg[0];
	int access = flags & O_ACCMODE;
	if (access == O_ACCMODE)
		return -EINVAL;
	struct open_file *f;
	if (strcmp(path, "/dev/console") == 0) {
		int fd = files_alloc(rq->pid, &f);
		if (fd >= 0) {
			f->kind = FM_CONSOLE;
			f->flags = flags;
		}
		return fd;
	}
	uint32_t ino = 0;
	int rc = ext2_lookup_path(&fm_fs, path, &ino);
	if (rc == 0 && (flags & O_CREAT) && (flags & O_EXCL))
		return -EEXIST;
	if (rc == -ENOENT && (flags & O_CREAT)) {
		uint32_t dir;
		char name[EXT2_NAME_MAX + 1];
		rc = path_parent(path, &dir, name);
		if (rc == 0 && name[0] == '\0')
			rc = -EISDIR;
		if (rc == 0)
			rc = ext2_create(&fm_fs, dir, name, (uint32_t)rq->arg[1] & 07777, 0, 0, &ino);
	}
	if (rc < 0)
		return fm_result(rc, "open");
	struct ext2_stat st;
	rc = ext2_stat(&fm_fs, ino, &st);
	if (rc < 0)
		return fm_result(rc, "open");
	enum fm_kind kind;
	switch (st.mode & EXT2_S_IFMT) {
	case EXT2_S_IFDIR:
		if (access != O_RDONLY)
			return -EISDIR;
		kind = FM_DIR;
		break;
	case EXT2_S_IFREG:
		if (flags & O_DIRECTORY)
			return -ENOTDIR;
		kind = FM_FILE;
		break;
	case EXT2_S_IFLNK:
		return -ELOOP;   /* symbolic links are not followed */
	default:
		return -ENXIO;   /* device nodes and the like: nothing serves them */
	}
	if (kind == FM_FILE && (flags & O_TRUNC) && access != O_RDONLY && st.size) {
		rc = ext2_truncate(&fm_fs, ino, 0);
		if (rc < 0)
			return fm_result(rc, "open (truncate)");
	}
	int fd = files_alloc(rq->pid, &f);
	if (fd < 0)
		return fd;
	f->kind = kind;
	f->ino = ino;
	f->flags = flags;
	return fd;
}

int64_t op_close(struct request *rq)
{
	int64_t status;
	if (!request_file(rq, &status))
		return status;
	files_close(rq->pid, (int)rq->arg[0]);
	return 0;
}

/* Copies n bytes of file ino at off into dst, a block at a time from the
 * cache. Returns the bytes copied (short on an error after some), or -errno. */
static int64_t read_blocks(uint32_t ino, uint64_t off, uint8_t *dst, uint64_t n, bool sequential)
{
	uint64_t done = 0;
	while (done < n) {
		uint64_t pos = off + done;
		uint32_t in_block = (uint32_t)(pos % FM_BLOCK);
		uint64_t chunk = FM_BLOCK - in_block;
		if (chunk > n - done)
			chunk = n - done;
		uint64_t disk = 0;
		int rc = ext2_file_block(&fm_fs, ino, pos / FM_BLOCK, false, &disk);
		if (rc == 0 && disk == 0) {
			memset(dst + done, 0, chunk);   /* a hole */
		} else if (rc == 0) {
			uint64_t left = (n - done + in_block + FM_BLOCK - 1) / FM_BLOCK;
			unsigned ahead = sequential ? READ_AHEAD_BLOCKS : (unsigned)(left < 64 ? left : 64);
			const uint8_t *p = cache_get(disk, ahead, &rc);
			if (p)
				memcpy(dst + done, p + in_block, chunk);
		}
		if (rc < 0) {
			count_copies(off, done);
			return done ? (int64_t)done : fm_result(rc, "read");
		}
		done += chunk;
	}
	count_copies(off, done);
	return (int64_t)done;
}

/* What read and write check alike: the descriptor and its direction, the
 * kind, the length (arg[1]) against the data ICA, and the offset (arg[2] for
 * the positioned forms, else the descriptor's) in *off. NULL with *status
 * set; a console descriptor's call is passed on (*status FM_LATER). */
static struct open_file *data_call(struct request *rq, bool write, uint64_t *off,
                                   int64_t *status)
{
	struct open_file *f = request_file(rq, status);
	if (!f)
		return NULL;
	bool allowed = write ? can_write(f) : can_read(f);
	if (f->kind == FM_CONSOLE) {
		*status = allowed ? console_forward(rq, write) : -EBADF;
		return NULL;
	}
	if (!allowed)
		*status = -EBADF;
	else if ((*status = check_data_file(f)) == 0 && (!rq->data || rq->arg[1] > rq->data_size))
		*status = -EINVAL;
	if (*status < 0)
		return NULL;
	bool positioned = rq->d.opcode == (write ? FS_PWRITE : FS_PREAD);
	*off = positioned ? rq->arg[2] : f->offset;
	if ((int64_t)*off < 0) {
		*status = -EINVAL;
		return NULL;
	}
	return f;
}

int64_t op_read(struct request *rq)
{
	int64_t status;
	uint64_t off, len = rq->arg[1];
	struct open_file *f = data_call(rq, false, &off, &status);
	if (!f)
		return status;
	bool positioned = rq->d.opcode == FS_PREAD;
	struct ext2_stat st;
	int rc = ext2_stat(&fm_fs, f->ino, &st);
	if (rc < 0)
		return fm_result(rc, "read");
	if (off >= st.size || len == 0)
		return 0;
	uint64_t n = st.size - off < len ? st.size - off : len;
	int64_t got = read_blocks(f->ino, off, rq->data, n, off == f->next_sequential);
	if (got > 0) {
		f->next_sequential = off + (uint64_t)got;
		if (!positioned)
			f->offset = off + (uint64_t)got;
	}
	return got;
}

int64_t op_write(struct request *rq)
{
	int64_t status;
	uint64_t off, len = rq->arg[1];
	struct open_file *f = data_call(rq, true, &off, &status);
	if (!f)
		return status;
	bool positioned = rq->d.opcode == FS_PWRITE;
	if (!positioned && (f->flags & O_APPEND)) {
		struct ext2_stat st;
		int rc = ext2_stat(&fm_fs, f->ino, &st);
		if (rc < 0)
			return fm_result(rc, "write");
		off = st.size;
	}
	int64_t put = ext2_write(&fm_fs, f->ino, off, rq->data, len);
	if (put < 0)
		return fm_result(put, "write");
	count_copies(off, (uint64_t)put);
	if (!positioned)
		f->offset = off + (uint64_t)put;
	return put;
}

int64_t op_lseek(struct request *rq)
{
	int64_t status;
	struct open_file *f = request_file(rq, &status);
	if (!f)
		return status;
	if (f->kind == FM_CONSOLE)
		return -ESPIPE;
	int64_t offset = (int64_t)rq->arg[1], base;
	switch (rq->arg[2]) {
	case SEEK_SET:
		base = 0;
		break;
	case SEEK_CUR:
		base = (int64_t)f->offset;
		break;
	case SEEK_END: {
		if (f->ino == 0)
			return -ESTALE;
		struct ext2_stat st;
		int rc = ext2_stat(&fm_fs, f->ino, &st);
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

/* Fills a Linux struct stat for inode ino into the request's data ICA. */
static int64_t put_stat(struct request *rq, uint32_t ino)
{
	if (!rq->data || rq->data_size < sizeof(struct myrmex_stat))
		return -EINVAL;
	struct ext2_stat st;
	int rc = ext2_stat(&fm_fs, ino, &st);
	if (rc < 0)
		return fm_result(rc, "stat");
	struct myrmex_stat out;
	memset(&out, 0, sizeof(out));
	out.st_dev = 1;
	out.st_ino = st.ino;
	out.st_nlink = st.links;
	out.st_mode = st.mode;
	out.st_uid = st.uid;
	out.st_gid = st.gid;
	out.st_size = (int64_t)st.size;
	out.st_blksize = FM_BLOCK;
	out.st_blocks = (int64_t)st.blocks;
	out.st_atime_sec = st.atime;
	out.st_mtime_sec = st.mtime;
	out.st_ctime_sec = st.ctime;
	memcpy(rq->data, &out, sizeof(out));
	return 0;
}

int64_t op_fstat(struct request *rq)
{
	int64_t status;
	struct open_file *f = request_file(rq, &status);
	if (!f)
		return status;
	if (f->kind == FM_CONSOLE) {
		if (!rq->data || rq->data_size < sizeof(struct myrmex_stat))
			return -EINVAL;
		struct myrmex_stat out;
		memset(&out, 0, sizeof(out));
		out.st_mode = EXT2_S_IFCHR | 0620;
		out.st_rdev = (5u << 8) | 1u;   /* the console's Linux device number, 5:1 */
		out.st_nlink = 1;
		out.st_blksize = 1024;
		memcpy(rq->data, &out, sizeof(out));
		return 0;
	}
	if (f->ino == 0)
		return -ESTALE;
	return put_stat(rq, f->ino);
}

int64_t op_stat(struct request *rq)
{
	int err = 0;
	const char *path = request_path(rq, &err);
	if (!path)
		return err;
	uint32_t ino;
	int rc = ext2_lookup_path(&fm_fs, path, &ino);
	if (rc < 0)
		return fm_result(rc, "stat");
	return put_stat(rq, ino);
}

int64_t op_ftruncate(struct request *rq)
{
	int64_t status;
	struct open_file *f = request_file(rq, &status);
	if (!f)
		return status;
	if (f->kind != FM_FILE || !can_write(f))
		return -EINVAL;   /* as Linux: not a regular file open for writing */
	if (f->ino == 0)
		return -ESTALE;
	if ((int64_t)rq->arg[1] < 0)
		return -EINVAL;
	return fm_result(ext2_truncate(&fm_fs, f->ino, rq->arg[1]), "ftruncate");
}
