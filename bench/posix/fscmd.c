/*
 * fscmd (suite fsconf, issue 19): paper 003's figure 2, everyday commands
 * over a source tree, the same static binary on Myrmex (once per file
 * service configuration) and on Linux (tools/bench_fsconf.py).
 *
 * The tree is SRC_TREE on the benchmark disk (GNU make's own source, from
 * Debian's make-dfsg package: tools/build_make.py); the commands are
 * Debian's static busybox (/bin/sh runs each line) and GNU make built
 * static with musl (/usr/bin/make), the same files on both systems. Each
 * command runs once, in order, as a user would type them, in a fresh
 * process (fork, execve("/bin/sh", "-c", line), waitpid): cp reads the tree
 * cold (nothing has read it since the boot), the later ones read what cp
 * wrote under WORK, from the cache or the disk as the system's cache has
 * it (no cache is dropped: on Myrmex a POSIX program cannot, fsconf_os.h).
 * The last, make, runs the whole list again as the
 * rules of fscmd.mk (beside this program) into a folder of its own, with
 * -j4 so that independent commands run together. Every boot starts from a
 * fresh copy of the disk, so nothing is left over from an earlier run.
 *
 *   fsconf.cmd.<name>   TSC ticks from fork to waitpid's return (runs=1);
 *                       busy= the same less the CPU's idle ticks
 *                       (fsconf_os.h; on Linux to 10 ms)
 */
#define _GNU_SOURCE
#include "bench.h"
#include "posix.h"
#include "fsconf_os.h"

#include <inttypes.h>
#include <sys/stat.h>

#define SRC_TREE "/bench/src"
#define WORK     "/w"

struct command {
	const char *name;
	const char *line;   /* for /bin/sh -c */
};

static const struct command commands[] = {
	{ "cp", "cp -r " SRC_TREE " " WORK "/src" },
	{ "ls", "ls -lR " WORK "/src > " WORK "/ls.out" },
	{ "find", "find " WORK "/src -name '*.[ch]' > " WORK "/find.out" },
	{ "grep", "grep -rn if " WORK "/src > " WORK "/grep.out" },
	{ "wc", "xargs wc < " WORK "/find.out > " WORK "/wc.out" },
	{ "sort", "sort " WORK "/grep.out > " WORK "/sort.out" },
	{ "sed", "sed -e 's/if/IF/g' " WORK "/grep.out > " WORK "/sed.out" },
	{ "tar", "tar -cf " WORK "/src.tar -C " WORK " src" },
	{ "gzip", "gzip -c " WORK "/src.tar > " WORK "/src.tar.gz" },
	{ "make", NULL },   /* filled in by main: the path of fscmd.mk */
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

extern char **environ;

/* Runs line with /bin/sh -c; returns its exit status, or -1. */
static int shell(const char *line)
{
	char *argv[] = { "sh", "-c", (char *)line, NULL };
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		execve("/bin/sh", argv, environ);
		_exit(127);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int run(const char *name, const char *line)
{
	uint64_t idle0, idle1;
	if (fsconf_idle_ticks(&idle0) < 0) {
		printf("BENCH-ERROR fsconf.cmd.%s cannot read the idle time\n", name);
		return -1;
	}
	uint64_t t0 = myrmex_rdtsc();
	int status = shell(line);
	uint64_t t1 = myrmex_rdtsc();
	if (status != 0 || fsconf_idle_ticks(&idle1) < 0) {
		printf("BENCH-ERROR fsconf.cmd.%s `%s` ended with status %d\n", name, line, status);
		fflush(stdout);
		return -1;
	}
	uint64_t elapsed = t1 - t0, idled = idle1 - idle0;
	printf("BENCH fsconf fsconf.cmd.%s median=%" PRIu64 " min=%" PRIu64 " runs=1 busy=%" PRIu64
	       "\n", name, elapsed, elapsed, idled < elapsed ? elapsed - idled : 0);
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	char mk[256], make_line[400];
	if (posix_sibling(mk, sizeof mk, argc > 0 ? argv[0] : NULL, "fscmd.mk") < 0)
		return 1;
	snprintf(make_line, sizeof make_line,
	         "make -s -j4 -f %s SRC=" SRC_TREE " W=" WORK "/make", mk);
	if (mkdir(WORK, 0755) < 0 && errno != EEXIST) {
		printf("BENCH-ERROR fsconf.cmd cannot make %s: %s\n", WORK, strerror(errno));
		return 1;
	}
	int failed = 0;
	for (unsigned i = 0; i < NCOMMANDS; i++)
		failed |= run(commands[i].name, commands[i].line ? commands[i].line : make_line) < 0;
	return failed;
}
