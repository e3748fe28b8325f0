/*
 * execve's permissions and set-user-id / set-group-id programs, as Linux:
 * copies of this program with various owners and modes, run by children
 * that have become uid 1000 (and by root). Checked: a set-user-id file
 * gives its owner as effective and saved uid, a set-group-id file with the
 * group's execute bit its group (without that bit, nothing), the real ids
 * stay, AT_SECURE tells; at every exec the saved ids become the effective
 * ones; a script's own set-user-id bit is ignored but its interpreter's is
 * honoured; execute permission by the owner's, group's (supplementary
 * groups too) or others' bits, without read permission; EACCES for a file
 * without the caller's execute bit (root too when no bit is set), for a
 * directory, and for a directory on the path the caller may not search.
 */
#include "posix_test.h"

#include <grp.h>
#include <sys/auxv.h>
#include <sys/wait.h>

#define D "/tmp/setid.scratch"
#define SELF "/posix/setid"

/* The new program: the ids it got. */
static int report(void)
{
	uid_t r, e, s;
	gid_t gr, ge, gs;
	getresuid(&r, &e, &s);
	getresgid(&gr, &ge, &gs);
	say("  uids %u %u %u, gids %u %u %u, AT_SECURE %lu, AT_UID %lu AT_EUID %lu AT_GID %lu AT_EGID %lu\n",
	    r, e, s, gr, ge, gs, getauxval(AT_SECURE), getauxval(AT_UID), getauxval(AT_EUID),
	    getauxval(AT_GID), getauxval(AT_EGID));
	return 0;
}

/* A copy of this program at path, owned uid:gid, with mode. */
static void install(const char *path, uid_t uid, gid_t gid, mode_t mode)
{
	int in = open(SELF, O_RDONLY);
	int out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0700);
	char buf[4096];
	ssize_t n;
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof buf)) > 0)
		if (write(out, buf, (size_t)n) != n)
			break;
	close(in);
	close(out);
	if (chown(path, uid, gid) < 0 || chmod(path, mode) < 0)
		say("install %s: error %s\n", path, err_name(errno));
}

static void script(const char *path, const char *interp, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0700);
	dprintf(fd, "#!%s\n", interp);
	close(fd);
	if (chown(path, 2000, 3000) < 0 || chmod(path, mode) < 0)
		say("script %s: error %s\n", path, err_name(errno));
}

/* How a child becomes the caller before it execs. */
enum who { ROOT, USER, USER_GROUP4000, USER_SAVED_ROOT, ROOT_EUID_USER };

static void become(enum who w)
{
	gid_t g4000 = 4000;
	switch (w) {
	case ROOT:
		break;
	case USER:
	case USER_GROUP4000:
		setgroups(w == USER_GROUP4000 ? 1 : 0, &g4000);
		setresgid(1000, 1000, 1000);
		setresuid(1000, 1000, 1000);
		break;
	case USER_SAVED_ROOT:   /* real and effective 1000, saved 0 */
		setgroups(0, NULL);
		setresgid(1000, 1000, 0);
		setresuid(1000, 1000, 0);
		break;
	case ROOT_EUID_USER:    /* real 0, effective 1000 */
		setgroups(0, NULL);
		setresuid(-1, 1000, -1);
		break;
	}
}

static void run(const char *what, enum who w, const char *path)
{
	say("%s:\n", what);
	pid_t pid = fork();
	if (pid == 0) {
		become(w);
		char *argv[] = { (char *)path, "report", NULL };
		char *envp[] = { NULL };
		execve(path, argv, envp);
		say("  execve: error %s\n", err_name(errno));
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[argc - 1], "report") == 0)
		return report();   /* also as a script's interpreter: interp, script, report */
	rm_tree(D);
	if (mkdir(D, 0755) < 0 || chmod(D, 0755) < 0)
		say("mkdir: error %s\n", err_name(errno));
	install(D "/plain", 0, 0, 0755);
	install(D "/suid_root", 0, 0, 04755);
	install(D "/suid_2000", 2000, 3000, 06755);
	install(D "/sgid_nox", 2000, 3000, 02745);     /* no group execute: not set-group-id */
	install(D "/noexec", 0, 0, 0644);
	install(D "/xonly", 0, 0, 0711);                 /* runs, though nobody may read it */
	install(D "/owner_nox", 1000, 1000, 0655);       /* the owner's bits decide: no */
	install(D "/group4000", 2000, 4000, 0710);       /* by a supplementary group */
	mkdir(D "/private", 0700);
	chmod(D "/private", 0700);
	install(D "/private/prog", 0, 0, 0755);
	mkdir(D "/searchonly", 0711);
	chmod(D "/searchonly", 0711);
	install(D "/searchonly/prog", 0, 0, 0755);
	script(D "/script_suid", D "/plain", 04755);     /* the script's bit: ignored */
	script(D "/script_interp_suid", D "/suid_2000", 0755);   /* the interpreter's: honoured */

	run("root runs the plain copy", ROOT, D "/plain");
	run("uid 1000 runs the plain copy", USER, D "/plain");
	run("uid 1000 runs a set-user-id root copy", USER, D "/suid_root");
	run("uid 1000 runs a set-user-id, set-group-id copy of 2000:3000", USER, D "/suid_2000");
	run("root runs it", ROOT, D "/suid_2000");
	run("uid 1000 runs a set-group-id copy without group execute", USER, D "/sgid_nox");
	run("real and effective 1000, saved 0: the saved uid follows", USER_SAVED_ROOT, D "/plain");
	run("real 0, effective 1000", ROOT_EUID_USER, D "/plain");
	run("uid 1000 runs a 0644 file", USER, D "/noexec");
	run("root runs a 0644 file", ROOT, D "/noexec");
	run("uid 1000 runs a 0711 file of root's", USER, D "/xonly");
	run("uid 1000 runs its own 0655 file", USER, D "/owner_nox");
	run("uid 1000 runs a 0710 file of group 4000, not its group", USER, D "/group4000");
	run("uid 1000 with supplementary group 4000 runs it", USER_GROUP4000, D "/group4000");
	run("uid 1000 runs a program in root's 0700 directory", USER, D "/private/prog");
	run("root runs it", ROOT, D "/private/prog");
	run("uid 1000 runs a program in root's 0711 directory", USER, D "/searchonly/prog");
	run("uid 1000 runs a directory", USER, D "/searchonly");
	run("root runs a directory", ROOT, D "/searchonly");
	run("uid 1000 runs a set-user-id script", USER, D "/script_suid");
	run("uid 1000 runs a script whose interpreter is set-user-id", USER, D "/script_interp_suid");
	rm_tree(D);
	return 0;
}
