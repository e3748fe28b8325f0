/*
 * t_fuzz: the system-call fuzzer (docs/testing.md, "The system-call fuzzer").
 *
 *     t_fuzz <seed> <rounds> <procs> [verbose] [deadline=<seconds>]
 *
 * Runs as a POSIX process with the file manager, the console server, the
 * time server and the process manager. It forks `procs` children (at most
 * FUZZ_MAX_PROCS); each derives its own seed from (seed, its index), leaves
 * the init's process group (setsid), works in /tmp/fuzz.<pid>, starts a
 * second thread, and both threads make `rounds` random system calls each
 * (a third of the children kill themselves at a step their seed chooses,
 * with calls out and ICAs held: the cleanup is tested too):
 *
 *   - Linux x86-64 calls from the whole number range (the ones the kernel
 *     serves more often), each argument typed where the call is known (a
 *     descriptor, a path, a buffer, a length, an address range, a signal)
 *     and drawn from hostile pools: 0, -1, small and huge numbers, kernel,
 *     non-canonical, unmapped and read-only addresses, addresses in the ICA
 *     window, pointers into a scratch buffer of the thread (sometimes with
 *     a length past its end, where a guard page waits), descriptors it
 *     opened and ones it never had, random flags;
 *   - native calls: ICAs allocated, freed, detached and attached by
 *     harvested and made-up handles; control ICAs written with random
 *     frames (targets 0..255, the real servers 2..6 more often; random
 *     opcodes, arguments, data ICAs, prev/currentp/magic/flags, direct
 *     return) and sent with callsync/callasync, then get/ret/claim; the
 *     second thread meanwhile rewrites frames, frees, detaches and passes
 *     ICAs. Handles are harvested from results and deliveries.
 *
 * The deny-list (calls that would end the experiment rather than test the
 * kernel; documented in docs/testing.md): exit and exit_group (only at the
 * end), rt_sigreturn, kill/tkill/tgkill/rt_(tg)sigqueueinfo at anyone but
 * the child itself (never pid <= 0) and never SIGKILL, pidfd_send_signal,
 * fork/vfork/clone/clone3 and the native spawn with a real module (the
 * process count stays bounded), execve/execveat with a path that exists,
 * reboot, kexec, seccomp (and prctl's PR_SET_SECCOMP) and the native
 * poweroff. Memory calls (mmap with MAP_FIXED, munmap, mprotect, madvise,
 * msync) get an address range that cannot cover the fuzzer's own memory:
 * its arena, the ICA or device window, kernel or non-canonical addresses,
 * or the low unmapped pages. What a random call may change in the
 * fuzzer's own state is put back right after it: the signal handlers and
 * mask, the alternate stack, the FS base, the second thread's tid address,
 * the interval timer.
 *
 * The current directory is put back into the child's own tree after a
 * chdir that left it ("..": relative names would land in /tmp, or in /).
 * Paths sent in native file requests are the pool's.
 *
 * Blocking is bounded: an interval timer sends SIGALRM every FUZZ_TICK_US
 * (its handler, without SA_RESTART, interrupts whatever the receiving
 * thread waits in, and sends SIGUSR1 to the other thread when it is inside
 * a call), calls that take a signal mask get one that lets both through
 * (or one the kernel cannot read), and the parent SIGKILLs every child
 * still alive at the deadline (default FUZZ_DEADLINE_S seconds), after
 * printing what each of its threads was doing (a page of a file both map
 * shared). Every loop is bounded.
 *
 * Stores into ICAs (which the other thread may have freed or passed on)
 * are guarded: the fault's SIGSEGV jumps back (sigsetjmp). A fault outside
 * a guarded store ends the child with FUZZ_EXIT_FAULT.
 *
 * Logging: the seed and every child's seed are always printed (a run is
 * replayed with the same seed, rounds and procs: `make fuzz SEED= ROUNDS=
 * PROCS=`); with `verbose` every call is printed (number and arguments)
 * before it is made, and its result after, so that a crash can be narrowed
 * down to the calls before it.
 *
 * After the children have ended (exited, or killed at the deadline) the
 * parent checks that the system still works: a file written, read back,
 * stat'ed and unlinked; clock_gettime and a nanosleep (the time server); a
 * console write; and the file manager, the console server, the time
 * server, the process manager and the disk driver still the same
 * registered processes as at the start. Then it removes /tmp and all the
 * children made there. Exit 0 only when all of it worked.
 */
#define _GNU_SOURCE
#define TEST_NAME "t_fuzz"
#include "test_check.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <myrmex/console.h>
#include <myrmex/disk.h>
#include <myrmex/fs.h>
#include <myrmex/omf.h>
#include <myrmex/proc.h>
#include <myrmex/time.h>

#define FUZZ_MAX_PROCS    16
#define FUZZ_DEADLINE_S   60      /* the parent SIGKILLs children still alive then */
#define FUZZ_TICK_US      20000   /* the interval timer: no call blocks longer */
#define FUZZ_EXIT_FAULT   3       /* a child's exit code: a fault it did not expect */
#define FUZZ_EXIT_SETUP   4       /* a child's exit code: it could not set up */
#define PAGE              4096ul
#define SCRATCH_SIZE      (16 * PAGE)   /* per thread, between two guard pages */
#define COOKED_SIZE       PAGE          /* per thread: structures built for one call */
#define ARENA_PAGES       32            /* the one area memory calls may change */
#define HANDLES           64            /* harvested ICA handles, per child */
#define MINE              128           /* ICAs allocated or delivered, per child */
#define FDS               32            /* harvested descriptors, per child */
#define LOG_FD            63            /* a child's lines (FS_MAX_FDS - 1) */
#define PATH_SLOT         64            /* bytes per string of the path pool */
#define PATHS             24
#define PROGRESS_FILE     "/tmp/fuzz.progress"
#define NR_LINUX_MAX      460           /* Linux numbers drawn from 0..this */
#define NATIVE_SPAN       64            /* native numbers drawn from BASE..BASE+this */
#define KERNEL_ADDR       0xffff800000000000ull
#define KERNEL_TEXT       0xffffffff80000000ull
#define USER_TOP          0x0000800000000000ull
#define LOW_END           0x400000ull   /* the program starts here: below is unmapped */
#define SIGALRM_BIT       (1ull << (SIGALRM - 1))
#define SIGUSR1_BIT       (1ull << (SIGUSR1 - 1))

/* ------------------------------------------------------------ random numbers */

/* splitmix64: one 64-bit state, every output a mix of it. */
struct rng {
	uint64_t s;
};

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rnd(struct rng *r)
{
	r->s += 0x9e3779b97f4a7c15ull;
	return mix64(r->s);
}

/* 0..n-1 (n > 0). */
static uint64_t below(struct rng *r, uint64_t n)
{
	return rnd(r) % n;
}

/* 1 with probability num/den. */
static int chance(struct rng *r, unsigned num, unsigned den)
{
	return below(r, den) < num;
}

/* The seed of child `index` (and of its thread `thread`) from the run's seed. */
static uint64_t child_seed(uint64_t seed, unsigned index)
{
	return mix64(seed ^ mix64(0x66757a7aull + index));
}

static uint64_t thread_seed(uint64_t cseed, unsigned thread)
{
	return mix64(cseed + 0x7468726561640000ull + thread);
}

/* ------------------------------------------------------------ state */

/* One fuzzing thread (two per child). */
struct fuzzer {
	unsigned index;            /* 0: the child's first thread, 1: the second */
	volatile int tid;
	struct rng rng;
	sigjmp_buf jump;           /* where a fault in a guarded store goes */
	volatile int armed;        /* a guarded store runs */
	volatile int in_call;      /* inside a system call (SIGALRM forwards SIGUSR1) */
	uint64_t fs_base;          /* put back after arch_prctl */
	uint8_t *scratch;          /* SCRATCH_SIZE bytes, a guard page on each side */
	uint8_t *cooked;           /* COOKED_SIZE bytes no random pointer reaches */
	unsigned long step;        /* calls made so far */
	unsigned long faults;      /* guarded stores that faulted */
	unsigned long fails;       /* calls that returned -errno */
	unsigned long sent;        /* callsync/callasync that a server took */
	unsigned long delivered;   /* get()s that delivered something */
	struct myrmex_delivery delivery;   /* get's out */
};

/* What each thread of each child does now, in a page the parent shares
 * with the children (a shared mapping of a file, made before the forks:
 * anonymous shared memory is copied at fork here): the parent prints it for
 * a child still running at the deadline. */
struct progress {
	volatile uint64_t step, nr, in_call, args[6];
};
static struct progress (*shared_progress)[2];   /* [child][thread] */

/* The child's state (one per process, after the fork). */
static struct {
	unsigned index;
	uint64_t seed;
	unsigned long rounds;
	unsigned long die_at;              /* the first thread's step at which the child
	                                      kills itself (0: never) */
	int verbose;
	long pid;
	char dir[48];                      /* /tmp/fuzz.<pid> */
	uint8_t *arena;                    /* ARENA_PAGES pages */
	volatile uint32_t handles[HANDLES];
	volatile uint32_t mine[MINE];      /* handles of ICAs we were given: freed when short */
	volatile uint32_t calling[2];      /* the control ICA a thread is calling with now */
	volatile int fds[FDS];
	struct fuzzer thr[2];
	struct myrmex_thread thread;
	volatile int thread_done;
	char (*paths)[PATH_SLOT];          /* the path pool's own strings: a page of its
	                                      own, which calls handed a pointer into
	                                      it may overwrite (nothing else of ours) */
	unsigned npaths;
} C;

static char long_path[5000];          /* longer than FS_PATH_MAX, no NUL inside */
static char long_name[300];           /* a name longer than 255 bytes */

/* Read-only data and text the kernel must never write. */
static const char ro_text[] = "a read-only string of the fuzzer";

/* ------------------------------------------------------------ output */

/* One line on fd with one write; the log descriptor is opened again when
 * a random call closed it. */
__attribute__((format(printf, 2, 3)))
static void line_to(int fd, const char *fmt, ...)
{
	char line[600];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	size_t len = strlen(line);
	line[len++] = '\n';
	long r = raw3(SYS_write, fd, (long)line, (long)len);
	if (r < 0 && fd == LOG_FD) {
		long c = raw3(SYS_open, (long)"/dev/console", O_WRONLY, 0);
		if (c >= 0 && c != LOG_FD) {
			raw2(SYS_dup2, c, LOG_FD);
			raw1(SYS_close, c);
		}
		raw3(SYS_write, fd, (long)line, (long)len);
	}
}

#define say(...) line_to(1, __VA_ARGS__)
#define vlog(...) do { if (C.verbose) line_to(LOG_FD, __VA_ARGS__); } while (0)

/* ------------------------------------------------------------ signals */

