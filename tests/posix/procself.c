/*
 * procself.c - /proc as programs use it: /proc/self (a link to the pid),
 * /proc/self/stat parsed (pid, comm, state, ppid against the calls),
 * status's Pid/PPid, cmdline (argv as given), comm, exe (a link to this
 * program), cwd, fd/ (its entries are links; ttyname through them), and the
 * system files uptime, meminfo, loadavg, stat, version, mounts,
 * filesystems and cpuinfo parsed for their shape; the listing of /proc
 * holds our pid. Bad input: a pid that does not exist, a non-number, a name
 * under a file (ENOENT, ENOTDIR), writes to read-only files, O_CREAT,
 * mkdir. Writing /proc/self/comm renames the process (15 bytes kept, the
 * newline too; PR_GET_NAME agrees); a child writing its parent's gets
 * EINVAL, a bad buffer EFAULT. Prints facts, never values.
 */
#include "posix_test.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[65536];

/* The whole of path into buf: its length, or -1. */
static long slurp(const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	long n = 0, r;
	while ((r = read(fd, buf + n, sizeof buf - 1 - (size_t)n)) > 0)
		n += r;
	close(fd);
	buf[n] = '\0';
	return r < 0 ? -1 : n;
}

/* Writes text to path (one write); prints the count or the error. */
static void write_proc(const char *what, const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0) {
		say("%s: open error %s\n", what, err_name(errno));
		return;
	}
	ssize_t n = write(fd, text, len);
	if (n < 0)
		say("%s: error %s\n", what, err_name(errno));
	else
		say("%s: wrote %zd\n", what, n);
	close(fd);
}

/* Prints /proc/self/comm byte by byte (a newline shows as \n) and
 * PR_GET_NAME's name. */
static void show_comm(const char *when)
{
	long n = slurp("/proc/self/comm");
	say("%s: comm \"", when);
	for (long i = 0; i < n; i++)
		say(buf[i] == '\n' ? "\\n" : "%c", buf[i]);
	char name[17] = "";
	prctl(PR_GET_NAME, name, 0, 0, 0);
	say("\", PR_GET_NAME \"%s\"\n", name);
}

/* /proc/<pid>/comm written: by the process itself, too long, by a child. */
static void comm_writes(void)
{
	write_proc("write comm", "/proc/self/comm", "renamed", 7);
	show_comm("after a write");
	write_proc("write comm with a newline", "/proc/self/comm", "lined\n", 6);
	show_comm("after a newline");
	write_proc("write a 20-byte comm", "/proc/self/comm", "abcdefghijklmnopqrst", 20);
	show_comm("after 20 bytes");
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/comm", getpid());
	write_proc("write comm by pid", path, "bypid", 5);
	show_comm("after by pid");
	write_proc("write comm from a bad buffer", "/proc/self/comm", (const char *)8, 4);
	pid_t child = fork();
	if (child == 0) {
		write_proc("child writes its parent's comm", path, "stolen", 6);
		_exit(0);
	}
	int status;
	waitpid(child, &status, 0);
	show_comm("after the child");
	prctl(PR_SET_NAME, "procself", 0, 0, 0);
}

static void shape(const char *path, const char *must_have)
{
	long n = slurp(path);
	say("%s: readable %s, has \"%s\": %s\n", path, yes(n > 0), must_have,
	    yes(n > 0 && strstr(buf, must_have) != NULL));
}

static void fails(const char *what, long r)
{
	outcome(what, r);
}

