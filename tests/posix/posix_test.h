/*
 * posix_test.h - helpers shared by the POSIX conformance programs.
 *
 * Every program prints what it observed, one fact a line, the same on every
 * run and on every system that behaves alike: no pids, addresses or times,
 * only relations ("child pid differs from parent: yes") and error names. The
 * runner (tools/posix_suite.py) diffs the output of Linux and of Myrmex
 * (docs/testing.md, "POSIX conformance suite"). Output goes straight to fd 1
 * with write(), so nothing sits in a stdio buffer across fork or exit.
 *
 * Programs that need files work in a scratch directory made under the
 * current directory (scratch_enter) and remove it at the end
 * (scratch_leave).
 */
#ifndef POSIX_TEST_H
#define POSIX_TEST_H

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes all of buf to fd 1, retrying short writes and EINTR. */
static __attribute__((unused)) void out_raw(const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(1, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
	}
}

/* printf to fd 1, unbuffered; errno is kept for the caller. */
__attribute__((format(printf, 1, 2), unused))
static __attribute__((unused)) void say(const char *fmt, ...)
{
	int saved = errno;
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof buf - 1)
		n = (int)sizeof buf - 1;
	if (n > 0)
		out_raw(buf, (size_t)n);
	errno = saved;
}

static __attribute__((unused)) const char *yes(int cond)
{
	return cond ? "yes" : "no";
}

/* The symbolic name of an errno value (the same on every system). */
static __attribute__((unused)) const char *err_name(int e)
{
	static const struct { int code; const char *name; } names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" },
		{ EINTR, "EINTR" }, { EIO, "EIO" }, { ENXIO, "ENXIO" },
		{ E2BIG, "E2BIG" }, { ENOEXEC, "ENOEXEC" }, { EBADF, "EBADF" },
		{ ECHILD, "ECHILD" }, { EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" },
		{ EACCES, "EACCES" }, { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" },
		{ EEXIST, "EEXIST" }, { EXDEV, "EXDEV" }, { ENODEV, "ENODEV" },
		{ ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" }, { EINVAL, "EINVAL" },
		{ ENFILE, "ENFILE" }, { EMFILE, "EMFILE" }, { ENOTTY, "ENOTTY" },
		{ EFBIG, "EFBIG" }, { ENOSPC, "ENOSPC" }, { ESPIPE, "ESPIPE" },
		{ EROFS, "EROFS" }, { EMLINK, "EMLINK" }, { EPIPE, "EPIPE" },
		{ ERANGE, "ERANGE" }, { ENAMETOOLONG, "ENAMETOOLONG" },
		{ ENOSYS, "ENOSYS" }, { ENOTEMPTY, "ENOTEMPTY" }, { ELOOP, "ELOOP" },
		{ ETIMEDOUT, "ETIMEDOUT" }, { EOVERFLOW, "EOVERFLOW" },
		{ ENOTSOCK, "ENOTSOCK" }, { EDESTADDRREQ, "EDESTADDRREQ" },
		{ EMSGSIZE, "EMSGSIZE" }, { ENOPROTOOPT, "ENOPROTOOPT" },
		{ EPROTONOSUPPORT, "EPROTONOSUPPORT" }, { ESOCKTNOSUPPORT, "ESOCKTNOSUPPORT" },
		{ EOPNOTSUPP, "EOPNOTSUPP" }, { EAFNOSUPPORT, "EAFNOSUPPORT" },
		{ EADDRINUSE, "EADDRINUSE" }, { EADDRNOTAVAIL, "EADDRNOTAVAIL" },
		{ ECONNRESET, "ECONNRESET" }, { EISCONN, "EISCONN" }, { ENOTCONN, "ENOTCONN" },
		{ ECONNREFUSED, "ECONNREFUSED" }, { EALREADY, "EALREADY" },
		{ EINPROGRESS, "EINPROGRESS" }, { ETXTBSY, "ETXTBSY" },
		{ EDEADLK, "EDEADLK" }, { ENOLCK, "ENOLCK" },
	};
	static char other[16];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].code == e)
			return names[i].name;
	snprintf(other, sizeof other, "errno %d", e);
	return other;
}

/* Prints "<what>: ok" when ret >= 0, else "<what>: error <ENAME>" (errno). */
static __attribute__((unused)) void outcome(const char *what, long ret)
{
	if (ret < 0)
		say("%s: error %s\n", what, err_name(errno));
	else
		say("%s: ok\n", what);
}

/* Prints "<what>: ok <ret>" or "<what>: error <ENAME>", for calls whose
 * result (a count, a descriptor number) is deterministic. */
static __attribute__((unused)) void outcome_value(const char *what, long ret)
{
	if (ret < 0)
		say("%s: error %s\n", what, err_name(errno));
	else
		say("%s: ok %ld\n", what, ret);
}

/* Removes path and, if it is a directory, everything in it. */
static __attribute__((unused)) void rm_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return;
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		if (d) {
			struct dirent *e;
			while ((e = readdir(d)) != NULL) {
				if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
					continue;
				char sub[1024];
				snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
				rm_tree(sub);
			}
			closedir(d);
		}
		rmdir(path);
	} else {
		unlink(path);
	}
}

static char scratch_dir[128];

/* Makes ./<name>.scratch afresh (umask 022) and changes into it; exits 2
 * with a message when that is impossible. */
static __attribute__((unused)) void scratch_enter(const char *name)
{
	snprintf(scratch_dir, sizeof scratch_dir, "%s.scratch", name);
	umask(022);
	rm_tree(scratch_dir);
	if (mkdir(scratch_dir, 0755) < 0 || chdir(scratch_dir) < 0) {
		say("scratch directory %s: error %s\n", scratch_dir, err_name(errno));
		exit(2);
	}
}

/* Leaves the scratch directory and removes it. */
static __attribute__((unused)) void scratch_leave(void)
{
	if (chdir("..") == 0)
		rm_tree(scratch_dir);
}

/* Writes a whole file (mode as given, before the umask); -1 on error. */
static __attribute__((unused)) int write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (fd < 0)
		return -1;
	size_t len = strlen(text);
	ssize_t n = write(fd, text, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

#endif