struct k_sigaction {
	void (*handler)(int, siginfo_t *, void *);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

#define K_SA_SIGINFO  0x00000004ul
#define K_SA_RESTORER 0x04000000ul

void fuzz_restorer(void);
__asm__(".text\n"
        ".type fuzz_restorer, @function\n"
        "fuzz_restorer:\n"
        "\tmovq $15, %rax\n"
        "\tsyscall\n"
        "\thlt\n");

static struct fuzzer *current_fuzzer(void)
{
	long tid = raw0(SYS_gettid);
	for (int i = 0; i < 2; i++)
		if (C.thr[i].tid == tid)
			return &C.thr[i];
	return NULL;
}

static int is_fault_signal(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE || sig == SIGTRAP;
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	if (sig == SIGALRM) {
		/* Interrupt the other thread too, when it waits in a call. */
		long tid = raw0(SYS_gettid);
		for (int i = 0; i < 2; i++)
			if (C.thr[i].tid && C.thr[i].tid != tid && C.thr[i].in_call)
				raw3(SYS_tgkill, C.pid, C.thr[i].tid, SIGUSR1);
		return;
	}
	if (!is_fault_signal(sig) || si->si_code <= 0)
		return;   /* sent by a random kill: nothing to do */
	struct fuzzer *f = current_fuzzer();
	if (f && f->armed) {
		f->armed = 0;
		siglongjmp(f->jump, 1);
	}
	const ucontext_t *u = uc;
	line_to(LOG_FD, "t_fuzz: child %u: unexpected signal %d (code %d) at %p, rip %#llx rsp %#llx "
	        "(thread %d, step %lu)", C.index, sig, si->si_code, si->si_addr,
	        (unsigned long long)u->uc_mcontext.gregs[REG_RIP],
	        (unsigned long long)u->uc_mcontext.gregs[REG_RSP], f ? (int)f->index : -1,
	        f ? f->step : 0);
	raw1(SYS_exit_group, FUZZ_EXIT_FAULT);
}

static void install_handler(int sig)
{
	if (sig < 1 || sig > 64 || sig == SIGKILL || sig == SIGSTOP)
		return;
	struct k_sigaction a = { on_signal, K_SA_SIGINFO | K_SA_RESTORER, fuzz_restorer, 0 };
	raw4(SYS_rt_sigaction, sig, (long)&a, 0, 8);
}

static void install_all_handlers(void)
{
	for (int sig = 1; sig <= 64; sig++)
		install_handler(sig);
}

static void unblock_all(void)
{
	uint64_t none = 0;
	raw4(SYS_rt_sigprocmask, SIG_SETMASK, (long)&none, 0, 8);
}

static void arm_timer(long usec)
{
	struct { long interval_s, interval_us, value_s, value_us; } it = { 0, usec, 0, usec };
	raw3(SYS_setitimer, 0 /* ITIMER_REAL */, (long)&it, 0);
}

/* A guarded store: body runs, and a fault in it comes back here. */
#define GUARDED(f, body) do {                                      \
		if (sigsetjmp((f)->jump, 1) == 0) {                \
			(f)->armed = 1;                            \
			body;                                      \
			(f)->armed = 0;                            \
		} else {                                           \
			(f)->faults++;                             \
		}                                                  \
	} while (0)

/* ------------------------------------------------------------ pools */

static void add_handle(struct fuzzer *f, uint64_t h)
{
	if (h == 0 || h > 0xffffffffull)
		return;
	for (int i = 0; i < HANDLES; i++)
		if (C.handles[i] == (uint32_t)h)
			return;
	for (int i = 0; i < HANDLES; i++)
		if (C.handles[i] == 0) {
			C.handles[i] = (uint32_t)h;
			return;
		}
	C.handles[below(&f->rng, HANDLES)] = (uint32_t)h;
}

static void drop_handle(uint32_t h)
{
	for (int i = 0; i < HANDLES; i++)
		if (C.handles[i] == h)
			C.handles[i] = 0;
	for (int i = 0; i < MINE; i++)
		if (C.mine[i] == h)
			C.mine[i] = 0;
}

/* An ICA that was ours at some point (allocated, or delivered to us). */
static void add_mine(struct fuzzer *f, uint64_t h)
{
	if (h == 0 || h > 0xffffffffull)
		return;
	add_handle(f, h);
	for (int i = 0; i < MINE; i++)
		if (C.mine[i] == (uint32_t)h)
			return;
	for (int i = 0; i < MINE; i++)
		if (C.mine[i] == 0) {
			C.mine[i] = (uint32_t)h;
			return;
		}
}

/* At the ICA limit: free what of ours is idle, so that the calls go on. */
static void reclaim(struct fuzzer *f)
{
	unsigned freed = 0;
	for (int i = 0; i < MINE; i++) {
		uint32_t h = C.mine[i];
		if (h && raw1(MYRMEX_SYS_ICA_FREE, h) == 0) {
			drop_handle(h);
			freed++;
		}
	}
	vlog("fz c%u.t%u #%lu reclaim: %u freed", C.index, f->index, f->step, freed);
}

/* A handle: harvested, or made up (a random slot and generation, or
 * anything). */
static uint32_t pick_handle(struct fuzzer *f)
{
	if (chance(&f->rng, 8, 10)) {
		for (int tries = 0; tries < 8; tries++) {
			uint32_t h = C.handles[below(&f->rng, HANDLES)];
			if (h)
				return h;
		}
	}
	switch (below(&f->rng, 4)) {
	case 0: return (uint32_t)below(&f->rng, MYRMEX_ICA_SLOTS) |
	               (uint32_t)(1 + below(&f->rng, 8)) << MYRMEX_ICA_GEN_SHIFT;
	case 1: return (uint32_t)below(&f->rng, MYRMEX_ICA_SLOTS);   /* generation 0 */
	case 2: return 0;
	default: return (uint32_t)rnd(&f->rng);
	}
}

static void add_fd(struct fuzzer *f, long fd)
{
	if (fd < 0 || fd >= (long)FS_MAX_FDS || fd == LOG_FD)
		return;
	for (int i = 0; i < FDS; i++)
		if (C.fds[i] == fd)
			return;
	for (int i = 0; i < FDS; i++)
		if (C.fds[i] < 0) {
			C.fds[i] = (int)fd;
			return;
		}
	C.fds[below(&f->rng, FDS)] = (int)fd;
}

static const int64_t odd_ints[] = {
	0, 1, -1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 100, 127, 128, 255, 256, 511, 512,
	1000, 1023, 1024, 4095, 4096, 4097, 65535, 65536, 0x7fffffff, 0x80000000ll,
	0xffffffffll, 0x100000000ll, 1ll << 40, INT64_MAX, INT64_MIN, -100, -4095, -4096,
	0xffffffff80000000ll,
};

static uint64_t odd_int(struct fuzzer *f)
{
	return (uint64_t)odd_ints[below(&f->rng, sizeof odd_ints / sizeof odd_ints[0])];
}

/* An address the kernel must refuse to read or write for us. */
static uint64_t hostile_address(struct fuzzer *f)
{
	switch (below(&f->rng, 10)) {
	case 0: return KERNEL_ADDR + below(&f->rng, 1ull << 30);
	case 1: return KERNEL_TEXT + below(&f->rng, 1ull << 24);
	case 2: return USER_TOP - below(&f->rng, 16) * 8;           /* straddles the top */
	case 3: return USER_TOP + below(&f->rng, 1ull << 40);       /* non-canonical */
	case 4: return 0x8000000000000000ull | rnd(&f->rng);         /* non-canonical */
	case 5: return below(&f->rng, LOW_END);                      /* unmapped, 0 too */
	case 6: return MYRMEX_ICA_WINDOW + below(&f->rng, MYRMEX_ICA_WINDOW_SIZE);
	case 7: return (uint64_t)(uintptr_t)myrmex_ica_addr(pick_handle(f)) +
	               below(&f->rng, 2 * PAGE);
	case 8: return (uint64_t)(uintptr_t)ro_text + below(&f->rng, sizeof ro_text);
	default: return (uint64_t)(uintptr_t)&install_handler;      /* text */
	}
}

/* An address the kernel cannot read at all (a mask read from our text
 * could block the timer's signals for good). */
static uint64_t unreadable_address(struct fuzzer *f)
{
	switch (below(&f->rng, 4)) {
	case 0: return KERNEL_ADDR + below(&f->rng, 1ull << 30);
	case 1: return USER_TOP + below(&f->rng, 1ull << 40);
	case 2: return 1 + below(&f->rng, LOW_END - 1);
	default: return MYRMEX_ICA_WINDOW + MYRMEX_ICA_WINDOW_SIZE - 8;   /* no ICA so high */
	}
}

static uint64_t scratch_ptr(struct fuzzer *f)
{
	uint64_t off = below(&f->rng, SCRATCH_SIZE);
	if (chance(&f->rng, 1, 2))
		off &= ~7ull;
	if (chance(&f->rng, 1, 8))
		off = SCRATCH_SIZE - below(&f->rng, 64);   /* a length runs into the guard */
	return (uint64_t)(uintptr_t)f->scratch + off;
}

/* A buffer argument: mostly the thread's scratch, sometimes hostile. */
static uint64_t buffer_arg(struct fuzzer *f)
{
	if (chance(&f->rng, 1, 40))
		return 0;
	return chance(&f->rng, 17, 20) ? scratch_ptr(f) : hostile_address(f);
}

static uint64_t length_arg(struct fuzzer *f)
{
	switch (below(&f->rng, 12)) {
	case 0: return 0;
	case 1: case 2: case 3: return 1 + below(&f->rng, 64);
	case 4: case 5: return 1 + below(&f->rng, 1024);
	case 6: return PAGE;
	case 7: return SCRATCH_SIZE / 2 + below(&f->rng, SCRATCH_SIZE);   /* maybe too long */
	case 8: return 65536;
	case 9: return 1ull << (20 + below(&f->rng, 44));                 /* huge */
	case 10: return (uint64_t)-1 - below(&f->rng, 4);
	default: return odd_int(f);
	}
}

static uint64_t fd_arg(struct fuzzer *f)
{
	uint64_t fd;
	if (chance(&f->rng, 7, 10)) {
		fd = (uint64_t)-1;
		for (int tries = 0; tries < 8 && (int64_t)fd < 0; tries++)
			fd = (uint64_t)(int64_t)C.fds[below(&f->rng, FDS)];
		if ((int64_t)fd >= 0)
			return fd;
	}
	static const int64_t odd_fds[] = { -1, -100, 0, 1, 2, 3, 4, 62, 64, 65, 1000,
	                                   0x7fffffff, 1ll << 32, -2 };
	fd = (uint64_t)odd_fds[below(&f->rng, sizeof odd_fds / sizeof odd_fds[0])];
	return fd == LOG_FD ? LOG_FD - 1 : fd;
}

static uint64_t int_arg(struct fuzzer *f)
{
	switch (below(&f->rng, 6)) {
	case 0: return 0;
	case 1: return below(&f->rng, 16);
	case 2: return 1ull << below(&f->rng, 32);
	case 3: return (uint32_t)rnd(&f->rng);
	case 4: return rnd(&f->rng) & rnd(&f->rng) & 0xffffffffull;   /* few bits */
	default: return odd_int(f);
	}
}

/* A signal number for a signal sent to the child itself: never SIGKILL. */
static uint64_t signal_arg(struct fuzzer *f)
{
	if (chance(&f->rng, 1, 10))
		return odd_int(f) == SIGKILL ? 0 : (uint64_t)odd_int(f);
	uint64_t sig = below(&f->rng, 65);
	return sig == SIGKILL ? SIGUSR2 : sig;
}

static uint64_t own_tid(struct fuzzer *f)
{
	int tid = C.thr[below(&f->rng, 2)].tid;
	return tid > 0 ? (uint64_t)tid : (uint64_t)C.pid;
}

