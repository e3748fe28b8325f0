/*
 * t_batch [mode]: wrapped system calls (MYRMEX_SYS_BATCH) and the trap-gate
 * entry (int $0x81), docs/syscalls.md "Wrapped calls".
 *
 * Modes:
 *   (none)     a native process: batches of every size up to
 *              MYRMEX_BATCH_MAX of mixed calls, through syscall and the trap
 *              gate, results checked; hostile areas (bad numbers, entries
 *              not stored, bad pointers in an entry, n beyond the area or
 *              the limit, bad and half-unmapped areas, a thread rewriting
 *              the entries during batches, the area unmapped during a
 *              batch, refused calls); a signal during
 *              a batch of sleeps and during a futex wait under SA_RESTART
 *              (the batch stops after that entry and is not restarted); a
 *              kill during a batch of sleeps (a child in mode victim); the
 *              trap gate against syscall, its restart, its bad numbers.
 *   forwarded  a POSIX process (file manager, time server): forwarded calls
 *              in a batch (lseek, read, pread64, fstat, write, close,
 *              clock_gettime) and a signal during forwarded sleeps.
 *   victim     a batch of long sleeps, for the parent to kill.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_batch"
#include "test_check.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>

#define MAX MYRMEX_BATCH_MAX
#define PAGE 4096L
#define KERNEL_ADDR 0xffffffff80100000L
#define NONCANONICAL_ADDR 0x0000800000000000L
#define FUTEX_WAIT_PRIVATE 128
#define NS_PER_MS 1000000L
#define HELLO "/text/hello.txt"
#define HELLO_TEXT "hello from the Myrmex test image\n"

/* One area of the largest size, page aligned. */
static union {
	struct myrmex_batch_area area;
	char bytes[sizeof(struct myrmex_batch_area) + MAX * sizeof(struct myrmex_batch_entry)];
} big __attribute__((aligned(4096)));

static long my_pid, my_tid;

static struct myrmex_batch_area *fresh_area(uint32_t capacity)
{
	memset(&big, 0, sizeof big);
	big.area.capacity = capacity;
	return &big.area;
}

static void store(struct myrmex_batch_area *a, unsigned i, long nr, long a0, long a1, long a2)
{
	const long v[6] = { a0, a1, a2, 0, 0, 0 };
	myrmex_batch_store(a, i, nr, v);
}

