/*
 * statfs.c - which file system statfs and fstatfs name for each kind of
 * object, as Linux: ext2 for a file on the disk, devtmpfs's tmpfs for
 * /dev, proc for /proc, and for descriptors without a name pipefs (a
 * pipe), sockfs (an inet socket) and anon_inodefs (eventfd, epoll); ST_VALID in
 * every answer; the bad inputs (a closed descriptor, a bad buffer, a
 * missing path).
 */
#include "posix_test.h"
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/syscall.h>

#define ST_VALID 0x0020

static void show(const char *what, long r, const struct statfs *s)
{
	if (r < 0) {
		say("%s: error %s\n", what, err_name(errno));
		return;
	}
	say("%s: type %#lx bsize %ld namelen %ld valid %s\n", what, (unsigned long)s->f_type,
	    (long)s->f_bsize, (long)s->f_namelen, yes(s->f_flags & ST_VALID));
}

/* fstatfs of fd, also showing whether the object has no blocks. */
static void show_fd(const char *what, int fd)
{
	struct statfs s;
	memset(&s, 0, sizeof s);
	long r = fd < 0 ? -1 : fstatfs(fd, &s);
	show(what, r, &s);
	if (r == 0)
		say("%s: no blocks %s, no inodes %s\n", what, yes(s.f_blocks == 0),
		    yes(s.f_files == 0));
}

int main(void)
{
	struct statfs s;
	show("disk .", statfs(".", &s), &s);
	show("/dev", statfs("/dev", &s), &s);
	show("/dev/null", statfs("/dev/null", &s), &s);
	show("/proc", statfs("/proc", &s), &s);
	show("/proc/self/status", statfs("/proc/self/status", &s), &s);

	int p[2];
	if (pipe(p) == 0) {
		show_fd("pipe read end", p[0]);
		show_fd("pipe write end", p[1]);
		close(p[0]);
		close(p[1]);
	}
	int sock = socket(AF_INET, SOCK_STREAM, 0);
	show_fd("inet socket", sock);
	if (sock >= 0)
		close(sock);
	int e = eventfd(0, 0);
	show_fd("eventfd", e);
	int ep = epoll_create1(0);
	show_fd("epoll", ep);
	int fd = open("/dev/null", O_RDONLY);
	show_fd("open /dev/null", fd);
	int self = open("/proc/self/status", O_RDONLY);
	show_fd("open /proc/self/status", self);

	/* Bad inputs. */
	show("missing path", statfs("/no/such/file", &s), &s);
	show("empty path", statfs("", &s), &s);
	/* Straight to the kernel: musl's wrappers would touch a bad buffer. */
	show("NULL buffer", syscall(SYS_statfs, ".", NULL), NULL);
	show("bad path pointer", syscall(SYS_statfs, 8L, &s), &s);
	show("fstatfs -1", fstatfs(-1, &s), &s);
	close(e);
	show("fstatfs closed", fstatfs(e, &s), &s);
	show("fstatfs NULL buffer", syscall(SYS_fstatfs, ep, NULL), NULL);
	show("fstatfs bad buffer", syscall(SYS_fstatfs, ep, 16L), NULL);
	close(ep);
	close(fd);
	close(self);
	return 0;
}