/* The pool of paths: the child's directory and names in it (absolute and
 * relative), the special files, empty and overlong paths, hostile
 * pointers, and the thread's scratch (its first byte never '/'). */
static uint64_t path_arg(struct fuzzer *f)
{
	unsigned k = (unsigned)below(&f->rng, 40);
	if (k < 28 && C.npaths)
		return (uint64_t)(uintptr_t)C.paths[k % C.npaths];
	switch (k) {
	case 28: return (uint64_t)(uintptr_t)"/dev/null";
	case 29: return (uint64_t)(uintptr_t)(chance(&f->rng, 1, 4) ? "/dev/console" : "/dev/nothing");
	case 30: return (uint64_t)(uintptr_t)"";
	case 31: return (uint64_t)(uintptr_t)long_path;
	case 32: return (uint64_t)(uintptr_t)long_name;
	case 33: return (uint64_t)(uintptr_t)".";
	case 34: return (uint64_t)(uintptr_t)"..";
	case 35: case 36: return hostile_address(f);
	default: {
		uint64_t p = scratch_ptr(f);
		if (p < (uint64_t)(uintptr_t)f->scratch + SCRATCH_SIZE &&
		    *(volatile uint8_t *)(uintptr_t)p == '/')
			*(volatile uint8_t *)(uintptr_t)p = 'x';
		return p;
	}
	}
}

/* A path for execve: never one of a file that exists. */
static uint64_t exec_path_arg(struct fuzzer *f)
{
	switch (below(&f->rng, 5)) {
	case 0: return (uint64_t)(uintptr_t)"";
	case 1: return (uint64_t)(uintptr_t)"/nonexistent/program";
	case 2: return (uint64_t)(uintptr_t)long_path;
	case 3: return (uint64_t)(uintptr_t)C.paths[0];   /* the child's directory */
	default: return hostile_address(f);
	}
}

/* An address range for a memory call that cannot reach the fuzzer's own
 * memory: [*addr, *addr + *len). */
static void range_arg(struct fuzzer *f, uint64_t *addr, uint64_t *len)
{
	uint64_t a, end;
	switch (below(&f->rng, 10)) {
	case 0: case 1: case 2: case 3: {
		uint64_t base = (uint64_t)(uintptr_t)C.arena;
		a = base + below(&f->rng, ARENA_PAGES) * PAGE;
		if (chance(&f->rng, 1, 10))
			a += 1 + below(&f->rng, PAGE - 1);
		end = base + ARENA_PAGES * PAGE;
		break;
	}
	case 4: case 5:
		a = MYRMEX_ICA_WINDOW + below(&f->rng, MYRMEX_ICA_WINDOW_SIZE / PAGE) * PAGE;
		if (chance(&f->rng, 1, 2))
			a = (uint64_t)(uintptr_t)myrmex_ica_addr(pick_handle(f));
		end = MYRMEX_ICA_WINDOW + MYRMEX_ICA_WINDOW_SIZE;
		break;
	case 6:
		a = MYRMEX_DEVICE_WINDOW + below(&f->rng, 64) * PAGE;
		end = MYRMEX_DEVICE_WINDOW + MYRMEX_DEVICE_BAR_SPAN;
		break;
	case 7:
		a = below(&f->rng, LOW_END / PAGE) * PAGE;
		end = LOW_END;
		break;
	case 8:
		a = KERNEL_ADDR + below(&f->rng, 1ull << 20) * PAGE;
		end = 0;
		break;
	default:
		a = chance(&f->rng, 1, 2) ? USER_TOP - PAGE : (USER_TOP | rnd(&f->rng)) & ~(PAGE - 1);
		end = 0;
		break;
	}
	uint64_t l;
	switch (below(&f->rng, 6)) {
	case 0: l = 0; break;
	case 1: l = PAGE; break;
	case 2: l = (1 + below(&f->rng, 8)) * PAGE; break;
	case 3: l = 1 + below(&f->rng, 3 * PAGE); break;
	case 4: l = (uint64_t)-1 - below(&f->rng, PAGE); break;
	default: l = 1ull << below(&f->rng, 48); break;
	}
	if (end && (a >= end || l > end - a))
		l = a < end ? end - a : 0;
	*addr = a;
	*len = l;
}

/* A signal mask that lets SIGALRM and SIGUSR1 through (calls that wait
 * with a mask of their own), in the thread's cooked page; or one the
 * kernel cannot read. */
static uint64_t mask_arg(struct fuzzer *f, unsigned slot)
{
	if (chance(&f->rng, 1, 8))
		return chance(&f->rng, 1, 2) ? 0 : unreadable_address(f);
	uint64_t *m = (uint64_t *)(void *)(f->cooked + 64 + slot * 16);
	*m = rnd(&f->rng) & ~(SIGALRM_BIT | SIGUSR1_BIT);
	return (uint64_t)(uintptr_t)m;
}

/* A timespec (or timeval) for a wait: short, long (the timer ends it),
 * malformed, or hostile. */
static uint64_t time_arg(struct fuzzer *f, unsigned slot)
{
	int64_t *t = (int64_t *)(void *)(f->cooked + 128 + slot * 16);
	switch (below(&f->rng, 7)) {
	case 0: return 0;
	case 1: t[0] = 0; t[1] = (int64_t)below(&f->rng, 2000000); break;
	case 2: t[0] = (int64_t)below(&f->rng, 3600); t[1] = 0; break;
	case 3: t[0] = -1; t[1] = 0; break;
	case 4: t[0] = 0; t[1] = 1000000000 + (int64_t)below(&f->rng, 10); break;
	case 5: return hostile_address(f);
	default: return scratch_ptr(f);
	}
	return (uint64_t)(uintptr_t)t;
}

/* An iovec array built in the cooked page (its entries point into the
 * scratch or are hostile): the kernel reads it, never our own memory. */
static uint64_t iovec_arg(struct fuzzer *f)
{
	if (chance(&f->rng, 1, 10))
		return chance(&f->rng, 1, 2) ? hostile_address(f) : scratch_ptr(f);
	uint64_t *v = (uint64_t *)(void *)(f->cooked + 512);
	for (int i = 0; i < 16; i++) {
		v[2 * i] = buffer_arg(f);
		v[2 * i + 1] = chance(&f->rng, 3, 4) ? below(&f->rng, 512) : length_arg(f);
	}
	return (uint64_t)(uintptr_t)v;
}

/* pselect6's sixth argument: { mask pointer, its size }. */
static uint64_t pselect_mask_arg(struct fuzzer *f)
{
	if (chance(&f->rng, 1, 6))
		return chance(&f->rng, 1, 2) ? 0 : unreadable_address(f);
	uint64_t *p = (uint64_t *)(void *)(f->cooked + 256);
	p[0] = mask_arg(f, 3);
	p[1] = chance(&f->rng, 7, 8) ? 8 : int_arg(f);
	return (uint64_t)(uintptr_t)p;
}

static uint64_t any_arg(struct fuzzer *f)
{
	switch (below(&f->rng, 16)) {
	case 0: return below(&f->rng, 17);
	case 1: case 2: return odd_int(f);
	case 3: return rnd(&f->rng);
	case 4: return (uint32_t)rnd(&f->rng);
	case 5: case 6: return hostile_address(f);
	case 7: case 8: return scratch_ptr(f);
	case 9: return fd_arg(f);
	case 10: return pick_handle(f);
	case 11: return chance(&f->rng, 1, 2) ? (uint64_t)C.pid : own_tid(f);
	case 12: return (uint64_t)(uintptr_t)C.paths[below(&f->rng, C.npaths ? C.npaths : 1)];
	case 13: return (uint64_t)-(int64_t)(1 + below(&f->rng, 16));
	case 14: return (1 + below(&f->rng, 16)) * PAGE;
	default: return 1ull << below(&f->rng, 64);
	}
}

/* ------------------------------------------------------------ Linux calls */

/*
 * The argument types of the calls the fuzzer knows (x86-64 numbers); a
 * call not listed gets any argument at all ('X'). Types:
 *   F descriptor   P path         E exec path    B buffer      L length
 *   I int/flags    S signal       K own pid      T own tid     X anything
 *   R address range (this and the next argument: address, length)
 *   V iovec array  M signal mask  Z timespec/timeval           Q pselect6 mask
 *   C clock id     A an address a memory call may change (as R's)
 *   -  denied (never made)
 */
static const char *const signatures[NR_LINUX_MAX + 1] = {
	[0] = "FBL", [1] = "FBL", [2] = "PII", [3] = "F", [4] = "PB", [5] = "FB", [6] = "PB",
	[7] = "BIZ", [8] = "FXI", [9] = "R.IIFX", [10] = "R.I", [11] = "R.", [12] = "X",
	[13] = "SBBI", [14] = "IBBI", [15] = "-", [16] = "FIB", [17] = "FBLX", [18] = "FBLX",
	[19] = "FVI", [20] = "FVI", [21] = "PI", [22] = "B", [23] = "IBBBZ", [24] = "",
	[25] = "R.LIA", [26] = "R.I", [27] = "R.B", [28] = "R.I", [32] = "F", [33] = "FF",
	[34] = "", [35] = "ZB", [36] = "IB", [37] = "I", [38] = "IBB", [39] = "",
	[40] = "FFBL", [47] = "FXI", [56] = "-", [57] = "-", [58] = "-", [59] = "EBB",
	[60] = "-", [61] = "XBIB", [62] = "KS", [63] = "B", [72] = "FIX", [73] = "FI",
	[74] = "F", [75] = "F", [76] = "PX", [77] = "FX", [78] = "FBL", [79] = "BL",
	[80] = "P", [81] = "F", [82] = "PP", [83] = "PI", [84] = "P", [85] = "PI",
	[86] = "PP", [87] = "P", [88] = "PP", [89] = "PBL", [90] = "PI", [91] = "FI",
	[92] = "PII", [93] = "FII", [94] = "PII", [95] = "I", [96] = "BB", [97] = "IB",
	[98] = "IB", [99] = "B", [100] = "B", [101] = "IKXX", [109] = "KX", [121] = "K",
	[124] = "K", [127] = "BI", [128] = "BBZI", [129] = "KSB", [130] = "MI", [131] = "BB",
	[132] = "PB", [133] = "PII", [137] = "PB", [138] = "FB", [140] = "IK", [141] = "IKI",
	[142] = "KB", [143] = "KB", [144] = "KIB", [145] = "K", [148] = "KB",
	[149] = "R.", [150] = "R.", [155] = "PP", [157] = "IXXXX", [158] = "IX",
	[160] = "IB", [161] = "P", [163] = "P", [164] = "-", [165] = "PPPIB", [166] = "PI", [167] = "PI",
	[168] = "P", [169] = "-", [186] = "", [187] = "FXL", [188] = "PPBLI", [191] = "PPBL",
	[200] = "TS", [201] = "B", [202] = "BIXZBX", [203] = "KLB", [204] = "KLB",
	[217] = "FBL", [218] = "B", [221] = "FXXI", [227] = "-", [228] = "CB", [229] = "CB",
	[230] = "CIZB", [231] = "-", [234] = "KTS", [235] = "PB", [246] = "-", [247] = "IXBIB",
	[253] = "FPI", [257] = "FPII", [258] = "FPI", [259] = "FPII", [260] = "FPIII",
	[261] = "FPB", [262] = "FPBI", [263] = "FPI", [264] = "FPFP", [265] = "FPFPI",
	[266] = "PFP", [267] = "FPBL", [268] = "FPI", [269] = "FPI", [270] = "IBBBZQ",
	[271] = "BIZMI", [273] = "BL", [274] = "KBB", [275] = "FXFXLI", [278] = "FVII",
	[280] = "FPBI", [281] = "FBIIMI", [282] = "FMI", [285] = "FIXX", [289] = "FMII",
	[292] = "FFI", [293] = "BI", [295] = "FVIX", [296] = "FVIX", [297] = "KTSB",
	[302] = "KIBB", [303] = "FPBBI", [306] = "F", [310] = "KVIVII", [311] = "KVIVII",
	[316] = "FPFPI", [317] = "-", [318] = "BLI", [319] = "PI", [320] = "-",
	[322] = "FEBBI", [326] = "FBFBLI", [327] = "FVIXXI", [328] = "FVIXXI",
	[329] = "R.II", [332] = "FPIIB", [424] = "-", [434] = "KI", [435] = "-",
	[436] = "FFI", [437] = "FPBL", [439] = "FPII",
};

