/*
 * t_signal [mode]: signal delivery through musl's own functions (sigaction,
 * sigprocmask, raise, kill, sigsuspend, pause, alarm, setitimer,
 * sigaltstack), which make the Linux calls directly.
 *
 * Without a mode: handlers get the right signal number and siginfo, run
 * with the handler mask on a 16-byte aligned stack (minus 8), with
 * SA_RESETHAND and SA_NODEFER honoured; rt_sigreturn gives back every
 * register and the SSE state (and what the handler changed in the
 * ucontext); a blocked signal waits and is delivered once when unblocked;
 * sigsuspend, pause, alarm, setitimer, sigaltstack; an interrupted futex
 * wait runs again under SA_RESTART and fails with EINTR without it, and an
 * interrupted nanosleep says how much time was left.
 *
 * Modes that must end the process (the test table says with which signal):
 *   term           raise(SIGTERM) with the default action
 *   blocked-fatal  SIGUSR1 sent while blocked kills when unblocked
 *   abort          abort()
 */
#define _GNU_SOURCE
#define TEST_NAME "t_signal"
#include "test_check.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define NS_PER_MS 1000000L
#define FUTEX_WAIT_PRIVATE 128

static volatile sig_atomic_t hits;
static volatile int last_signo, last_code, last_pid;
static volatile uint64_t mask_in_handler;
static volatile int depth, max_depth, raised;

static uint64_t current_mask(void)
{
	uint64_t mask = 0;
	raw4(SYS_rt_sigprocmask, SIG_BLOCK, 0, (long)&mask, 8);
	return mask;
}

static uint64_t bit(int sig)
{
	return 1ULL << (sig - 1);
}

static void install(int sig, void (*fn)(int, siginfo_t *, void *), int flags, int also_block)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	sigemptyset(&sa.sa_mask);
	if (also_block)
		sigaddset(&sa.sa_mask, also_block);
	CHECK_EQ(sigaction(sig, &sa, NULL), 0);
}

static void set_default(int sig)
{
	signal(sig, SIG_DFL);
}

static void record(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	hits++;
	last_signo = si->si_signo == sig ? sig : -si->si_signo;
	last_code = si->si_code;
	last_pid = si->si_pid;
	mask_in_handler = current_mask();
}

/* ------------------------------------------------------------ basics */

static void check_basic(void)
{
	long pid = raw0(SYS_getpid);
	install(SIGUSR1, record, 0, SIGUSR2);
	hits = 0;
	CHECK_EQ(raise(SIGUSR1), 0);
	CHECK(hits == 1, "raise: the handler ran %d times", (int)hits);
	CHECK(last_signo == SIGUSR1, "raise: si_signo %d", last_signo);
	CHECK(last_code == SI_TKILL, "raise: si_code %d, expected SI_TKILL", last_code);
	CHECK(last_pid == pid, "raise: si_pid %d, expected %ld", last_pid, pid);
	CHECK((mask_in_handler & (bit(SIGUSR1) | bit(SIGUSR2))) == (bit(SIGUSR1) | bit(SIGUSR2)),
	      "mask in the handler %#llx lacks SIGUSR1 or the sa_mask's SIGUSR2",
	      (unsigned long long)mask_in_handler);
	CHECK(current_mask() == 0, "mask after the handler: %#llx",
	      (unsigned long long)current_mask());

	hits = 0;
	CHECK_EQ(kill((pid_t)pid, SIGUSR1), 0);
	CHECK(hits == 1 && last_code == SI_USER && last_pid == pid,
	      "kill(self): hits %d, si_code %d, si_pid %d", (int)hits, last_code, last_pid);
	set_default(SIGUSR1);
}

static void plain_handler(int sig)
{
	hits++;
	last_signo = sig;
}

