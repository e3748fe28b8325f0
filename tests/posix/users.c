/*
 * Users: root's ids and groups (getres*id, setgroups sorted, getgroups),
 * a forked child that becomes uid 1000 (setresgid, setresuid) and what it
 * is then refused: regaining root (EPERM), reading or writing root's files
 * by their mode bits (EACCES), making, removing and renaming names in
 * root's directories (EACCES), chmod and chown of another's file (EPERM),
 * removing another's file from a sticky directory (EPERM); what it may do:
 * create in an open directory (the file is its own, 1000:1000), chmod its
 * own file, give it to its own group, remove root's file from an open
 * directory; search permission on the directories of a path (stat, open,
 * chdir: EACCES; a search-only directory: its names but no listing);
 * access with the real ids. A second child drops only its effective uid
 * and takes root back from the saved one (access still root's,
 * AT_EACCESS not); setfsuid makes new files another's. Root reads
 * everything.
 */
#include "posix_test.h"

#include <grp.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

#define D "users.scratch"

static void show_ids(const char *who)
{
	uid_t r, e, s;
	gid_t gr, ge, gs;
	getresuid(&r, &e, &s);
	getresgid(&gr, &ge, &gs);
	say("%s: uids %u %u %u, gids %u %u %u, getuid %u geteuid %u getgid %u getegid %u\n", who, r, e, s, gr, ge, gs,
	    getuid(), geteuid(), getgid(), getegid());
}

static void show_owner(const char *what, const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		say("%s: error %s\n", what, err_name(errno));
	else
		say("%s: owner %u:%u mode %o\n", what, st.st_uid, st.st_gid, st.st_mode & 07777);
}

