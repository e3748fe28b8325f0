/*
 * Suite wsc-fwd (issue 18, paper 001's figure 11 carried to forwarded
 * calls): getpid, lseek, fstat and read128 (pread of 128 bytes at offset 0)
 * 512 times in a POSIX process, per call:
 *
 *   wsc.<call>.plain        one syscall instruction per call
 *   wsc.<call>.trap         one int $0x81 per call (Myrmex only)
 *   wsc.<call>.wrapped.n<N> batches of N stored calls (MYRMEX_SYS_BATCH,
 *                           N = 1, 2, 4 ... 64); lseek and fstat of a batch
 *                           go to the file manager in one request
 *                           (docs/syscalls.md, "Forwarded calls in one IPC")
 *   wsc.<call>.alone.n<N>   the same batches with MYRMEX_BATCH_ALONE: one
 *                           request per call, as without that (not getpid)
 *   wsc.<call>.io_uring.n<N> Linux only: N requests submitted and waited for
 *                           with one io_uring_enter (read128, and fstat as
 *                           IORING_OP_STATX with AT_EMPTY_PATH; uring.h)
 *
 * The storing of each entry (number, arguments, state) is inside the
 * figure. lseek is lseek(fd, 0, SEEK_SET) and fstat fstat(fd, &st) of the
 * data4k file beside this program (tools/bench_posix.py). The BENCH line's
 * ipc= is the IPCs per call (kstats; none on Linux, where the plain and
 * io_uring figures run). Run by MYRMEX_BENCH_ONLY=wsc (bench.py's part wsc), not by
 * the POSIX part's runner list.
 */
#define _DEFAULT_SOURCE
#include "bench.h"
#include "posix.h"
#include "uring.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define CALLS 512
#define NR_LSEEK 8L
#define NR_FSTAT 5L
#define NR_GETPID 39L
#define NR_PREAD64 17L
#define READ_BYTES 128
#define STATX_BASIC 0x7ffu
#define AT_EMPTY 0x1000u

static union {
	struct myrmex_batch_area area;
	char bytes[sizeof(struct myrmex_batch_area) +
	           MYRMEX_BATCH_MAX * sizeof(struct myrmex_batch_entry)];
} area __attribute__((aligned(4096)));

static struct stat st;
static char read_buf[READ_BYTES];
static uint8_t statx_buf[256];
static struct uring ring;
static long uring_bad;   /* io_uring completions that did not give what was asked */

enum how { PLAIN, TRAP, WRAPPED, ALONE, URING };

struct wsc_case {
	long nr, a0, a1, a2;
	enum how how;
	unsigned n;
};

/* A call with three arguments, 0 as the fourth (pread64's offset). */
static inline long enter(int trap, long nr, long a1, long a2, long a3)
{
	register long r10 __asm__("r10") = 0;
	long ret;
	if (trap)
		__asm__ volatile("int $0x81" : "=a"(ret)
		                 : "0"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10) : "memory");
	else
		__asm__ volatile("syscall" : "=a"(ret)
		                 : "0"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10)
		                 : "rcx", "r11", "memory");
	return ret;
}

/* One io_uring batch of n requests of the case's call. */
static void uring_batch(const struct wsc_case *c)
{
	for (unsigned i = 0; i < c->n; i++) {
		struct uring_sqe *e = uring_queue(&ring);
		e->fd = (int32_t)c->a0;
		if (c->nr == NR_PREAD64) {
			e->opcode = URING_OP_READ;
			e->addr = (uint64_t)(uintptr_t)read_buf;
			e->len = READ_BYTES;
		} else {
			e->opcode = URING_OP_STATX;
			e->addr = (uint64_t)(uintptr_t)"";
			e->len = STATX_BASIC;
			e->op_flags = AT_EMPTY;
			e->off = (uint64_t)(uintptr_t)statx_buf;
		}
	}
	long bad = uring_run(&ring, c->n, c->nr == NR_PREAD64 ? READ_BYTES : 0);
	uring_bad += bad < 0 ? (long)c->n : bad;
}

static void wsc_body(void *ctx, uint64_t iters)
{
	const struct wsc_case *c = ctx;
	struct myrmex_batch_area *a = &area.area;
	for (uint64_t it = 0; it < iters; it++) {
		if (c->how == PLAIN || c->how == TRAP) {
			for (int i = 0; i < CALLS; i++)
				(void)enter(c->how == TRAP, c->nr, c->a0, c->a1, c->a2);
			continue;
		}
		if (c->how == URING) {
			for (unsigned done = 0; done < CALLS; done += c->n)
				uring_batch(c);
			continue;
		}
		for (unsigned done = 0; done < CALLS; done += c->n) {
			for (unsigned i = 0; i < c->n; i++) {
				a->entry[i].nr = (uint64_t)c->nr;
				a->entry[i].arg[0] = (uint64_t)c->a0;
				a->entry[i].arg[1] = (uint64_t)c->a1;
				a->entry[i].arg[2] = (uint64_t)c->a2;
				a->entry[i].arg[3] = 0;
				a->entry[i].state = MYRMEX_BATCH_STORED;
			}
			(void)enter(0, MYRMEX_SYS_BATCH, (long)a, (long)c->n, 0);
		}
	}
}

static int run_case(const char *call, struct wsc_case *c)
{
	static const char *const how_names[] = { "plain", "trap", "wrapped", "alone", "io_uring" };
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
	long r = enter(0, MYRMEX_SYS_BATCH, (long)a, 3, 0);
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
	struct { const char *name; long nr, a0, a1, a2; } calls[] = {
		{ "getpid", NR_GETPID, 0, 0, 0 },
		{ "lseek", NR_LSEEK, fd, 0, 0 },
		{ "fstat", NR_FSTAT, fd, (long)&st, 0 },
		{ "read128", NR_PREAD64, fd, (long)read_buf, READ_BYTES },
	};
	int native = myrmex_is_native();
	if (native && check(fd) != 0)
		return 1;
	int have_uring = !native && uring_init(&ring, MYRMEX_BATCH_MAX) == 0;
	if (!native && !have_uring)
		posix_skip("wsc.*.io_uring", "io_uring_setup", errno);
	int failed = 0;
	for (unsigned k = 0; k < sizeof calls / sizeof calls[0]; k++) {
		struct wsc_case c = { calls[k].nr, calls[k].a0, calls[k].a1, calls[k].a2, PLAIN, 0 };
		failed |= run_case(calls[k].name, &c) != 0;
		if (!native) {
			if (!have_uring || (c.nr != NR_PREAD64 && c.nr != NR_FSTAT))
				continue;
			c.how = URING;
			for (unsigned n = 1; n <= MYRMEX_BATCH_MAX; n *= 2) {
				c.n = n;
				failed |= run_case(calls[k].name, &c) != 0;
			}
			continue;
		}
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
	if (uring_bad) {
		bench_fail("wsc-fwd", "io_uring completions with a wrong result", uring_bad);
		failed = 1;
	}
	return failed;
}
