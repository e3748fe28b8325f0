/*
 * orphan_crash.c - the two boots of the orphan-list crash test
 * (tools/orphan_crash.py runs it on Myrmex only; it is not in run.sh's
 * PROGRAMS, since Linux is not crashed).
 *
 * First boot (no /tmp/orphan-crash.mark yet): makes the mark, a file it
 * unlinks while open and one renamed over while open, writes to both after
 * their names went, syncs, prints ORPHAN-HELD and waits: the host kills the
 * machine then, with both files still open. Second boot (the mark is
 * there): the mount has freed them already; it removes the mark and leaves
 * a third file unlinked but held open by a child that outlives the run, so
 * the clean shutdown frees it with the file still open. The host checks the
 * disk with e2fsck and the free counts after each boot.
 */
#include "posix_test.h"
#include <signal.h>

#define MARK "/tmp/orphan-crash.mark"
#define CHUNK 65536

/* Writes n chunks of byte c to fd; exits 1 on a failure. */
static void fill(int fd, int c, int n)
{
	static char buf[CHUNK];
	memset(buf, c, sizeof buf);
	for (int i = 0; i < n; i++) {
		if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf) {
			say("orphan_crash: write: error %s\n", err_name(errno));
			exit(1);
		}
	}
}

static int make(const char *path, int c, int n)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		say("orphan_crash: open %s: error %s\n", path, err_name(errno));
		exit(1);
	}
	fill(fd, c, n);
	return fd;
}

static void first_boot(void)
{
	int mark = open(MARK, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (mark < 0) {
		say("orphan_crash: mark: error %s\n", err_name(errno));
		exit(1);
	}
	close(mark);
	int a = make("/tmp/orphan-crash.a", 'a', 16);   /* 1 MiB */
	int b = make("/tmp/orphan-crash.b", 'b', 8);
	int c = make("/tmp/orphan-crash.c", 'c', 0);
	outcome("unlink a while open", unlink("/tmp/orphan-crash.a"));
	outcome("rename c over b while b is open", rename("/tmp/orphan-crash.c",
	                                                  "/tmp/orphan-crash.b"));
	close(c);
	outcome("unlink b's new name", unlink("/tmp/orphan-crash.b"));
	fill(a, 'A', 4);   /* after the name went */
	fill(b, 'B', 4);
	outcome("fsync a", fsync(a));
	sync();
	say("ORPHAN-HELD\n");
	for (;;)
		pause();   /* until the host kills the machine */
}

static void second_boot(void)
{
	outcome("unlink the mark", unlink(MARK));
	int d = make("/tmp/orphan-crash.d", 'd', 4);
	outcome("unlink d while open", unlink("/tmp/orphan-crash.d"));
	pid_t child = fork();
	if (child == 0) {
		/* Holds d open past the end of the run: the shutdown frees it. */
		for (;;)
			pause();
	}
	outcome("fork a child that keeps d open", child);
	close(d);
	say("ORPHAN-SECOND-DONE\n");
}

int main(void)
{
	struct stat st;
	if (stat(MARK, &st) == 0)
		second_boot();
	else
		first_boot();
	return 0;
}
