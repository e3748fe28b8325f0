/*
 * ioctl for POSIX processes: forwarded to the file manager (FS_IOCTL), which
 * passes terminal requests on console descriptors to the console server.
 * The kernel knows each request's shape (the structure it reads or writes),
 * copies it through the data ICA and never lets a size come from the user.
 * FIONBIO, FIOCLEX and FIONCLEX are descriptor flags: fcntl does them.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <posix/forward.h>
#include <posix/posix.h>
#include <kernel/usercopy.h>
#include <myrmex/fs.h>

#define FIONBIO    0x5421
#define FIONCLEX   0x5450
#define FIOCLEX    0x5451
#define O_NONBLOCK 04000
#define F_SETFD    2
#define F_GETFL    3
#define F_SETFL    4

struct ioctl_shape {
	uint32_t request;
	uint16_t in, out;    /* bytes the request reads from / writes to *arg */
};

/* The terminal requests (the console server's, include/myrmex/console.h). */
static const struct ioctl_shape shapes[] = {
	{ 0x5401, 0, 36 },   /* TCGETS: struct termios */
	{ 0x5402, 36, 0 },   /* TCSETS */
	{ 0x5403, 36, 0 },   /* TCSETSW */
	{ 0x5404, 36, 0 },   /* TCSETSF */
	{ 0x540F, 0, 4 },    /* TIOCGPGRP */
	{ 0x5410, 4, 0 },    /* TIOCSPGRP */
	{ 0x5413, 0, 8 },    /* TIOCGWINSZ: struct winsize */
	{ 0x5414, 8, 0 },    /* TIOCSWINSZ */
	{ 0x541B, 0, 4 },    /* FIONREAD */
	{ 0x5429, 0, 4 },    /* TIOCGSID */
	{ 0x8927, 40, 40 },  /* SIOCGIFHWADDR: struct ifreq (packet sockets) */
	{ 0x8933, 40, 40 },  /* SIOCGIFINDEX */
};

static const struct ioctl_shape *shape_of(uint64_t request)
{
	for (unsigned i = 0; i < ARRAY_SIZE(shapes); i++)
		if (shapes[i].request == request)
			return &shapes[i];
	return NULL;
}

static long set_nonblocking(uint64_t fd, uptr_t arg)
{
	int32_t on;
	if (copy_from_user(&on, arg, sizeof(on)) < 0)
		return -EFAULT;
	long fl = posix_fs_call(FS_FCNTL, fd, F_GETFL, 0, NULL);
	if (fl < 0)
		return fl;
	fl = on ? (fl | O_NONBLOCK) : (fl & ~(long)O_NONBLOCK);
	return posix_fs_call(FS_FCNTL, fd, F_SETFL, (uint64_t)fl, NULL);
}

long sys_ioctl(const struct syscall_args *a)
{
	if (!posix_process())
		return kconsole_ioctl(a);
	uint64_t fd = a->arg[0], request = a->arg[1];
	uptr_t arg = a->arg[2];
	switch (request) {
	case FIONBIO:
		return set_nonblocking(fd, arg);
	case FIOCLEX:
	case FIONCLEX:
		return posix_fs_call(FS_FCNTL, fd, F_SETFD, request == FIOCLEX, NULL);
	}
	const struct ioctl_shape *s = shape_of(request);
	uint32_t size = s ? MAX(s->in, s->out) : 0;
	if (s && s->in && !user_range_ok(arg, s->in))
		return -EFAULT;
	if (s && s->out && !user_range_ok(arg, s->out))
		return -EFAULT;
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_IOCTL, size);
	if (err)
		return err;
	if (s && s->in && copy_from_user(forward_data(&f), arg, s->in) < 0)
		return -EFAULT;
	f.arg[0] = fd;
	f.arg[1] = request;
	f.arg[2] = arg;
	long r = forward_call(&f);
	if (r < 0 || !s || !s->out)
		return r;
	if (!f.data)
		return -EIO;
	return copy_to_user(arg, forward_data(&f), s->out) < 0 ? -EFAULT : r;
}