/* The numbers the kernel serves (kernel/arch/x86_64/posix/syscall_table.c),
 * drawn more often than the rest of the range. */
static const uint16_t served[] = {
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22, 23, 24,
	26, 28, 32, 33, 34, 35, 36, 37, 38, 39, 40, 59, 61, 62, 63, 72, 74, 75, 77, 79, 80,
	81, 82, 83, 84, 85, 87, 89, 95, 96, 97, 99, 102, 104, 105, 106, 107, 108, 109, 110,
	111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 124, 127, 130, 131, 137, 138,
	158, 160, 186, 200, 201, 202, 204, 217, 218, 228, 229, 230, 234, 257, 258, 262, 263,
	264, 267, 269, 270, 271, 273, 292, 293, 302, 316, 318, 439,
};

/* The file calls, which go to the file manager: drawn more often again. */
static const uint16_t file_calls[] = {
	0, 1, 2, 3, 4, 5, 8, 16, 17, 18, 19, 20, 21, 22, 32, 33, 40, 72, 77, 79, 80, 81, 82,
	83, 84, 85, 87, 89, 137, 138, 217, 257, 258, 262, 263, 264, 267, 269, 292, 293, 316,
};

static int denied(long nr)
{
	const char *sig = nr >= 0 && nr <= NR_LINUX_MAX ? signatures[nr] : NULL;
	return sig && sig[0] == '-';
}

static long pick_linux_nr(struct fuzzer *f)
{
	for (int tries = 0; tries < 16; tries++) {
		long nr;
		unsigned k = (unsigned)below(&f->rng, 20);
		if (k < 9)
			nr = served[below(&f->rng, sizeof served / sizeof served[0])];
		else if (k < 15)
			nr = file_calls[below(&f->rng, sizeof file_calls / sizeof file_calls[0])];
		else
			nr = (long)below(&f->rng, NR_LINUX_MAX + 1);
		if (!denied(nr))
			return nr;
	}
	return SYS_getpid;
}

/* The arguments of call nr, by its signature; then what its kind needs. */
static void make_args(struct fuzzer *f, long nr, uint64_t a[6])
{
	const char *sig = nr <= NR_LINUX_MAX ? signatures[nr] : NULL;
	size_t known = sig ? strlen(sig) : 0;
	unsigned mask_slot = 0, time_slot = 0;
	for (int i = 0; i < 6; i++) {
		/* A call not listed: anything; a listed one's unused words: 0 or anything. */
		char t = !sig ? 'X' : (size_t)i < known ? sig[i] : chance(&f->rng, 1, 2) ? 'U' : 'X';
		switch (t) {
		case 'F': a[i] = fd_arg(f); break;
		case 'P': a[i] = path_arg(f); break;
		case 'E': a[i] = exec_path_arg(f); break;
		case 'B': a[i] = buffer_arg(f); break;
		case 'L': a[i] = length_arg(f); break;
		case 'I': a[i] = int_arg(f); break;
		case 'S': a[i] = signal_arg(f); break;
		case 'K': a[i] = (uint64_t)C.pid; break;
		case 'T': a[i] = own_tid(f); break;
		case 'R': range_arg(f, &a[i], &a[i + 1]); break;
		case '.': break;   /* the length of the range before */
		case 'V': a[i] = iovec_arg(f); break;
		case 'M': a[i] = mask_arg(f, mask_slot++); break;
		case 'Z': a[i] = time_arg(f, time_slot++); break;
		case 'Q': a[i] = pselect_mask_arg(f); break;
		case 'C': a[i] = chance(&f->rng, 4, 5) ? below(&f->rng, 12) : int_arg(f); break;
		case 'A': {
			uint64_t unused;
			range_arg(f, &a[i], &unused);
			break;
		}
		case 'U': a[i] = 0; break;
		default: a[i] = any_arg(f); break;
		}
	}
	/* What some calls need on top of their types. */
	switch (nr) {
	case 9:   /* mmap: MAP_FIXED only with the safe range drawn above */
		if (chance(&f->rng, 1, 2))
			a[3] = (a[3] & ~0xfffull) | (uint64_t)(chance(&f->rng, 1, 2) ? 0x22 : 0x01) |
			       (chance(&f->rng, 1, 3) ? 0x10 : 0);
		break;
	case 13: case 14: case 130:
		if (chance(&f->rng, 7, 8))
			a[nr == 130 ? 1 : 3] = 8;   /* the sigset size, usually right */
		break;
	case 16:   /* ioctl: the console's requests, the descriptor ones, anything */
		if (chance(&f->rng, 3, 4)) {
			static const uint32_t reqs[] = { 0x5401, 0x5402, 0x5403, 0x5404, 0x540a,
				0x540b, 0x540e, 0x540f, 0x5410, 0x5413, 0x5414, 0x541b, 0x5422,
				0x5421, 0x5450, 0x5451, 0x5429 };
			a[1] = reqs[below(&f->rng, sizeof reqs / sizeof reqs[0])];
		}
		break;
	case 72:   /* fcntl: the commands the file manager knows, mostly */
		if (chance(&f->rng, 3, 4))
			a[1] = chance(&f->rng, 4, 5) ? below(&f->rng, 12) : 1024 + below(&f->rng, 16);
		if (a[1] == 0 || a[1] == 1030)
			a[2] = below(&f->rng, 70);
		break;
	case 62: case 200: case 234: case 129: case 297:
		break;   /* K, T, S: the child itself, never SIGKILL */
	case 157:   /* prctl: never PR_SET_SECCOMP */
		if (a[0] == 22)
			a[0] = 21;
		break;
	case 158:   /* arch_prctl: its codes, mostly */
		if (chance(&f->rng, 3, 4))
			a[0] = 0x1001 + below(&f->rng, 4);
		break;
	case 202:   /* futex: an aligned word of the scratch, its own operations */
		if (chance(&f->rng, 3, 4))
			a[0] = (uint64_t)(uintptr_t)f->scratch + below(&f->rng, SCRATCH_SIZE / 4) * 4;
		if (chance(&f->rng, 3, 4))
			a[1] = below(&f->rng, 14) | (chance(&f->rng, 1, 2) ? 128 : 0);
		if (chance(&f->rng, 1, 2))
			a[2] = 0;
		break;
	case 7:   /* poll: a few entries, a short or endless timeout */
		a[1] = chance(&f->rng, 4, 5) ? below(&f->rng, 8) : a[1];
		a[2] = chance(&f->rng, 1, 2) ? (uint64_t)-1 : below(&f->rng, 30);
		break;
	default:
		break;
	}
}

/* Puts back what call nr may have changed in the fuzzer's own state. */
static void after_call(struct fuzzer *f, long nr, const uint64_t a[6], long r)
{
	switch (nr) {
	case 13:
		install_handler((int)a[0]);
		break;
	case 14:
		unblock_all();
		break;
	case 131: {
		struct { uint64_t sp; int32_t flags; int32_t pad; uint64_t size; } off = { 0, 2, 0, 0 };
		raw2(SYS_sigaltstack, (long)&off, 0);
		break;
	}
	case 218:
		if (f->index == 1)
			raw1(SYS_set_tid_address, (long)&C.thread.tid);
		break;
	case 37: case 38:
		arm_timer(FUZZ_TICK_US);
		break;
	case 80: case 81: {
		/* The current directory stays in the child's own tree (".." of
		 * it is /tmp, and relative names would land there). */
		char cwd[64];
		long n = raw2(SYS_getcwd, (long)cwd, sizeof cwd);
		size_t len = strlen(C.dir);
		if (r == 0 && (n < 0 || strncmp(cwd, C.dir, len) || (cwd[len] && cwd[len] != '/')))
			raw1(SYS_chdir, (long)C.dir);
		break;
	}
	case 2: case 85: case 257: case 32: case 33: case 292: case 72:
		if (r >= 0)
			add_fd(f, r);
		break;
	case 22: case 293:
		if (r == 0 && a[0] >= (uint64_t)(uintptr_t)f->scratch &&
		    a[0] + 8 <= (uint64_t)(uintptr_t)f->scratch + SCRATCH_SIZE) {
			int32_t pair[2];
			memcpy(pair, (void *)(uintptr_t)a[0], sizeof pair);
			add_fd(f, pair[0]);
			add_fd(f, pair[1]);
		}
		break;
	default:
		break;
	}
}

static long do_call(struct fuzzer *f, long nr, const uint64_t a[6])
{
	struct progress *pr = shared_progress ? &shared_progress[C.index][f->index] : NULL;
	if (pr) {
		pr->step = f->step;
		pr->nr = (uint64_t)nr;
		for (int i = 0; i < 6; i++)
			pr->args[i] = a[i];
		pr->in_call = 1;
	}
	f->in_call = 1;
	long r = myrmex_syscall6(nr, (long)a[0], (long)a[1], (long)a[2], (long)a[3], (long)a[4],
	                         (long)a[5]);
	f->in_call = 0;
	if (pr)
		pr->in_call = 0;
	/* The FS base first: the stack protector reads its canary through it. */
	if (nr == SYS_arch_prctl)
		raw2(SYS_arch_prctl, 0x1002 /* ARCH_SET_FS */, (long)f->fs_base);
	if (r < 0 && r > -4096)
		f->fails++;
	return r;
}

static void linux_step(struct fuzzer *f)
{
	long nr = pick_linux_nr(f);
	uint64_t a[6];
	make_args(f, nr, a);
	vlog("fz c%u.t%u #%lu sys %ld (%#llx, %#llx, %#llx, %#llx, %#llx, %#llx)", C.index,
	     f->index, f->step, nr, (unsigned long long)a[0], (unsigned long long)a[1],
	     (unsigned long long)a[2], (unsigned long long)a[3], (unsigned long long)a[4],
	     (unsigned long long)a[5]);
	/* A random handler must never run: signals wait while rt_sigaction
	 * installs one, until ours is back (else the timer's next signal
	 * jumps to a random address). */
	if (nr == SYS_rt_sigaction) {
		uint64_t all = ~0ull;
		raw4(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, 0, 8);
	}
	long r = do_call(f, nr, a);
	after_call(f, nr, a, r);
	if (nr == SYS_rt_sigaction)
		unblock_all();
	vlog("fz c%u.t%u #%lu = %ld", C.index, f->index, f->step, r);
}

