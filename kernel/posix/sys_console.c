/*
 * The kernel console of native (non-POSIX) programs and servers:
 * descriptors 1 and 2 write to it; there is no input (read: -EBADF). POSIX
 * processes reach the console server through the file manager instead
 * (kernel/posix/sys_file.c). uname lives here too.
 */
#include <posix/syscall.h>
#include <kernel/errno.h>
#include <kernel/printk.h>
#include <kernel/string.h>
#include <kernel/usercopy.h>
#include <posix/posix.h>
#include <posix/iovec.h>
#include <arch/linux_abi.h>

#define CHUNK 256
#define TIOCGWINSZ 0x5413

static bool is_console(uint64_t fd)
{
	return fd == 1 || fd == 2;
}

/* Writes user bytes to the console; returns the count written or -EFAULT
 * when not even the first byte could be read. */
static long console_write_user(uptr_t buf, uint64_t count)
{
	if (!user_range_ok(buf, count))
		return -EFAULT;
	char chunk[CHUNK];
	uint64_t done = 0;
	while (done < count) {
		uint64_t n = MIN(count - done, CHUNK);
		if (copy_from_user(chunk, buf + done, n) < 0)
			return done ? (long)done : -EFAULT;
		console_write(chunk, n);
		done += n;
	}
	return (long)done;
}

long kconsole_write(const struct syscall_args *a)
{
	if (!is_console(a->arg[0]))
		return -EBADF;
	return console_write_user(a->arg[1], a->arg[2]);
}

static long console_move(uptr_t base, uint64_t len, void *ctx)
{
	(void)ctx;
	return console_write_user(base, len);
}

long kconsole_writev(const struct syscall_args *a)
{
	if (!is_console(a->arg[0]))
		return -EBADF;
	return user_iovecs_move(a->arg[1], a->arg[2], console_move, NULL);
}

long kconsole_read(const struct syscall_args *a)
{
	(void)a;
	return -EBADF;
}

long kconsole_ioctl(const struct syscall_args *a)
{
	uint64_t fd = a->arg[0], request = a->arg[1];
	if (fd > 2)
		return -EBADF;
	if (request == TIOCGWINSZ) {
		const uint16_t winsize[4] = { 24, 80, 0, 0 };
		return copy_to_user(a->arg[2], winsize, sizeof(winsize));
	}
	return -ENOTTY;
}

struct utsname {
	char sysname[65], nodename[65], release[65], version[65], machine[65], domainname[65];
};

long sys_uname(const struct syscall_args *a)
{
	struct utsname u;
	memset(&u, 0, sizeof(u));
	strlcpy(u.sysname, "Myrmex", sizeof(u.sysname));
	strlcpy(u.nodename, "myrmex", sizeof(u.nodename));
	strlcpy(u.release, "0.1.0", sizeof(u.release));
	strlcpy(u.version, "#1", sizeof(u.version));
	strlcpy(u.machine, LINUX_UTS_MACHINE, sizeof(u.machine));
	strlcpy(u.domainname, "(none)", sizeof(u.domainname));
	return copy_to_user(a->arg[0], &u, sizeof(u));
}
