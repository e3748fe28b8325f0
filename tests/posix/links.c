/*
 * links.c - hard and symbolic links: link/linkat (link counts, one inode
 * under two names, EEXIST, ENOENT, ENOTDIR, EPERM on a directory, EXDEV
 * from /dev, AT_SYMLINK_FOLLOW), symlink/symlinkat (fast and slow targets,
 * as st_blocks shows, readlink, lstat, following by open and stat, the
 * 40-link limit, loops, O_NOFOLLOW, unlink of a link), and bad input
 * (EFAULT, EINVAL, EBADF, ENAMETOOLONG).
 */
#include "posix_test.h"
#include <sys/syscall.h>

static void show_links(const char *what, const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		say("%s: error %s\n", what, err_name(errno));
	else
		say("%s: links %lu size %lld\n", what, (unsigned long)st.st_nlink, (long long)st.st_size);
}

static ino_t ino_of(const char *path, int follow)
{
	struct stat st;
	if ((follow ? stat(path, &st) : lstat(path, &st)) < 0)
		return 0;
	return st.st_ino;
}

static char *repeat(char c, size_t n)
{
	char *s = malloc(n + 1);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

static void show_symlink(const char *what, const char *path)
{
	struct stat st;
	char buf[4200];
	if (lstat(path, &st) < 0) {
		say("%s: lstat error %s\n", what, err_name(errno));
		return;
	}
	ssize_t n = readlink(path, buf, sizeof buf);
	say("%s: link %s mode %o size %lld blocks %lld readlink %zd\n", what,
	    yes(S_ISLNK(st.st_mode)), (unsigned)(st.st_mode & 07777), (long long)st.st_size,
	    (long long)st.st_blocks, n);
}

int main(void)
{
	scratch_enter("links");
	write_file("f", "hello\n", 0644);
	mkdir("d", 0755);

	say("== hard links\n");
	outcome("link f g", link("f", "g"));
	show_links("f", "f");
	say("g is f's inode: %s\n", yes(ino_of("g", 1) == ino_of("f", 1)));
	int fd = open("g", O_WRONLY | O_APPEND);
	write(fd, "more\n", 5);
	close(fd);
	show_links("f after a write through g", "f");
	outcome("link f g again", link("f", "g"));
	outcome("link missing x", link("missing", "x"));
	outcome("link f nodir/x", link("f", "nodir/x"));
	outcome("link f/x y", link("f/x", "y"));
	outcome("link d d2", link("d", "d2"));
	outcome("link /dev/null n", link("/dev/null", "n"));
	outcome("link f /dev/null", link("f", "/dev/null"));
	outcome("link f d", link("f", "d"));
	outcome("link f .", link("f", "."));
	int dfd = open("d", O_RDONLY | O_DIRECTORY);
	outcome("linkat f -> d/h", linkat(AT_FDCWD, "f", dfd, "h", 0));
	show_links("d/h", "d/h");
	outcome("linkat from d: h -> d/h2", linkat(dfd, "h", dfd, "h2", 0));
	outcome("linkat from d: h -> top", linkat(dfd, "h", AT_FDCWD, "top", 0));
	show_links("f now", "f");
	outcome("linkat bad flags", linkat(AT_FDCWD, "f", AT_FDCWD, "z", 0x8000));
	outcome("linkat bad dirfd", linkat(999, "f", AT_FDCWD, "z", 0));
	outcome("linkat new bad dirfd", linkat(AT_FDCWD, "f", 999, "z", 0));
	int ffd = open("f", O_RDONLY);
	outcome("linkat file as dirfd", linkat(ffd, "f", AT_FDCWD, "z", 0));
	close(ffd);
	outcome("unlink g", unlink("g"));
	outcome("unlink d/h2", unlink("d/h2"));
	outcome("unlink top", unlink("top"));
	show_links("f after unlinks", "f");

	say("== symbolic links\n");
	outcome("symlink f s", symlink("f", "s"));
	show_symlink("s", "s");
	say("stat s is f: %s\n", yes(ino_of("s", 1) == ino_of("f", 1)));
	say("lstat s is not f: %s\n", yes(ino_of("s", 0) != ino_of("f", 1)));
	char buf[64] = { 0 };
	fd = open("s", O_RDONLY);
	say("read through s: %zd\n", read(fd, buf, sizeof buf));
	close(fd);
	outcome("open s O_NOFOLLOW", open("s", O_RDONLY | O_NOFOLLOW));
	fd = open("f", O_RDONLY | O_NOFOLLOW);
	outcome("open f O_NOFOLLOW", fd);
	close(fd);
	char *t59 = repeat('a', 59), *t60 = repeat('b', 60), *t4095 = repeat('c', 4095);
	char *t4096 = repeat('d', 4096), *n256 = repeat('n', 256);
	outcome("symlink 59-byte target", symlink(t59, "fast"));
	show_symlink("fast", "fast");
	outcome("symlink 60-byte target", symlink(t60, "slow"));
	show_symlink("slow", "slow");
	outcome("symlink 4095-byte target", symlink(t4095, "long"));
	show_symlink("long", "long");
	ssize_t n = readlink("long", buf, 10);
	say("readlink into 10 bytes: %zd\n", n);
	outcome("symlink 4096-byte target", symlink(t4096, "toolong"));
	outcome("symlink empty target", symlink("", "empty"));
	outcome("symlink onto f", symlink("x", "f"));
	outcome("symlink nothere dang", symlink("nothere", "dang"));
	outcome("symlink onto dangling", symlink("x", "dang"));
	outcome("stat dang", stat("dang", &(struct stat){ 0 }));
	outcome("lstat dang", lstat("dang", &(struct stat){ 0 }));
	outcome("open dang", open("dang", O_RDONLY));
	outcome("symlink d sd", symlink("d", "sd"));
	outcome("stat sd/", stat("sd/", &(struct stat){ 0 }));
	outcome("symlinkat into d", symlinkat("../f", dfd, "up"));
	show_links("d/up", "d/up");
	outcome("symlinkat bad dirfd", symlinkat("f", 999, "q"));
	outcome("readlink f", readlink("f", buf, sizeof buf));
	outcome("readlink size 0", readlink("s", buf, 0));
	outcome("readlink missing", readlink("missing", buf, sizeof buf));
	outcome("linkat follow s -> hf", linkat(AT_FDCWD, "s", AT_FDCWD, "hf", AT_SYMLINK_FOLLOW));
	say("hf is f: %s\n", yes(ino_of("hf", 0) == ino_of("f", 1)));
	outcome("link s hs (no follow)", link("s", "hs"));
	say("hs is the link s: %s\n", yes(ino_of("hs", 0) == ino_of("s", 0)));
	show_symlink("hs", "hs");
	outcome("unlink hf", unlink("hf"));
	outcome("unlink hs", unlink("hs"));

	say("== loops and the limit\n");
	symlink("l2", "l1");
	symlink("l1", "l2");
	outcome("open l1", open("l1", O_RDONLY));
	outcome("stat l1", stat("l1", &(struct stat){ 0 }));
	outcome("lstat l1", lstat("l1", &(struct stat){ 0 }));
	/* c0 -> c1 -> ... -> c<k> -> f: k + 1 links to follow from c0. */
	char name[16], next[16];
	for (int i = 0; i <= 40; i++) {
		snprintf(name, sizeof name, "c%d", i);
		if (i == 40)
			snprintf(next, sizeof next, "f");
		else
			snprintf(next, sizeof next, "c%d", i + 1);
		symlink(next, name);
	}
	outcome("stat through 40 links", stat("c1", &(struct stat){ 0 }));
	outcome("stat through 41 links", stat("c0", &(struct stat){ 0 }));
	outcome("open through 41 links", open("c0", O_RDONLY));

	say("== bad input\n");
	outcome("link bad old", syscall(SYS_link, (char *)1, "x"));
	outcome("link bad new", syscall(SYS_link, "f", (char *)1));
	outcome("symlink bad target", syscall(SYS_symlink, (char *)1, "x"));
	outcome("symlink bad path", syscall(SYS_symlink, "f", (char *)1));
	outcome("readlink bad buffer", syscall(SYS_readlink, "s", (char *)1, 10));
	outcome("link long name", link("f", n256));
	outcome("symlink long name", symlink("f", n256));
	outcome("link 4096-byte path", link(t4096, "x"));
	outcome("linkat -1 dirfd", linkat(-1, "f", AT_FDCWD, "x", 0));

	say("== unlink of a link\n");
	outcome("unlink s", unlink("s"));
	outcome("lstat s", lstat("s", &(struct stat){ 0 }));
	show_links("f still there", "f");
	close(dfd);
	scratch_leave();
	return 0;
}