static int64_t monotonic_ns(void)
{
	struct timespec ts;
	raw2(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* ---- Every size, mixed calls ---- */

static struct timespec stamps[MAX];
static struct myrmex_kstats kst[MAX];

/* Entry i of a mixed batch: getpid, gettid, kstats (native), clock_gettime
 * (a clock read the time server answers for POSIX processes), write of
 * nothing to stdout. */
static void store_mixed(struct myrmex_batch_area *a, unsigned i)
{
	switch (i % 5) {
	case 0: store(a, i, SYS_getpid, 0, 0, 0); break;
	case 1: store(a, i, SYS_gettid, 0, 0, 0); break;
	case 2: store(a, i, MYRMEX_SYS_KSTATS, (long)&kst[i], 16, 0); break;
	case 3: store(a, i, SYS_clock_gettime, CLOCK_MONOTONIC, (long)&stamps[i], 0); break;
	default: store(a, i, SYS_write, 1, (long)"", 0); break;
	}
}

static void check_mixed(const struct myrmex_batch_area *a, unsigned n, const char *how)
{
	int64_t last = 0;
	for (unsigned i = 0; i < n; i++) {
		const struct myrmex_batch_entry *e = &a->entry[i];
		static const long expected_of[5] = { 0, 0, 16, 0, 0 };
		long want = i % 5 == 0 ? my_pid : i % 5 == 1 ? my_tid : expected_of[i % 5];
		CHECK(e->state == MYRMEX_BATCH_DONE, "%s n=%u: entry %u state %u", how, n, i, e->state);
		CHECK(e->result == want, "%s n=%u: entry %u (nr %lu) result %ld, expected %ld", how,
		      n, i, (unsigned long)e->nr, (long)e->result, want);
		if (i % 5 == 3) {
			int64_t t = (int64_t)stamps[i].tv_sec * 1000000000 + stamps[i].tv_nsec;
			CHECK(t >= last && t > 0, "%s n=%u: clock of entry %u went back", how, n, i);
			last = t;
		}
		if (i % 5 == 2)
			CHECK(kst[i].syscalls > 0, "%s n=%u: kstats of entry %u not written", how, n, i);
	}
}

static void test_every_size(void)
{
	for (unsigned n = 1; n <= MAX; n++) {
		for (int trap = 0; trap < 2; trap++) {
			struct myrmex_batch_area *a = fresh_area(n);
			memset(stamps, 0, sizeof stamps);
			memset(kst, 0, sizeof kst);
			for (unsigned i = 0; i < n; i++)
				store_mixed(a, i);
			long r = trap ? myrmex_batch_trap(a, n) : myrmex_batch(a, n);
			const char *how = trap ? "trap batch" : "batch";
			CHECK(r == (long)n, "%s of %u returned %ld", how, n, r);
			check_mixed(a, n, how);
		}
	}
	/* n = 0 runs nothing. */
	CHECK_EQ(myrmex_batch(fresh_area(4), 0), 0);
}

/* ---- Entries that fail alone ---- */

static void test_bad_entries(void)
{
	struct myrmex_batch_area *a = fresh_area(MAX);
	struct { long nr, a0, a1, a2; long expected; } cases[] = {
		{ SYS_getpid, 0, 0, 0, 0 },
		{ 99999, 0, 0, 0, -ENOSYS },
		{ -1, 0, 0, 0, -ENOSYS },
		{ MYRMEX_SYS_BASE + 7, 0, 0, 0, -ENOSYS },
		{ 4095, 0, 0, 0, -ENOSYS },
		{ SYS_clock_gettime, CLOCK_MONOTONIC, 0x1000, 0, -EFAULT },
		{ SYS_clock_gettime, CLOCK_MONOTONIC, KERNEL_ADDR, 0, -EFAULT },
		{ SYS_clock_gettime, 1234, (long)&stamps[0], 0, -EINVAL },
		{ MYRMEX_SYS_KSTATS, KERNEL_ADDR, 16, 0, -EFAULT },
		{ MYRMEX_SYS_KSTATS, NONCANONICAL_ADDR, 16, 0, -EFAULT },
		{ SYS_write, 1, KERNEL_ADDR, 10, -EFAULT },
		{ SYS_uname, 0x1000, 0, 0, -EFAULT },
		{ SYS_getpid, 0, 0, 0, 0 },
	};
	unsigned n = sizeof cases / sizeof cases[0];
	for (unsigned i = 0; i < n; i++)
		store(a, i, cases[i].nr, cases[i].a0, cases[i].a1, cases[i].a2);
	/* An entry not in state STORED fails with -EINVAL, and runs nothing. */
	a->entry[n] = a->entry[0];
	a->entry[n].state = MYRMEX_BATCH_FREE;
	a->entry[n + 1] = a->entry[0];
	a->entry[n + 1].state = MYRMEX_BATCH_DONE;
	long r = myrmex_batch(a, n + 2);
	CHECK(r == (long)n + 2, "batch of bad entries returned %ld", r);
	for (unsigned i = 0; i < n; i++) {
		long want = cases[i].nr == SYS_getpid ? my_pid : cases[i].expected;
		CHECK(a->entry[i].result == want && a->entry[i].state == MYRMEX_BATCH_DONE,
		      "bad entry %u (nr %ld): result %ld state %u, expected %ld", i, cases[i].nr,
		      (long)a->entry[i].result, a->entry[i].state, want);
	}
	CHECK(a->entry[n].result == -EINVAL && a->entry[n + 1].result == -EINVAL,
	      "entries not STORED: %ld %ld", (long)a->entry[n].result, (long)a->entry[n + 1].result);
}

/* ---- Calls refused in a batch ---- */

static void test_refused(void)
{
	static const long refused[] = {
		SYS_rt_sigreturn, SYS_clone, SYS_fork, SYS_vfork, SYS_execve, SYS_exit,
		SYS_exit_group, MYRMEX_SYS_BATCH, MYRMEX_SYS_CALLSYNC, MYRMEX_SYS_GET,
	};
	unsigned k = sizeof refused / sizeof refused[0];
	struct myrmex_batch_area *a = fresh_area(MAX);
	for (unsigned i = 0; i < k; i++) {
		store(a, 2 * i, SYS_getpid, 0, 0, 0);
		/* Arguments that would do something: a nested batch of this very
		 * area, an exit with status 9. */
		store(a, 2 * i + 1, refused[i], refused[i] == MYRMEX_SYS_BATCH ? (long)a : 9,
		      refused[i] == MYRMEX_SYS_BATCH ? 1 : 0, 0);
	}
	long r = myrmex_batch(a, 2 * k);
	CHECK(r == (long)(2 * k), "batch of refused calls returned %ld", r);
	for (unsigned i = 0; i < k; i++) {
		CHECK(a->entry[2 * i].result == my_pid, "getpid before refused %ld: %ld", refused[i],
		      (long)a->entry[2 * i].result);
		CHECK(a->entry[2 * i + 1].result == -EINVAL, "refused call %ld gave %ld", refused[i],
		      (long)a->entry[2 * i + 1].result);
	}
}

/* ---- The area itself ---- */

static void test_bad_areas(void)
{
	struct myrmex_batch_area *a = fresh_area(4);
	for (unsigned i = 0; i < 4; i++)
		store(a, i, SYS_getpid, 0, 0, 0);
	CHECK_EQ(myrmex_batch(a, 5), -EINVAL);          /* beyond the capacity */
	CHECK_EQ(myrmex_batch(a, MAX + 1), -EINVAL);    /* beyond the limit */
	CHECK_EQ(myrmex_batch(a, (uint64_t)-1), -EINVAL);
	a->capacity = MAX + 1;
	CHECK_EQ(myrmex_batch(a, 1), -EINVAL);
	a->capacity = 4;
	a->flags = 2;
	CHECK_EQ(myrmex_batch(a, 1), -EINVAL);
	a->flags = ~0u;
	CHECK_EQ(myrmex_batch(a, 1), -EINVAL);
	a->flags = 0;
	CHECK(a->entry[0].state == MYRMEX_BATCH_STORED, "a refused batch ran an entry");
	static const long bad[] = { 0, 0x1000, KERNEL_ADDR, NONCANONICAL_ADDR, -4096L,
	                            0x00007ffffffffffcL };
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		long r = myrmex_syscall6(MYRMEX_SYS_BATCH, bad[i], 1, 0, 0, 0, 0);
		CHECK(r == -EFAULT, "batch at %#lx: %ld, expected -EFAULT", bad[i], r);
		r = myrmex_trapcall6(MYRMEX_SYS_BATCH, bad[i], 1, 0, 0, 0, 0);
		CHECK(r == -EFAULT, "trap batch at %#lx: %ld, expected -EFAULT", bad[i], r);
	}

	/* Two pages, the second unmapped: a header at the end of the first
	 * with its first entry beyond (-EFAULT), and an area whose second entry
	 * crosses into the hole (stops after the first). */
	char *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(p != MAP_FAILED, "mmap");
	if (p == MAP_FAILED)
		return;
	CHECK_EQ(munmap(p + PAGE, PAGE), 0);
	struct myrmex_batch_area *edge = (struct myrmex_batch_area *)(p + PAGE - 8);
	edge->capacity = 2;
	edge->flags = 0;
	CHECK_EQ(myrmex_batch(edge, 1), -EFAULT);
	struct myrmex_batch_area *half = (struct myrmex_batch_area *)
		(p + PAGE - 8 - sizeof(struct myrmex_batch_entry) - 16);
	half->capacity = 2;
	half->flags = 0;
	myrmex_batch_store(half, 0, SYS_getpid, NULL);
	CHECK_EQ(myrmex_batch(half, 2), 1);
	CHECK(half->entry[0].result == my_pid && half->entry[0].state == MYRMEX_BATCH_DONE,
	      "half-mapped area: entry 0 result %ld", (long)half->entry[0].result);
	/* A read-only area: the entries are read, their results cannot be
	 * written: the batch stops after running the first. */
	struct myrmex_batch_area *ro = (struct myrmex_batch_area *)p;
	ro->capacity = 2;
	ro->flags = 0;
	myrmex_batch_store(ro, 0, SYS_getpid, NULL);
	myrmex_batch_store(ro, 1, SYS_getpid, NULL);
	CHECK_EQ(mprotect(p, PAGE, PROT_READ), 0);
	CHECK_EQ(myrmex_batch(ro, 2), 1);
	CHECK(ro->entry[0].state == MYRMEX_BATCH_STORED, "read-only area written");
	CHECK_EQ(munmap(p, PAGE), 0);
}

/* ---- Entries rewritten during batches ---- */

static volatile int rewriting;
static struct myrmex_batch_area *rewrite_area;

/* Rewrites entries of the running batches: numbers among getpid, getppid,
 * sched_yield and an unknown one, and the first argument; gives the CPU
 * back after a few, and the batch's own sched_yield entries give it here,
 * in the middle of a batch. */
static void rewriter(void *arg)
{
	(void)arg;
	static const long nrs[4] = { SYS_getpid, SYS_getppid, SYS_sched_yield, 99999 };
	unsigned x = 1;
	while (rewriting) {
		for (int k = 0; k < 8; k++) {
			x = x * 1103515245u + 12345u;
			unsigned i = (x >> 8) % MAX;
			volatile uint64_t *nr = &rewrite_area->entry[i].nr;
			*nr = (uint64_t)nrs[(x >> 20) % 4];
			rewrite_area->entry[i].arg[0] = x;
		}
		raw0(SYS_sched_yield);
	}
}

static void test_rewritten(void)
{
	struct myrmex_batch_area *a = fresh_area(MAX);
	for (unsigned i = 0; i < MAX; i++)
		myrmex_batch_store(a, i, SYS_sched_yield, NULL);
	rewrite_area = a;
	rewriting = 1;
	struct myrmex_thread th;
	long err = myrmex_thread_create(&th, rewriter, NULL, 0);
	CHECK(err == 0, "myrmex_thread_create: %ld", err);
	if (err)
		return;
	long seen[4] = { 0, 0, 0, 0 };
	long ppid = raw0(SYS_getppid);
	for (int round = 0; round < 100; round++) {
		for (unsigned i = 0; i < MAX; i++) {
			a->entry[i].state = MYRMEX_BATCH_STORED;
			a->entry[i].result = 1;
		}
		long r = (round & 1) ? myrmex_batch_trap(a, MAX) : myrmex_batch(a, MAX);
		CHECK(r == MAX, "rewritten batch %d returned %ld", round, r);
		for (unsigned i = 0; i < MAX; i++) {
			long res = (long)a->entry[i].result;
			if (res == my_pid)
				seen[0]++;
			else if (res == ppid)
				seen[1]++;
			else if (res == 0)
				seen[2]++;
			else if (res == -ENOSYS)
				seen[3]++;
			else
				test_fail("rewritten batch %d entry %u: result %ld", round, i, res);
			CHECK(a->entry[i].state == MYRMEX_BATCH_DONE, "rewritten entry %u state %u", i,
			      a->entry[i].state);
		}
	}
	rewriting = 0;
	myrmex_thread_join(&th);
	CHECK(seen[0] && seen[1] && seen[3], "the rewriter changed nothing: %ld %ld %ld %ld",
	      seen[0], seen[1], seen[2], seen[3]);
	test_note("rewritten batches: %ld getpid, %ld getppid, %ld sched_yield, %ld unknown",
	          seen[0], seen[1], seen[2], seen[3]);
}

/* ---- The area unmapped during a batch ---- */

static char *freed_area;

static void unmapper(void *arg)
{
	(void)arg;
	struct timespec wait = { 0, 50 * NS_PER_MS };
	raw2(SYS_nanosleep, (long)&wait, 0);
	raw2(SYS_munmap, (long)freed_area, PAGE);
}

/* Eight sleeps of 30 ms in an area another thread unmaps after 50 ms: the
 * batch stops at the first result it cannot write or entry it cannot read
 * and returns the entries run. */
static void test_freed_during(void)
{
	static struct timespec thirty = { 0, 30 * NS_PER_MS };
	freed_area = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(freed_area != MAP_FAILED, "mmap");
	if (freed_area == MAP_FAILED)
		return;
	struct myrmex_batch_area *a = (struct myrmex_batch_area *)freed_area;
	a->capacity = 8;
	a->flags = 0;
	for (unsigned i = 0; i < 8; i++)
		store(a, i, SYS_nanosleep, (long)&thirty, 0, 0);
	struct myrmex_thread th;
	long err = myrmex_thread_create(&th, unmapper, NULL, 0);
	CHECK(err == 0, "myrmex_thread_create: %ld", err);
	if (err)
		return;
	long r = myrmex_batch(a, 8);
	myrmex_thread_join(&th);
	CHECK(r >= 1 && r < 8, "batch in an area unmapped meanwhile returned %ld", r);
	test_note("area unmapped during the batch: %ld entries run", r);
}

/* ---- A signal during a batch ---- */

static volatile int alarms;
static volatile int futex_word;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
	futex_word = 1;
}