int main(int argc, char **argv)
{
	(void)argc;
	char want[32], link[256];
	snprintf(want, sizeof want, "%d", getpid());
	ssize_t n = readlink("/proc/self", link, sizeof link - 1);
	link[n > 0 ? n : 0] = '\0';
	say("readlink /proc/self is our pid: %s\n", yes(strcmp(link, want) == 0));

	/* stat */
	long len = slurp("/proc/self/stat");
	int pid = 0, ppid = 0;
	char comm[64] = "", state = '?';
	int got = len > 0 ? sscanf(buf, "%d (%63[^)]) %c %d", &pid, comm, &state, &ppid) : 0;
	say("/proc/self/stat parses: %s\n", yes(got == 4));
	say("stat pid is getpid: %s\n", yes(pid == getpid()));
	say("stat ppid is getppid: %s\n", yes(ppid == getppid()));
	say("stat comm: %s, state running: %s\n", comm, yes(state == 'R'));
	int fields = 0;
	for (char *p = strrchr(buf, ')'); p && *p; p++)
		fields += *p == ' ';
	say("stat has at least 44 fields: %s\n", yes(fields + 2 >= 44));

	/* status, comm, cmdline */
	len = slurp("/proc/self/status");
	char line[64];
	snprintf(line, sizeof line, "\nPid:\t%d\n", getpid());
	say("status has Name, State and our Pid: %s\n",
	    yes(len > 0 && strncmp(buf, "Name:\t", 6) == 0 && strstr(buf, "\nState:\t") && strstr(buf, line)));
	snprintf(line, sizeof line, "\nPPid:\t%d\n", getppid());
	say("status PPid is getppid: %s\n", yes(len > 0 && strstr(buf, line) != NULL));
	len = slurp("/proc/self/comm");
	say("comm: %s", len > 0 ? buf : "(none)\n");
	len = slurp("/proc/self/cmdline");
	say("cmdline is argv[0] and its NUL: %s\n",
	    yes(len == (long)strlen(argv[0]) + 1 && strcmp(buf, argv[0]) == 0));

	/* links */
	n = readlink("/proc/self/exe", link, sizeof link - 1);
	link[n > 0 ? n : 0] = '\0';
	say("exe is an absolute path ending in /procself: %s\n",
	    yes(n > 0 && link[0] == '/' && strstr(link, "/procself") != NULL));
	struct stat st, me;
	say("stat of exe is a regular file: %s\n", yes(stat("/proc/self/exe", &st) == 0 && S_ISREG(st.st_mode)));
	say("lstat of exe is a link: %s\n", yes(lstat("/proc/self/exe", &st) == 0 && S_ISLNK(st.st_mode)));
	char cwd[256];
	n = readlink("/proc/self/cwd", link, sizeof link - 1);
	link[n > 0 ? n : 0] = '\0';
	say("cwd link is getcwd: %s\n", yes(n > 0 && getcwd(cwd, sizeof cwd) && strcmp(cwd, link) == 0));
	int fd = open("/dev/null", O_RDONLY);
	snprintf(line, sizeof line, "/proc/self/fd/%d", fd);
	n = readlink(line, link, sizeof link - 1);
	link[n > 0 ? n : 0] = '\0';
	say("fd link of /dev/null: %s\n", n > 0 ? link : "(none)");
	say("stat through the fd link is fstat: %s\n",
	    yes(stat(line, &st) == 0 && fstat(fd, &me) == 0 && st.st_ino == me.st_ino && st.st_rdev == me.st_rdev));
	int pfd[2];
	if (pipe(pfd) == 0) {
		snprintf(line, sizeof line, "/proc/self/fd/%d", pfd[0]);
		n = readlink(line, link, sizeof link - 1);
		link[n > 0 ? n : 0] = '\0';
		say("fd link of a pipe starts pipe:[: %s\n", yes(strncmp(link, "pipe:[", 6) == 0));
	}
	DIR *d = opendir("/proc/self/fd");
	int count = 0, has_null = 0;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		count++;
		has_null |= atoi(e->d_name) == fd;
	}
	if (d)
		closedir(d);
	say("fd/ lists /dev/null's descriptor: %s, at least 4 entries: %s\n", yes(has_null), yes(count >= 4));
	close(fd);
	char *tty = ttyname(0);
	say("ttyname(0) is /dev/console: %s\n", yes(tty && strcmp(tty, "/dev/console") == 0));

	/* /proc itself */
	d = opendir("/proc");
	int mine = 0, self = 0;
	while (d && (e = readdir(d))) {
		mine |= strcmp(e->d_name, want) == 0;
		self |= strcmp(e->d_name, "self") == 0;
	}
	if (d)
		closedir(d);
	say("/proc lists our pid: %s, self: %s\n", yes(mine), yes(self));
	snprintf(line, sizeof line, "/proc/%d", getpid());
	say("/proc/<pid> is a directory: %s\n", yes(stat(line, &st) == 0 && S_ISDIR(st.st_mode)));
	len = slurp("/proc/uptime");
	double up = -1, idle = -1;
	say("uptime parses: %s\n", yes(len > 0 && sscanf(buf, "%lf %lf", &up, &idle) == 2 && up > 0));
	shape("/proc/meminfo", "MemTotal:");
	shape("/proc/meminfo", "MemFree:");
	shape("/proc/loadavg", "/");
	shape("/proc/stat", "cpu ");
	shape("/proc/stat", "btime ");
	shape("/proc/version", " version ");
	shape("/proc/mounts", " / ");
	shape("/proc/filesystems", "ext");
	shape("/proc/cpuinfo", "processor");
	say("/proc/uptime is a regular file of size 0: %s\n",
	    yes(stat("/proc/uptime", &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0));

	/* bad input */
	fails("open /proc/99999/stat", open("/proc/99999/stat", O_RDONLY));
	fails("stat /proc/99999", stat("/proc/99999", &st));
	fails("open /proc/notanumber", open("/proc/notanumber", O_RDONLY));
	fails("open /proc/self/nothing", open("/proc/self/nothing", O_RDONLY));
	fails("open /proc/uptime/x", open("/proc/uptime/x", O_RDONLY));
	fails("readlink /proc/self/fd/999", readlink("/proc/self/fd/999", link, sizeof link));
	fails("readlink /proc/uptime", readlink("/proc/uptime", link, sizeof link));
	fails("readlink /proc/self bad buffer", readlink("/proc/self", (char *)8, 16));
	fd = open("/proc/uptime", O_RDONLY);
	fails("read /proc/uptime into a bad buffer", read(fd, (char *)8, 16));
	fails("write to /proc/uptime opened read-only", write(fd, "1", 1));
	close(fd);
	fd = open("/proc/uptime", O_WRONLY);
	fails("open /proc/uptime for writing", fd);
	if (fd >= 0) {
		fails("write to /proc/uptime", write(fd, "1", 1));
		close(fd);
	}
	fails("open /proc/version O_CREAT|O_EXCL", open("/proc/version", O_WRONLY | O_CREAT | O_EXCL, 0644));
	fails("open /proc for writing", open("/proc", O_WRONLY));
	fails("open /proc/uptime O_DIRECTORY", open("/proc/uptime", O_RDONLY | O_DIRECTORY));
	comm_writes();
	return 0;
}
