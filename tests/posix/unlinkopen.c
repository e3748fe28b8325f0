/*
 * unlinkopen.c - a file unlinked (or renamed over) while open lives on
 * until its last close: reads, writes, fstat (st_nlink 0), ftruncate,
 * lseek, mmap and a forked child's inherited descriptor keep working; a
 * file created meanwhile gets another inode; the space comes back (statfs)
 * at the last close, not before.
 */
#include "posix_test.h"
#include <sys/mman.h>
#include <sys/statfs.h>
#include <sys/wait.h>

#define BIG (256 * 1024)

/* Free bytes of the file system of ".", or -1. */
static long long free_bytes(void)
{
	struct statfs s;
	if (statfs(".", &s) < 0)
		return -1;
	return (long long)s.f_bfree * (long long)s.f_bsize;
}

static void show_fstat(const char *what, int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		say("%s: fstat error %s\n", what, err_name(errno));
	else
		say("%s: nlink %lu size %lld regular %s\n", what, (unsigned long)st.st_nlink,
		    (long long)st.st_size, yes(S_ISREG(st.st_mode)));
}

static void read_at(const char *what, int fd, off_t off, size_t n)
{
	char buf[64] = { 0 };
	if (n >= sizeof buf)
		n = sizeof buf - 1;
	ssize_t r = pread(fd, buf, n, off);
	if (r < 0)
		say("%s: error %s\n", what, err_name(errno));
	else
		say("%s: %zd \"%.*s\"\n", what, r, (int)r, buf);
}

static ino_t ino_of_fd(int fd)
{
	struct stat st;
	return fstat(fd, &st) < 0 ? 0 : st.st_ino;
}

static void unlinked(void)
{
	say("== unlink while open\n");
	int fd = open("a", O_RDWR | O_CREAT | O_TRUNC, 0644);
	outcome("open a", fd);
	outcome_value("write", write(fd, "hello world\n", 12));
	ino_t ino = ino_of_fd(fd);
	outcome("unlink a", unlink("a"));
	outcome("stat a after unlink", stat("a", &(struct stat){ 0 }));
	show_fstat("fstat", fd);
	read_at("read back", fd, 0, 12);
	outcome_value("lseek 0", lseek(fd, 0, SEEK_SET));
	char buf[8];
	outcome_value("read 5", read(fd, buf, 5));
	outcome_value("lseek end", lseek(fd, 0, SEEK_END));
	outcome_value("write more", write(fd, "more\n", 5));
	show_fstat("after write", fd);
	read_at("whole", fd, 0, 40);

	/* A new file while the old inode is open: never the same inode. */
	int nfd = open("b", O_RDWR | O_CREAT | O_TRUNC, 0644);
	outcome("open b", nfd);
	say("b has another inode: %s\n", yes(ino_of_fd(nfd) != ino && ino_of_fd(nfd) != 0));
	say("the open file keeps its inode: %s\n", yes(ino_of_fd(fd) == ino));
	close(nfd);
	unlink("b");

	outcome("ftruncate 8", ftruncate(fd, 8));
	show_fstat("after ftruncate", fd);
	read_at("truncated", fd, 0, 40);
	outcome("ftruncate 4096", ftruncate(fd, 4096));
	show_fstat("grown", fd);
	read_at("past the old end", fd, 8, 4);

	/* A mapping of the unlinked file. */
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	say("mmap: %s\n", p == MAP_FAILED ? err_name(errno) : "ok");
	if (p != MAP_FAILED) {
		say("mapped bytes: \"%.8s\"\n", p);
		memcpy(p, "MAPPED", 6);
		outcome("msync", msync(p, 4096, MS_SYNC));
		read_at("read sees the store", fd, 0, 8);
		munmap(p, 4096);
	}

	/* A forked child reads and writes through the inherited descriptor. */
	pid_t pid = fork();
	if (pid == 0) {
		char c[9] = { 0 };
		ssize_t r = pread(fd, c, 8, 0);
		say("child: read %zd \"%s\"\n", r, r > 0 ? c : "");
		say("child: write %zd\n", pwrite(fd, "child", 5, 100));
		_exit(0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	say("child exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	read_at("what the child wrote", fd, 100, 5);

	/* dup: the file lives until the last descriptor goes. */
	int dfd = dup(fd);
	outcome("close the first", close(fd));
	read_at("through the dup", dfd, 100, 5);
	show_fstat("dup", dfd);
	outcome("close the dup", close(dfd));
	outcome("fstat after the last close", fstat(dfd, &(struct stat){ 0 }));
}

static void renamed_over(void)
{
	say("== rename over an open file\n");
	write_file("old", "old contents\n", 0644);
	write_file("new", "new contents\n", 0644);
	int fd = open("old", O_RDONLY);
	outcome("open old", fd);
	outcome("rename new -> old", rename("new", "old"));
	show_fstat("the replaced file", fd);
	read_at("the replaced file reads", fd, 0, 13);
	int fd2 = open("old", O_RDONLY);
	read_at("the name now reads", fd2, 0, 13);
	say("different inodes: %s\n", yes(ino_of_fd(fd) != ino_of_fd(fd2)));
	show_fstat("the name", fd2);
	close(fd2);
	outcome("close", close(fd));
	unlink("old");
}

static void space(void)
{
	say("== space returned at the last close\n");
	static char block[BIG];
	memset(block, 'x', sizeof block);
	sync();
	long long before = free_bytes();
	int fd = open("big", O_RDWR | O_CREAT | O_TRUNC, 0644);
	outcome("open big", fd);
	outcome_value("write", write(fd, block, sizeof block));
	outcome("fsync", fsync(fd));
	long long written = free_bytes();
	outcome("unlink big", unlink("big"));
	sync();
	long long unlinked = free_bytes();
	say("space used while written: %s\n", yes(before - written >= BIG));
	say("space still used after the unlink: %s\n", yes(before - unlinked >= BIG));
	read_at("still readable", fd, BIG - 4, 4);
	outcome("close", close(fd));
	sync();
	long long after = free_bytes();
	long long diff = after - before;
	if (diff < 0)
		diff = -diff;
	say("space back after the close: %s\n", yes(diff < 64 * 1024));
}

int main(void)
{
	scratch_enter("unlinkopen");
	unlinked();
	renamed_over();
	space();
	scratch_leave();
	return 0;
}
