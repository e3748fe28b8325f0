/*
 * image.c - executables for proc_exec: the file's bytes read from the file
 * manager straight into 64-page ICAs (FS_PREAD lends each ICA to the file
 * manager, which fills it from its cache: one copy). The ICAs stay with pm
 * and are reused while the file is unchanged (same inode, size, mtime and
 * ctime), so a shell exec'ing busybox again and again reads it once.
 */
#include "pm.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>

#define IMAGE_ICA_PAGES 64u
#define IMAGE_ICA_BYTES (IMAGE_ICA_PAGES * 4096ull)
#define CACHE_SLOTS     4

struct cached {
	struct image im;
	struct myrmex_stat st;   /* of the file when it was read */
	uint64_t last_use;
	int used;
};

static struct cached cache[CACHE_SLOTS];
static uint64_t use_clock;

static long open_as(int pid, const char *path, uint32_t uid, uint32_t gid)
{
	uint32_t h;
	char *buf = pm_scratch(&h);
	if (!buf)
		return -ENOMEM;
	size_t len = strlen(path);
	if (len >= FS_PATH_MAX)
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	uint64_t args[8] = { O_RDONLY | O_CLOEXEC, 0, 0, 0, 0, (uint64_t)pid };
	return pm_fs_call_as(uid, gid, FS_OPEN_AS, args, h, NULL);
}

static long stat_fd(long fd, struct myrmex_stat *st)
{
	uint32_t h;
	void *buf = pm_scratch(&h);
	if (!buf)
		return -ENOMEM;
	uint64_t args[8] = { (uint64_t)fd };
	long r = pm_fs_call(FS_FSTAT, args, h, NULL);
	if (r >= 0)
		memcpy(st, buf, sizeof(*st));
	return r;
}

static void close_fd(long fd)
{
	uint64_t args[8] = { (uint64_t)fd };
	pm_fs_call(FS_CLOSE, args, 0, NULL);
}

static void release(struct image *im)
{
	for (uint32_t i = 0; i < im->nica; i++)
		myrmex_ica_free(im->ica[i]);
	memset(im, 0, sizeof(*im));
}

static long load(long fd, uint64_t size, struct image *im)
{
	uint64_t n = (size + IMAGE_ICA_BYTES - 1) / IMAGE_ICA_BYTES;
	if (size == 0)
		return -ENOEXEC;
	if (n > MYRMEX_EXEC_MAX_IMAGES)
		return -ENOMEM;
	for (uint64_t off = 0; off < size; off += IMAGE_ICA_BYTES) {
		uint64_t len = size - off < IMAGE_ICA_BYTES ? size - off : IMAGE_ICA_BYTES;
		long h = myrmex_ica_alloc((uint32_t)((len + 4095) / 4096));
		if (h < 0) {
			release(im);
			return h;
		}
		im->ica[im->nica++] = (uint32_t)h;
		uint64_t args[8] = { (uint64_t)fd, len, off };
		long r = pm_fs_call(FS_PREAD, args, (uint32_t)h, NULL);
		if (r != (long)len) {
			if (r == -EIO || r == -EPIPE || r >= 0)
				im->nica--;   /* not back, or short: do not free twice */
			release(im);
			return r < 0 ? r : -EIO;
		}
	}
	im->size = size;
	return 0;
}

static int same_file(const struct myrmex_stat *a, const struct myrmex_stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtime_sec == b->st_mtime_sec && a->st_mtime_nsec == b->st_mtime_nsec &&
	       a->st_ctime_sec == b->st_ctime_sec && a->st_ctime_nsec == b->st_ctime_nsec;
}

/* The cached copy of st's file, loading it into the least recently used
 * slot when there is none. */
static long lookup_or_load(long fd, const struct myrmex_stat *st, const struct image **out)
{
	struct cached *victim = &cache[0];
	for (int i = 0; i < CACHE_SLOTS; i++) {
		struct cached *c = &cache[i];
		if (c->used && same_file(&c->st, st)) {
			c->last_use = ++use_clock;
			*out = &c->im;
			return 0;
		}
		if (!c->used || (victim->used && c->last_use < victim->last_use))
			victim = c;
	}
	if (victim->used)
		release(&victim->im);
	victim->used = 0;
	long r = load(fd, (uint64_t)st->st_size, &victim->im);
	if (r < 0)
		return r;
	victim->st = *st;
	victim->used = 1;
	victim->last_use = ++use_clock;
	*out = &victim->im;
	return 0;
}

long image_get(int pid, const char *path, uint32_t uid, uint32_t gid, const struct image **out,
               struct myrmex_stat *st)
{
	long fd = open_as(pid, path, uid, gid);
	if (fd < 0)
		return fd;
	long r = stat_fd(fd, st);
	/* The file manager checked the caller's execute permission; a file
	 * of another kind (a special name) is refused here, as Linux does. */
	if (r >= 0 && ((st->st_mode & 0170000) != 0100000 || !(st->st_mode & 0111)))
		r = -EACCES;
	if (r >= 0)
		r = lookup_or_load(fd, st, out);
	close_fd(fd);
	return r < 0 ? r : 0;
}

const char *image_head(const struct image *im, uint64_t *n)
{
	*n = im->size < 4096 ? im->size : 4096;
	return myrmex_ica_addr(im->ica[0]);
}
