/*
 * locks.c - file locks as Linux keeps them: POSIX record locks (fcntl
 * F_GETLK, F_SETLK, F_SETLKW) and flock(2).
 *
 * Record locks: another process sees a write lock in its way (F_GETLK
 * names the range and the owner), gets EAGAIN from F_SETLK, shares read
 * locks; a process's own locks never conflict and are replaced, split
 * and merged (what another process's F_GETLK then reports); closing any
 * descriptor of the file lets the process's locks go, and so does its
 * end; a child does not inherit them; F_SETLKW waits until the holder
 * lets go, is cut short by a signal (EINTR) and reports a deadlock
 * (EDEADLK). flock: exclusive against another description, shared
 * between two, the same description (a dup, a fork) is one owner, LOCK_NB
 * says EWOULDBLOCK, the last close lets it go. OFD locks (F_OFD_*): owned
 * by the open file description, so two descriptions of one process
 * conflict, a dup and a forked child share the owner, a close of another
 * descriptor keeps them, the last close of the description lets them go,
 * F_GETLK sees pid -1; a non-zero l_pid is EINVAL. Bad inputs: EBADF,
 * EINVAL, EFAULT.
 */
#include "posix_test.h"
#include <signal.h>
#include <sys/file.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define FILE_NAME "locked"

static int parent_pid;

/* Prints what F_GETLK says of a type lock on [start, start + len) from
 * another process (a child made for the question). */
static void probe(const char *what, short type, off_t start, off_t len)
{
	int p[2];
	if (pipe(p) < 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		int fd = open(FILE_NAME, O_RDWR);
		struct flock lk = { .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len };
		char line[160];
		if (fcntl(fd, F_GETLK, &lk) < 0)
			snprintf(line, sizeof line, "%s: error %s\n", what, err_name(errno));
		else if (lk.l_type == F_UNLCK)
			snprintf(line, sizeof line, "%s: free\n", what);
		else
			snprintf(line, sizeof line, "%s: %s lock at %lld len %lld by the %s\n", what,
			         lk.l_type == F_WRLCK ? "write" : "read", (long long)lk.l_start,
			         (long long)lk.l_len, lk.l_pid == parent_pid ? "parent" : "other");
		ssize_t n = write(p[1], line, strlen(line));
		_exit(n > 0 ? 0 : 1);
	}
	close(p[1]);
	char line[160];
	ssize_t n = read(p[0], line, sizeof line - 1);
	close(p[0]);
	waitpid(pid, NULL, 0);
	line[n > 0 ? n : 0] = '\0';
	say("%s", line);
}

static long set_lock(int fd, int cmd, short type, off_t start, off_t len)
{
	struct flock lk = { .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len };
	return fcntl(fd, cmd, &lk);
}

/* A child that tries a type lock with F_SETLK and prints the outcome. */
static void try_from_child(const char *what, short type, off_t start, off_t len)
{
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(FILE_NAME, O_RDWR);
		outcome(what, set_lock(fd, F_SETLK, type, start, len));
		_exit(0);
	}
	waitpid(pid, NULL, 0);
}

