/*
 * Directories: mkdir (mode, EEXIST), readdir (getdents64: the names, d_type,
 * a directory of 300 entries read in several calls), getcwd, chdir and
 * fchdir, openat/fstatat/mkdirat/unlinkat/renameat relative to a directory
 * descriptor, rename (files, onto an existing name, directories, into itself),
 * unlink and rmdir with their errors.
 */
#include "posix_test.h"

#include <fcntl.h>

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Prints the sorted names of directory path with a type letter each. */
static void list(const char *path)
{
	DIR *d = opendir(path);
	if (!d) {
		say("opendir %s: error %s\n", path, err_name(errno));
		return;
	}
	char *names[64];
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < 64) {
		char *s = malloc(strlen(e->d_name) + 3);
		sprintf(s, "%s%s", e->d_name, e->d_type == DT_DIR ? "/" :
			e->d_type == DT_REG ? "" : "?");
		names[n++] = s;
	}
	closedir(d);
	qsort(names, n, sizeof names[0], cmp_str);
	say("%s:", path);
	for (int i = 0; i < n; i++) {
		say(" %s", names[i]);
		free(names[i]);
	}
	say("\n");
}

static void show_cwd(const char *what)
{
	char buf[512];
	if (getcwd(buf, sizeof buf))
		say("%s: getcwd ends with [%s]\n", what, strrchr(buf, '/'));
	else
		say("%s: getcwd error %s\n", what, err_name(errno));
}

int main(void)
{
	char top[512];
	if (!getcwd(top, sizeof top))
		return 1;
	scratch_enter("dir");
	show_cwd("in the scratch directory");
	outcome("mkdir d", mkdir("d", 0755));
	outcome("mkdir d again", mkdir("d", 0755));
	struct stat st;
	stat("d", &st);
	say("d: directory: %s, mode %o, links %ld\n", yes(S_ISDIR(st.st_mode)),
	    (unsigned)(st.st_mode & 07777), (long)st.st_nlink);
	write_file("d/a", "A", 0644);
	write_file("d/b", "BB", 0644);
	mkdir("d/sub", 0700);
	list("d");
	stat("d", &st);
	say("d's links with one subdirectory: %ld\n", (long)st.st_nlink);

	outcome("chdir d", chdir("d"));
	show_cwd("after chdir d");
	outcome("chdir ..", chdir(".."));
	show_cwd("after chdir ..");
	outcome("chdir to a missing directory", chdir("nothere"));
	outcome("chdir to a file", chdir("d/a"));
	int dfd = open("d", O_RDONLY | O_DIRECTORY);
	outcome("open d O_DIRECTORY", dfd);
	outcome("fchdir to d", fchdir(dfd));
	show_cwd("after fchdir");
	chdir("..");

	int fd = openat(dfd, "b", O_RDONLY);
	char buf[8] = { 0 };
	say("openat(d, b) reads [%.*s]\n", (int)read(fd, buf, sizeof buf), buf);
	close(fd);
	struct stat sb;
	outcome("fstatat(d, b)", fstatat(dfd, "b", &sb, 0));
	say("fstatat size %ld\n", (long)sb.st_size);
	outcome("fstatat(d, sub, AT_SYMLINK_NOFOLLOW)", fstatat(dfd, "sub", &sb, AT_SYMLINK_NOFOLLOW));
	say("is a directory: %s\n", yes(S_ISDIR(sb.st_mode)));
	outcome("mkdirat(d, made)", mkdirat(dfd, "made", 0755));
	outcome("renameat(d, made -> d, renamed)", renameat(dfd, "made", dfd, "renamed"));
	outcome("unlinkat(d, renamed, AT_REMOVEDIR)", unlinkat(dfd, "renamed", AT_REMOVEDIR));
	outcome("fstatat(AT_FDCWD, d/a)", fstatat(AT_FDCWD, "d/a", &sb, 0));
	list("d");

	outcome("rename d/a -> d/a2", rename("d/a", "d/a2"));
	outcome("stat of the old name", stat("d/a", &sb));
	outcome("rename d/a2 onto d/b", rename("d/a2", "d/b"));
	fd = open("d/b", O_RDONLY);
	memset(buf, 0, sizeof buf);
	say("d/b now reads [%.*s]\n", (int)read(fd, buf, sizeof buf), buf);
	close(fd);
	outcome("rename d/sub -> d/sub2", rename("d/sub", "d/sub2"));
	outcome("rename d into its own subdirectory", rename("d", "d/sub2/d"));
	outcome("rename a missing file", rename("d/none", "d/x"));
	list("d");

	outcome("unlink a missing file", unlink("d/none"));
	outcome("unlink a directory", unlink("d/sub2"));
	outcome("rmdir a non-empty directory", rmdir("d"));
	outcome("rmdir a file", rmdir("d/b"));
	outcome("rmdir .", rmdir("d/sub2/."));
	outcome("unlink d/b", unlink("d/b"));
	outcome("rmdir d/sub2", rmdir("d/sub2"));
	list("d");

	/* 300 entries: readdir needs several getdents64 calls. */
	mkdir("many", 0755);
	int made = 0;
	for (int i = 0; i < 300; i++) {
		char name[64];
		snprintf(name, sizeof name, "many/entry-with-a-longer-name-%03d", i);
		made += write_file(name, "", 0644) == 0;
	}
	DIR *d = opendir("many");
	int seen = 0, dots = 0;
	unsigned char mask[300] = { 0 };
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		int i;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			dots++;
		else if (sscanf(e->d_name, "entry-with-a-longer-name-%d", &i) == 1 && i >= 0 && i < 300 && !mask[i]) {
			mask[i] = 1;
			seen++;
		}
	}
	closedir(d);
	say("300 entries made: %d, each read once: %d, plus . and ..: %d\n", made, seen, dots);
	close(dfd);
	scratch_leave();
	struct stat gone;
	say("scratch directory removed: %s\n", yes(stat("dir.scratch", &gone) < 0));
	return 0;
}
