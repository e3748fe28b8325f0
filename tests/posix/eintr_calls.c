/*
 * eintr_calls.c - calls that never wait are never cut short by a signal,
 * as Linux: with a SIGALRM handler installed without SA_RESTART and an
 * interval timer firing every 200 microseconds, thousands of open, close,
 * dup, mkdir, rmdir, rename, unlink and stat calls on regular files all
 * succeed (no EINTR), and no descriptor is left open behind the program's
 * back (the lowest free one is the same after the loop); so do reads and
 * writes of a regular file, the first one on a new descriptor or a dup
 * included. The same loop
 * on a pipe's read end, where read waits, is cut short with EINTR.
 */
#include "posix_test.h"
#include <signal.h>
#include <sys/time.h>

#define ROUNDS 3000

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* Counts a failed call by its errno. */
static void tally(long r, int *eintr, int *other)
{
	if (r >= 0)
		return;
	if (errno == EINTR)
		(*eintr)++;
	else
		(*other)++;
}

int main(void)
{
	scratch_enter("eintr_calls");
	if (write_file("f", "data\n", 0644) < 0) {
		say("cannot write f\n");
		return 1;
	}
	int lowest = open("f", O_RDONLY);
	close(lowest);

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;   /* no SA_RESTART */
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval every = { { 0, 200 }, { 0, 200 } };
	setitimer(ITIMER_REAL, &every, NULL);

	int eintr = 0, other = 0;
	struct stat st;
	for (int i = 0; i < ROUNDS; i++) {
		int fd = open("f", O_RDONLY);
		tally(fd, &eintr, &other);
		if (fd >= 0) {
			int d = dup(fd);
			tally(d, &eintr, &other);
			if (d >= 0)
				tally(close(d), &eintr, &other);
			tally(close(fd), &eintr, &other);
		}
		tally(mkdir("d", 0755), &eintr, &other);
		tally(rename("d", "e"), &eintr, &other);
		tally(rmdir("e"), &eintr, &other);
		tally(stat("f", &st), &eintr, &other);
		tally(link("f", "g"), &eintr, &other);
		tally(unlink("g"), &eintr, &other);
	}
	/* Reads and writes of a regular file wait for nothing either. */
	int rw_eintr = 0, rw_other = 0;
	int rw = open("f", O_RDWR);
	char block[512];
	memset(block, 'x', sizeof block);
	for (int i = 0; i < ROUNDS && rw >= 0; i++) {
		tally(pwrite(rw, block, sizeof block, 0), &rw_eintr, &rw_other);
		tally(pread(rw, block, sizeof block, 0), &rw_eintr, &rw_other);
		tally(lseek(rw, 0, SEEK_SET), &rw_eintr, &rw_other);
		tally(write(rw, block, 8), &rw_eintr, &rw_other);
		tally(read(rw, block, 8), &rw_eintr, &rw_other);
		/* The first transfer on a new descriptor (and on a dup). */
		int fresh = open("f", O_RDONLY);
		tally(fresh, &rw_eintr, &rw_other);
		if (fresh >= 0) {
			tally(read(fresh, block, 8), &rw_eintr, &rw_other);
			int d = dup(fresh);
			tally(d, &rw_eintr, &rw_other);
			if (d >= 0) {
				tally(pread(d, block, 8, 0), &rw_eintr, &rw_other);
				close(d);
			}
			close(fresh);
		}
	}
	if (rw >= 0)
		close(rw);
	/* A read that waits: a pipe nobody writes to. */
	int p[2], cut = 0;
	if (pipe(p) == 0) {
		char c;
		cut = read(p[0], &c, 1) < 0 && errno == EINTR;
		close(p[0]);
		close(p[1]);
	}
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);

	say("signals arrived: %s\n", yes(alarms > 0));
	say("calls cut short with EINTR: %d\n", eintr);
	say("calls failed otherwise: %d\n", other);
	say("regular-file reads and writes cut short with EINTR: %d\n", rw_eintr);
	say("regular-file reads and writes failed otherwise: %d\n", rw_other);
	int fd = open("f", O_RDONLY);
	say("no descriptor left behind: %s\n", yes(fd == lowest));
	if (fd >= 0)
		close(fd);
	say("a waiting read is cut short with EINTR: %s\n", yes(cut));
	scratch_leave();
	return 0;
}
