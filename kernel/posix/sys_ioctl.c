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
#include <arch/linux_abi.h>

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
	/* The interface requests of sockets: a struct ifreq (40 bytes) in and
	 * out (fileman/ifconf.c). SIOCGIFCONF has a shape of its own, below. */
	{ 0x8910, 40, 40 },  /* SIOCGIFNAME */
	{ 0x8913, 40, 40 },  /* SIOCGIFFLAGS */
	{ 0x8915, 40, 40 },  /* SIOCGIFADDR */
	{ 0x8919, 40, 40 },  /* SIOCGIFBRDADDR */
	{ 0x891b, 40, 40 },  /* SIOCGIFNETMASK */
	{ 0x891d, 40, 40 },  /* SIOCGIFMETRIC */
	{ 0x8921, 40, 40 },  /* SIOCGIFMTU */
	{ 0x8927, 40, 40 },  /* SIOCGIFHWADDR */
	{ 0x8933, 40, 40 },  /* SIOCGIFINDEX */
	{ 0x8942, 40, 40 },  /* SIOCGIFTXQLEN */
	{ 0x8970, 40, 40 },  /* SIOCGIFMAP */
	/* The routing requests: a struct rtentry in (fileman/netroute.c). */
	{ 0x890b, 120, 0 },  /* SIOCADDRT */
	{ 0x890c, 120, 0 },  /* SIOCDELRT */
};

#define SIOCGIFCONF  0x8912
#define IFCONF_MAX   4096u   /* bytes of the list one call fills: 102 interfaces */

/* SIOCGIFCONF: the list written to the caller's buffer (ifc_buf, room
 * ifc_len), or with no buffer the room the list needs; ifc_len updated. */
static long ifconf(uint64_t fd, uptr_t arg)
{
	struct linux_ifconf c;
	if (copy_from_user(&c, arg, sizeof(c)) < 0)
		return -EFAULT;
	if (c.len < 0)
		return -EINVAL;
	uint32_t room = c.buf ? (uint32_t)MIN((uint64_t)c.len, (uint64_t)IFCONF_MAX) : 0;
	if (room && !user_range_ok(c.buf, room))
		return -EFAULT;
	struct fwd f;
	int err = forward_begin(&f, SERVICE_FILES, FS_IOCTL, room);
	if (err)
		return err;
	f.arg[0] = fd;
	f.arg[1] = SIOCGIFCONF;
	f.arg[2] = room;
	long r = forward_call(&f);
	if (r < 0)
		return r;
	if (room && ((uint64_t)r > room || !f.data))
		return -EIO;
	if (room && r > 0 && copy_to_user(c.buf, forward_data(&f), (uint64_t)r) < 0)
		return -EFAULT;
	c.len = (int32_t)r;
	return copy_to_user(arg, &c, sizeof(c)) < 0 ? -EFAULT : 0;
}

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
	case SIOCGIFCONF:
		return ifconf(fd, arg);
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