/* ------------------------------------------------------------ native calls */

/* A target coreid: the real servers more often. */
static uint32_t pick_target(struct fuzzer *f)
{
	switch (below(&f->rng, 20)) {
	case 0: case 1: case 2: case 3: case 4: case 5: return MYRMEX_COREID_FS;
	case 6: case 7: return MYRMEX_COREID_CONSOLE;
	case 8: case 9: return MYRMEX_COREID_TIME;
	case 10: return MYRMEX_COREID_PM;
	case 11: return MYRMEX_COREID_DISK;
	case 12: case 13: case 14: return (uint32_t)below(&f->rng, 256);
	case 15: return (uint32_t)rnd(&f->rng);
	default: return 2 + (uint32_t)below(&f->rng, 5);
	}
}

/* Writes a path of the pool at the start of ICA h (a path for a file
 * request), or words of anything. Guarded. */
static void fill_data(struct fuzzer *f, uint32_t h)
{
	volatile uint8_t *p = myrmex_ica_addr(h);
	const char *path = C.paths[below(&f->rng, C.npaths)];
	size_t path_len = strnlen(path, PATH_SLOT - 1);   /* calls may have written there */
	int use_path = chance(&f->rng, 3, 4);
	uint64_t words[8];
	for (int i = 0; i < 8; i++)
		words[i] = any_arg(f);
	GUARDED(f, {
		if (use_path) {
			for (size_t i = 0; i < path_len; i++)
				p[i] = (uint8_t)path[i];
			p[path_len] = 0;
		} else {
			for (int i = 0; i < 8; i++)
				((volatile uint64_t *)p)[i] = words[i];
		}
	});
}

static long native(struct fuzzer *f, long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                   uint64_t a4);

/* The opcodes of each real server (one past the last, for a refusal too). */
static uint32_t server_opcode(struct fuzzer *f, uint32_t target)
{
	switch (target) {
	case MYRMEX_COREID_FS: return 1 + (uint32_t)below(&f->rng, FS_SYNCMAP + 1);
	case MYRMEX_COREID_CONSOLE: return 1 + (uint32_t)below(&f->rng, CONSOLE_CANCEL + 1);
	case MYRMEX_COREID_TIME: return 1 + (uint32_t)below(&f->rng, TIME_STATS + 1);
	case MYRMEX_COREID_PM: return 1 + (uint32_t)below(&f->rng, PM_EXEC + 1);
	case MYRMEX_COREID_DISK: return 1 + (uint32_t)below(&f->rng, DISK_FLUSH + 1);
	default: return (uint32_t)below(&f->rng, 42);
	}
}

/* A data ICA for a well-formed call: a fresh one (a path of the pool or
 * words in it), or a harvested handle. */
static uint32_t data_ica(struct fuzzer *f)
{
	if (chance(&f->rng, 1, 3))
		return pick_handle(f);
	uint32_t pages = chance(&f->rng, 3, 4) ? 1 : 1 + (uint32_t)below(&f->rng, 16);
	long h = native(f, MYRMEX_SYS_ICA_ALLOC, pages, 0, 0, 0, 0);
	if (h == -EAGAIN)
		reclaim(f);
	if (h <= 0)
		return pick_handle(f);
	add_mine(f, (uint64_t)h);
	fill_data(f, (uint32_t)h);
	return (uint32_t)h;
}

/* Writes a control header and a frame into ICA h (guarded: it may not be
 * ours, or not attached). Well-formed: a call a real server takes (magic,
 * one frame at 32, prev 0, a real server's opcode, data ICAs of ours,
 * arguments of the right kinds mostly). Otherwise random prev/currentp/
 * magic/flags, target, opcode, status, data ICAs and arguments. */
static void build_frame(struct fuzzer *f, uint32_t h, int well_formed)
{
	struct myrmex_ctl_header hd = { 0 };
	struct myrmex_frame fr = { 0 };
	if (well_formed) {
		hd.magic = MYRMEX_CTL_MAGIC;
		hd.currentp = 32;
		hd.flags = chance(&f->rng, 1, 6) ? MYRMEX_CTL_DIRECT_RETURN : 0;
		static const uint8_t targets[] = { 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 6, 6, 6, 5, 5, 2, 2 };
		fr.target = targets[below(&f->rng, sizeof targets)];
		fr.opcode = chance(&f->rng, 9, 10) ? server_opcode(f, fr.target) : (uint32_t)any_arg(f);
		unsigned k = (unsigned)below(&f->rng, 10);
		fr.ndata = k < 3 ? 0 : k < 8 ? 1 : 2;
		for (uint32_t i = 0; i < fr.ndata; i++)
			fr.data[i] = data_ica(f);
		fr.arg[0] = fr.target == MYRMEX_COREID_FS && chance(&f->rng, 3, 4) ? fd_arg(f)
		          : chance(&f->rng, 1, 2) ? below(&f->rng, 64) : any_arg(f);
		fr.arg[1] = chance(&f->rng, 3, 4) ? below(&f->rng, 4097) : length_arg(f);
		for (int i = 2; i < 8; i++)
			fr.arg[i] = chance(&f->rng, 1, 2) ? below(&f->rng, 8) : any_arg(f);
		goto write;
	}
	hd.magic = chance(&f->rng, 19, 20) ? MYRMEX_CTL_MAGIC : (uint32_t)rnd(&f->rng);
	switch (below(&f->rng, 10)) {
	case 0: hd.currentp = 32 + 112 * (uint32_t)below(&f->rng, 9); break;
	case 1: hd.currentp = (uint32_t)below(&f->rng, 4096) & ~7u; break;
	case 2: hd.currentp = (uint32_t)rnd(&f->rng); break;
	default: hd.currentp = 32; break;
	}
	switch (below(&f->rng, 8)) {
	case 0: case 1: hd.flags = MYRMEX_CTL_DIRECT_RETURN; break;
	case 2: hd.flags = (uint32_t)rnd(&f->rng); break;
	default: hd.flags = 0; break;
	}
	if (chance(&f->rng, 1, 8)) {
		hd.resultp = (uint32_t)any_arg(f);
		hd.kind = (uint32_t)any_arg(f);
	}
	fr.prev = chance(&f->rng, 7, 8) ? 0 : (chance(&f->rng, 1, 2) ? 32 : (uint32_t)any_arg(f));
	fr.requester = chance(&f->rng, 1, 4) ? (int32_t)any_arg(f) : 0;
	fr.target = pick_target(f);
	fr.opcode = chance(&f->rng, 4, 5) ? (uint32_t)below(&f->rng, 42) : (uint32_t)any_arg(f);
	fr.status = chance(&f->rng, 1, 4) ? (int64_t)any_arg(f) : 0;
	unsigned k = (unsigned)below(&f->rng, 20);
	fr.ndata = k < 7 ? 0 : k < 14 ? 1 : k < 18 ? 2 + (uint32_t)below(&f->rng, 3)
	                                         : (uint32_t)any_arg(f);
	for (int i = 0; i < MYRMEX_FRAME_DATA; i++)
		fr.data[i] = pick_handle(f);
	fr.arg[0] = chance(&f->rng, 1, 2) ? fd_arg(f) : any_arg(f);
	fr.arg[1] = chance(&f->rng, 1, 2) ? length_arg(f) : any_arg(f);
	for (int i = 2; i < 8; i++)
		fr.arg[i] = chance(&f->rng, 1, 3) ? below(&f->rng, 8) : any_arg(f);
	if (fr.ndata >= 1 && fr.ndata <= MYRMEX_FRAME_DATA && chance(&f->rng, 1, 2))
		fill_data(f, fr.data[0]);
write:
	vlog("fz c%u.t%u #%lu frame h=%#x magic=%#x cur=%u flags=%#x prev=%u target=%u op=%u "
	     "ndata=%u data=%#x,%#x,%#x,%#x arg=%#llx,%#llx,%#llx,%#llx", C.index, f->index,
	     f->step, h, hd.magic, hd.currentp, hd.flags, fr.prev, fr.target, fr.opcode, fr.ndata,
	     fr.data[0], fr.data[1], fr.data[2], fr.data[3], (unsigned long long)fr.arg[0],
	     (unsigned long long)fr.arg[1], (unsigned long long)fr.arg[2],
	     (unsigned long long)fr.arg[3]);
	volatile uint8_t *base = myrmex_ica_addr(h);
	uint32_t at = hd.currentp < 4096 - sizeof fr ? hd.currentp : 32;
	if (at < sizeof hd)
		at = 32;
	GUARDED(f, {
		for (size_t i = 0; i < sizeof hd; i++)
			base[i] = ((const uint8_t *)&hd)[i];
		for (size_t i = 0; i < sizeof fr; i++)
			base[at + i] = ((const uint8_t *)&fr)[i];
	});
}

/* Rewrites words of a frame of a harvested ICA (maybe in flight, maybe
 * parked, maybe another's by now). Guarded. */
static void scribble(struct fuzzer *f)
{
	uint32_t h = pick_handle(f);
	volatile uint8_t *base = myrmex_ica_addr(h);
	static const uint16_t spots[] = { 0, 4, 8, 12, 16, 32, 36, 40, 44, 48, 56, 60, 64,
	                                  80, 88, 144, 152, 156, 160 };
	unsigned n = 1 + (unsigned)below(&f->rng, 4);
	uint32_t at[4], val[4];
	for (unsigned i = 0; i < n; i++) {
		at[i] = chance(&f->rng, 4, 5) ? spots[below(&f->rng, sizeof spots / sizeof spots[0])]
		                              : (uint32_t)below(&f->rng, 4092) & ~3u;
		val[i] = (uint32_t)(chance(&f->rng, 1, 2) ? any_arg(f) : pick_handle(f));
	}
	vlog("fz c%u.t%u #%lu scribble h=%#x at %u=%#x (%u stores)", C.index, f->index, f->step,
	     h, at[0], val[0], n);
	GUARDED(f, {
		for (unsigned i = 0; i < n; i++)
			*(volatile uint32_t *)(base + at[i]) = val[i];
	});
}

/* A handle some server may hold: a low slot (servers allocate early, and
 * slots are handed out lowest first) with a small generation. */
static uint32_t server_handle_guess(struct fuzzer *f)
{
	return (uint32_t)below(&f->rng, 256) | (uint32_t)(1 + below(&f->rng, 4)) << MYRMEX_ICA_GEN_SHIFT;
}

/* Rewrites the first frame of the control ICA the other thread is calling
 * with right now, again and again while that call is out: the result's
 * ndata and data[] (a server must return only what it meant to: other
 * ICAs of its own must not travel), its status and arguments, the header's
 * currentp and flags. Guarded; bounded. */