static void as_user(void)
{
	outcome("setresgid(1000, 1000, 1000)", setresgid(1000, 1000, 1000));
	outcome("setresuid(1000, 1000, 1000)", setresuid(1000, 1000, 1000));
	show_ids("as 1000");
	gid_t kept[4];
	int nkept = getgroups(4, kept);
	say("groups kept: %d, %u\n", nkept, nkept > 0 ? kept[0] : 0);
	char status[2048];
	int sfd = open("/proc/self/status", O_RDONLY);
	ssize_t got = sfd >= 0 ? read(sfd, status, sizeof status - 1) : -1;
	status[got > 0 ? got : 0] = '\0';
	close(sfd);
	for (char *line = strtok(status, "\n"); line; line = strtok(NULL, "\n"))
		if (strncmp(line, "Uid:", 4) == 0 || strncmp(line, "Gid:", 4) == 0)
			say("/proc/self/status %s\n", line);
	errno = 0;
	outcome("setuid(0)", setuid(0));
	outcome("setgid(0)", setgid(0));
	outcome("setresuid(-1, 0, -1)", setresuid(-1, 0, -1));
	outcome("setreuid(0, -1)", setreuid(0, -1));
	outcome("setgroups", setgroups(0, NULL));
	outcome("setuid(1000) (its own)", setuid(1000));
	outcome("access(root's 0600 file, R_OK)", access(D "/root600", R_OK));
	outcome("access(root's 0644 file, R_OK)", access(D "/root644", R_OK));
	outcome("access(root's 0644 file, W_OK)", access(D "/root644", W_OK));
	outcome("access(the 0777 directory, W_OK|X_OK)", access(D "/pub", W_OK | X_OK));
	struct stat st;
	outcome("stat in root's 0700 directory", stat(D "/private/file", &st));
	outcome("open in it", open(D "/private/file", O_RDONLY));
	outcome("list it", open(D "/private", O_RDONLY | O_DIRECTORY));
	outcome("stat in root's 0711 directory (search only)", stat(D "/searchonly/file", &st));
	outcome("list it", open(D "/searchonly", O_RDONLY | O_DIRECTORY));
	outcome("chdir into the 0700 one", chdir(D "/private"));
	int pfd = open(D "/pub", O_RDONLY | O_DIRECTORY);
	outcome("fchdir into an open 0777 one", fchdir(pfd));
	outcome("chdir back", chdir("../.."));
	close(pfd);
	outcome("open root's 0600 file to read", open(D "/root600", O_RDONLY));
	outcome("open a 0640 file of its supplementary group 2000", open(D "/group640", O_RDONLY));
	outcome("open a 0604 file of that group (the group's bits count)", open(D "/group604", O_RDONLY));
	outcome("open root's 0644 file to read", open(D "/root644", O_RDONLY));
	outcome("open it to write", open(D "/root644", O_WRONLY));
	outcome("open it read-write", open(D "/root644", O_RDWR));
	outcome("open it O_RDONLY|O_TRUNC", open(D "/root644", O_RDONLY | O_TRUNC));
	outcome("create in root's 0755 directory", open(D "/rootdir/x", O_CREAT | O_WRONLY, 0644));
	outcome("mkdir in it", mkdir(D "/rootdir/d", 0755));
	outcome("mkdir of a name that exists there", mkdir(D "/rootdir/sub", 0755));
	outcome("rmdir in it", rmdir(D "/rootdir/sub"));
	outcome("unlink in it", unlink(D "/rootdir/file"));
	outcome("open an existing file there with O_CREAT", open(D "/rootdir/file", O_CREAT | O_RDONLY, 0644));
	int fd = open(D "/pub/mine", O_CREAT | O_WRONLY, 0644);
	say("create in the 0777 directory: %s\n", yes(fd >= 0));
	close(fd);
	show_owner("  the new file", D "/pub/mine");
	outcome("mkdir there", mkdir(D "/pub/dir", 0700));
	show_owner("  the new directory", D "/pub/dir");
	outcome("chmod its own file 0600", chmod(D "/pub/mine", 0600));
	outcome("chmod root's file", chmod(D "/root644", 0666));
	outcome("chown its own file to uid 0", chown(D "/pub/mine", 0, -1));
	outcome("chown its own file to its own group", chown(D "/pub/mine", -1, 1000));
	outcome("chown its own file to group 0", chown(D "/pub/mine", -1, 0));
	outcome("chown its own file to its supplementary group", chown(D "/pub/mine", -1, 2000));
	outcome("chown root's file to itself", chown(D "/root644", 1000, 1000));
	outcome("rename its file into root's directory", rename(D "/pub/mine", D "/rootdir/mine"));
	outcome("link its file into root's directory", link(D "/pub/mine", D "/rootdir/mine"));
	outcome("symlink in root's directory", symlink("x", D "/rootdir/link"));
	outcome("symlink in the 0777 directory", symlink("x", D "/pub/link"));
	struct stat lst;
	lstat(D "/pub/link", &lst);
	say("  the link's owner %u:%u\n", lst.st_uid, lst.st_gid);
	outcome("unlink it", unlink(D "/pub/link"));
	outcome("truncate root's 0644 file", truncate(D "/root644", 0));
	outcome("truncate its own file", truncate(D "/pub/mine", 0));
	outcome("utimes(now) on root's 0644 file", utimes(D "/root644", NULL));
	outcome("utimes(now) on root's 0666 file", utimes(D "/sticky/rootfile", NULL));
	struct timeval tv[2] = { { 1000, 0 }, { 2000, 0 } };
	outcome("utimes(given) on root's 0666 file", utimes(D "/sticky/rootfile", tv));
	outcome("utimes(given) on its own file", utimes(D "/pub/mine", tv));
	outcome("rename root's file out of root's directory", rename(D "/rootdir/file", D "/pub/file"));
	outcome("unlink root's file in the 0777 directory", unlink(D "/pub/rootfile"));
	outcome("unlink root's file in the sticky directory", unlink(D "/sticky/rootfile"));
	outcome("rename root's file in the sticky directory", rename(D "/sticky/rootfile", D "/sticky/other"));
	outcome("create in the sticky directory", open(D "/sticky/mine", O_CREAT | O_WRONLY, 0600));
	outcome("unlink its own file there", unlink(D "/sticky/mine"));
	static const char *const scripts[] = { D "/script744", D "/script755" };
	for (int i = 0; i < 2; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			char *argv[] = { (char *)scripts[i], NULL };
			execv(scripts[i], argv);
			_exit(errno == EACCES ? 100 : 101);
		}
		int status;
		waitpid(pid, &status, 0);
		say("exec %s: %s\n", scripts[i] + sizeof D, WEXITSTATUS(status) == 100 ? "EACCES" :
		    WEXITSTATUS(status) == 7 ? "it ran" : "other");
	}
	outcome("unlink its own file", unlink(D "/pub/mine"));
	outcome("rmdir its own directory", rmdir(D "/pub/dir"));
}