static void check_plain_and_resethand(void)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = plain_handler;
	sa.sa_flags = SA_RESETHAND;
	CHECK_EQ(sigaction(SIGUSR2, &sa, NULL), 0);
	hits = 0;
	raise(SIGUSR2);
	CHECK(hits == 1 && last_signo == SIGUSR2, "SA_RESETHAND: hits %d signo %d", (int)hits,
	      last_signo);
	CHECK_EQ(sigaction(SIGUSR2, NULL, &old), 0);
	CHECK(old.sa_handler == SIG_DFL, "SA_RESETHAND: the handler is still installed");
}

static void nodefer_handler(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	depth++;
	if (depth > max_depth)
		max_depth = depth;
	mask_in_handler = current_mask();
	if (!raised) {
		raised = 1;
		raise(sig);   /* with SA_NODEFER delivered at once, nested */
	}
	depth--;
}

static void check_nodefer(void)
{
	install(SIGUSR1, nodefer_handler, SA_NODEFER, 0);
	depth = max_depth = raised = 0;
	raise(SIGUSR1);
	CHECK(max_depth == 2, "SA_NODEFER: nesting depth %d, expected 2", max_depth);
	CHECK(!(mask_in_handler & bit(SIGUSR1)), "SA_NODEFER: SIGUSR1 blocked in the handler");

	/* Without it the second one waits until the first handler returns. */
	install(SIGUSR1, nodefer_handler, 0, 0);
	depth = max_depth = raised = 0;
	raise(SIGUSR1);
	CHECK(max_depth == 1, "without SA_NODEFER: nesting depth %d, expected 1", max_depth);
	set_default(SIGUSR1);
}

/* ------------------------------------------------------------ registers */

/* rbx rbp r12 r13 r14 r15 rdx r8 r9 r10 rsi rdi rax, mxcsr, xmm0..15 */
struct regset {
	uint64_t r[13];
	uint32_t mxcsr, pad;
	uint8_t xmm[16][16];
};
_Static_assert(sizeof(struct regset) == 112 + 256, "offsets used by the assembly below");

struct regset reg_in, reg_out;

/* Loads reg_in into the registers, makes tkill(reg_in.rdi, reg_in.rsi)
 * with the syscall instruction, and stores the registers into reg_out. */