static void scribble_in_flight(struct fuzzer *f)
{
	uint32_t h = C.calling[!f->index];
	if (!h) {
		scribble(f);
		return;
	}
	volatile uint8_t *base = myrmex_ica_addr(h);
	volatile struct myrmex_frame *fr = (volatile struct myrmex_frame *)(base + 32);
	uint32_t ndata = 1 + (uint32_t)below(&f->rng, MYRMEX_FRAME_DATA);
	uint32_t data[MYRMEX_FRAME_DATA];
	for (int i = 0; i < MYRMEX_FRAME_DATA; i++)
		data[i] = chance(&f->rng, 3, 4) ? server_handle_guess(f) : pick_handle(f);
	uint64_t arg = any_arg(f);
	unsigned what = (unsigned)below(&f->rng, 4), rounds = 1 + (unsigned)below(&f->rng, 256);
	vlog("fz c%u.t%u #%lu in-flight h=%#x kind %u ndata %u data=%#x,%#x,%#x,%#x x%u", C.index,
	     f->index, f->step, h, what, ndata, data[0], data[1], data[2], data[3], rounds);
	GUARDED(f, {
		for (unsigned r = 0; r < rounds && C.calling[!f->index] == h; r++) {
			switch (what) {
			case 0:
				fr->ndata = ndata;
				for (int i = 0; i < MYRMEX_FRAME_DATA; i++)
					fr->data[i] = data[i];
				break;
			case 1:
				fr->status = (int64_t)arg;
				fr->arg[r % 8] = arg;
				break;
			case 2:
				((volatile struct myrmex_ctl_header *)base)->flags ^= MYRMEX_CTL_DIRECT_RETURN;
				break;
			default:
				((volatile struct myrmex_ctl_header *)base)->currentp = (uint32_t)arg;
				fr->prev = (uint32_t)arg;
				break;
			}
			if (r % 16 == 15)
				raw0(SYS_sched_yield);
		}
	});
}

/* Harvests the handles a result frame names (guarded: the ICA may be gone). */
static void harvest_result(struct fuzzer *f, uint32_t h)
{
	volatile uint8_t *base = myrmex_ica_addr(h);
	uint32_t got[MYRMEX_FRAME_DATA] = { 0 };
	GUARDED(f, {
		uint32_t rp = *(volatile uint32_t *)(base + 12);
		if (rp >= 32 && rp <= 4096 - sizeof(struct myrmex_frame) && !(rp & 7)) {
			volatile struct myrmex_frame *fr = (volatile struct myrmex_frame *)(base + rp);
			for (int i = 0; i < MYRMEX_FRAME_DATA; i++)
				got[i] = fr->data[i];
		}
	});
	for (int i = 0; i < MYRMEX_FRAME_DATA; i++)
		add_mine(f, got[i]);
}

static long native(struct fuzzer *f, long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                   uint64_t a4)
{
	uint64_t a[6] = { a0, a1, a2, a3, a4, 0 };
	vlog("fz c%u.t%u #%lu sys %ld (%#llx, %#llx, %#llx, %#llx, %#llx)", C.index, f->index,
	     f->step, nr, (unsigned long long)a0, (unsigned long long)a1, (unsigned long long)a2,
	     (unsigned long long)a3, (unsigned long long)a4);
	long r = do_call(f, nr, a);
	vlog("fz c%u.t%u #%lu = %ld", C.index, f->index, f->step, r);
	return r;
}

/* The address a call names: a harvested ICA's, mostly. */
static uint64_t ica_pointer(struct fuzzer *f, uint32_t h)
{
	uint64_t p = (uint64_t)(uintptr_t)myrmex_ica_addr(h);
	switch (below(&f->rng, 20)) {
	case 0: return p + 8 * below(&f->rng, 512);
	case 1: return p + 1;
	case 2: return hostile_address(f);
	case 3: return 0;
	default: return p;
	}
}

static uint32_t fresh_ica(struct fuzzer *f, uint32_t pages)
{
	long h = native(f, MYRMEX_SYS_ICA_ALLOC, pages, 0, 0, 0, 0);
	if (h == -EAGAIN)
		reclaim(f);
	if (h > 0)
		add_mine(f, (uint64_t)h);
	return h > 0 ? (uint32_t)h : 0;
}

static void do_get(struct fuzzer *f)
{
	uint64_t p = 0;
	if (chance(&f->rng, 1, 5))
		p = ica_pointer(f, pick_handle(f));
	uint64_t out = (uint64_t)(uintptr_t)&f->delivery;
	if (chance(&f->rng, 1, 10))
		out = chance(&f->rng, 1, 3) ? 0 : hostile_address(f);
	memset(&f->delivery, 0, sizeof f->delivery);
	long r = native(f, MYRMEX_SYS_GET, p, out, 0, 0, 0);
	if (r > 0)
		f->delivered++;
	if (r > 0 && out == (uint64_t)(uintptr_t)&f->delivery) {
		add_mine(f, f->delivery.handle);
		for (uint32_t i = 0; i < f->delivery.ndata && i < MYRMEX_FRAME_DATA; i++)
			add_mine(f, f->delivery.data[i]);
	}
}

/* A call: a control ICA (harvested, fresh or made up) with a new frame (or
 * as it is), sent with callsync or callasync. */
static void do_ipc_call(struct fuzzer *f, int sync)
{
	uint32_t h;
	unsigned k = (unsigned)below(&f->rng, 20);
	if (k < 12)
		h = pick_handle(f);
	else if (k < 18)
		h = fresh_ica(f, chance(&f->rng, 7, 8) ? 1 : 1 + (uint32_t)below(&f->rng, 4));
	else
		h = (uint32_t)below(&f->rng, MYRMEX_ICA_SLOTS) | 1u << MYRMEX_ICA_GEN_SHIFT;
	int well_formed = chance(&f->rng, 2, 3);
	if (well_formed && k < 12 && chance(&f->rng, 1, 2))
		h = fresh_ica(f, 1);
	if (well_formed || chance(&f->rng, 9, 10))
		build_frame(f, h, well_formed);
	uint64_t p = well_formed ? (uint64_t)(uintptr_t)myrmex_ica_addr(h) : ica_pointer(f, h);
	C.calling[f->index] = sync ? h : 0;
	long r = native(f, sync ? MYRMEX_SYS_CALLSYNC : MYRMEX_SYS_CALLASYNC, p, 0, 0, 0, 0);
	C.calling[f->index] = 0;
	if (r == 0 || r == -EINTR)
		f->sent++;
	if (sync && r == 0)
		harvest_result(f, h);
}

/* Passes ICAs on: fresh or harvested data ICAs named in a frame sent with
 * callasync (their results come back through get). */
static void do_pass(struct fuzzer *f)
{
	uint32_t ctl = chance(&f->rng, 1, 2) ? fresh_ica(f, 1) : pick_handle(f);
	if (!ctl)
		return;
	build_frame(f, ctl, chance(&f->rng, 1, 2));
	uint32_t n = 1 + (uint32_t)below(&f->rng, MYRMEX_FRAME_DATA);
	uint32_t data[MYRMEX_FRAME_DATA];
	for (uint32_t i = 0; i < n; i++) {
		data[i] = chance(&f->rng, 1, 2) ? fresh_ica(f, 1 + (uint32_t)below(&f->rng, 16))
		                                : pick_handle(f);
		if (i == 0 && data[0] && chance(&f->rng, 3, 4))
			fill_data(f, data[0]);
	}
	volatile struct myrmex_frame *fr =
		(volatile struct myrmex_frame *)((volatile uint8_t *)myrmex_ica_addr(ctl) + 32);
	GUARDED(f, {
		((volatile struct myrmex_ctl_header *)myrmex_ica_addr(ctl))->currentp = 32;
		fr->prev = 0;
		fr->ndata = n;
		for (uint32_t i = 0; i < n; i++)
			fr->data[i] = data[i];
	});
	if (native(f, MYRMEX_SYS_CALLASYNC, (uint64_t)(uintptr_t)myrmex_ica_addr(ctl), 0, 0, 0, 0) == 0)
		f->sent++;
}

/* The other native calls, with their argument kinds. */
static void do_native_misc(struct fuzzer *f)
{
	switch (below(&f->rng, 16)) {
	case 0: native(f, MYRMEX_SYS_KSTATS, buffer_arg(f), length_arg(f), 0, 0, 0); break;
	case 1: native(f, MYRMEX_SYS_SETPRIO, chance(&f->rng, 1, 2) ? 0 : own_tid(f),
	               chance(&f->rng, 3, 4) ? below(&f->rng, 40) : any_arg(f), 0, 0, 0); break;
	case 2: native(f, MYRMEX_SYS_SERVER_PID, chance(&f->rng, 3, 4) ? below(&f->rng, 260)
	                                                             : any_arg(f), 0, 0, 0, 0); break;
	case 3: native(f, MYRMEX_SYS_CLOCK_INFO, buffer_arg(f), 0, 0, 0, 0); break;
	case 4: native(f, MYRMEX_SYS_SPAWN, exec_path_arg(f), buffer_arg(f), buffer_arg(f),
	               int_arg(f), int_arg(f)); break;
	case 5: native(f, MYRMEX_SYS_REGISTSERVER, below(&f->rng, 300), 0, 0, 0, 0); break;
	case 6: native(f, MYRMEX_SYS_DEV_INFO, below(&f->rng, 40), buffer_arg(f), 0, 0, 0); break;
	case 7: native(f, MYRMEX_SYS_DEV_CONFIG_READ + below(&f->rng, 7), any_arg(f), any_arg(f),
	               any_arg(f), 0, 0); break;
	case 8: native(f, MYRMEX_SYS_PROC_FORK + below(&f->rng, 3), own_tid(f), any_arg(f), 0,
	               0, 0); break;
	case 9: case 10: {
		long r = native(f, MYRMEX_SYS_READBLOCK, fd_arg(f),
		                chance(&f->rng, 3, 4) ? 1 + below(&f->rng, 16) : any_arg(f),
		                chance(&f->rng, 3, 4) ? below(&f->rng, 16) : any_arg(f), 0, 0);
		if (r > 0 && chance(&f->rng, 1, 2))
			native(f, MYRMEX_SYS_SYNCBLOCK, fd_arg(f), (uint64_t)r,
			       chance(&f->rng, 3, 4) ? below(&f->rng, 3 * PAGE) : any_arg(f),
			       below(&f->rng, 16), below(&f->rng, 2));
		break;
	}
	case 11: native(f, MYRMEX_SYS_SYNCBLOCK, fd_arg(f), buffer_arg(f), length_arg(f),
	                any_arg(f), any_arg(f)); break;
	case 12: native(f, MYRMEX_SYS_FMAP_REVOKE, any_arg(f), any_arg(f), 0, 0, 0); break;
	case 13: native(f, MYRMEX_SYS_ICA_PHYS, pick_handle(f), 0, 0, 0, 0); break;
	default: {
		/* Anything in the native range but poweroff and spawn. */
		long nr = MYRMEX_SYS_BASE + (long)below(&f->rng, NATIVE_SPAN);
		if (nr == MYRMEX_SYS_POWEROFF || nr == MYRMEX_SYS_SPAWN)
			nr = MYRMEX_SYS_SERVER_PID;
		native(f, nr, any_arg(f), any_arg(f), any_arg(f), any_arg(f), any_arg(f));
		break;
	}
	}
}

enum native_op {
	OP_ALLOC, OP_FREE, OP_DETACH, OP_ATTACH, OP_CALLSYNC, OP_CALLASYNC, OP_GET, OP_RET,
	OP_CLAIM, OP_SCRIBBLE, OP_IN_FLIGHT, OP_PASS, OP_MISC, OP_COUNT
};

/* The weights of each operation: the first thread calls, the second
 * mostly meddles with the ICAs (rewrites, frees, detaches, passes). */