static void arm_alarm(long ms, int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sa.sa_flags = flags;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 0 }, { 0, ms * 1000 } };
	CHECK_EQ(setitimer(ITIMER_REAL, &it, NULL), 0);
}

/* Eight sleeps of 40 ms, SIGALRM after 60 ms: the batch stops after the
 * sleep the signal cut short (-EINTR; 0 if it had just ended), the handler
 * has run once, the entries after it are still STORED. */
static void test_signal_in_sleeps(const char *how)
{
	static struct timespec forty = { 0, 40 * NS_PER_MS };
	struct myrmex_batch_area *a = fresh_area(8);
	for (unsigned i = 0; i < 8; i++)
		store(a, i, SYS_nanosleep, (long)&forty, 0, 0);
	alarms = 0;
	arm_alarm(60, SA_RESTART);
	int64_t t0 = monotonic_ns();
	long r = myrmex_batch(a, 8);
	int64_t took = monotonic_ns() - t0;
	CHECK(alarms == 1, "%s: the handler ran %d times", how, alarms);
	CHECK(r >= 1 && r < 8, "%s: batch of sleeps returned %ld", how, r);
	if (r < 1 || r >= 8)
		return;
	for (long i = 0; i < r - 1; i++)
		CHECK(a->entry[i].result == 0, "%s: sleep %ld gave %ld", how, i, (long)a->entry[i].result);
	CHECK(a->entry[r - 1].result == -EINTR || a->entry[r - 1].result == 0,
	      "%s: interrupted sleep %ld gave %ld", how, r - 1, (long)a->entry[r - 1].result);
	for (long i = r; i < 8; i++)
		CHECK(a->entry[i].state == MYRMEX_BATCH_STORED, "%s: sleep %ld after the signal ran",
		      how, i);
	CHECK(took < 8 * 40 * NS_PER_MS, "%s: the batch took %lld ms", how,
	      (long long)(took / NS_PER_MS));
	test_note("%s: signal stopped the batch after %ld entries (%lld ms)", how, r,
	          (long long)(took / NS_PER_MS));
}

