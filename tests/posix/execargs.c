/*
 * execve's argument and environment sizes: 1000 arguments, a 100 KB
 * environment, 1000 arguments with a 1 MB environment, one string of
 * 131071 bytes (Linux's MAX_ARG_STRLEN less its NUL), and strings that
 * fill Linux's limit to the byte (a quarter of the stack limit: the path,
 * every string with its NUL and a pointer per string) all reach the new
 * program intact; one of 131072 bytes, one byte past the limit, and
 * 2.4 MB in all, give E2BIG (and the caller goes on).
 */
#include "posix_test.h"

#include <stdint.h>
#include <sys/resource.h>
#include <sys/wait.h>

/* The new program: a checksum of what it got. */
static int report(int argc, char **argv, char **envp)
{
	unsigned long sum = 0, bytes = 0;
	int envc = 0;
	for (int i = 0; i < argc; i++)
		for (const char *p = argv[i]; *p; p++, bytes++)
			sum = sum * 31 + (unsigned char)*p;
	for (; envp[envc]; envc++)
		for (const char *p = envp[envc]; *p; p++, bytes++)
			sum = sum * 31 + (unsigned char)*p;
	say("  got argc %d, envc %d, %lu bytes, checksum %lx\n", argc, envc, bytes, sum);
	return 0;
}

static char *make_string(size_t len, char c)
{
	char *s = malloc(len + 1);
	memset(s, c, len);
	s[len] = '\0';
	return s;
}

static void run(const char *what, const char *self, char **argv, char **envp)
{
	pid_t pid = fork();
	if (pid == 0) {
		execve(self, argv, envp);
		say("%s: execve: %s\n", what, err_name(errno));
		_exit(0);
	}
	int status;
	waitpid(pid, &status, 0);
	say("%s: exit %d\n", what, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int main(int argc, char **argv, char **envp)
{
	if (argc > 1 && strcmp(argv[1], "report") == 0)
		return report(argc, argv, envp);
	const char *self = "/posix/execargs";
	char *empty_env[] = { NULL };

	static char *many[1003];
	many[0] = (char *)self;
	many[1] = "report";
	for (int i = 2; i < 1002; i++) {
		char buf[32];
		snprintf(buf, sizeof buf, "argument-number-%d", i);
		many[i] = strdup(buf);
	}
	many[1002] = NULL;
	say("1000 arguments:\n");
	run("1000 arguments", self, many, empty_env);

	static char *env[102];
	for (int i = 0; i < 100; i++) {
		char name[16];
		snprintf(name, sizeof name, "V%03d=", i);
		char *s = make_string(1000, (char)('a' + i % 26));
		memcpy(s, name, 5);
		env[i] = s;
	}
	env[100] = NULL;
	char *rep[] = { (char *)self, "report", NULL };
	say("100 KB of environment:\n");
	run("100 KB environment", self, rep, env);

	char *longest[] = { (char *)self, "report", make_string(131071, 'x'), NULL };
	say("a string of 131071 bytes:\n");
	run("131071-byte string", self, longest, empty_env);

	char *too_long[] = { (char *)self, "report", make_string(131072, 'y'), NULL };
	run("131072-byte string", self, too_long, empty_env);

	static char *env_1mb[1001];
	for (int i = 0; i < 1000; i++) {
		char name[16];
		snprintf(name, sizeof name, "E%03d=", i);
		char *v = make_string(999, (char)('A' + i % 26));
		memcpy(v, name, 5);
		env_1mb[i] = v;
	}
	env_1mb[1000] = NULL;
	say("1000 arguments and 1 MB of environment:\n");
	run("1000 arguments, 1 MB environment", self, many, env_1mb);

	/* Linux's limit: min(stack limit / 4, 6 MiB), at least 128 KiB. The
	 * path, argv[0] and "report" first, then 20 strings of 100000 bytes
	 * and one that fills the rest, each with its NUL and pointer. */
	struct rlimit rl;
	getrlimit(RLIMIT_STACK, &rl);
	size_t limit = rl.rlim_cur / 4 < (6u << 20) ? rl.rlim_cur / 4 : (6u << 20);
	if (limit < 32 * 4096)
		limit = 32 * 4096;
	enum { FILLERS = 20, FILLER = 100000 };
	static char *full[FILLERS + 4];
	full[0] = (char *)self;
	full[1] = "report";
	size_t taken = 2 * (strlen(self) + 1) + strlen("report") + 1 + 8 * (FILLERS + 3);
	for (int i = 0; i < FILLERS; i++) {
		full[2 + i] = make_string(FILLER, (char)('a' + i));
		taken += FILLER + 1;
	}
	size_t last = limit - taken - 1;
	full[2 + FILLERS] = make_string(last, 'L');
	full[3 + FILLERS] = NULL;
	say("exactly the limit:\n");
	run("at the limit", self, full, empty_env);
	full[2 + FILLERS] = make_string(last + 1, 'L');
	run("one byte past the limit", self, full, empty_env);

	static char *huge[24];
	huge[0] = (char *)self;
	huge[1] = "report";
	for (int i = 2; i < 22; i++)
		huge[i] = make_string(120000, 'z');
	huge[22] = NULL;
	run("2.4 MB of arguments", self, huge, empty_env);
	say("still running after the refusals: yes\n");
	return 0;
}
