/*
 * Suite wsc-fwd (issue 18, paper 001's figure 11 carried to forwarded
 * calls): getpid, lseek and fstat 512 times in a POSIX process, per call:
 *
 *   wsc.<call>.plain        one syscall instruction per call
 *   wsc.<call>.trap         one int $0x81 per call (Myrmex only)
 *   wsc.<call>.wrapped.n<N> batches of N stored calls (MYRMEX_SYS_BATCH,
 *                           N = 1, 2, 4 ... 64); lseek and fstat of a batch
 *                           go to the file manager in one request
 *                           (docs/syscalls.md, "Forwarded calls in one IPC")
 *   wsc.<call>.alone.n<N>   the same batches with MYRMEX_BATCH_ALONE: one
 *                           request per call, as without that (lseek, fstat)
 *
 * The storing of each entry (number, arguments, state) is inside the
 * figure. lseek is lseek(fd, 0, SEEK_SET) and fstat fstat(fd, &st) of the
 * data4k file beside this program (tools/bench_posix.py). The BENCH line's
 * ipc= is the IPCs per call (kstats; none on Linux, where only the plain
 * figures run). Run by MYRMEX_BENCH_ONLY=wsc (bench.py's part wsc), not by
 * the POSIX part's runner list.
 */
#define _DEFAULT_SOURCE
#include "bench.h"
#include "posix.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define CALLS 512
#define NR_LSEEK 8L
#define NR_FSTAT 5L
#define NR_GETPID 39L

static union {
	struct myrmex_batch_area area;
	char bytes[sizeof(struct myrmex_batch_area) +
	           MYRMEX_BATCH_MAX * sizeof(struct myrmex_batch_entry)];
} area __attribute__((aligned(4096)));

static struct stat st;

enum how { PLAIN, TRAP, WRAPPED, ALONE };

struct wsc_case {
	long nr, a0, a1;
	enum how how;
	unsigned n;
};

/* A call with two arguments and 0 as the third (lseek's SEEK_SET). */
static inline long enter(int trap, long nr, long a1, long a2)
{
	long ret;
	if (trap)
		__asm__ volatile("int $0x81" : "=a"(ret) : "0"(nr), "D"(a1), "S"(a2), "d"(0L)
		                 : "memory");
	else
		__asm__ volatile("syscall" : "=a"(ret) : "0"(nr), "D"(a1), "S"(a2), "d"(0L)
		                 : "rcx", "r11", "memory");
	return ret;
}

static void wsc_body(void *ctx, uint64_t iters)
{
	const struct wsc_case *c = ctx;
	struct myrmex_batch_area *a = &area.area;
	for (uint64_t it = 0; it < iters; it++) {
		if (c->how == PLAIN || c->how == TRAP) {
			for (int i = 0; i < CALLS; i++)
				(void)enter(c->how == TRAP, c->nr, c->a0, c->a1);
			continue;
		}
		for (unsigned done = 0; done < CALLS; done += c->n) {
			for (unsigned i = 0; i < c->n; i++) {
				a->entry[i].nr = (uint64_t)c->nr;
				a->entry[i].arg[0] = (uint64_t)c->a0;
				a->entry[i].arg[1] = (uint64_t)c->a1;
				a->entry[i].arg[2] = 0;
				a->entry[i].state = MYRMEX_BATCH_STORED;
			}
			(void)enter(0, MYRMEX_SYS_BATCH, (long)a, (long)c->n);
		}
	}
}

static int run_case(const char *call, struct wsc_case *c)
{
	static const char *const how_names[] = { "plain", "trap", "wrapped", "alone" };
	char name[64];
	if (c->how == PLAIN || c->how == TRAP)
		snprintf(name, sizeof name, "wsc.%s.%s", call, how_names[c->how]);
	else
		snprintf(name, sizeof name, "wsc.%s.%s.n%u", call, how_names[c->how], c->n);
	area.area.capacity = MYRMEX_BATCH_MAX;
	area.area.flags = c->how == ALONE ? MYRMEX_BATCH_ALONE : 0;
	const struct bench b = {
		.suite = "wsc-fwd",
		.name = name,
		.runs = 11,
		.iters = 2,
		.ops_per_iter = CALLS,
		.body = wsc_body,
		.ctx = c,
	};
	return bench_run(&b);
}

/* Checks that one batch of each call gives what the plain call gives. */
static int check(int fd)
{
	struct myrmex_batch_area *a = &area.area;
	a->capacity = 3;
	a->flags = 0;
	const long args[3][6] = { { fd, 0, 0 }, { fd, (long)&st, 0 }, { 0 } };
	myrmex_batch_store(a, 0, NR_LSEEK, args[0]);
	myrmex_batch_store(a, 1, NR_FSTAT, args[1]);
	myrmex_batch_store(a, 2, NR_GETPID, args[2]);
	long r = enter(0, MYRMEX_SYS_BATCH, (long)a, 3);
	if (r != 3 || a->entry[0].result != 0 || a->entry[1].result != 0 ||
	    a->entry[2].result != getpid() || st.st_size <= 0) {
		bench_fail("wsc-fwd", "a batch of lseek, fstat, getpid gave", r);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	(void)argc;
	char path[256];
	if (posix_sibling(path, sizeof path, argv[0], "data4k") != 0)
		return 1;
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		bench_fail("wsc-fwd", "cannot open data4k", (long)errno);
		return 1;
	}
	struct { const char *name; long nr, a0, a1; } calls[] = {
		{ "getpid", NR_GETPID, 0, 0 },
		{ "lseek", NR_LSEEK, fd, 0 },
		{ "fstat", NR_FSTAT, fd, (long)&st },
	};
	int native = myrmex_is_native();
	if (native && check(fd) != 0)
		return 1;
	int failed = 0;
	for (unsigned k = 0; k < sizeof calls / sizeof calls[0]; k++) {
		struct wsc_case c = { calls[k].nr, calls[k].a0, calls[k].a1, PLAIN, 0 };
		failed |= run_case(calls[k].name, &c) != 0;
		if (!native)
			continue;
		c.how = TRAP;
		failed |= run_case(calls[k].name, &c) != 0;
		for (unsigned n = 1; n <= MYRMEX_BATCH_MAX; n *= 2) {
			c.n = n;
			c.how = WRAPPED;
			failed |= run_case(calls[k].name, &c) != 0;
			if (calls[k].nr != NR_GETPID) {
				c.how = ALONE;
				failed |= run_case(calls[k].name, &c) != 0;
			}
		}
	}
	close(fd);
	return failed;
}
