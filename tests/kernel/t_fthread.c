/*
 * t_fthread [mode]: the fine-grained thread library (lib/libmyrmex/fthread.h,
 * docs/fthread.md) over wrapped system calls.
 *
 * Modes:
 *   (none)  a native process: the flush rule (a batch when N calls are
 *           stored, earlier when nothing is runnable) counted exactly on a
 *           fixed schedule; continuations that wait for several results
 *           from several threads, plus signals, under random schedules
 *           (seeded, so reproducible: a failure names its seed), N from 1
 *           to 64, through syscall and the trap gate, every result checked
 *           and every continuation run exactly once, after its last
 *           result; a signal raised by a stored call stopping a flush (the
 *           rest runs in the next).
 *   files   a POSIX process (file manager): real work, every file of
 *           fs.img's manifest /SUMS up to 128 KiB read with fine-grained
 *           threads (open, then fstat and 512-byte preads in parallel, then
 *           close), a few files in flight, and its size and CRC-32 checked;
 *           under several N and schedules.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_fthread"
#include "test_check.h"
#include "fs_sums.h"
#include "fthread.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#define SENTINEL (-0x5a5a5a5aL)

static long my_pid, my_tid;
static struct myrmex_kstats kbuf;

static uint64_t rnd_state;

static unsigned rnd(unsigned bound)
{
	rnd_state = rnd_state * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(rnd_state >> 33) % bound;
}

/* ---- The flush rule, on a fixed schedule ---- */

static struct fth leaves[100], sink;
static long leaf_results[100];
static int sink_saw_all;

static void leaf_getpid(struct fth_sched *s, struct fth *self)
{
	long i = self - leaves;
	fth_call3(s, &sink, &leaf_results[i], SYS_getpid, 0, 0, 0);
}

static void sink_run(struct fth_sched *s, struct fth *self)
{
	(void)s;
	(void)self;
	sink_saw_all = 1;
	for (int i = 0; i < 100; i++)
		if (leaf_results[i] != my_pid)
			sink_saw_all = 0;
}

/* 100 threads, each one getpid for one continuation waiting for all 100,
 * N = 8, in order: a batch after every 8th thread (12), then one early
 * flush of the last 4 when nothing is runnable: 13 batches. */
static void test_flush_rule(void)
{
	static struct fth_sched s;
	CHECK_EQ(fth_sched_init(&s, 0, 0), -EINVAL);
	CHECK_EQ(fth_sched_init(&s, MYRMEX_BATCH_MAX + 1, 0), -EINVAL);
	CHECK_EQ(fth_sched_init(&s, 8, 0), 0);
	fth_init(&sink, sink_run, NULL, 100);
	for (int i = 0; i < 100; i++) {
		leaf_results[i] = SENTINEL;
		fth_init(&leaves[i], leaf_getpid, NULL, 0);
		fth_spawn(&s, &leaves[i]);
	}
	CHECK_EQ(fth_run(&s), 0);
	CHECK(sink_saw_all && sink.runs == 1, "sink ran %u times, saw all %d", sink.runs,
	      sink_saw_all);
	CHECK(s.st.flushes == 13 && s.st.calls == 100 && s.st.runs == 101,
	      "flush rule: %llu flushes, %llu calls, %llu runs",
	      (unsigned long long)s.st.flushes, (unsigned long long)s.st.calls,
	      (unsigned long long)s.st.runs);
}

/* ---- Random schedules ---- */

#define JOINS 48
#define SLOTS 6
#define LEAVES_MAX (JOINS * SLOTS)

/* A join: a continuation waiting for nslots results stored by several
 * leaf threads and for one signal, whose run checks them all, then stores
 * a gettid and signals the top continuation. */
struct join {
	struct fth th;
	unsigned nslots;
	long slot[SLOTS];
	long want[SLOTS];
	long tid;
	int bad;
};

struct leaf {
	struct fth th;
	unsigned ncalls;
	struct { struct join *j; unsigned slot; } call[4];
};

