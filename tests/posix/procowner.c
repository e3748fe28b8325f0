/*
 * procowner.c - who owns /proc/<pid> and its files, and the Uid/Gid lines
 * of /proc/<pid>/status. As Linux: a process's directory and files belong
 * to its effective uid and gid (busybox ps's USER column); root's ones to
 * root; another user's environ and fd/ cannot be opened (EACCES); status
 * shows the real, effective, saved and file-system ids. And open follows
 * /proc/self/exe and cwd to the file and directory they name.
 *
 * A process that changed its effective ids since its exec is not
 * "dumpable": its /proc/<pid> belongs to root until prctl(PR_SET_DUMPABLE)
 * or an exec makes it dumpable again (prctl's bad value: EINVAL).
 */
#include "posix_test.h"
#include <grp.h>
#include <sys/prctl.h>
#include <sys/wait.h>

static void owner(const char *path, int follow)
{
	struct stat st;
	int rc = follow ? stat(path, &st) : lstat(path, &st);
	if (rc < 0)
		say("%s: error %s\n", path, err_name(errno));
	else
		say("%s: uid %u gid %u\n", path, (unsigned)st.st_uid, (unsigned)st.st_gid);
}

/* Prints the Uid: and Gid: lines of /proc/self/status. */
static void id_lines(void)
{
	int fd = open("/proc/self/status", O_RDONLY);
	if (fd < 0) {
		say("status: error %s\n", err_name(errno));
		return;
	}
	static char buf[8192];
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		if (strncmp(line, "Uid:", 4) == 0 || strncmp(line, "Gid:", 4) == 0)
			say("status %s\n", line);
}

static void try_open(const char *path, int flags)
{
	int fd = open(path, flags);
	outcome(path, fd);
	if (fd >= 0)
		close(fd);
}

/* After setresuid/setresgid to a user and an exec: its /proc is its own. */
static void user_view(void)
{
	say("-- a user's process after exec\n");
	say("dumpable: %d\n", prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
	owner("/proc/self", 1);
	owner("/proc/self/stat", 0);
	owner("/proc/self/status", 0);
	owner("/proc/self/cmdline", 0);
	owner("/proc/self/fd", 0);
	owner("/proc/self/cwd", 0);
	owner("/proc/1", 1);
	id_lines();
	try_open("/proc/self/environ", O_RDONLY);
	try_open("/proc/1/environ", O_RDONLY);
	try_open("/proc/1/fd", O_RDONLY | O_DIRECTORY);
	try_open("/proc/1/stat", O_RDONLY);
	try_open("/proc/self/stat", O_WRONLY);
	say("access /proc/1/environ R_OK: %s\n", access("/proc/1/environ", R_OK) == 0 ? "ok"
	    : err_name(errno));
	say("access /proc/self/environ R_OK: %s\n", access("/proc/self/environ", R_OK) == 0 ? "ok"
	    : err_name(errno));
}

/* Right after setresuid/setresgid, before an exec: not dumpable, so /proc
 * is root's, until PR_SET_DUMPABLE says otherwise. */
static void dumpable_view(void)
{
	say("-- a user's process before exec\n");
	say("dumpable: %d\n", prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
	owner("/proc/self", 1);
	owner("/proc/self/status", 0);
	outcome("PR_SET_DUMPABLE 2", prctl(PR_SET_DUMPABLE, 2, 0, 0, 0));
	outcome("PR_SET_DUMPABLE 1", prctl(PR_SET_DUMPABLE, 1, 0, 0, 0));
	say("dumpable: %d\n", prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
	owner("/proc/self", 1);
	owner("/proc/self/status", 0);
	outcome("PR_SET_DUMPABLE 0", prctl(PR_SET_DUMPABLE, 0, 0, 0, 0));
	owner("/proc/self/stat", 0);
}

static int wait_child(pid_t pid)
{
	int status = 0;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* open follows /proc/self/exe and cwd to the disk (busybox's standalone
 * shell execs /proc/self/exe), but not with O_NOFOLLOW. */
static void links_opened(void)
{
	say("-- /proc/self/exe and cwd opened\n");
	char magic[4] = { 0 };
	int fd = open("/proc/self/exe", O_RDONLY);
	outcome("open /proc/self/exe", fd);
	if (fd >= 0) {
		say("it reads an ELF header: %s\n", yes(read(fd, magic, 4) == 4 &&
		                                     memcmp(magic, "\177ELF", 4) == 0));
		struct stat a, b;
		say("the same file as /posix/procowner: %s\n",
		    yes(fstat(fd, &a) == 0 && stat("/posix/procowner", &b) == 0 &&
		        a.st_ino == b.st_ino && a.st_dev == b.st_dev));
		close(fd);
	}
	fd = open("/proc/self/cwd", O_RDONLY | O_DIRECTORY);
	outcome("open /proc/self/cwd as a directory", fd);
	if (fd >= 0) {
		struct stat a, b;
		say("the same directory as .: %s\n", yes(fstat(fd, &a) == 0 && stat(".", &b) == 0 &&
		                                         a.st_ino == b.st_ino));
		close(fd);
	}
	fd = open("/proc/self/exe", O_RDONLY | O_NOFOLLOW);
	outcome("open /proc/self/exe O_NOFOLLOW", fd);
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "user") == 0) {
		user_view();
		return 0;
	}
	say("-- root\n");
	say("dumpable: %d\n", prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
	owner("/proc/self", 1);
	owner("/proc/self/status", 0);
	owner("/proc/1", 1);
	id_lines();

	pid_t pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) < 0 || setresgid(100, 100, 100) < 0 ||
		    setresuid(1000, 1000, 1000) < 0) {
			say("dropping to 1000: error %s\n", err_name(errno));
			_exit(1);
		}
		dumpable_view();
		execl("/posix/procowner", "procowner", "user", (char *)NULL);
		say("exec: error %s\n", err_name(errno));
		_exit(1);
	}
	say("user child: exit %d\n", wait_child(pid));

	pid = fork();
	if (pid == 0) {
		say("-- real, effective and saved ids apart\n");
		if (setresgid(100, 101, 102) < 0 || setresuid(1000, 1001, 1002) < 0) {
			say("setres: error %s\n", err_name(errno));
			_exit(1);
		}
		id_lines();
		say("dumpable: %d\n", prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
		owner("/proc/self", 1);
		_exit(0);
	}
	say("ids child: exit %d\n", wait_child(pid));
	links_opened();
	return 0;
}