/* A futex wait without timeout would run again after an SA_RESTART handler;
 * in a batch it keeps -EINTR and the batch is not run again (a rerun would
 * show as -EINVAL results: the entries are DONE by then). */
static void test_signal_in_futex(void)
{
	struct myrmex_batch_area *a = fresh_area(3);
	futex_word = 0;
	store(a, 0, SYS_getpid, 0, 0, 0);
	store(a, 1, SYS_futex, (long)&futex_word, FUTEX_WAIT_PRIVATE, 0);
	store(a, 2, SYS_getpid, 0, 0, 0);
	alarms = 0;
	arm_alarm(30, SA_RESTART);
	long r = myrmex_batch(a, 3);
	CHECK(r == 2, "futex batch returned %ld", r);
	CHECK(alarms == 1, "futex batch: the handler ran %d times", alarms);
	CHECK(a->entry[0].result == my_pid, "futex batch: entry 0 %ld", (long)a->entry[0].result);
	CHECK(a->entry[1].result == -EINTR, "futex batch: wait gave %ld", (long)a->entry[1].result);
	CHECK(a->entry[2].state == MYRMEX_BATCH_STORED, "futex batch: entry 2 ran");
}

/* ---- A kill during a batch ---- */

static void victim(void)
{
	static struct timespec second = { 1, 0 };
	struct myrmex_batch_area *a = fresh_area(8);
	for (unsigned i = 0; i < 8; i++)
		store(a, i, SYS_nanosleep, (long)&second, 0, 0);
	myrmex_batch(a, 8);
	raw1(SYS_exit_group, 3);   /* not reached: killed */
}