static void record_locks(void)
{
	say("-- record locks\n");
	int fd = open(FILE_NAME, O_RDWR);
	outcome("write lock 0+10", set_lock(fd, F_SETLK, F_WRLCK, 0, 10));
	probe("probe write at 5", F_WRLCK, 5, 1);
	probe("probe read at 5", F_RDLCK, 5, 1);
	probe("probe write at 10", F_WRLCK, 10, 5);
	try_from_child("child write lock at 5", F_WRLCK, 5, 1);
	try_from_child("child read lock at 20", F_RDLCK, 20, 5);

	outcome("own read lock over it", set_lock(fd, F_SETLK, F_RDLCK, 0, 10));
	probe("probe write at 5 after downgrade", F_WRLCK, 5, 1);
	probe("probe read at 5 after downgrade", F_RDLCK, 5, 1);
	try_from_child("child read lock at 5", F_RDLCK, 5, 1);
	struct flock own = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 10 };
	outcome("F_GETLK on its own lock", fcntl(fd, F_GETLK, &own));
	say("its own lock is no conflict: %s\n", yes(own.l_type == F_UNLCK));

	outcome("write lock 0+100", set_lock(fd, F_SETLK, F_WRLCK, 0, 100));
	outcome("unlock 40+10", set_lock(fd, F_SETLK, F_UNLCK, 40, 10));
	probe("probe at 45", F_WRLCK, 45, 1);
	probe("probe at 30", F_WRLCK, 30, 1);
	probe("probe at 60", F_WRLCK, 60, 1);
	outcome("write lock 40+10 again", set_lock(fd, F_SETLK, F_WRLCK, 40, 10));
	probe("probe at 45 merged", F_WRLCK, 45, 1);
	outcome("read lock 200 to the end", set_lock(fd, F_SETLK, F_RDLCK, 200, 0));
	probe("probe write far away", F_WRLCK, 1 << 30, 1);
	struct flock back = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 300, .l_len = -50 };
	outcome("write lock 250..299 by a negative length", fcntl(fd, F_SETLK, &back));
	probe("probe at 260", F_WRLCK, 260, 1);
	struct flock cur = { .l_type = F_WRLCK, .l_whence = SEEK_CUR, .l_start = 10, .l_len = 5 };
	lseek(fd, 500, SEEK_SET);
	outcome("write lock at SEEK_CUR + 10", fcntl(fd, F_SETLK, &cur));
	probe("probe at 512", F_WRLCK, 512, 1);
	struct flock end = { .l_type = F_WRLCK, .l_whence = SEEK_END, .l_start = 0, .l_len = 1 };
	outcome("write lock at SEEK_END", fcntl(fd, F_SETLK, &end));
	probe("probe at the end (1000)", F_WRLCK, 1000, 1);

	/* Any close of the file lets the process's locks go. */
	int other = open(FILE_NAME, O_RDONLY);
	close(other);
	probe("probe at 5 after closing another descriptor", F_WRLCK, 5, 1);
	close(fd);

	/* A child's locks go when it ends; a child does not inherit ours. */
	fd = open(FILE_NAME, O_RDWR);
	set_lock(fd, F_SETLK, F_WRLCK, 0, 10);
	pid_t pid = fork();
	if (pid == 0) {
		outcome("child write lock on the inherited descriptor",
		        set_lock(fd, F_SETLK, F_WRLCK, 0, 1));
		int mine = open(FILE_NAME, O_RDWR);
		set_lock(mine, F_SETLK, F_WRLCK, 50, 10);
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	probe("probe at 55 after the child ended", F_WRLCK, 55, 1);
	close(fd);
}

static volatile sig_atomic_t alarmed;
static void on_alarm(int sig)
{
	(void)sig;
	alarmed = 1;
}

