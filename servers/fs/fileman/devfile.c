/*
 * devfile.c - the device files the file manager serves itself: /dev/null,
 * zero, full, random, urandom, tty and console, with Linux's device numbers
 * and modes. They are known by name (path_special), whether or not the
 * disk has a /dev; the root images also hold nodes of the same names
 * (tools/e2fs.py: make_dev_nodes) so that `ls /dev` lists them, and an
 * lstat or stat through either way gives the same answer (devfile_stat).
 *
 * random and urandom read the kernel's getrandom (RDRAND, or its seeded
 * generator: kernel/posix/random.c); both never block, as Linux's since 5.6
 * once seeded.
 */
#include "fileman.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

struct fm_device {
	const char *name;     /* the absolute path */
	enum fm_kind kind;
	uint32_t major, minor;
	uint32_t perm;        /* the mode's permission bits, as Linux's devtmpfs */
};

/* st_ino of device i is DEV_INO_BASE + i (the console keeps 1, /dev/null
 * 2, as before: tests compare them between stat and fstat). */
static const struct fm_device devices[] = {
	{ "/dev/console", FM_CONSOLE, 5, 1, 0600 },
	{ "/dev/null", FM_NULL, 1, 3, 0666 },
	{ "/dev/tty", FM_CONSOLE, 5, 0, 0666 },
	{ "/dev/zero", FM_ZERO, 1, 5, 0666 },
	{ "/dev/full", FM_FULL, 1, 7, 0666 },
	{ "/dev/random", FM_RANDOM, 1, 8, 0666 },
	{ "/dev/urandom", FM_URANDOM, 1, 9, 0666 },
};
#define NDEVICES (sizeof(devices) / sizeof(devices[0]))

static uint64_t rdev_of(const struct fm_device *d)
{
	return ((uint64_t)d->major << 8) | d->minor;
}

const char *devfile_by_name(const char *normal, enum fm_kind *kind, uint64_t *rdev)
{
	for (unsigned i = 0; i < NDEVICES; i++) {
		if (strcmp(normal, devices[i].name) == 0) {
			*kind = devices[i].kind;
			*rdev = rdev_of(&devices[i]);
			return devices[i].name;
		}
	}
	return NULL;
}

/* The device of kind (the console: rdev tells /dev/tty from it). */
static const struct fm_device *by_kind(enum fm_kind kind, uint64_t rdev)
{
	for (unsigned i = 0; i < NDEVICES; i++)
		if (devices[i].kind == kind && (kind != FM_CONSOLE || rdev_of(&devices[i]) == rdev))
			return &devices[i];
	return NULL;
}

int64_t devfile_stat(struct server_request *rq, enum fm_kind kind, uint64_t rdev)
{
	const struct fm_device *d = by_kind(kind, rdev);
	if (!d)
		return -ENODEV;
	return stat_special(rq, EXT2_S_IFCHR | d->perm, rdev_of(d), 1u + (uint64_t)(d - devices));
}

bool devfile_is_device(enum fm_kind kind)
{
	return kind == FM_NULL || kind == FM_ZERO || kind == FM_FULL || kind == FM_RANDOM ||
	       kind == FM_URANDOM;
}

int64_t devfile_read(struct server_request *rq, enum fm_kind kind, uint64_t len)
{
	switch (kind) {
	case FM_NULL:
		return 0;
	case FM_ZERO:
	case FM_FULL:
		memset(rq->data, 0, len);
		return (int64_t)len;
	default: {
		/* getrandom gives at most 32 MiB - 1 a call, more than a data ICA. */
		uint64_t done = 0;
		while (done < len) {
			ssize_t r = getrandom(rq->data + done, len - done, 0);
			if (r <= 0)
				return done ? (int64_t)done : (r < 0 ? -EIO : 0);
			done += (uint64_t)r;
		}
		return (int64_t)done;
	}
	}
}

int64_t devfile_write(enum fm_kind kind, uint64_t len)
{
	/* /dev/full is always full; the others swallow everything (writing to
	 * random or urandom mixes nothing in here: the kernel's source needs
	 * no help). */
	return kind == FM_FULL ? -ENOSPC : (int64_t)len;
}
