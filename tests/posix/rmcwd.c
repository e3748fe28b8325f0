/*
 * A directory removed while it is the current directory, or open: creating
 * a file, a directory or a link in it (ENOENT), listing it ("." opened,
 * getdents: ENOENT), stat and fstat of it (a
 * directory, no link left), getcwd (ENOENT), openat and mkdirat relative to
 * its descriptor (ENOENT), "." opened to write (EISDIR); going back by an
 * absolute path.
 */
#include "posix_test.h"

#include <sys/syscall.h>

/* Entries getdents64 gives for descriptor fd (-1 and errno on an error). */
static long entries(int fd)
{
	char buf[4096];
	long n = 0, got;
	while ((got = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
		for (long off = 0; off < got;) {
			unsigned short reclen;
			memcpy(&reclen, buf + off + 16, sizeof reclen);
			off += reclen;
			n++;
		}
	}
	return got < 0 ? -1 : n;
}

static void show_stat(const char *what, int r, const struct stat *st)
{
	if (r < 0)
		say("%s: error %s\n", what, err_name(errno));
	else
		say("%s: a directory %s, links %lu\n", what, yes(S_ISDIR(st->st_mode)), (unsigned long)st->st_nlink);
}

int main(void)
{
	char home[256];
	if (!getcwd(home, sizeof home))
		return 1;
	char dir[300];
	snprintf(dir, sizeof dir, "%s/rmcwd.scratch", home);
	mkdir(dir, 0755);
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	say("entries before: %ld\n", entries(fd));
	lseek(fd, 0, SEEK_SET);
	chdir(dir);
	outcome("rmdir of the current directory by its path", rmdir(dir));
	errno = 0;
	outcome("create a file in it", open("f", O_CREAT | O_WRONLY, 0644));
	outcome("mkdir in it", mkdir("d", 0755));
	outcome("symlink in it", symlink("x", "l"));
	outcome("create by ./f", open("./f", O_CREAT | O_WRONLY, 0644));
	char buf[256];
	outcome("getcwd", getcwd(buf, sizeof buf) ? 0 : -1);
	struct stat st;
	int r = stat(".", &st);
	show_stat("stat(\".\")", r, &st);
	r = fstatat(AT_FDCWD, "", &st, AT_EMPTY_PATH);
	show_stat("fstatat(AT_FDCWD, \"\", AT_EMPTY_PATH)", r, &st);
	int dot = open(".", O_RDONLY | O_DIRECTORY);
	say("open(\".\"): %s\n", yes(dot >= 0));
	long n = entries(dot);
	say("entries of \".\": %ld %s\n", n, n < 0 ? err_name(errno) : "");
	r = fstat(dot, &st);
	show_stat("fstat of it", r, &st);
	close(dot);
	outcome("open(\".\") to write", open(".", O_WRONLY));
	outcome("open(\"..\")'s child: a missing name", open("missing", O_RDONLY));
	n = entries(fd);
	say("entries of the descriptor opened before: %ld %s\n", n, n < 0 ? err_name(errno) : "");
	r = fstat(fd, &st);
	show_stat("fstat of that descriptor", r, &st);
	outcome("openat(it, \"g\", O_CREAT)", openat(fd, "g", O_CREAT | O_WRONLY, 0644));
	outcome("mkdirat(it, \"e\")", mkdirat(fd, "e", 0755));
	outcome("chdir back by an absolute path", chdir(home));
	outcome("the directory is gone", access(dir, F_OK));
	close(fd);
	return 0;
}