static struct join joins[JOINS];
static struct leaf leafv[LEAVES_MAX];
static struct fth top, signaller;
static unsigned nleaves;
static int top_ok;
static struct timespec bad_time;

/* Call slot of join j: its number and arguments, and the result it must
 * give. */
static void call_of(unsigned j, unsigned slot, long *nr, long a[3], long *want)
{
	a[0] = a[1] = a[2] = 0;
	switch ((j * 7 + slot) % 5) {
	case 0: *nr = SYS_getpid; *want = my_pid; break;
	case 1:
		*nr = MYRMEX_SYS_KSTATS;
		a[0] = (long)&kbuf;
		a[1] = 1 + (long)((j * 13 + slot) % sizeof kbuf);
		*want = a[1];
		break;
	case 2: *nr = 99999; *want = -ENOSYS; break;
	case 3:
		*nr = SYS_clock_gettime;
		a[0] = CLOCK_MONOTONIC;
		a[1] = 0x1000;       /* a bad pointer: this entry alone fails */
		*want = -EFAULT;
		break;
	default:
		*nr = SYS_clock_gettime;
		a[0] = 4321;
		a[1] = (long)&bad_time;
		*want = -EINVAL;
		break;
	}
}

static void leaf_run(struct fth_sched *s, struct fth *self)
{
	struct leaf *l = (struct leaf *)self;
	for (unsigned k = 0; k < l->ncalls; k++) {
		struct join *j = l->call[k].j;
		long nr, a[3], want;
		call_of((unsigned)(j - joins), l->call[k].slot, &nr, a, &want);
		fth_call3(s, &j->th, &j->slot[l->call[k].slot], nr, a[0], a[1], a[2]);
	}
}

static void join_run(struct fth_sched *s, struct fth *self)
{
	struct join *j = (struct join *)self;
	if (self->count != 0 || self->runs != 1)
		j->bad = 1;
	for (unsigned k = 0; k < j->nslots; k++)
		if (j->slot[k] != j->want[k])
			j->bad = 1;
	fth_call3(s, &top, &j->tid, SYS_gettid, 0, 0, 0);
	fth_signal(s, &top);
}

/* Signals every join once, from one thread that runs whenever the
 * schedule picks it. */
static void signaller_run(struct fth_sched *s, struct fth *self)
{
	(void)self;
	for (unsigned j = 0; j < JOINS; j++)
		fth_signal(s, &joins[j].th);
}

static void top_run(struct fth_sched *s, struct fth *self)
{
	(void)s;
	top_ok = self->count == 0 && self->runs == 1;
	for (unsigned j = 0; j < JOINS; j++)
		if (joins[j].tid != my_tid || joins[j].th.runs != 1)
			top_ok = 0;
}

/* Builds the graph for seed: each join waits for 1..SLOTS results; the
 * (join, slot) pairs are shuffled and dealt to leaves of 1..4 calls, so a
 * join's results come from several threads and several batches. */
static void build_graph(void)
{
	static struct { struct join *j; unsigned slot; } pairs[LEAVES_MAX];
	unsigned np = 0;
	for (unsigned j = 0; j < JOINS; j++) {
		struct join *jn = &joins[j];
		memset(jn, 0, sizeof *jn);
		jn->nslots = 1 + rnd(SLOTS);
		for (unsigned k = 0; k < jn->nslots; k++) {
			long nr, a[3];
			call_of(j, k, &nr, a, &jn->want[k]);
			jn->slot[k] = SENTINEL;
			pairs[np].j = jn;
			pairs[np].slot = k;
			np++;
		}
		jn->tid = SENTINEL;
		fth_init(&jn->th, join_run, NULL, jn->nslots + 1);
	}
	for (unsigned i = np; i > 1; i--) {
		unsigned k = rnd(i);
		__typeof__(pairs[0]) t = pairs[i - 1];
		pairs[i - 1] = pairs[k];
		pairs[k] = t;
	}
	nleaves = 0;
	for (unsigned p = 0; p < np;) {
		struct leaf *l = &leafv[nleaves++];
		l->ncalls = 0;
		for (unsigned want = 1 + rnd(4); want && p < np; want--, p++) {
			l->call[l->ncalls].j = pairs[p].j;
			l->call[l->ncalls].slot = pairs[p].slot;
			l->ncalls++;
		}
		fth_init(&l->th, leaf_run, NULL, 0);
	}
	fth_init(&top, top_run, NULL, 2 * JOINS);
	fth_init(&signaller, signaller_run, NULL, 0);
}

