/*
 * run: the runner of the On-Memory File benchmarks (issue 6, paper 000), the
 * same static binary on both systems: on Myrmex the first POSIX program of
 * the boot (`sysinit /bench/fmap/run ...`), on Linux run by the guest's
 * /init in a chroot of the same disk (tools/bench_fmap.py).
 *
 *     run [part ...]    parts: fig4 (fmap), fig5 (pmark), fig6 (bonnie),
 *                       postmark (Debian's PostMark); none: all of them.
 *                       fig4:<kb>,<kb>,... runs figure 4 at those sizes only.
 *
 * It prints the TSC frequency (Myrmex's kstats; on Linux the TSC measured
 * against CLOCK_MONOTONIC), runs each program beside it in a fresh process
 * (fork, execve, waitpid), prints `BENCH-ERROR <what>` for one that fails,
 * then BENCH-DONE; it exits with 0 when all passed.
 *
 * PostMark: `postmark <config>` beside this program, built from Debian's
 * source by tools/bench_fmap.py, with the paper's parameters (set number
 * 25, set transactions 25, set size 500 10000) and PostMark's defaults
 * otherwise, once buffered (stdio, its default) and once with set
 * buffering false (read/write). Its report (whole seconds: PostMark reads
 * time()) is printed as `FMAP-POSTMARK <variant> <line>`; the runner times
 * the whole run, fork to waitpid, as BENCH line postmark.real.<variant>.
 */
#define _DEFAULT_SOURCE
#include "fmap_bench.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PM_RUNS 5u

extern char **environ;

static const char *self;      /* argv[0]: the programs are beside it */
static int failures;

/* One line with one write(). */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	if (len > (int)sizeof line - 1)
		len = sizeof line - 1;
	if (write(1, line, (size_t)len) < 0)
		return;
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t tsc_khz(void)
{
	struct myrmex_kstats ks;
	if (myrmex_kstats(&ks) == (long)sizeof ks)
		return ks.tsc_khz;
	uint64_t t0 = monotonic_ns(), c0 = myrmex_rdtsc(), t1;
	do
		t1 = monotonic_ns();
	while (t1 - t0 < 100000000u);
	return (myrmex_rdtsc() - c0) * 1000000u / (t1 - t0);
}

/* "<folder of self>/<name>" into out; -1 when it does not fit. */
static int sibling(char *out, size_t size, const char *name)
{
	const char *slash = self ? strrchr(self, '/') : NULL;
	int n = slash ? snprintf(out, size, "%.*s/%s", (int)(slash - self), self, name)
	              : snprintf(out, size, "./%s", name);
	return n > 0 && (size_t)n < size ? 0 : -1;
}

/*
 * Runs the sibling program argv[0] with argv; stdout to /dev/null when
 * quiet. Returns its wait status, or -errno.
 */
static int spawn_wait(char *const argv[], int quiet)
{
	char path[256];
	if (sibling(path, sizeof path, argv[0]) != 0)
		return -ENAMETOOLONG;
	pid_t pid = fork();
	if (pid == 0) {
		if (quiet) {
			int null = open("/dev/null", O_WRONLY);
			if (null >= 0)
				dup2(null, 1);
		}
		execve(path, argv, environ);
		_exit(127);
	}
	if (pid < 0)
		return -errno;
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return status;
}

/* Runs one benchmark program; counts a failure. */
static void run_prog(char *const argv[])
{
	int status = spawn_wait(argv, 0);
	if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return;
	failures++;
	if (status < 0)
		say("BENCH-ERROR %s spawn=%d\n", argv[0], status);
	else if (WIFSIGNALED(status))
		say("BENCH-ERROR %s %s signal=%d\n", argv[0], argv[1] ? argv[1] : "",
		    WTERMSIG(status));
	else
		say("BENCH-ERROR %s %s exit=%d\n", argv[0], argv[1] ? argv[1] : "",
		    WEXITSTATUS(status));
}

/* ------------------------------------------------------------ the parts */

/* Figure 4 at every 4 KB from 4 to 128 KB, or at the sizes in the list
 * "a,b,c" (kb). */
static void fig4(const char *list)
{
	static const char *const impls[] = { "omf", "mmap-odp", "mmap-pre" };
	unsigned sizes[64], n = 0;
	if (!list) {
		for (unsigned kb = 4; kb <= 128; kb += 4)
			sizes[n++] = kb;
	}
	while (list && *list != '\0' && n < 64) {
		char *end;
		sizes[n++] = (unsigned)strtoul(list, &end, 10);
		if (end == list)
			break;
		list = *end == ',' ? end + 1 : end;
	}
	for (unsigned i = 0; i < 3; i++) {
		for (unsigned s = 0; s < n; s++) {
			char arg[16];
			snprintf(arg, sizeof arg, "%u", sizes[s]);
			char *argv[] = { "fmap", (char *)impls[i], arg, NULL };
			run_prog(argv);
		}
	}
}

static void fig5(void)
{
	char *block_readblock[] = { "pmark", "readblock", "1", "2", "3", NULL };
	char *block_read[] = { "pmark", "read-blk", "1", "2", "3", NULL };
	char *byte_readbyte[] = { "pmark", "readbyte", "128", "256", "512", "1024", "2048",
		                  "4096", NULL };
	char *byte_fread[] = { "pmark", "fread", "128", "256", "512", "1024", "2048", "4096",
		               NULL };
	char *byte_read[] = { "pmark", "read", "128", "256", "512", "1024", "2048", "4096",
		              NULL };
	run_prog(block_readblock);
	run_prog(block_read);
	run_prog(byte_readbyte);
	run_prog(byte_fread);
	run_prog(byte_read);
}