static void test_kill(void)
{
	char *argv[] = { "t_batch", "victim", NULL };
	char *envp[] = { NULL };
	long pid = myrmex_spawn("t_batch", argv, envp, -1);
	CHECK(pid > 0, "spawn victim: %ld", pid);
	if (pid <= 0)
		return;
	struct timespec wait = { 0, 100 * NS_PER_MS };
	raw2(SYS_nanosleep, (long)&wait, 0);
	int64_t t0 = monotonic_ns();
	CHECK_EQ(raw2(SYS_kill, pid, SIGKILL), 0);
	int status = 0;
	CHECK_EQ(raw4(SYS_wait4, pid, (long)&status, 0, 0), pid);
	int64_t took = monotonic_ns() - t0;
	CHECK(status == SIGKILL, "victim status %#x, expected killed by SIGKILL", status);
	CHECK(took < 900 * NS_PER_MS, "the kill took %lld ms: it waited for the sleep",
	      (long long)(took / NS_PER_MS));
}

/* ---- The trap gate against syscall ---- */

static void test_trap_gate(void)
{
	CHECK_EQ(myrmex_trapcall6(SYS_getpid, 0, 0, 0, 0, 0, 0), my_pid);
	CHECK_EQ(myrmex_trapcall6(SYS_gettid, 0, 0, 0, 0, 0, 0), my_tid);
	CHECK_EQ(myrmex_trapcall6(SYS_getppid, 0, 0, 0, 0, 0, 0), raw0(SYS_getppid));
	struct utsname u1, u2;
	memset(&u1, 1, sizeof u1);
	memset(&u2, 2, sizeof u2);
	CHECK_EQ(myrmex_trapcall6(SYS_uname, (long)&u1, 0, 0, 0, 0, 0), 0);
	CHECK_EQ(raw1(SYS_uname, (long)&u2), 0);
	CHECK(memcmp(&u1, &u2, sizeof u1) == 0, "uname differs between the entries");
	struct timespec r1, r2;
	CHECK_EQ(myrmex_trapcall6(SYS_clock_getres, CLOCK_MONOTONIC, (long)&r1, 0, 0, 0, 0), 0);
	CHECK_EQ(raw2(SYS_clock_getres, CLOCK_MONOTONIC, (long)&r2), 0);
	CHECK(r1.tv_sec == r2.tv_sec && r1.tv_nsec == r2.tv_nsec, "clock_getres differs");
	static const char msg[] = "t_batch: written through int $0x81\n";
	CHECK_EQ(myrmex_trapcall6(SYS_write, 1, (long)msg, sizeof msg - 1, 0, 0, 0),
	         (long)sizeof msg - 1);
	CHECK_EQ(myrmex_trapcall6(MYRMEX_SYS_KSTATS, (long)&kst[0], 16, 0, 0, 0, 0), 16);
	static const long bad_nrs[] = { 99999, -1, 4095, MYRMEX_SYS_BASE + 7, 1000000000 };
	for (unsigned i = 0; i < sizeof bad_nrs / sizeof bad_nrs[0]; i++) {
		CHECK(myrmex_trapcall6(bad_nrs[i], 0, 0, 0, 0, 0, 0) == -ENOSYS,
		      "trap call %ld not -ENOSYS", bad_nrs[i]);
		CHECK(raw0(bad_nrs[i]) == -ENOSYS, "call %ld not -ENOSYS", bad_nrs[i]);
	}
	CHECK_EQ(myrmex_trapcall6(SYS_clock_gettime, CLOCK_MONOTONIC, KERNEL_ADDR, 0, 0, 0, 0),
	         -EFAULT);

	/* The gate keeps every register but rax, rcx and r11 included. */
	register long r11 __asm__("r11") = 0x7654321;
	long rcx = 0x1234567, ret;
	__asm__ volatile("int $0x81" : "=a"(ret), "+c"(rcx), "+r"(r11)
	                 : "0"((long)SYS_getpid) : "memory");
	CHECK(ret == my_pid && rcx == 0x1234567 && r11 == 0x7654321,
	      "int $0x81 lost rcx or r11: %#lx %#lx", rcx, (long)r11);

	/* A restart through the gate: a futex wait interrupted by an
	 * SA_RESTART handler runs again (the number back in rax, rip two bytes
	 * back) and then sees the word the handler changed. */
	futex_word = 0;
	alarms = 0;
	arm_alarm(30, SA_RESTART);
	long r = myrmex_trapcall6(SYS_futex, (long)&futex_word, FUTEX_WAIT_PRIVATE, 0, 0, 0, 0);
	CHECK(r == -EAGAIN && alarms == 1, "restarted trap futex: %ld (handler ran %d)", r, alarms);
}