static void random_case(uint64_t seed, unsigned n, int trap)
{
	static struct fth_sched s;
	rnd_state = seed;
	build_graph();
	CHECK_EQ(fth_sched_init(&s, n, seed), 0);
	s.trap = trap;
	for (unsigned i = 0; i < nleaves; i++)
		fth_spawn(&s, &leafv[i].th);
	fth_spawn(&s, &signaller);
	top_ok = 0;
	long r = fth_run(&s);
	CHECK(r == 0, "seed %llu n %u: fth_run %ld", (unsigned long long)seed, n, r);
	for (unsigned j = 0; j < JOINS; j++)
		CHECK(!joins[j].bad && joins[j].th.runs == 1,
		      "seed %llu n %u trap %d: join %u ran %u times, bad results %d",
		      (unsigned long long)seed, n, trap, j, joins[j].th.runs, joins[j].bad);
	CHECK(top_ok && top.runs == 1, "seed %llu n %u trap %d: top ran %u times (ok %d)",
	      (unsigned long long)seed, n, trap, top.runs, top_ok);
	uint64_t calls = s.st.calls;
	CHECK(s.st.flushes >= (calls + n - 1) / n && s.st.flushes <= calls,
	      "seed %llu n %u: %llu flushes for %llu calls", (unsigned long long)seed, n,
	      (unsigned long long)s.st.flushes, (unsigned long long)calls);
}

static void test_random(void)
{
	static const unsigned ns[] = { 1, 2, 3, 5, 8, 13, 32, 63, 64 };
	for (uint64_t seed = 1; seed <= 40; seed++) {
		unsigned n = ns[seed % (sizeof ns / sizeof ns[0])];
		random_case(seed * 0x9e3779b97f4a7c15ull, n, (int)(seed & 1));
	}
	/* In order too (seed 0 schedules in order; the graph from seed 7). */
	static struct fth_sched s;
	rnd_state = 7;
	build_graph();
	CHECK_EQ(fth_sched_init(&s, 16, 0), 0);
	for (unsigned i = 0; i < nleaves; i++)
		fth_spawn(&s, &leafv[i].th);
	fth_spawn(&s, &signaller);
	CHECK_EQ(fth_run(&s), 0);
	CHECK(top_ok && top.runs == 1, "in order: top ran %u times", top.runs);
}

/* ---- A signal stopping a flush ---- */

static volatile int usr1;
static struct fth callers[8], joined;
static long called[8];

static void on_usr1(int sig)
{
	(void)sig;
	usr1++;
}

/* Thread 3 stores a kill of the process itself, the others getpid. */
static void caller_run(struct fth_sched *s, struct fth *self)
{
	long i = self - callers;
	if (i == 3)
		fth_call3(s, &joined, &called[i], SYS_kill, my_pid, SIGUSR1, 0);
	else
		fth_call3(s, &joined, &called[i], SYS_getpid, 0, 0, 0);
}

static void joined_run(struct fth_sched *s, struct fth *self)
{
	(void)s;
	(void)self;
}

/* Eight calls in one batch (N = 8), the fourth raising SIGUSR1: the batch
 * stops after it (the signal is delivered on the way out), and the
 * scheduler runs the other four in a second batch: every call has its
 * result, the handler ran once, the continuation once. No timing: the
 * signal comes from the batch itself. */