void reg_roundtrip(void);
__asm__(
	".text\n"
	".globl reg_roundtrip\n"
	"reg_roundtrip:\n"
	"push %rbx\n push %rbp\n push %r12\n push %r13\n push %r14\n push %r15\n"
	"lea reg_in(%rip), %rax\n"
	"movdqu 112(%rax), %xmm0\n movdqu 128(%rax), %xmm1\n movdqu 144(%rax), %xmm2\n"
	"movdqu 160(%rax), %xmm3\n movdqu 176(%rax), %xmm4\n movdqu 192(%rax), %xmm5\n"
	"movdqu 208(%rax), %xmm6\n movdqu 224(%rax), %xmm7\n movdqu 240(%rax), %xmm8\n"
	"movdqu 256(%rax), %xmm9\n movdqu 272(%rax), %xmm10\n movdqu 288(%rax), %xmm11\n"
	"movdqu 304(%rax), %xmm12\n movdqu 320(%rax), %xmm13\n movdqu 336(%rax), %xmm14\n"
	"movdqu 352(%rax), %xmm15\n"
	"ldmxcsr 104(%rax)\n"
	"mov 0(%rax), %rbx\n mov 8(%rax), %rbp\n mov 16(%rax), %r12\n mov 24(%rax), %r13\n"
	"mov 32(%rax), %r14\n mov 40(%rax), %r15\n mov 48(%rax), %rdx\n mov 56(%rax), %r8\n"
	"mov 64(%rax), %r9\n mov 72(%rax), %r10\n mov 80(%rax), %rsi\n mov 88(%rax), %rdi\n"
	"mov $200, %eax\n"   /* tkill */
	"syscall\n"
	"mov %rax, reg_out+96(%rip)\n"
	"mov %rbx, reg_out+0(%rip)\n mov %rbp, reg_out+8(%rip)\n mov %r12, reg_out+16(%rip)\n"
	"mov %r13, reg_out+24(%rip)\n mov %r14, reg_out+32(%rip)\n mov %r15, reg_out+40(%rip)\n"
	"mov %rdx, reg_out+48(%rip)\n mov %r8, reg_out+56(%rip)\n mov %r9, reg_out+64(%rip)\n"
	"mov %r10, reg_out+72(%rip)\n mov %rsi, reg_out+80(%rip)\n mov %rdi, reg_out+88(%rip)\n"
	"stmxcsr reg_out+104(%rip)\n"
	"movdqu %xmm0, reg_out+112(%rip)\n movdqu %xmm1, reg_out+128(%rip)\n"
	"movdqu %xmm2, reg_out+144(%rip)\n movdqu %xmm3, reg_out+160(%rip)\n"
	"movdqu %xmm4, reg_out+176(%rip)\n movdqu %xmm5, reg_out+192(%rip)\n"
	"movdqu %xmm6, reg_out+208(%rip)\n movdqu %xmm7, reg_out+224(%rip)\n"
	"movdqu %xmm8, reg_out+240(%rip)\n movdqu %xmm9, reg_out+256(%rip)\n"
	"movdqu %xmm10, reg_out+272(%rip)\n movdqu %xmm11, reg_out+288(%rip)\n"
	"movdqu %xmm12, reg_out+304(%rip)\n movdqu %xmm13, reg_out+320(%rip)\n"
	"movdqu %xmm14, reg_out+336(%rip)\n movdqu %xmm15, reg_out+352(%rip)\n"
	"ldmxcsr default_mxcsr(%rip)\n"
	"pop %r15\n pop %r14\n pop %r13\n pop %r12\n pop %rbp\n pop %rbx\n"
	"ret\n");
const uint32_t default_mxcsr = 0x1f80;

#define NEW_R12 0x1212121212121212ULL
#define NEW_XMM5_WORD 0x5a5a5a5au

volatile uint64_t entry_rsp, entry_rax;   /* written by reg_handler */
static volatile uint32_t handler_mxcsr;
static volatile int frame_ok;

__attribute__((used)) void reg_handler_c(int sig, siginfo_t *si, void *ucv);
void reg_handler_c(int sig, siginfo_t *si, void *ucv)
{
	(void)sig;
	(void)si;
	ucontext_t *uc = ucv;
	__asm__ volatile("stmxcsr %0" : "=m"(handler_mxcsr));
	/* The frame holds what the interrupted code had. */
	greg_t *g = uc->uc_mcontext.gregs;
	frame_ok = g[REG_RBX] == (greg_t)reg_in.r[0] && g[REG_RBP] == (greg_t)reg_in.r[1] &&
	           g[REG_R12] == (greg_t)reg_in.r[2] && g[REG_R15] == (greg_t)reg_in.r[5] &&
	           g[REG_RDX] == (greg_t)reg_in.r[6] && g[REG_R10] == (greg_t)reg_in.r[9] &&
	           g[REG_RAX] == 0 && uc->uc_mcontext.fpregs != NULL &&
	           uc->uc_mcontext.fpregs->mxcsr == reg_in.mxcsr &&
	           memcmp(uc->uc_mcontext.fpregs->_xmm[3].element, reg_in.xmm[3], 16) == 0;
	/* Changes in the frame are what rt_sigreturn restores. */
	g[REG_R12] = (greg_t)NEW_R12;
	for (int i = 0; i < 4; i++)
		uc->uc_mcontext.fpregs->_xmm[5].element[i] = NEW_XMM5_WORD;
	/* Trash what the frame must bring back. */
	uint32_t odd_mxcsr = 0x7f80;
	__asm__ volatile("pcmpeqd %%xmm0, %%xmm0\n pcmpeqd %%xmm7, %%xmm7\n"
	                 "pcmpeqd %%xmm8, %%xmm8\n pcmpeqd %%xmm15, %%xmm15\n ldmxcsr %0"
	                 :: "m"(odd_mxcsr) : "xmm0", "xmm7", "xmm8", "xmm15");
	hits++;
}

