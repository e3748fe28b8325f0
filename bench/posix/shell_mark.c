/*
 * shell_mark (issue 20): one line with the TSC and the kernel's counts, so
 * that a command line typed at a shell can be bracketed and measured as a
 * person runs it (tools/bench_shell.py types "shell_mark a; <line>;
 * shell_mark b" at the prompt). The same static binary on Myrmex and on
 * Linux:
 *
 *   MARK <label> tsc=<ticks> [syscalls= ctxsw= ipc= attach= pgfault= idle=]
 *
 * On Myrmex the counts are kstats' (idle = the halted CPU's TSC ticks); on
 * Linux ctxsw= is /proc/stat's ctxt (every CPU's context switches) and the
 * other counts are left out. Under -icount shift=0 the ticks are
 * instructions.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <myrmex.h>

/* Linux's context switches since boot (/proc/stat's ctxt line), or -1. */
static long long linux_context_switches(void)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[256];
	long long n = -1;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "ctxt %lld", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	if (argc != 2 || !argv[1][0] || strchr(argv[1], ' ')) {
		fprintf(stderr, "usage: shell_mark LABEL (one word)\n");
		return 2;
	}
	uint64_t tsc = myrmex_rdtsc();
	char line[320];
	int n;
	struct myrmex_kstats ks;
	if (myrmex_is_native() && myrmex_kstats(&ks) == (long)sizeof ks)
		n = snprintf(line, sizeof line,
		             "MARK %s tsc=%" PRIu64 " syscalls=%" PRIu64 " ctxsw=%" PRIu64
		             " ipc=%" PRIu64 " attach=%" PRIu64 " pgfault=%" PRIu64 " idle=%" PRIu64
		             "\n", argv[1], tsc, ks.syscalls, ks.context_switches, ks.ipc_calls,
		             ks.ica_attaches, ks.page_faults, ks.idle_tsc);
	else
		n = snprintf(line, sizeof line, "MARK %s tsc=%" PRIu64 " ctxsw=%lld\n", argv[1], tsc,
		             linux_context_switches());
	if (n <= 0 || (size_t)n >= sizeof line || write(1, line, (size_t)n) != n)
		return 1;
	return 0;
}