static void effective_only(void)
{
	outcome("setresuid(-1, 1000, -1)", setresuid(-1, 1000, -1));
	show_ids("effective 1000");
	outcome("open root's 0600 file", open(D "/root600", O_RDONLY));
	outcome("access(it, R_OK) (the real uid, 0)", access(D "/root600", R_OK));
	outcome("faccessat2(it, R_OK, AT_EACCESS) (the effective uid)",
	        syscall(439, AT_FDCWD, D "/root600", R_OK, AT_EACCESS));
	outcome("seteuid(0) (the saved uid)", seteuid(0));
	outcome("open root's 0600 file", open(D "/root600", O_RDONLY));
	outcome("setreuid(-1, 1000) (saved follows)", setreuid(-1, 1000));
	show_ids("after setreuid");
	outcome("seteuid(0)", seteuid(0));
	outcome("setuid(1000) with effective uid 0 (all three)", setuid(1000));
	show_ids("after setuid");
}

int main(void)
{
	show_ids("root");
	say("getgroups: %d\n", getgroups(0, NULL));
	gid_t g[4] = { 5, 3 };
	outcome("setgroups(5, 3)", setgroups(2, g));
	int n = getgroups(4, g);
	say("getgroups: %d: %u %u\n", n, g[0], g[1]);
	outcome("getgroups into 1", getgroups(1, g));
	outcome("getgroups -1", getgroups(-1, g));
	outcome("getgroups into a bad pointer", syscall(SYS_getgroups, 4, (gid_t *)8));
	outcome("setgroups from a bad pointer", syscall(SYS_setgroups, 2, (gid_t *)8));
	outcome("setgroups -1", syscall(SYS_setgroups, -1, g));
	outcome("getresuid into a bad pointer", syscall(SYS_getresuid, (uid_t *)8, (uid_t *)8, (uid_t *)8));
	outcome("setgroups(0)", setgroups(0, NULL));
	outcome("setuid(-1)", setuid(-1));

	mkdir(D, 0755);
	int fd = open(D "/root600", O_CREAT | O_WRONLY, 0600);
	close(fd);
	fd = open(D "/root644", O_CREAT | O_WRONLY, 0644);
	write(fd, "root\n", 5);
	close(fd);
	mkdir(D "/rootdir", 0755);
	mkdir(D "/rootdir/sub", 0755);
	close(open(D "/rootdir/file", O_CREAT | O_WRONLY, 0644));
	mkdir(D "/private", 0700);
	close(open(D "/private/file", O_CREAT | O_WRONLY, 0644));
	mkdir(D "/searchonly", 0711);
	close(open(D "/searchonly/file", O_CREAT | O_WRONLY, 0644));
	fd = open(D "/script744", O_CREAT | O_WRONLY, 0744);
	write(fd, "#!/bin/sh\nexit 7\n", 17);
	close(fd);
	fd = open(D "/script755", O_CREAT | O_WRONLY, 0755);
	write(fd, "#!/bin/sh\nexit 7\n", 17);
	close(fd);
	mkdir(D "/pub", 0777);
	chmod(D "/pub", 0777);
	close(open(D "/pub/rootfile", O_CREAT | O_WRONLY, 0644));
	mkdir(D "/sticky", 0777);
	chmod(D "/sticky", 01777);
	close(open(D "/sticky/rootfile", O_CREAT | O_WRONLY, 0666));
	chmod(D "/sticky/rootfile", 0666);   /* past the umask: anyone may write it */

	fd = open(D "/group640", O_CREAT | O_WRONLY, 0640);
	close(fd);
	chown(D "/group640", 0, 2000);
	fd = open(D "/group604", O_CREAT | O_WRONLY, 0644);
	close(fd);
	chown(D "/group604", 0, 2000);
	chmod(D "/group604", 0604);
	gid_t extra = 2000;
	setgroups(1, &extra);   /* the child keeps it through setresuid */
	pid_t pid = fork();
	if (pid == 0) {
		as_user();
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	setgroups(0, NULL);
	pid = fork();
	if (pid == 0) {
		effective_only();
		_exit(0);
	}
	waitpid(pid, NULL, 0);

	say("setfsuid(1000): old %d\n", setfsuid(1000));
	close(open(D "/pub/fs", O_CREAT | O_WRONLY, 0644));
	say("setfsuid(0): old %d\n", setfsuid(0));
	show_owner("a file made with fsuid 1000", D "/pub/fs");
	show_ids("root still");
	fd = open(D "/root600", O_RDONLY);
	say("root opens the 0600 file: %s\n", yes(fd >= 0));
	close(fd);
	chmod(D "/root600", 0);
	fd = open(D "/root600", O_RDWR);
	say("root opens a 0000 file read-write: %s\n", yes(fd >= 0));
	close(fd);
	rm_tree(D);
	return 0;
}