static void test_signal(void)
{
	static struct fth_sched s;
	CHECK_EQ(fth_sched_init(&s, 8, 0), 0);
	fth_init(&joined, joined_run, NULL, 8);
	for (int i = 0; i < 8; i++) {
		called[i] = SENTINEL;
		fth_init(&callers[i], caller_run, NULL, 0);
		fth_spawn(&s, &callers[i]);
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	usr1 = 0;
	CHECK_EQ(fth_run(&s), 0);
	for (int i = 0; i < 8; i++)
		CHECK(called[i] == (i == 3 ? 0 : my_pid), "signal: call %d gave %ld", i, called[i]);
	CHECK(usr1 == 1 && joined.runs == 1, "signal: handler ran %d times, continuation %u",
	      usr1, joined.runs);
	CHECK(s.st.flushes == 2 && s.st.short_flushes == 1,
	      "signal: %llu flushes, %llu stopped short", (unsigned long long)s.st.flushes,
	      (unsigned long long)s.st.short_flushes);
}

/* ---- Real work: the files of fs.img ---- */

#define CHUNK 512
#define MAX_FILE (128 * 1024)
#define IN_FLIGHT 6

struct file_job {
	struct fth opener, open_done, read_done, closed;
	const struct fs_sum *sum;
	long fd, fstat_r, close_r, eof_r;
	struct stat st;
	char *buf;
	long *got;           /* per chunk */
	unsigned nchunks;
};

static struct fs_sum *sums;
static unsigned nsums, next_sum, files_done, files_bad;

static void start_next(struct fth_sched *s);
static void read_done_run(struct fth_sched *s, struct fth *self);
static void closed_run(struct fth_sched *s, struct fth *self);

static void open_done_run(struct fth_sched *s, struct fth *self)
{
	struct file_job *job = self->arg;
	if (job->fd < 0) {
		test_fail("open %s: %ld", job->sum->path, job->fd);
		files_bad++;
		return;
	}
	uint64_t size = job->sum->size;
	job->nchunks = (unsigned)((size + CHUNK - 1) / CHUNK);
	job->buf = malloc(size + 1);
	job->got = malloc((job->nchunks + 1) * sizeof(long));
	/* fstat, each chunk, and a read at the end (0: end of file). */
	fth_init(&job->read_done, read_done_run, job, job->nchunks + 2);
	fth_call3(s, &job->read_done, &job->fstat_r, SYS_fstat, job->fd, (long)&job->st, 0);
	for (unsigned c = 0; c < job->nchunks; c++) {
		const long a[6] = { job->fd, (long)(job->buf + (uint64_t)c * CHUNK), CHUNK,
		                    (long)c * CHUNK, 0, 0 };
		fth_call(s, &job->read_done, &job->got[c], SYS_pread64, a);
	}
	const long a[6] = { job->fd, (long)(job->buf + size), 1, (long)size, 0, 0 };
	fth_call(s, &job->read_done, &job->eof_r, SYS_pread64, a);
}

static void read_done_run(struct fth_sched *s, struct fth *self)
{
	struct file_job *job = self->arg;
	const struct fs_sum *sum = job->sum;
	int ok = job->fstat_r == 0 && (uint64_t)job->st.st_size == sum->size && job->eof_r == 0;
	for (unsigned c = 0; c < job->nchunks; c++) {
		uint64_t left = sum->size - (uint64_t)c * CHUNK;
		if ((uint64_t)job->got[c] != (left < CHUNK ? left : CHUNK))
			ok = 0;
	}
	if (ok && fs_crc32(0, job->buf, sum->size) != sum->crc)
		ok = 0;
	if (!ok) {
		test_fail("%s: fstat %ld size %ld eof %ld, crc or chunk counts wrong", sum->path,
		          job->fstat_r, (long)job->st.st_size, job->eof_r);
		files_bad++;
	}
	fth_init(&job->closed, closed_run, job, 1);
	fth_call3(s, &job->closed, &job->close_r, SYS_close, job->fd, 0, 0);
}

static void closed_run(struct fth_sched *s, struct fth *self)
{
	struct file_job *job = self->arg;
	if (job->close_r != 0) {
		test_fail("close %s: %ld", job->sum->path, job->close_r);
		files_bad++;
	}
	files_done++;
	free(job->buf);
	free(job->got);
	free(job);
	start_next(s);   /* this job's place in flight goes to the next file */
}

static void opener_run(struct fth_sched *s, struct fth *self)
{
	struct file_job *job = self->arg;
	fth_call3(s, &job->open_done, &job->fd, SYS_open, (long)job->sum->path, O_RDONLY, 0);
}

/* Starts the next file of the manifest that is small enough, if any: a
 * job with its three continuations, its open stored by a new thread. */
static void start_next(struct fth_sched *s)
{
	while (next_sum < nsums &&
	       (sums[next_sum].kind != 'f' || sums[next_sum].size > MAX_FILE))
		next_sum++;
	if (next_sum >= nsums)
		return;
	struct file_job *job = calloc(1, sizeof *job);
	if (!job) {
		test_fail("out of memory");
		return;
	}
	job->sum = &sums[next_sum++];
	job->fd = job->fstat_r = job->close_r = job->eof_r = SENTINEL;
	fth_init(&job->open_done, open_done_run, job, 1);
	fth_init(&job->opener, opener_run, job, 0);
	fth_spawn(s, &job->opener);
}

/* Reads the whole manifest with plain calls. */
static char *read_manifest(void)
{
	long fd = raw3(SYS_open, (long)"/SUMS", O_RDONLY, 0);
	CHECK(fd >= 0, "open /SUMS: %ld", fd);
	if (fd < 0)
		return NULL;
	size_t cap = 1 << 16, len = 0;
	char *text = malloc(cap + 1);
	for (;;) {
		if (len == cap) {
			cap *= 2;
			text = realloc(text, cap + 1);
		}
		long r = raw3(SYS_read, fd, (long)(text + len), (long)(cap - len));
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	raw1(SYS_close, fd);
	text[len] = '\0';
	return text;
}

static void parse_manifest(char *text)
{
	unsigned lines = 1;
	for (char *p = text; *p; p++)
		lines += *p == '\n';
	sums = calloc(lines, sizeof *sums);
	nsums = 0;
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (fs_sum_parse(line, &sums[nsums]) == 1)
			nsums++;
		line = nl ? nl + 1 : NULL;
	}
}

static void files_case(unsigned n, uint64_t seed, int trap)
{
	static struct fth_sched s;
	CHECK_EQ(fth_sched_init(&s, n, seed), 0);
	s.trap = trap;
	next_sum = files_done = files_bad = 0;
	unsigned wanted = 0;
	for (unsigned i = 0; i < nsums; i++)
		wanted += sums[i].kind == 'f' && sums[i].size <= MAX_FILE;
	for (int k = 0; k < IN_FLIGHT; k++)
		start_next(&s);
	long r = fth_run(&s);
	CHECK(r == 0, "files n %u: fth_run %ld", n, r);
	CHECK(files_done == wanted && files_bad == 0, "files n %u seed %llu: %u of %u read, %u bad",
	      n, (unsigned long long)seed, files_done, wanted, files_bad);
	test_note("files n=%u seed %llu trap %d: %u files, %llu calls in %llu batches", n,
	          (unsigned long long)seed, trap, files_done, (unsigned long long)s.st.calls,
	          (unsigned long long)s.st.flushes);
}

static void test_files(void)
{
	char *text = read_manifest();
	if (!text)
		return;
	parse_manifest(text);
	CHECK(nsums > 500, "manifest has %u entries", nsums);
	files_case(16, 0, 0);
	files_case(64, 0xfeedull, 0);
	files_case(1, 0, 0);
	files_case(7, 12345, 1);
	free(sums);
	free(text);
}

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

int main(int argc, char **argv)
{
	my_pid = raw0(SYS_getpid);
	my_tid = raw0(SYS_gettid);
	const char *mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "files") == 0) {
		messages_to_console();
		test_files();
		return test_exit_code();
	}
	test_flush_rule();
	test_random();
	test_signal();
	return test_exit_code();
}