static void fig6(void)
{
	static const char *const impls[] = { "omf", "rw" };
	static const char *const procs[] = { "1", "5" };
	for (unsigned i = 0; i < 2; i++) {
		for (unsigned p = 0; p < 2; p++) {
			char *argv[] = { "bonnie", (char *)impls[i], (char *)procs[p], "0", "10",
				         "20", "30", "40", "50", "60", "70", "80", "90", "100", NULL };
			run_prog(argv);
		}
	}
}

/* Page faults of the waited-for children (Linux's only count here). */
static uint64_t children_faults(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
		return 0;
	return (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
}

/* Writes PostMark's configuration; 0 or -errno. */
static int write_config(const char *cfg, const char *dir, const char *report, int buffered)
{
	FILE *f = fopen(cfg, "w");
	if (!f)
		return -errno;
	fprintf(f, "set location %s\nset number 25\nset transactions 25\nset size 500 10000\n"
	           "%srun %s\nquit\n",
	        dir, buffered ? "" : "set buffering false\n", report);
	return fclose(f) == 0 ? 0 : -errno;
}

/* Prints PostMark's report file as FMAP-POSTMARK lines. */
static void print_report(const char *variant, const char *report)
{
	FILE *f = fopen(report, "r");
	if (!f) {
		say("BENCH-ERROR postmark %s no report %d\n", variant, -errno);
		failures++;
		return;
	}
	char line[256];
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] != '\0')
			say("FMAP-POSTMARK %s %s\n", variant, line);
	}
	fclose(f);
}

static void postmark_variant(const char *variant, int buffered)
{
	char name[64], cfg[64], dir[64], report[64], path[256];
	snprintf(name, sizeof name, "postmark.real.%s", variant);
	if (sibling(path, sizeof path, "postmark") != 0 || access(path, X_OK) != 0) {
		fmap_skip(name, "postmark_not_built", -ENOENT);
		return;
	}
	snprintf(cfg, sizeof cfg, "%s/postmark-%s.cfg", FMAP_DIR, variant);
	snprintf(dir, sizeof dir, "%s/postmark-%s", FMAP_DIR, variant);
	snprintf(report, sizeof report, "%s/postmark-%s.report", FMAP_DIR, variant);
	if ((mkdir(dir, 0755) != 0 && errno != EEXIST) ||
	    write_config(cfg, dir, report, buffered) != 0) {
		say("BENCH-ERROR %s cannot write %s or %s\n", name, cfg, dir);
		failures++;
		return;
	}
	char *argv[] = { "postmark", cfg, NULL };
	static uint64_t tenths[PM_RUNS];
	struct fmap_counts counts = { 0 };
	uint64_t faults = 0;
	for (unsigned i = 0; i <= PM_RUNS; i++) {      /* run 0: warm-up */
		unlink(report);
		struct fmap_counts before, after;
		uint64_t f0 = children_faults();
		fmap_counts_now(&before);
		uint64_t t0 = myrmex_rdtsc();
		int status = spawn_wait(argv, 1);
		uint64_t t1 = myrmex_rdtsc();
		fmap_counts_now(&after);
		if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			say("BENCH-ERROR %s status=%d\n", name, status);
			failures++;
			return;
		}
		if (i == 0)
			continue;
		tenths[i - 1] = (t1 - t0) * 10;
		fmap_counts_add(&counts, &before, &after);
		faults += children_faults() - f0;
	}
	if (!fmap_on_myrmex())
		counts.pgfault = faults;
	fmap_print("fmap-postmark", name, tenths, 0, PM_RUNS, " transactions=25 files=25",
	           &counts, PM_RUNS);
	print_report(variant, report);
}

static void postmark(void)
{
	fmap_counts_init();
	postmark_variant("buffered", 1);
	postmark_variant("unbuffered", 0);
}

/* Runs one part; -1 for an unknown one. */
static int run_part(const char *part)
{
	if (strcmp(part, "fig4") == 0)
		fig4(NULL);
	else if (strncmp(part, "fig4:", 5) == 0)
		fig4(part + 5);
	else if (strcmp(part, "fig5") == 0)
		fig5();
	else if (strcmp(part, "fig6") == 0)
		fig6();
	else if (strcmp(part, "postmark") == 0)
		postmark();
	else
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	static char *const all[] = { "fig4", "fig5", "fig6", "postmark" };
	self = argc > 0 ? argv[0] : NULL;
	say("BENCH-TSC-KHZ %" PRIu64 "\n", tsc_khz());
	char *const *parts = argc > 1 ? argv + 1 : all;
	int nparts = argc > 1 ? argc - 1 : (int)(sizeof all / sizeof all[0]);
	for (int i = 0; i < nparts; i++) {
		if (run_part(parts[i]) != 0) {
			say("BENCH-ERROR run unknown part %s\n", parts[i]);
			failures++;
		}
	}
	say("BENCH-DONE\n");
	return failures ? 1 : 0;
}