/* The handler's first instruction records the stack pointer and rax. */
void reg_handler(int, siginfo_t *, void *);
__asm__(
	".text\n"
	".globl reg_handler\n"
	"reg_handler:\n"
	"mov %rsp, entry_rsp(%rip)\n"
	"mov %rax, entry_rax(%rip)\n"
	"jmp reg_handler_c\n");

static void check_registers(void)
{
	install(SIGUSR2, reg_handler, 0, 0);
	for (int i = 0; i < 13; i++)
		reg_in.r[i] = 0x0101010101010101ULL * (uint64_t)(i + 1) + 0x10;
	reg_in.r[10] = SIGUSR2;                  /* rsi */
	reg_in.r[11] = (uint64_t)raw0(SYS_gettid); /* rdi */
	reg_in.mxcsr = 0x1f80 | 0x6000;          /* round toward zero */
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++)
			reg_in.xmm[i][j] = (uint8_t)(i * 16 + j + 1);
	hits = 0;
	entry_rax = 1;
	reg_roundtrip();
	CHECK(hits == 1, "register test: the handler ran %d times", (int)hits);
	CHECK(frame_ok, "the frame's registers or FPU state differ from the interrupted ones");
	CHECK((entry_rsp & 15) == 8, "handler entry rsp %#llx is not 16n-8",
	      (unsigned long long)entry_rsp);
	CHECK(entry_rax == 0, "rax at handler entry: %llu", (unsigned long long)entry_rax);
	CHECK(handler_mxcsr == 0x1f80, "the handler started with MXCSR %#x", handler_mxcsr);
	CHECK(reg_out.r[12] == 0, "tkill returned %lld", (long long)reg_out.r[12]);
	static const char *const names[] = { "rbx", "rbp", "r12", "r13", "r14", "r15", "rdx",
	                                     "r8", "r9", "r10", "rsi", "rdi" };
	for (int i = 0; i < 12; i++) {
		uint64_t want = i == 2 ? NEW_R12 : reg_in.r[i];
		CHECK(reg_out.r[i] == want, "%s after the handler: %#llx, expected %#llx", names[i],
		      (unsigned long long)reg_out.r[i], (unsigned long long)want);
	}
	CHECK(reg_out.mxcsr == reg_in.mxcsr, "MXCSR after the handler: %#x, expected %#x",
	      reg_out.mxcsr, reg_in.mxcsr);
	for (int i = 0; i < 16; i++) {
		uint8_t want[16];
		memcpy(want, reg_in.xmm[i], 16);
		if (i == 5)
			memset(want, 0x5a, 16);
		CHECK(memcmp(reg_out.xmm[i], want, 16) == 0, "xmm%d differs after the handler", i);
	}
	set_default(SIGUSR2);
}

/* ------------------------------------------------------------ masks */

