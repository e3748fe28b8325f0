/*
 * attr.c - an inode's attributes: chmod/fchmod/fchmodat (through a link
 * too), chown/fchown/lchown/fchownat (-1 keeps an id; set-user-ID and
 * set-group-ID dropped on a file, kept on a directory), truncate by path,
 * and times: utimensat (given times to the nanosecond, UTIME_NOW,
 * UTIME_OMIT, NULL, AT_SYMLINK_NOFOLLOW, a descriptor), utimes, futimesat,
 * utime; with bad input (EFAULT, EINVAL, EBADF, ENOENT, ENAMETOOLONG).
 */
#include "posix_test.h"
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <utime.h>

static void show(const char *what, const char *path, int follow)
{
	struct stat st;
	if ((follow ? stat(path, &st) : lstat(path, &st)) < 0) {
		say("%s: error %s\n", what, err_name(errno));
		return;
	}
	say("%s: mode %o uid %u gid %u size %lld\n", what, (unsigned)(st.st_mode & 07777),
	    (unsigned)st.st_uid, (unsigned)st.st_gid, (long long)st.st_size);
}

static void show_times(const char *what, const char *path, int follow)
{
	struct stat st;
	if ((follow ? stat(path, &st) : lstat(path, &st)) < 0) {
		say("%s: error %s\n", what, err_name(errno));
		return;
	}
	say("%s: atime %lld.%09ld mtime %lld.%09ld\n", what, (long long)st.st_atim.tv_sec,
	    st.st_atim.tv_nsec, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
}

/* Whether path's mtime (and atime) are within 5 s of now. */
static void show_now(const char *what, const char *path)
{
	struct stat st;
	time_t now = time(NULL);
	if (stat(path, &st) < 0) {
		say("%s: error %s\n", what, err_name(errno));
		return;
	}
	say("%s: atime now %s mtime now %s\n", what, yes(llabs((long long)(st.st_atime - now)) <= 5),
	    yes(llabs((long long)(st.st_mtime - now)) <= 5));
}

int main(void)
{
	scratch_enter("attr");
	write_file("f", "0123456789", 0644);
	mkdir("d", 0755);
	symlink("f", "s");
	char *n256 = malloc(257);
	memset(n256, 'n', 256);
	n256[256] = '\0';

	say("== chmod\n");
	outcome("chmod f 600", chmod("f", 0600));
	show("f", "f", 1);
	outcome("chmod f 4755", chmod("f", 04755));
	show("f", "f", 1);
	int fd = open("f", O_RDWR);
	outcome("fchmod 640", fchmod(fd, 0640));
	show("f", "f", 1);
	outcome("fchmodat 700", fchmodat(AT_FDCWD, "f", 0700, 0));
	show("f", "f", 1);
	outcome("chmod through s 611", chmod("s", 0611));
	show("f", "f", 1);
	show("s (lstat)", "s", 0);
	outcome("chmod d 2775", chmod("d", 02775));
	show("d", "d", 1);
	outcome("chmod missing", chmod("missing", 0644));
	outcome("chmod f/x", chmod("f/x", 0644));
	outcome("chmod long name", chmod(n256, 0644));
	outcome("chmod bad pointer", syscall(SYS_chmod, (char *)1, 0644));
	outcome("fchmod -1", fchmod(-1, 0644));
	outcome("fchmod 999", fchmod(999, 0644));
	outcome("fchmodat bad dirfd", syscall(SYS_fchmodat, 999, "f", 0644));

	say("== chown\n");
	outcome("chown f 1000 2000", chown("f", 1000, 2000));
	show("f", "f", 1);
	outcome("chown f -1 -1", chown("f", (uid_t)-1, (gid_t)-1));
	show("f", "f", 1);
	outcome("chown f -1 3000", chown("f", (uid_t)-1, 3000));
	show("f", "f", 1);
	outcome("lchown s 5 6", lchown("s", 5, 6));
	show("s (lstat)", "s", 0);
	show("f", "f", 1);
	outcome("fchown 7 8", fchown(fd, 7, 8));
	show("f", "f", 1);
	outcome("fchownat s nofollow", fchownat(AT_FDCWD, "s", 9, 9, AT_SYMLINK_NOFOLLOW));
	show("s (lstat)", "s", 0);
	outcome("fchownat empty path", fchownat(fd, "", 11, 12, AT_EMPTY_PATH));
	show("f", "f", 1);
	outcome("chmod f 6755", chmod("f", 06755));
	outcome("chown f 0 0", chown("f", 0, 0));
	show("f (set-ids dropped)", "f", 1);
	outcome("chown d 1 1", chown("d", 1, 1));
	show("d (set-gid kept)", "d", 1);
	outcome("fchownat bad flags", fchownat(AT_FDCWD, "f", 0, 0, 0x4));
	outcome("chown missing", chown("missing", 0, 0));
	outcome("chown bad pointer", syscall(SYS_chown, (char *)1, 0, 0));
	outcome("fchown 999", fchown(999, 0, 0));
	outcome("lchown long name", lchown(n256, 0, 0));
	close(fd);

	say("== truncate\n");
	outcome("truncate f 3", truncate("f", 3));
	show("f", "f", 1);
	outcome("truncate f 10000", truncate("f", 10000));
	show("f", "f", 1);
	char buf[16];
	fd = open("f", O_RDONLY);
	pread(fd, buf, 4, 5000);
	say("zeros in the grown part: %s\n", yes(!buf[0] && !buf[1] && !buf[2] && !buf[3]));
	close(fd);
	outcome("truncate through s 5", truncate("s", 5));
	show("f", "f", 1);
	outcome("truncate d", truncate("d", 0));
	outcome("truncate missing", truncate("missing", 0));
	outcome("truncate -1", truncate("f", -1));
	outcome("truncate /dev/null", truncate("/dev/null", 0));
	outcome("truncate bad pointer", syscall(SYS_truncate, (char *)1, 0));

	say("== times\n");
	struct timespec ts[2] = { { 1000000000, 123456789 }, { 1234567890, 987654321 } };
	outcome("utimensat f", utimensat(AT_FDCWD, "f", ts, 0));
	show_times("f", "f", 1);
	struct timespec omit[2] = { { 0, UTIME_OMIT }, { 1300000000, 5 } };
	outcome("utimensat omit atime", utimensat(AT_FDCWD, "f", omit, 0));
	show_times("f", "f", 1);
	struct timespec now_m[2] = { { 1100000000, 0 }, { 0, UTIME_NOW } };
	outcome("utimensat now mtime", utimensat(AT_FDCWD, "f", now_m, 0));
	struct stat st;
	stat("f", &st);
	say("atime given: %lld, mtime now: %s\n", (long long)st.st_atime,
	    yes(llabs((long long)(st.st_mtime - time(NULL))) <= 5));
	outcome("utimensat NULL", utimensat(AT_FDCWD, "f", NULL, 0));
	show_now("f", "f");
	outcome("utimensat s nofollow", utimensat(AT_FDCWD, "s", ts, AT_SYMLINK_NOFOLLOW));
	show_times("s (lstat)", "s", 0);
	show_now("f (not changed by it)", "f");
	fd = open("f", O_RDONLY);
	outcome("futimens", futimens(fd, ts));
	show_times("f", "f", 1);
	struct timespec both_omit[2] = { { 0, UTIME_OMIT }, { 0, UTIME_OMIT } };
	outcome("utimensat both omit on missing", utimensat(AT_FDCWD, "missing", both_omit, 0));
	struct timespec bad[2] = { { 0, 1000000000 }, { 0, 0 } };
	outcome("utimensat nsec 1e9", utimensat(AT_FDCWD, "f", bad, 0));
	bad[0].tv_nsec = -1;
	outcome("utimensat nsec -1", utimensat(AT_FDCWD, "f", bad, 0));
	outcome("utimensat bad flags", utimensat(AT_FDCWD, "f", ts, 0x8));
	outcome("utimensat bad times pointer", syscall(SYS_utimensat, AT_FDCWD, "f", (void *)1, 0));
	outcome("utimensat bad path pointer", syscall(SYS_utimensat, AT_FDCWD, (char *)1, ts, 0));
	outcome("utimensat missing", utimensat(AT_FDCWD, "missing", ts, 0));
	outcome("utimensat no path, AT_FDCWD", syscall(SYS_utimensat, AT_FDCWD, NULL, ts, 0));
	outcome("utimensat no path, fd 999", syscall(SYS_utimensat, 999, NULL, ts, 0));
	outcome("utimensat no path, flags", syscall(SYS_utimensat, fd, NULL, ts, AT_SYMLINK_NOFOLLOW));
	outcome("utimensat long name", utimensat(AT_FDCWD, n256, ts, 0));
	close(fd);
	struct timeval tv[2] = { { 2000000000, 5 }, { 1500000000, 999999 } };
	outcome("utimes f", syscall(SYS_utimes, "f", tv));
	show_times("f", "f", 1);
	tv[0].tv_usec = 1000000;
	outcome("utimes usec 1e6", syscall(SYS_utimes, "f", tv));
	tv[0].tv_usec = 0;
	outcome("futimesat f", syscall(SYS_futimesat, AT_FDCWD, "f", tv));
	show_times("f", "f", 1);
	outcome("utimes NULL", syscall(SYS_utimes, "f", NULL));
	show_now("f", "f");
	struct utimbuf ub = { 1111111111, 1222222222 };
	outcome("utime f", syscall(SYS_utime, "f", &ub));
	show_times("f", "f", 1);
	outcome("utime bad buffer", syscall(SYS_utime, "f", (void *)1));
	outcome("utimes bad buffer", syscall(SYS_utimes, "f", (void *)1));

	scratch_leave();
	return 0;
}