static const uint8_t op_weights[2][OP_COUNT] = {
	{ 8, 4, 3, 3, 22, 12, 12, 3, 3, 4, 2, 6, 10 },
	{ 8, 12, 8, 6, 6, 6, 8, 2, 2, 14, 12, 12, 4 },
};

static void native_step(struct fuzzer *f)
{
	unsigned total = 0;
	for (int i = 0; i < OP_COUNT; i++)
		total += op_weights[f->index][i];
	unsigned k = (unsigned)below(&f->rng, total), op = 0;
	while (k >= op_weights[f->index][op]) {
		k -= op_weights[f->index][op];
		op++;
	}
	switch (op) {
	case OP_ALLOC: {
		static const int64_t sizes[] = { 1, 1, 1, 1, 2, 3, 4, 16, 64, 0, 65, -1, 1ll << 32 };
		fresh_ica(f, (uint32_t)sizes[below(&f->rng, sizeof sizes / sizeof sizes[0])]);
		break;
	}
	case OP_FREE: {
		uint32_t h = pick_handle(f);
		if (native(f, MYRMEX_SYS_ICA_FREE, h, 0, 0, 0, 0) == 0)
			drop_handle(h);
		break;
	}
	case OP_DETACH: native(f, MYRMEX_SYS_ICA_DETACH, pick_handle(f), 0, 0, 0, 0); break;
	case OP_ATTACH: native(f, MYRMEX_SYS_ICA_ATTACH, pick_handle(f), 0, 0, 0, 0); break;
	case OP_CALLSYNC: do_ipc_call(f, 1); break;
	case OP_CALLASYNC: do_ipc_call(f, 0); break;
	case OP_GET: do_get(f); break;
	case OP_RET: native(f, MYRMEX_SYS_RET, ica_pointer(f, pick_handle(f)), 0, 0, 0, 0); break;
	case OP_CLAIM: native(f, MYRMEX_SYS_CLAIM, ica_pointer(f, pick_handle(f)), 0, 0, 0, 0); break;
	case OP_SCRIBBLE: scribble(f); break;
	case OP_IN_FLIGHT: scribble_in_flight(f); break;
	case OP_PASS: do_pass(f); break;
	default: do_native_misc(f); break;
	}
}

/* ------------------------------------------------------------ the child */

static void fuzz_loop(struct fuzzer *f)
{
	raw2(SYS_arch_prctl, 0x1003 /* ARCH_GET_FS */, (long)&f->fs_base);
	for (f->step = 0; f->step < C.rounds; f->step++) {
		if (f->index == 0 && f->step == C.die_at && C.die_at) {
			/* Death with calls out: the other thread's, parked
			 * requests, results waiting, ICAs held and lent. */
			line_to(LOG_FD, "t_fuzz: child %u kills itself at step %lu", C.index, f->step);
			raw2(SYS_kill, C.pid, SIGKILL);
		}
		/* The first thread makes more Linux calls, the second more ICA work. */
		if (chance(&f->rng, f->index == 0 ? 11 : 6, 20))
			linux_step(f);
		else
			native_step(f);
	}
}

static void second_thread(void *arg)
{
	struct fuzzer *f = arg;
	f->tid = (int)raw0(SYS_gettid);
	fuzz_loop(f);
	__atomic_store_n(&C.thread_done, 1, __ATOMIC_RELEASE);
	myrmex_futex_wake(&C.thread_done, 1);
}

/* A fresh anonymous mapping of `size` bytes between two guard pages. */
static uint8_t *guarded_area(size_t size)
{
	long base = myrmex_syscall6(SYS_mmap, 0, (long)(size + 2 * PAGE), PROT_READ | PROT_WRITE,
	                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base < 0)
		return NULL;
	raw3(SYS_mprotect, base, PAGE, PROT_NONE);
	raw3(SYS_mprotect, base + PAGE + (long)size, PAGE, PROT_NONE);
	return (uint8_t *)(uintptr_t)(base + PAGE);
}

/* Printable bytes without '/', a newline now and then. */
static void fill_scratch(struct fuzzer *f)
{
	static const char text[] = "fuzz data 0123456789 abcdefghijklmnopqrstuvwxyz.-_";
	for (size_t i = 0; i < SCRATCH_SIZE; i++)
		f->scratch[i] = (i % 61 == 60) ? '\n' : (uint8_t)text[below(&f->rng, sizeof text - 1)];
}

static void make_paths(void)
{
	static const char *const names[] = { "f0", "f1", "f2", "d0", "d0/f3", "d0/d1",
	                                     "d0/d1/f4", "p0", "d2", "d2/f5" };
	unsigned n = 0;
	_Static_assert(PATHS * PATH_SLOT <= PAGE, "the path pool's page");
	snprintf(C.paths[n++], sizeof C.paths[0], "%s", C.dir);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(C.paths[n++], sizeof C.paths[0], "%s/%s", C.dir, names[i]);
		snprintf(C.paths[n++], sizeof C.paths[0], "%s", names[i]);
	}
	snprintf(C.paths[n++], sizeof C.paths[0], "%s/d0/../f1", C.dir);
	snprintf(C.paths[n++], sizeof C.paths[0], "%s/nothing/f9", C.dir);
	C.npaths = n;
}

/* Setting up: the progress page says which part (step ~0, nr = the stage). */
static void setup_stage(unsigned stage)
{
	if (shared_progress) {
		shared_progress[C.index][0].step = ~0ull;
		shared_progress[C.index][0].nr = stage;
		shared_progress[C.index][0].in_call = 1;
	}
}

__attribute__((noreturn))
static void child_main(unsigned index, uint64_t seed, unsigned long rounds, int verbose)
{
	C.index = index;
	C.seed = seed;
	C.rounds = rounds;
	C.verbose = verbose;
	/* A third of the children die on purpose, somewhere in their rounds. */
	uint64_t fate = mix64(seed ^ 0x646965ull);
	C.die_at = fate % 3 == 0 && rounds > 1 ? 1 + (fate >> 8) % (rounds - 1) : 0;
	C.pid = raw0(SYS_getpid);
	setup_stage(1);
	for (int i = 0; i < FDS; i++)
		C.fds[i] = -1;
	raw0(SYS_setsid);   /* out of the init's group: nothing here reaches it */

	/* The console only for the log: random writes stay off it. */
	raw2(SYS_dup2, 1, LOG_FD);
	raw1(SYS_close, 0);
	raw1(SYS_close, 1);
	raw1(SYS_close, 2);

	setup_stage(2);
	snprintf(C.dir, sizeof C.dir, "/tmp/fuzz.%ld", C.pid);
	if (raw2(SYS_mkdir, (long)C.dir, 0755) < 0 || raw1(SYS_chdir, (long)C.dir) < 0)
		raw1(SYS_exit_group, FUZZ_EXIT_SETUP);
	C.paths = (char (*)[PATH_SLOT])(void *)guarded_area(PAGE);
	if (!C.paths)
		raw1(SYS_exit_group, FUZZ_EXIT_SETUP);
	make_paths();
	memset(long_path, 'p', sizeof long_path);
	long_path[0] = '/';
	memset(long_name, 'n', sizeof long_name - 1);

	C.arena = guarded_area(ARENA_PAGES * PAGE);
	for (int i = 0; i < 2; i++) {
		struct fuzzer *f = &C.thr[i];
		f->index = (unsigned)i;
		f->rng.s = thread_seed(seed, (unsigned)i);
		f->scratch = guarded_area(SCRATCH_SIZE);
		f->cooked = guarded_area(COOKED_SIZE);
		if (!f->scratch || !f->cooked || !C.arena)
			raw1(SYS_exit_group, FUZZ_EXIT_SETUP);
		fill_scratch(f);
	}

	setup_stage(3);
	/* A few things to work on: files, a directory, a pipe. */
	struct fuzzer *f0 = &C.thr[0];
	long fd = raw3(SYS_open, (long)"f0", O_CREAT | O_RDWR, 0644);
	if (fd >= 0) {
		raw3(SYS_write, fd, (long)f0->scratch, 5000);
		add_fd(f0, fd);
	}
	raw2(SYS_mkdir, (long)"d0", 0755);
	add_fd(f0, raw3(SYS_open, (long)"d0", O_RDONLY | O_DIRECTORY, 0));
	int pair[2];
	if (raw1(SYS_pipe, (long)pair) == 0) {
		add_fd(f0, pair[0]);
		add_fd(f0, pair[1]);
	}
	add_fd(f0, raw3(SYS_open, (long)"/dev/null", O_RDWR, 0));

	setup_stage(4);
	C.thr[0].tid = (int)raw0(SYS_gettid);
	install_all_handlers();
	unblock_all();
	arm_timer(FUZZ_TICK_US);

	setup_stage(5);
	long t = myrmex_thread_create(&C.thread, second_thread, &C.thr[1], 0);
	if (t < 0)
		C.thread_done = 1;
	fuzz_loop(&C.thr[0]);
	/* Bounded: the second thread makes as many calls; the parent's
	 * deadline ends this wait anyway. */
	setup_stage(6);   /* waiting for the second thread */
	for (int tries = 0; tries < 6000 && !__atomic_load_n(&C.thread_done, __ATOMIC_ACQUIRE);
	     tries++)
		myrmex_futex_wait(&C.thread_done, 0, 10 * 1000000);
	setup_stage(7);
	arm_timer(0);
	struct fuzzer *a = &C.thr[0], *b = &C.thr[1];
	line_to(LOG_FD, "t_fuzz: child %u done: calls %lu+%lu (errors %lu+%lu), requests taken "
	        "%lu+%lu, deliveries %lu+%lu, guarded faults %lu+%lu", C.index, a->step, b->step,
	        a->fails, b->fails, a->sent, b->sent, a->delivered, b->delivered, a->faults,
	        b->faults);
	raw1(SYS_exit_group, 0);
	__builtin_unreachable();
}

/* ------------------------------------------------------------ the parent */

/* Renames of the pool's directories into each other nest them without
 * bound: a directory this deep is moved up to /tmp, to be removed by the
 * next pass (paths stay shorter than FS_PATH_MAX: names are at most 255
 * bytes). */
#define TREE_DEPTH   12
#define TREE_PASSES  64
static unsigned lifted;
static int last_pass;   /* report what cannot be removed */