static void check_blocked(void)
{
	sigset_t set, pending;
	install(SIGUSR1, record, 0, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	CHECK_EQ(sigprocmask(SIG_BLOCK, &set, NULL), 0);
	hits = 0;
	raise(SIGUSR1);
	raise(SIGUSR1);
	CHECK(hits == 0, "a blocked signal ran its handler");
	CHECK_EQ(sigpending(&pending), 0);
	CHECK(sigismember(&pending, SIGUSR1) == 1, "sigpending lacks the blocked SIGUSR1");
	CHECK_EQ(sigprocmask(SIG_UNBLOCK, &set, NULL), 0);
	CHECK(hits == 1, "after unblocking: the handler ran %d times (expected once)", (int)hits);
	CHECK_EQ(sigpending(&pending), 0);
	CHECK(sigismember(&pending, SIGUSR1) == 0, "SIGUSR1 still pending after delivery");

	/* Setting SIG_IGN discards a pending signal. */
	CHECK_EQ(sigprocmask(SIG_BLOCK, &set, NULL), 0);
	raise(SIGUSR1);
	signal(SIGUSR1, SIG_IGN);
	CHECK_EQ(sigpending(&pending), 0);
	CHECK(sigismember(&pending, SIGUSR1) == 0, "SIG_IGN left SIGUSR1 pending");
	CHECK_EQ(sigprocmask(SIG_UNBLOCK, &set, NULL), 0);
	raise(SIGUSR1);   /* ignored: nothing happens */
	set_default(SIGUSR1);

	/* SIGKILL and SIGSTOP cannot be blocked. */
	uint64_t all = ~0ULL, old = 0;
	CHECK_EQ(raw4(SYS_rt_sigprocmask, SIG_BLOCK, (long)&all, (long)&old, 8), 0);
	uint64_t now = current_mask();
	CHECK(!(now & (bit(SIGKILL) | bit(SIGSTOP))), "SIGKILL or SIGSTOP blocked: %#llx",
	      (unsigned long long)now);
	CHECK_EQ(raw4(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0, 8), 0);

	/* Ignored by default: SIGCHLD, SIGURG, SIGWINCH, SIGCONT (which would
	 * continue a stopped process). The stop signals stop (tests/posix
	 * stopcont): ignored with SIG_IGN, they do nothing. */
	raise(SIGCHLD);
	raise(SIGURG);
	raise(SIGWINCH);
	raise(SIGCONT);
	static const int stops[] = { SIGTSTP, SIGTTIN, SIGTTOU };
	for (unsigned i = 0; i < 3; i++) {
		CHECK(signal(stops[i], SIG_IGN) != SIG_ERR, "SIG_IGN for signal %d", stops[i]);
		raise(stops[i]);
		set_default(stops[i]);
	}
}

/* ------------------------------------------------------------ waiting */

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static void check_sigsuspend(void)
{
	sigset_t block, empty, pending;
	install(SIGUSR1, record, 0, 0);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigemptyset(&empty);
	CHECK_EQ(sigprocmask(SIG_BLOCK, &block, NULL), 0);

	/* Pending before: sigsuspend returns at once, after the handler. */
	hits = 0;
	raise(SIGUSR1);
	errno = 0;
	CHECK_EQ(sigsuspend(&empty), -1);
	CHECK(errno == EINTR, "sigsuspend: errno %d", errno);
	CHECK(hits == 1, "sigsuspend: the handler ran %d times", (int)hits);
	CHECK(current_mask() & bit(SIGUSR1), "sigsuspend did not restore the mask");

	/* Arriving while it waits: a timer's SIGALRM. */
	signal(SIGALRM, on_alarm);
	alarms = 0;
	struct itimerval it = { { 0, 0 }, { 0, 20000 } };
	CHECK_EQ(setitimer(ITIMER_REAL, &it, NULL), 0);
	while (alarms == 0) {
		errno = 0;
		CHECK_EQ(sigsuspend(&block), -1);
		CHECK(errno == EINTR, "sigsuspend (alarm): errno %d", errno);
	}
	CHECK(alarms == 1, "alarms %d", (int)alarms);
	CHECK_EQ(sigpending(&pending), 0);
	CHECK_EQ(sigprocmask(SIG_UNBLOCK, &block, NULL), 0);
	set_default(SIGUSR1);
}

static void check_alarm_pause(void)
{
	signal(SIGALRM, on_alarm);
	CHECK_EQ(alarm(100), 0);
	CHECK_ONE_OF(alarm(0), 99, 100);   /* rounded to the nearest second */
	CHECK_EQ(alarm(0), 0);
	alarms = 0;
	CHECK_EQ(alarm(1), 0);
	errno = 0;
	CHECK_EQ(pause(), -1);
	CHECK(errno == EINTR, "pause: errno %d", errno);
	CHECK(alarms == 1, "pause returned with %d alarms", (int)alarms);
}

static void check_setitimer(void)
{
	struct itimerval it = { { 0, 5000 }, { 0, 5000 } }, cur;
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	signal(SIGALRM, on_alarm);
	CHECK_EQ(sigprocmask(SIG_BLOCK, &block, &old), 0);
	alarms = 0;
	CHECK_EQ(setitimer(ITIMER_REAL, &it, NULL), 0);
	CHECK_EQ(getitimer(ITIMER_REAL, &cur), 0);
	CHECK(cur.it_interval.tv_sec == 0 && cur.it_interval.tv_usec == 5000,
	      "getitimer interval %ld.%06ld", (long)cur.it_interval.tv_sec,
	      (long)cur.it_interval.tv_usec);
	CHECK(cur.it_value.tv_sec == 0 && cur.it_value.tv_usec > 0 &&
	      cur.it_value.tv_usec <= 5000, "getitimer value %ld.%06ld",
	      (long)cur.it_value.tv_sec, (long)cur.it_value.tv_usec);
	sigset_t wait_mask = old;
	sigdelset(&wait_mask, SIGALRM);
	while (alarms < 3)
		sigsuspend(&wait_mask);
	struct itimerval off = { { 0, 0 }, { 0, 0 } }, was;
	CHECK_EQ(setitimer(ITIMER_REAL, &off, &was), 0);
	CHECK(was.it_interval.tv_usec == 5000, "old interval %ld", (long)was.it_interval.tv_usec);
	CHECK_EQ(getitimer(ITIMER_REAL, &cur), 0);
	CHECK(cur.it_value.tv_sec == 0 && cur.it_value.tv_usec == 0 &&
	      cur.it_interval.tv_usec == 0, "the timer is still armed after disarming");
	CHECK_EQ(sigprocmask(SIG_SETMASK, &old, NULL), 0);
	/* Drop a SIGALRM that might still be pending. */
	signal(SIGALRM, SIG_IGN);
	set_default(SIGALRM);
	if (myrmex_is_native()) {   /* Linux has the CPU-time timers */
		CHECK_EQ(raw3(SYS_setitimer, ITIMER_VIRTUAL, (long)&it, 0), -EINVAL);
		CHECK_EQ(raw3(SYS_setitimer, ITIMER_PROF, (long)&it, 0), -EINVAL);
		CHECK_EQ(raw2(SYS_getitimer, ITIMER_VIRTUAL, (long)&cur), -EINVAL);
	}
}

/* ------------------------------------------------------------ alternate stack */

#define ALT_SIZE (64 * 1024)
static volatile uintptr_t handler_local;
static volatile int altstack_flags_inside, altstack_change;

static void on_altstack(int sig)
{
	(void)sig;
	volatile int local = 0;
	handler_local = (uintptr_t)&local;
	stack_t now, other = { .ss_sp = NULL, .ss_flags = SS_DISABLE, .ss_size = 0 };
	sigaltstack(NULL, &now);
	altstack_flags_inside = now.ss_flags;
	altstack_change = sigaltstack(&other, NULL) == 0 ? 0 : errno;
	hits++;
}

static void check_altstack(void)
{
	char *alt = mmap(NULL, ALT_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (alt == MAP_FAILED) {
		test_fail("mmap for the alternate stack failed");
		return;
	}
	stack_t ss = { .ss_sp = alt, .ss_flags = 0, .ss_size = ALT_SIZE }, old;
	CHECK_EQ(sigaltstack(NULL, &old), 0);
	CHECK(old.ss_flags == SS_DISABLE, "initial sigaltstack flags %d", old.ss_flags);
	CHECK_EQ(sigaltstack(&ss, NULL), 0);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_altstack;
	sa.sa_flags = SA_ONSTACK;
	CHECK_EQ(sigaction(SIGUSR1, &sa, NULL), 0);
	hits = 0;
	raise(SIGUSR1);
	CHECK(hits == 1, "altstack handler ran %d times", (int)hits);
	CHECK(handler_local >= (uintptr_t)alt && handler_local < (uintptr_t)alt + ALT_SIZE,
	      "the SA_ONSTACK handler ran at %#lx, not on the alternate stack",
	      (unsigned long)handler_local);
	CHECK(altstack_flags_inside == SS_ONSTACK, "flags inside the handler: %d",
	      altstack_flags_inside);
	CHECK(altstack_change == EPERM, "changing the stack in use: errno %d", altstack_change);
	CHECK_EQ(sigaltstack(NULL, &old), 0);
	CHECK(old.ss_flags == 0 && old.ss_sp == alt && old.ss_size == ALT_SIZE,
	      "after the handler: flags %d sp %p size %zu", old.ss_flags, old.ss_sp, old.ss_size);

	/* Without SA_ONSTACK the handler stays on the normal stack. */
	sa.sa_flags = 0;
	CHECK_EQ(sigaction(SIGUSR1, &sa, NULL), 0);
	raise(SIGUSR1);
	CHECK(handler_local < (uintptr_t)alt || handler_local >= (uintptr_t)alt + ALT_SIZE,
	      "a handler without SA_ONSTACK ran on the alternate stack");

	stack_t small = { .ss_sp = alt, .ss_flags = 0, .ss_size = MINSIGSTKSZ - 1 };
	errno = 0;
	CHECK_EQ(sigaltstack(&small, NULL), -1);
	CHECK(errno == ENOMEM, "a small stack: errno %d", errno);
	stack_t bad = { .ss_sp = alt, .ss_flags = 0x40, .ss_size = ALT_SIZE };
	errno = 0;
	CHECK_EQ(sigaltstack(&bad, NULL), -1);
	CHECK(errno == EINVAL, "bad flags: errno %d", errno);
	stack_t off = { .ss_sp = NULL, .ss_flags = SS_DISABLE, .ss_size = 0 };
	CHECK_EQ(sigaltstack(&off, NULL), 0);
	CHECK_EQ(sigaltstack(NULL, &old), 0);
	CHECK(old.ss_flags == SS_DISABLE, "after SS_DISABLE: flags %d", old.ss_flags);
	set_default(SIGUSR1);
	munmap(alt, ALT_SIZE);
}

/* ------------------------------------------------------------ interrupted calls */

static volatile int futex_word;

static void on_alarm_wake(int sig)
{
	(void)sig;
	if (++alarms == 3)
		futex_word = 1;   /* the restarted wait sees it and returns */
}

static void arm_ms(long ms, long interval_ms)
{
	struct itimerval it = { { 0, interval_ms * 1000 }, { 0, ms * 1000 } };
	setitimer(ITIMER_REAL, &it, NULL);
}

static void check_restart(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm_wake;
	sa.sa_flags = SA_RESTART;
	CHECK_EQ(sigaction(SIGALRM, &sa, NULL), 0);
	alarms = 0;
	futex_word = 0;
	arm_ms(5, 5);
	/* Restarted after each handler until the third one changes the word. */
	long r = raw4(SYS_futex, (long)&futex_word, FUTEX_WAIT_PRIVATE, 0, 0);
	CHECK(r == -EAGAIN || r == 0, "FUTEX_WAIT under SA_RESTART returned %ld", r);
	CHECK(alarms >= 3, "FUTEX_WAIT returned after %d alarms", (int)alarms);
	arm_ms(0, 0);

	sa.sa_flags = 0;
	CHECK_EQ(sigaction(SIGALRM, &sa, NULL), 0);
	alarms = 0;
	futex_word = 0;
	arm_ms(5, 0);
	r = raw4(SYS_futex, (long)&futex_word, FUTEX_WAIT_PRIVATE, 0, 0);
	CHECK(r == -EINTR, "FUTEX_WAIT without SA_RESTART returned %ld", r);
	CHECK(alarms == 1, "alarms %d", (int)alarms);

	/* nanosleep: EINTR and the time left, even under SA_RESTART. */
	sa.sa_flags = SA_RESTART;
	CHECK_EQ(sigaction(SIGALRM, &sa, NULL), 0);
	alarms = 0;
	arm_ms(5, 0);
	struct timespec req = { 100, 0 }, rem = { -1, -1 };
	r = raw2(SYS_nanosleep, (long)&req, (long)&rem);
	CHECK(r == -EINTR, "nanosleep interrupted returned %ld", r);
	CHECK(rem.tv_sec >= 0 && rem.tv_sec < 100 && rem.tv_nsec >= 0 && rem.tv_nsec < 1000000000L,
	      "nanosleep's remaining time %lld.%09ld", (long long)rem.tv_sec, rem.tv_nsec);
	set_default(SIGALRM);
}

/* ------------------------------------------------------------ threads */

static volatile int thread_got;
static volatile long handler_tid;

static void on_thread_signal(int sig)
{
	(void)sig;
	handler_tid = raw0(SYS_gettid);
	thread_got++;
}

static volatile int thread_ready;

static void sleeper(void *arg)
{
	(void)arg;
	thread_ready = 1;
	/* Blocks in the kernel until the signal interrupts the wait. */
	while (!thread_got)
		raw4(SYS_futex, (long)&thread_ready, FUTEX_WAIT_PRIVATE, 1, 0);
}

static void check_thread_directed(void)
{
	/* No SA_RESTART: the sleeper's wait must end. */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_thread_signal;
	CHECK_EQ(sigaction(SIGUSR2, &sa, NULL), 0);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	/* The new thread inherits the unblocked mask; main blocks SIGUSR2, so a
	 * process-directed one must go to the sleeper. */
	struct myrmex_thread th;
	thread_got = 0;
	thread_ready = 0;
	if (myrmex_thread_create(&th, sleeper, NULL, 0) < 0) {
		test_fail("myrmex_thread_create failed");
		return;
	}
	CHECK_EQ(sigprocmask(SIG_BLOCK, &set, NULL), 0);
	while (!thread_ready)
		raw0(SYS_sched_yield);
	CHECK_EQ(kill((pid_t)raw0(SYS_getpid), SIGUSR2), 0);
	myrmex_thread_join(&th);
	CHECK(thread_got == 1, "the sleeping thread took %d signals", (int)thread_got);
	CHECK(handler_tid != raw0(SYS_gettid), "the handler ran on the thread that blocks it");
	CHECK_EQ(sigprocmask(SIG_UNBLOCK, &set, NULL), 0);
	set_default(SIGUSR2);
}

/* ------------------------------------------------------------ modes that die */

static int die_by_term(void)
{
	raise(SIGTERM);
	return 1;
}

static int die_blocked_fatal(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	raise(SIGUSR1);
	test_note("SIGUSR1 pending while blocked: still alive, as expected");
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "term") == 0)
		return die_by_term();
	if (argc > 1 && strcmp(argv[1], "blocked-fatal") == 0)
		return die_blocked_fatal();
	if (argc > 1 && strcmp(argv[1], "abort") == 0) {
		abort();
		return 1;
	}
	if (argc > 1) {
		test_fail("unknown mode \"%s\"", argv[1]);
		return 2;
	}
	check_basic();
	check_plain_and_resethand();
	check_nodefer();
	check_registers();
	check_blocked();
	check_sigsuspend();
	check_alarm_pause();
	check_setitimer();
	check_altstack();
	check_restart();
	check_thread_directed();
	return test_exit_code();
}
