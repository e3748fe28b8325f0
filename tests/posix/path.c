/*
 * Paths: umask (returns the old mask), access (F_OK, R_OK|W_OK, X_OK, a
 * missing file), readlink of a file that is no link, lstat of a regular file,
 * "." and ".." inside paths, a trailing slash after a file, names of 255 and
 * 256 bytes, an empty path.
 */
#include "posix_test.h"

#include <fcntl.h>
#include <limits.h>

int main(void)
{
	mode_t old = umask(027);
	say("umask returns the old mask: %o\n", (unsigned)old);
	say("umask returns the mask just set: %o\n", (unsigned)umask(022));
	scratch_enter("path");
	umask(027);
	write_file("f", "data", 0666);
	struct stat st;
	stat("f", &st);
	say("file created under umask 027: mode %o\n", (unsigned)(st.st_mode & 0777));
	umask(022);
	write_file("x", "#!/bin/sh\n", 0755);

	outcome("access F_OK", access("f", F_OK));
	outcome("access R_OK|W_OK", access("f", R_OK | W_OK));
	outcome("access X_OK of a 0640 file", access("f", X_OK));
	outcome("access X_OK of a 0755 file", access("x", X_OK));
	outcome("access of a missing file", access("missing", F_OK));
	outcome("faccessat(AT_FDCWD) R_OK", faccessat(AT_FDCWD, "f", R_OK, 0));

	char buf[64];
	outcome("readlink of a regular file", readlink("f", buf, sizeof buf));
	outcome("readlink of a missing file", readlink("missing", buf, sizeof buf));

	struct stat ls;
	outcome("lstat", lstat("f", &ls));
	say("lstat equals stat for a regular file: %s\n",
	    yes(ls.st_ino == st.st_ino && ls.st_size == st.st_size && ls.st_mode == st.st_mode));

	mkdir("d", 0755);
	struct stat viadots;
	outcome("stat ./d/../f", stat("./d/../f", &viadots));
	say("same file: %s\n", yes(viadots.st_ino == st.st_ino));
	outcome("stat d/.", stat("d/.", &viadots));
	outcome("stat f/ (a trailing slash after a file)", stat("f/", &viadots));
	outcome("stat d/ (a trailing slash after a directory)", stat("d/", &viadots));
	outcome("stat of an empty path", stat("", &viadots));

	char name[300];
	memset(name, 'n', 255);
	name[255] = 0;
	outcome("create a 255-byte name", write_file(name, "x", 0644));
	outcome("stat it", stat(name, &viadots));
	outcome("unlink it", unlink(name));
	memset(name, 'n', 256);
	name[256] = 0;
	outcome("create a 256-byte name", open(name, O_WRONLY | O_CREAT, 0644));
	outcome("stat a 256-byte name", stat(name, &viadots));

	static char longpath[PATH_MAX + 100];
	for (size_t i = 0; i + 2 < sizeof longpath; i += 2)
		memcpy(longpath + i, "d/", 2);
	longpath[sizeof longpath - 1] = 0;
	outcome("stat of a path longer than PATH_MAX", stat(longpath, &viadots));
	scratch_leave();
	return 0;
}