__attribute__((format(printf, 1, 2)))
static void removal_failed(const char *fmt, ...)
{
	if (!last_pass)
		return;
	char msg[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	test_fail("removing %s", msg);
}

/* Removes path and everything under it, or moves what lies too deep up to
 * /tmp; 0 or -errno. */
static long remove_tree(const char *path, int depth)
{
	long r = raw1(SYS_unlink, (long)path);
	if (r == 0 || r == -ENOENT)
		return 0;
	if (depth >= TREE_DEPTH) {
		char up[48];
		snprintf(up, sizeof up, "/tmp/lifted.%u", lifted++);
		r = raw2(SYS_rename, (long)path, (long)up);
		if (r < 0)
			removal_failed("%s: rename to %s: %ld", path, up, r);
		return r;
	}
	long fd = raw3(SYS_open, (long)path, O_RDONLY | O_DIRECTORY, 0);
	if (fd < 0) {
		removal_failed("%s: unlink %ld, open %ld", path, r, fd);
		return fd;
	}
	static char buf[TREE_DEPTH][4096];
	static char child[TREE_DEPTH][FS_PATH_MAX];
	char *b = buf[depth];
	for (int rounds = 0; rounds < 1000; rounds++) {
		long n = raw3(SYS_getdents64, fd, (long)b, 4096);
		if (n <= 0)
			break;
		for (long off = 0; off + 19 < n;) {
			uint16_t reclen;
			memcpy(&reclen, b + off + 16, 2);
			const char *name = b + off + 19;
			if (reclen == 0)
				break;
			if (strcmp(name, ".") && strcmp(name, "..")) {
				if ((size_t)snprintf(child[depth], FS_PATH_MAX, "%s/%s", path, name) <
				    FS_PATH_MAX)
					remove_tree(child[depth], depth + 1);
				else
					removal_failed("%s: a path of more than %u bytes in it", path,
					               FS_PATH_MAX);
			}
			off += reclen;
		}
	}
	raw1(SYS_close, fd);
	r = raw1(SYS_rmdir, (long)path);
	if (r < 0 && r != -ENOENT)
		removal_failed("%s: rmdir %ld", path, r);
	return r == -ENOENT ? 0 : r;
}

/* Removes /tmp, a pass at a time (each may move deep directories up). */
static void remove_tmp(void)
{
	for (int pass = 0; pass < TREE_PASSES; pass++) {
		last_pass = pass == TREE_PASSES - 1;
		if (remove_tree("/tmp", 0) == 0)
			return;
	}
}

static const unsigned checked_servers[] = { MYRMEX_COREID_DISK, MYRMEX_COREID_FS,
	MYRMEX_COREID_CONSOLE, MYRMEX_COREID_PM, MYRMEX_COREID_TIME };
#define NSERVERS (sizeof checked_servers / sizeof checked_servers[0])

/* The checks after the children: the system still works. */
static void check_system(const long *server_pids)
{
	/* A file: written, read back, stat'ed, unlinked. */
	static const char file[] = "/tmp/fuzz.check";
	static char out[3000], in[3000];
	for (size_t i = 0; i < sizeof out; i++)
		out[i] = (char)('a' + i % 23);
	long fd = raw3(SYS_open, (long)file, O_CREAT | O_TRUNC | O_RDWR, 0644);
	if (fd < 0) {
		test_fail("open %s: %ld", file, fd);
	} else {
		CHECK_EQ(raw3(SYS_write, fd, (long)out, sizeof out), (long)sizeof out);
		CHECK_EQ(raw3(SYS_lseek, fd, 0, SEEK_SET), 0);
		CHECK_EQ(raw3(SYS_read, fd, (long)in, sizeof in), (long)sizeof in);
		if (memcmp(in, out, sizeof in))
			test_fail("%s: the bytes read back differ", file);
		CHECK_EQ(raw1(SYS_close, fd), 0);
		struct stat st;
		if (CHECK_EQ(raw2(SYS_stat, (long)file, (long)&st), 0) == 0 &&
		    st.st_size != (off_t)sizeof out)
			test_fail("stat %s: size %lld", file, (long long)st.st_size);
		CHECK_EQ(raw1(SYS_unlink, (long)file), 0);
		CHECK_EQ(raw2(SYS_stat, (long)file, (long)&st), -ENOENT);
	}
	/* The time server: the clock goes on, a sleep lasts its time. */
	struct timespec t0, t1, nap = { 0, 10 * 1000000 };
	CHECK_EQ(raw2(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&t0), 0);
	CHECK_EQ(raw2(SYS_nanosleep, (long)&nap, 0), 0);
	CHECK_EQ(raw2(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&t1), 0);
	int64_t ns = (int64_t)(t1.tv_sec - t0.tv_sec) * 1000000000 + (t1.tv_nsec - t0.tv_nsec);
	if (ns < 10 * 1000000)
		test_fail("nanosleep of 10 ms: the monotonic clock moved %lld ns", (long long)ns);
	/* The console. */
	static const char msg[] = "t_fuzz: the console still works\n";
	CHECK_EQ(raw3(SYS_write, 1, (long)msg, sizeof msg - 1), (long)sizeof msg - 1);
	/* The servers: the same processes as before. */
	for (size_t i = 0; i < NSERVERS; i++) {
		long now = myrmex_server_pid(checked_servers[i]);
		if (now != server_pids[i])
			test_fail("coreid %u: server pid %ld, was %ld (the server died)",
			          checked_servers[i], now, server_pids[i]);
	}
}

static uint64_t parse_u64(const char *s, const char *what)
{
	char *end;
	uint64_t v = strtoull(s, &end, 0);
	if (*s == '\0' || *end != '\0') {
		test_fail("bad %s '%s'", what, s);
		raw1(SYS_exit_group, 2);
	}
	return v;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		test_fail("usage: t_fuzz <seed> <rounds> <procs> [verbose] [deadline=<s>]");
		return 2;
	}
	uint64_t seed = parse_u64(argv[1], "seed");
	unsigned long rounds = (unsigned long)parse_u64(argv[2], "rounds");
	unsigned procs = (unsigned)parse_u64(argv[3], "procs");
	int verbose = 0;
	uint64_t deadline_s = FUZZ_DEADLINE_S;
	for (int i = 4; i < argc; i++) {
		if (strcmp(argv[i], "verbose") == 0)
			verbose = 1;
		else if (strncmp(argv[i], "deadline=", 9) == 0)
			deadline_s = parse_u64(argv[i] + 9, "deadline");
	}
	const char *env = getenv("FUZZ_VERBOSE");
	if (env && *env && strcmp(env, "0"))
		verbose = 1;
	if (procs > FUZZ_MAX_PROCS)
		procs = FUZZ_MAX_PROCS;

	long con = raw3(SYS_open, (long)"/dev/console", O_RDWR, 0);
	if (con >= 0) {
		raw2(SYS_dup2, con, 1);
		raw2(SYS_dup2, con, 2);
		if (con > 2)
			raw1(SYS_close, con);
	}
	say("t_fuzz: seed %llu rounds %lu procs %u deadline %llu s%s (replay: make fuzz "
	    "SEED=%llu ROUNDS=%lu PROCS=%u)", (unsigned long long)seed, rounds, procs,
	    (unsigned long long)deadline_s, verbose ? " verbose" : "", (unsigned long long)seed,
	    rounds, procs);

	long server_pids[NSERVERS];
	for (size_t i = 0; i < NSERVERS; i++)
		server_pids[i] = myrmex_server_pid(checked_servers[i]);
	long r = raw2(SYS_mkdir, (long)"/tmp", 01777);
	if (r < 0 && r != -EEXIST)
		test_fail("mkdir /tmp: %ld", r);

	_Static_assert(FUZZ_MAX_PROCS * 2 * sizeof(struct progress) <= PAGE, "progress page");
	long pfd = raw3(SYS_open, (long)PROGRESS_FILE, O_CREAT | O_TRUNC | O_RDWR, 0600);
	long shared = pfd < 0 ? pfd : raw2(SYS_ftruncate, pfd, PAGE);
	if (shared == 0)
		shared = myrmex_syscall6(SYS_mmap, 0, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, pfd, 0);
	if (shared > 0)
		shared_progress = (struct progress (*)[2])(uintptr_t)shared;
	else
		say("t_fuzz: no progress page (%ld): no report at the deadline", shared);
	if (pfd >= 0)
		raw1(SYS_close, pfd);
	long pids[FUZZ_MAX_PROCS];
	unsigned started = 0;
	for (unsigned i = 0; i < procs; i++) {
		uint64_t cs = child_seed(seed, i);
		long pid = raw0(SYS_fork);
		if (pid == 0)
			child_main(i, cs, rounds, verbose);
		if (pid < 0) {
			test_fail("fork of child %u: %ld", i, pid);
			break;
		}
		say("t_fuzz: child %u pid %ld seed %#llx", i, pid, (unsigned long long)cs);
		pids[started++] = pid;
	}

	/* Wait for the children until the deadline, then kill the rest. */
	uint64_t start = myrmex_now_ns();
	int status[FUZZ_MAX_PROCS];
	int done[FUZZ_MAX_PROCS] = { 0 };
	unsigned left = started;
	while (left > 0 && myrmex_now_ns() - start < deadline_s * 1000000000ull) {
		for (unsigned i = 0; i < started; i++) {
			if (done[i] || raw4(SYS_wait4, pids[i], (long)&status[i], WNOHANG | WUNTRACED, 0) !=
			               pids[i])
				continue;
			/* A child that stopped itself (a random kill of a stop
			 * signal) goes on. */
			if (WIFSTOPPED(status[i])) {
				raw2(SYS_kill, pids[i], SIGCONT);
				continue;
			}
			done[i] = 1;
			left--;
		}
		if (left)
			myrmex_sleep_ns(20 * 1000000);
	}
	for (unsigned i = 0; i < started; i++)
		if (!done[i]) {
			say("t_fuzz: child %u (pid %ld) still runs at the deadline: SIGKILL", i, pids[i]);
			for (int t = 0; shared_progress && t < 2; t++) {
				const struct progress *pr = &shared_progress[i][t];
				if (pr->step == ~0ull) {
					say("t_fuzz: child %u thread %d: outside the rounds, stage %llu "
					    "(1-5 setting up, 6 waiting for thread 1, 7 ending)", i, t,
					    (unsigned long long)pr->nr);
					continue;
				}
				say("t_fuzz: child %u thread %d: step %llu, %s sys %llu (%#llx, %#llx, "
				    "%#llx, %#llx, %#llx, %#llx)", i, t, (unsigned long long)pr->step,
				    pr->in_call ? "in" : "after", (unsigned long long)pr->nr,
				    (unsigned long long)pr->args[0], (unsigned long long)pr->args[1],
				    (unsigned long long)pr->args[2], (unsigned long long)pr->args[3],
				    (unsigned long long)pr->args[4], (unsigned long long)pr->args[5]);
			}
			raw2(SYS_kill, pids[i], SIGKILL);
		}
	for (int tries = 0; tries < 1000 && left > 0; tries++) {
		for (unsigned i = 0; i < started; i++)
			if (!done[i] && raw4(SYS_wait4, pids[i], (long)&status[i], WNOHANG, 0) == pids[i]) {
				done[i] = 1;
				left--;
			}
		if (left)
			myrmex_sleep_ns(10 * 1000000);
	}
	for (unsigned i = 0; i < started; i++) {
		if (!done[i])
			test_fail("child %u (pid %ld) did not end after SIGKILL", i, pids[i]);
		else if (WIFEXITED(status[i]))
			say("t_fuzz: child %u ended: exit %d%s", i, WEXITSTATUS(status[i]),
			    WEXITSTATUS(status[i]) == FUZZ_EXIT_FAULT ? " (an unexpected fault)" :
			    WEXITSTATUS(status[i]) == FUZZ_EXIT_SETUP ? " (setup failed)" : "");
		else if (WIFSIGNALED(status[i]))
			say("t_fuzz: child %u ended: signal %d", i, WTERMSIG(status[i]));
	}

	/* Their directories go (and what they made in /tmp, whose name
	 * ".." is from theirs); then the system must still work. */
	check_system(server_pids);
	if (shared_progress)
		raw2(SYS_munmap, (long)shared_progress, PAGE);
	remove_tmp();
	say("t_fuzz: %s", test_exit_code() ? "FAILED" : "the system still works");
	return test_exit_code();
}