static void waits(void)
{
	say("-- F_SETLKW\n");
	int fd = open(FILE_NAME, O_RDWR);
	set_lock(fd, F_SETLK, F_WRLCK, 0, 10);
	int ready[2], note[2];
	if (pipe(ready) < 0 || pipe(note) < 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		int mine = open(FILE_NAME, O_RDWR);
		char c = 'r';
		if (write(ready[1], &c, 1) != 1)
			_exit(2);
		long r = set_lock(mine, F_SETLKW, F_WRLCK, 5, 1);
		/* The parent wrote its note before it let go. */
		fcntl(note[0], F_SETFL, O_NONBLOCK);
		int noted = read(note[0], &c, 1) == 1;
		_exit(r == 0 && noted ? 0 : 1);
	}
	char c;
	if (read(ready[0], &c, 1) != 1)
		say("the child did not start\n");
	if (write(note[1], "u", 1) != 1)
		say("note not written\n");
	set_lock(fd, F_SETLK, F_UNLCK, 0, 10);
	int status = 0;
	waitpid(pid, &status, 0);
	say("the waiting child got the lock once it was let go: %s\n",
	    yes(WIFEXITED(status) && WEXITSTATUS(status) == 0));

	/* A signal cuts the wait short. */
	set_lock(fd, F_SETLK, F_WRLCK, 0, 10);
	pid = fork();
	if (pid == 0) {
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_alarm;
		sigaction(SIGALRM, &sa, NULL);
		alarm(1);
		int mine = open(FILE_NAME, O_RDWR);
		long r = set_lock(mine, F_SETLKW, F_WRLCK, 0, 1);
		_exit(r < 0 && errno == EINTR && alarmed ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	say("a signal cuts F_SETLKW short with EINTR: %s\n",
	    yes(WIFEXITED(status) && WEXITSTATUS(status) == 0));

	/* A deadlock: we hold 0..9 and wait for 100; the child holds 100 and
	 * waits for 0..9. One of the two is told EDEADLK. */
	if (pipe(ready) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		int mine = open(FILE_NAME, O_RDWR);
		set_lock(mine, F_SETLK, F_WRLCK, 100, 1);
		char r = 'r';
		if (write(ready[1], &r, 1) != 1)
			_exit(2);
		long got = set_lock(mine, F_SETLKW, F_WRLCK, 0, 1);
		_exit(got < 0 && errno == EDEADLK ? 3 : got == 0 ? 0 : 1);
	}
	if (read(ready[0], &c, 1) != 1)
		say("the child did not start\n");
	long mine = set_lock(fd, F_SETLKW, F_WRLCK, 100, 1);
	int deadlocked_here = mine < 0 && errno == EDEADLK;
	if (deadlocked_here)
		set_lock(fd, F_SETLK, F_UNLCK, 0, 10);   /* let the child through */
	waitpid(pid, &status, 0);
	int deadlocked_there = WIFEXITED(status) && WEXITSTATUS(status) == 3;
	say("exactly one of the two was told EDEADLK: %s\n",
	    yes(deadlocked_here + deadlocked_there == 1));
	close(fd);
}

static void flocks(void)
{
	say("-- flock\n");
	int a = open(FILE_NAME, O_RDWR), b = open(FILE_NAME, O_RDONLY);
	outcome("LOCK_EX", flock(a, LOCK_EX));
	outcome("LOCK_EX|LOCK_NB from another description", flock(b, LOCK_EX | LOCK_NB));
	outcome("LOCK_SH|LOCK_NB from another description", flock(b, LOCK_SH | LOCK_NB));
	int d = dup(a);
	outcome("LOCK_EX|LOCK_NB on a dup (the same description)", flock(d, LOCK_EX | LOCK_NB));
	pid_t pid = fork();
	if (pid == 0) {
		outcome("child LOCK_EX|LOCK_NB on the inherited descriptor", flock(a, LOCK_EX | LOCK_NB));
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	outcome("LOCK_SH (a conversion)", flock(a, LOCK_SH));
	outcome("LOCK_SH|LOCK_NB from another description", flock(b, LOCK_SH | LOCK_NB));
	outcome("LOCK_EX|LOCK_NB while both share", flock(a, LOCK_EX | LOCK_NB));
	outcome("LOCK_UN of the other", flock(b, LOCK_UN));
	outcome("LOCK_EX|LOCK_NB now", flock(a, LOCK_EX | LOCK_NB));
	close(a);
	outcome("LOCK_EX|LOCK_NB from the other while a dup stays open", flock(b, LOCK_EX | LOCK_NB));
	close(d);
	outcome("LOCK_EX|LOCK_NB after the last close", flock(b, LOCK_EX | LOCK_NB));
	int c = open(FILE_NAME, O_RDWR);
	outcome("record lock beside a flock", set_lock(c, F_SETLK, F_WRLCK, 0, 0));
	close(c);
	close(b);
}

static long ofd_lock(int fd, int cmd, short type, off_t start, off_t len)
{
	struct flock lk = { .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len };
	return fcntl(fd, cmd, &lk);
}

static void ofd_locks(void)
{
	say("-- OFD locks\n");
	int a = open(FILE_NAME, O_RDWR), b = open(FILE_NAME, O_RDWR);
	outcome("OFD write lock 0+10 on a", ofd_lock(a, F_OFD_SETLK, F_WRLCK, 0, 10));
	outcome("OFD write lock 5+1 on b (same process)", ofd_lock(b, F_OFD_SETLK, F_WRLCK, 5, 1));
	outcome("POSIX write lock 5+1 by the same process", set_lock(b, F_SETLK, F_WRLCK, 5, 1));
	struct flock q = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 5, .l_len = 1 };
	outcome("F_OFD_GETLK from b", fcntl(b, F_OFD_GETLK, &q));
	say("b sees a write lock at %lld len %lld pid %d\n", (long long)q.l_start,
	    (long long)q.l_len, q.l_pid);
	probe("probe from another process", F_WRLCK, 5, 1);
	int d = dup(a);
	outcome("OFD write lock 5+1 on a dup of a", ofd_lock(d, F_OFD_SETLK, F_WRLCK, 5, 1));
	pid_t pid = fork();
	if (pid == 0) {
		outcome("child OFD write lock on the inherited a", ofd_lock(a, F_OFD_SETLK, F_WRLCK, 0, 1));
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	close(b);
	probe("after closing b (another description)", F_WRLCK, 5, 1);
	close(a);
	probe("after closing a while its dup is open", F_WRLCK, 5, 1);
	close(d);
	probe("after the description's last close", F_WRLCK, 5, 1);
	int c = open(FILE_NAME, O_RDWR);
	struct flock bad = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1,
	                     .l_pid = 1 };
	outcome("F_OFD_SETLK with l_pid 1", fcntl(c, F_OFD_SETLK, &bad));
	outcome("F_OFD_SETLKW unlock", ofd_lock(c, F_OFD_SETLKW, F_UNLCK, 0, 0));
	close(c);
}

static void bad_inputs(void)
{
	say("-- bad inputs\n");
	int ro = open(FILE_NAME, O_RDONLY), wo = open(FILE_NAME, O_WRONLY);
	outcome("write lock on a read-only descriptor", set_lock(ro, F_SETLK, F_WRLCK, 0, 1));
	outcome("read lock on a write-only descriptor", set_lock(wo, F_SETLK, F_RDLCK, 0, 1));
	outcome("F_GETLK on a write-only descriptor", set_lock(wo, F_GETLK, F_RDLCK, 0, 1));
	outcome("bad descriptor", set_lock(99, F_SETLK, F_WRLCK, 0, 1));
	outcome("closed descriptor", set_lock(-1, F_SETLK, F_WRLCK, 0, 1));
	outcome("type 7", set_lock(ro, F_SETLK, 7, 0, 1));
	outcome("F_GETLK of F_UNLCK", set_lock(ro, F_GETLK, F_UNLCK, 0, 1));
	struct flock lk = { .l_type = F_RDLCK, .l_whence = 3, .l_start = 0, .l_len = 1 };
	outcome("whence 3", fcntl(ro, F_SETLK, &lk));
	outcome("negative start", set_lock(ro, F_SETLK, F_RDLCK, -5, 1));
	outcome("a negative length before 0", set_lock(ro, F_SETLK, F_RDLCK, 2, -5));
	outcome("bad pointer", syscall(SYS_fcntl, ro, F_SETLK, 8L));
	outcome("bad pointer and bad descriptor", syscall(SYS_fcntl, 99, F_SETLK, 8L));
	outcome("flock with no operation", flock(ro, 0));
	outcome("flock LOCK_SH|LOCK_EX", flock(ro, LOCK_SH | LOCK_EX));
	outcome("flock with a bad descriptor", flock(99, LOCK_EX));
	outcome("flock with a bad descriptor and no operation", flock(99, 0));
	struct flock both = { .l_type = F_WRLCK, .l_whence = 3, .l_start = 0, .l_len = 1 };
	outcome("write lock on a read-only descriptor with whence 3", fcntl(ro, F_SETLK, &both));
	int p[2];
	if (pipe(p) == 0) {
		outcome("flock on a pipe", flock(p[0], LOCK_EX | LOCK_NB));
		close(p[0]);
		close(p[1]);
	}
	close(ro);
	close(wo);
}

int main(void)
{
	parent_pid = getpid();
	scratch_enter("locks");
	int fd = open(FILE_NAME, O_RDWR | O_CREAT, 0644);
	static char kb[1000];
	if (fd < 0 || write(fd, kb, sizeof kb) != (ssize_t)sizeof kb) {
		say("cannot make %s\n", FILE_NAME);
		return 1;
	}
	close(fd);
	record_locks();
	waits();
	flocks();
	ofd_locks();
	bad_inputs();
	scratch_leave();
	return 0;
}