/* ---- Forwarded calls (POSIX process) ---- */

/* A POSIX test starts without descriptors: messages go to the console
 * through the file manager. */
static void messages_to_console(void)
{
	long fd = raw3(SYS_open, (long)"/dev/console", O_RDWR, 0);
	if (fd < 0)
		return;
	raw2(SYS_dup2, fd, 1);
	raw2(SYS_dup2, fd, 2);
	raw1(SYS_close, fd);
}

static void test_forwarded(void)
{
	int fd = (int)raw3(SYS_open, (long)HELLO, O_RDONLY, 0);
	CHECK(fd >= 0, "open %s: %d", HELLO, fd);
	if (fd < 0)
		return;
	static char buf[8], buf2[8];
	static struct stat st;
	static struct timespec now;
	static const char msg[] = "t_batch: written from a batch\n";
	struct myrmex_batch_area *a = fresh_area(12);
	unsigned n = 0;
	store(a, n++, SYS_lseek, fd, 6, SEEK_SET);
	store(a, n++, SYS_read, fd, (long)buf, 4);
	store(a, n++, SYS_clock_gettime, CLOCK_REALTIME, (long)&now, 0);
	store(a, n++, SYS_getpid, 0, 0, 0);
	store(a, n++, SYS_write, 1, (long)msg, sizeof msg - 1);
	store(a, n++, SYS_fstat, fd, (long)&st, 0);
	store(a, n++, SYS_pread64, fd, (long)buf2, 5);   /* offset 0: a[3] */
	store(a, n++, SYS_read, fd, KERNEL_ADDR, 4);
	store(a, n++, SYS_close, fd, 0, 0);
	store(a, n++, SYS_read, fd, (long)buf, 4);
	long r = myrmex_batch(a, n);
	CHECK(r == (long)n, "forwarded batch returned %ld", r);
	const long want[] = { 6, 4, 0, my_pid, (long)sizeof msg - 1, 0, 5, -EFAULT, 0, -EBADF };
	for (unsigned i = 0; i < n; i++)
		CHECK(a->entry[i].result == want[i], "forwarded entry %u (nr %lu): %ld, expected %ld",
		      i, (unsigned long)a->entry[i].nr, (long)a->entry[i].result, want[i]);
	CHECK(memcmp(buf, "from", 4) == 0, "read in a batch: %.4s", buf);
	CHECK(memcmp(buf2, "hello", 5) == 0, "pread64 in a batch: %.5s", buf2);
	CHECK(st.st_size == (off_t)strlen(HELLO_TEXT), "fstat in a batch: size %ld",
	      (long)st.st_size);
	CHECK(now.tv_sec > 1000000000L, "clock_gettime in a batch: %ld", (long)now.tv_sec);

	/* The time server through the trap gate. */
	struct timespec t1;
	CHECK_EQ(myrmex_trapcall6(SYS_clock_gettime, CLOCK_REALTIME, (long)&t1, 0, 0, 0, 0), 0);
	CHECK(t1.tv_sec >= now.tv_sec, "trap clock_gettime went back");
}

int main(int argc, char **argv)
{
	my_pid = raw0(SYS_getpid);
	my_tid = raw0(SYS_gettid);
	const char *mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "victim") == 0) {
		victim();
		return 1;
	}
	if (strcmp(mode, "forwarded") == 0) {
		messages_to_console();
		test_forwarded();
		test_signal_in_sleeps("forwarded sleeps");
		return test_exit_code();
	}
	test_every_size();
	test_bad_entries();
	test_refused();
	test_bad_areas();
	test_trap_gate();
	test_signal_in_sleeps("sleeps");
	test_signal_in_futex();
	test_kill();
	test_freed_during();
	test_rewritten();
	return test_exit_code();
}
