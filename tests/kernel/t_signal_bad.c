/*
 * t_signal_bad [mode]: hostile and malformed input to the signal calls.
 *
 * Without a mode: every signal call with bad pointers, sizes, signal
 * numbers and flags fails with the error Linux gives, and changes nothing.
 *
 * Modes (the test table says how each must end):
 *   unmapped-stack     a handled signal arrives with %rsp unmapped: SIGSEGV
 *   no-restorer        a handler without SA_RESTORER: SIGSEGV
 *   kernel-handler     a handler address in the kernel: SIGSEGV
 *   noncanonical-handler  a handler in the canonical hole: SIGSEGV
 *   forged-rip         rt_sigreturn to a kernel rip: SIGSEGV
 *   forged-hole-rip    rt_sigreturn to a non-canonical rip: SIGSEGV
 *   forged-rsp         rt_sigreturn with a kernel rsp: SIGSEGV
 *   forged-mxcsr       rt_sigreturn with reserved MXCSR bits: SIGSEGV
 *   forged-fpstate     rt_sigreturn with the FPU state in the kernel: SIGSEGV
 *   forged-unmapped    rt_sigreturn with %rsp at an unmapped page: SIGSEGV
 *   forged-privilege   rt_sigreturn with IOPL 3 and the kernel's cs: the code
 *                      runs in user mode without I/O rights (an outb: SIGSEGV)
 *   forged-restore     rt_sigreturn of a forged frame restores every register
 *                      (rcx and r11 too), flags but IOPL/NT, the FPU state
 *                      and the mask (SIGKILL/SIGSTOP dropped): exit 0
 *   forged-nofpu       a frame without FPU state gives a clean FPU: exit 0
 */
#define _GNU_SOURCE
#define TEST_NAME "t_signal_bad"
#include "test_check.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

#define KERNEL_IMAGE_ADDR 0xffffffff80100000UL
#define NONCANONICAL_ADDR 0x0000800000000000UL
#define UNMAPPED_ADDR     0x1000UL
#ifndef SA_RESTORER
#define SA_RESTORER       0x04000000
#endif

/* The kernel's struct sigaction (x86-64). */
struct ksigaction {
	unsigned long handler, flags, restorer, mask;
};

static const long bad_pointers[] = { (long)KERNEL_IMAGE_ADDR, (long)NONCANONICAL_ADDR,
                                     (long)UNMAPPED_ADDR, -1L };
#define NBAD (sizeof bad_pointers / sizeof bad_pointers[0])

static void handler(int sig) { (void)sig; }

/* musl's restorer, read back from a sigaction it installed. */
static unsigned long musl_restorer(void)
{
	struct ksigaction k;
	signal(SIGUSR2, handler);
	raw4(SYS_rt_sigaction, SIGUSR2, 0, (long)&k, 8);
	signal(SIGUSR2, SIG_DFL);
	return k.restorer;
}

/* ------------------------------------------------------------ bad arguments */

static void check_sigaction(void)
{
	struct ksigaction k = { (unsigned long)handler, SA_RESTORER, musl_restorer(), 0 }, old;
	for (long size = 0; size <= 16; size += 4)
		if (size != 8)
			CHECK_EQ(raw4(SYS_rt_sigaction, SIGUSR1, (long)&k, 0, size), -EINVAL);
	static const long bad_signals[] = { 0, 65, 1000, -1, 0x7fffffffL, 0x100000041L };
	for (size_t i = 0; i < sizeof bad_signals / sizeof bad_signals[0]; i++)
		test_expect(raw4(SYS_rt_sigaction, bad_signals[i], (long)&k, 0, 8),
		            (const long[]){ -EINVAL }, 1, "rt_sigaction(%ld)", bad_signals[i]);
	CHECK_EQ(raw4(SYS_rt_sigaction, SIGKILL, (long)&k, 0, 8), -EINVAL);
	CHECK_EQ(raw4(SYS_rt_sigaction, SIGSTOP, (long)&k, 0, 8), -EINVAL);
	CHECK_EQ(raw4(SYS_rt_sigaction, SIGKILL, 0, (long)&old, 8), 0);
	CHECK(old.handler == 0, "SIGKILL's handler reads %#lx", old.handler);
	for (size_t i = 0; i < NBAD; i++) {
		test_expect(raw4(SYS_rt_sigaction, SIGUSR1, bad_pointers[i], 0, 8),
		            (const long[]){ -EFAULT }, 1, "rt_sigaction(act=%#lx)",
		            (unsigned long)bad_pointers[i]);
		test_expect(raw4(SYS_rt_sigaction, SIGUSR1, 0, bad_pointers[i], 8),
		            (const long[]){ -EFAULT }, 1, "rt_sigaction(oldact=%#lx)",
		            (unsigned long)bad_pointers[i]);
	}
	if (myrmex_is_native()) {
		/* Myrmex checks the old-action pointer before changing anything
		 * (Linux installs the new action and then fails). */
		CHECK_EQ(raw4(SYS_rt_sigaction, SIGUSR1, (long)&k, (long)KERNEL_IMAGE_ADDR, 8), -EFAULT);
		CHECK_EQ(raw4(SYS_rt_sigaction, SIGUSR1, 0, (long)&old, 8), 0);
		CHECK(old.handler == 0, "a failed rt_sigaction installed its handler");
	}
	/* Unknown flag bits are dropped, SIGKILL/SIGSTOP left out of the mask. */
	struct ksigaction odd = { (unsigned long)SIG_IGN, 0x00ff0000UL | SA_RESTORER, 0, ~0UL };
	CHECK_EQ(raw4(SYS_rt_sigaction, SIGUSR1, (long)&odd, 0, 8), 0);
	CHECK_EQ(raw4(SYS_rt_sigaction, SIGUSR1, 0, (long)&old, 8), 0);
	CHECK(!(old.mask & ((1UL << (SIGKILL - 1)) | (1UL << (SIGSTOP - 1)))),
	      "SIGKILL or SIGSTOP kept in sa_mask: %#lx", old.mask);
	signal(SIGUSR1, SIG_DFL);
}

static void check_sigprocmask(void)
{
	uint64_t set = 1UL << (SIGUSR1 - 1), old = 0, now = 0;
	for (long size = 0; size <= 16; size += 4)
		if (size != 8)
			CHECK_EQ(raw4(SYS_rt_sigprocmask, SIG_BLOCK, (long)&set, 0, size), -EINVAL);
	CHECK_EQ(raw4(SYS_rt_sigprocmask, 3, (long)&set, 0, 8), -EINVAL);
	CHECK_EQ(raw4(SYS_rt_sigprocmask, -1, (long)&set, 0, 8), -EINVAL);
	CHECK_EQ(raw4(SYS_rt_sigprocmask, 3, 0, (long)&old, 8), 0);   /* how unused */
	for (size_t i = 0; i < NBAD; i++) {
		test_expect(raw4(SYS_rt_sigprocmask, SIG_BLOCK, bad_pointers[i], 0, 8),
		            (const long[]){ -EFAULT }, 1, "rt_sigprocmask(set=%#lx)",
		            (unsigned long)bad_pointers[i]);
		test_expect(raw4(SYS_rt_sigprocmask, SIG_BLOCK, 0, bad_pointers[i], 8),
		            (const long[]){ -EFAULT }, 1, "rt_sigprocmask(oldset=%#lx)",
		            (unsigned long)bad_pointers[i]);
	}
	if (myrmex_is_native()) {
		CHECK_EQ(raw4(SYS_rt_sigprocmask, SIG_BLOCK, (long)&set, (long)KERNEL_IMAGE_ADDR, 8),
		         -EFAULT);
		CHECK_EQ(raw4(SYS_rt_sigprocmask, SIG_BLOCK, 0, (long)&now, 8), 0);
		CHECK(now == 0, "a failed rt_sigprocmask changed the mask to %#lx",
		      (unsigned long)now);
	}
	raw4(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0, 8);
}

static void check_other_calls(void)
{
	uint64_t mask = 0;
	CHECK_EQ(raw2(SYS_rt_sigpending, (long)&mask, 9), -EINVAL);
	CHECK_EQ(raw2(SYS_rt_sigpending, (long)&mask, -1), -EINVAL);
	CHECK_EQ(raw2(SYS_rt_sigpending, (long)&mask, 8), 0);
	CHECK_EQ(raw2(SYS_rt_sigsuspend, (long)&mask, 4), -EINVAL);
	CHECK_EQ(raw2(SYS_rt_sigsuspend, (long)&mask, 16), -EINVAL);
	for (size_t i = 0; i < NBAD; i++) {
		unsigned long bad = (unsigned long)bad_pointers[i];
		test_expect(raw2(SYS_rt_sigpending, (long)bad, 8), (const long[]){ -EFAULT }, 1,
		            "rt_sigpending(%#lx)", bad);
		test_expect(raw2(SYS_rt_sigsuspend, (long)bad, 8), (const long[]){ -EFAULT }, 1,
		            "rt_sigsuspend(%#lx)", bad);
		test_expect(raw2(SYS_sigaltstack, (long)bad, 0), (const long[]){ -EFAULT }, 1,
		            "sigaltstack(ss=%#lx)", bad);
		test_expect(raw2(SYS_sigaltstack, 0, (long)bad), (const long[]){ -EFAULT }, 1,
		            "sigaltstack(old=%#lx)", bad);
		test_expect(raw2(SYS_getitimer, ITIMER_REAL, (long)bad), (const long[]){ -EFAULT }, 1,
		            "getitimer(%#lx)", bad);
		test_expect(raw3(SYS_setitimer, ITIMER_REAL, (long)bad, 0), (const long[]){ -EFAULT },
		            1, "setitimer(new=%#lx)", bad);
	}

	long pid = raw0(SYS_getpid), tid = raw0(SYS_gettid);
	CHECK_EQ(raw2(SYS_kill, pid, 65), -EINVAL);
	CHECK_EQ(raw2(SYS_kill, pid, -1), -EINVAL);
	CHECK_EQ(raw2(SYS_tkill, 0, 0), -EINVAL);
	CHECK_EQ(raw2(SYS_tkill, -1, 0), -EINVAL);
	CHECK_EQ(raw2(SYS_tkill, tid, 65), -EINVAL);
	CHECK_EQ(raw2(SYS_tkill, 1 << 30, 0), -ESRCH);
	CHECK_EQ(raw2(SYS_tkill, tid, 0), 0);
	CHECK_EQ(raw3(SYS_tgkill, 0, tid, 0), -EINVAL);
	CHECK_EQ(raw3(SYS_tgkill, pid, 0, 0), -EINVAL);
	CHECK_EQ(raw3(SYS_tgkill, -1, tid, 0), -EINVAL);
	CHECK_EQ(raw3(SYS_tgkill, pid, 1 << 30, 0), -ESRCH);
	CHECK_EQ(raw3(SYS_tgkill, pid, tid, 0), 0);
	CHECK_EQ(raw3(SYS_tgkill, pid, tid, 65), -EINVAL);
	if (myrmex_is_native())
		CHECK_EQ(raw3(SYS_tgkill, 1, tid, 0), -ESRCH);   /* our tid is not in init */

	struct itimerval it = { { 0, 0 }, { 0, 1000000 } };
	CHECK_EQ(raw3(SYS_setitimer, ITIMER_REAL, (long)&it, 0), -EINVAL);
	it.it_value.tv_usec = -1;
	CHECK_EQ(raw3(SYS_setitimer, ITIMER_REAL, (long)&it, 0), -EINVAL);
	it.it_value.tv_usec = 0;
	it.it_value.tv_sec = -1;
	CHECK_EQ(raw3(SYS_setitimer, ITIMER_REAL, (long)&it, 0), -EINVAL);
	it.it_value.tv_sec = 1000;
	it.it_interval.tv_usec = 2000000;
	CHECK_EQ(raw3(SYS_setitimer, ITIMER_REAL, (long)&it, 0), -EINVAL);
	CHECK_EQ(raw3(SYS_setitimer, 3, (long)&it, 0), -EINVAL);
	CHECK_EQ(raw3(SYS_setitimer, -1, (long)&it, 0), -EINVAL);
	CHECK_EQ(raw2(SYS_getitimer, 3, (long)&it), -EINVAL);
	/* A huge alarm, then cancelled: nothing fires. */
	CHECK_EQ(raw1(SYS_alarm, 0xffffffffL), 0);
	long left = raw1(SYS_alarm, 0);
	CHECK(left >= 0xfffffffeL, "alarm(0) after alarm(2^32-1) returned %ld", left);
}

/* ------------------------------------------------------------ deadly modes */

/* Ends the process with exit_group(1) without using the stack. */
#define EXIT_1_WITHOUT_STACK "mov $231, %%eax\n\tmov $1, %%edi\n\tsyscall\n\t"

static int unmapped_stack(void)
{
	signal(SIGUSR1, handler);
	long tid = raw0(SYS_gettid);
	__asm__ volatile("mov %0, %%rsp\n\t"
	                 "mov $200, %%eax\n\t"   /* tkill(tid, SIGUSR1) */
	                 "syscall\n\t"
	                 EXIT_1_WITHOUT_STACK
	                 :: "r"(UNMAPPED_ADDR + 0x800), "D"(tid), "S"((long)SIGUSR1)
	                 : "rax", "rcx", "r11", "memory");
	__builtin_unreachable();
}

static int raw_handler(unsigned long address, unsigned long flags)
{
	struct ksigaction k = { address, flags, musl_restorer(), 0 };
	CHECK_EQ(raw4(SYS_rt_sigaction, SIGUSR1, (long)&k, 0, 8), 0);
	raw2(SYS_tkill, raw0(SYS_gettid), SIGUSR1);
	return 1;
}

/* A forged frame: the ucontext rt_sigreturn reads at %rsp, its FPU area,
 * and a stack for the code it returns to. */
static ucontext_t forged __attribute__((aligned(64)));
static uint8_t forged_fpu[512] __attribute__((aligned(64)));
static uint8_t landing_stack[16384] __attribute__((aligned(16)));

__attribute__((noreturn)) static void forged_sigreturn(void)
{
	__asm__ volatile("mov %0, %%rsp\n\t"
	                 "mov $15, %%eax\n\t"   /* rt_sigreturn */
	                 "syscall\n\t"
	                 EXIT_1_WITHOUT_STACK
	                 :: "r"(&forged) : "rax", "memory");
	__builtin_unreachable();
}

/* Results of the landing code. */
uint64_t got_regs[16], got_flags, got_mask;
uint16_t got_cs;
uint32_t got_mxcsr;
uint8_t got_xmm0[16];

/* rax rcx r11 rdx rsi rdi r8 r9 r10 rbx rbp r12 r13 r14 r15 */
static const int reg_index[15] = { REG_RAX, REG_RCX, REG_R11, REG_RDX, REG_RSI, REG_RDI, REG_R8,
                                   REG_R9, REG_R10, REG_RBX, REG_RBP, REG_R12, REG_R13, REG_R14,
                                   REG_R15 };

void landing(void);
__attribute__((used, noreturn)) void landing_check(void);
__asm__(
	".text\n"
	".globl landing\n"
	"landing:\n"
	"mov %rax, got_regs+0(%rip)\n mov %rcx, got_regs+8(%rip)\n mov %r11, got_regs+16(%rip)\n"
	"mov %rdx, got_regs+24(%rip)\n mov %rsi, got_regs+32(%rip)\n mov %rdi, got_regs+40(%rip)\n"
	"mov %r8, got_regs+48(%rip)\n mov %r9, got_regs+56(%rip)\n mov %r10, got_regs+64(%rip)\n"
	"mov %rbx, got_regs+72(%rip)\n mov %rbp, got_regs+80(%rip)\n mov %r12, got_regs+88(%rip)\n"
	"mov %r13, got_regs+96(%rip)\n mov %r14, got_regs+104(%rip)\n mov %r15, got_regs+112(%rip)\n"
	"pushfq\n pop got_flags(%rip)\n"
	"movw %cs, got_cs(%rip)\n"
	"stmxcsr got_mxcsr(%rip)\n"
	"movdqu %xmm0, got_xmm0(%rip)\n"
	"cld\n"
	"jmp landing_check\n");

#define FL_CF 0x1UL
#define FL_ZF 0x40UL
#define FL_DF 0x400UL
#define FL_IF 0x200UL
#define FL_IOPL 0x3000UL
#define FL_NT 0x4000UL

static int expect_clean_fpu;

void landing_check(void)
{
	/* The mask came back without SIGKILL and SIGSTOP. */
	raw4(SYS_rt_sigprocmask, SIG_BLOCK, 0, (long)&got_mask, 8);
	for (int i = 0; i < 15; i++)
		CHECK(got_regs[i] == (uint64_t)forged.uc_mcontext.gregs[reg_index[i]],
		      "register %d: %#lx, the frame had %#lx", i, (unsigned long)got_regs[i],
		      (unsigned long)forged.uc_mcontext.gregs[reg_index[i]]);
	CHECK((got_flags & (FL_CF | FL_ZF | FL_DF | FL_IF)) == (FL_CF | FL_ZF | FL_DF | FL_IF),
	      "flags %#lx lack CF, ZF, DF or IF", (unsigned long)got_flags);
	CHECK(!(got_flags & (FL_IOPL | FL_NT)), "flags %#lx keep IOPL or NT",
	      (unsigned long)got_flags);
	CHECK((got_cs & 3) == 3, "cs %#x is not a user selector", got_cs);
	CHECK(got_mask == (1UL << (SIGUSR2 - 1)), "mask after rt_sigreturn: %#lx",
	      (unsigned long)got_mask);
	if (expect_clean_fpu) {
		CHECK(got_mxcsr == 0x1f80, "MXCSR %#x, expected the default", got_mxcsr);
	} else {
		CHECK(got_mxcsr == 0x3f80, "MXCSR %#x, expected 0x3f80", got_mxcsr);
		uint8_t want[16];
		memset(want, 0xa5, sizeof want);
		CHECK(memcmp(got_xmm0, want, 16) == 0, "xmm0 not restored");
	}
	raw1(SYS_exit_group, test_exit_code());
	__builtin_unreachable();
}

static void landing_privileged(void)
{
	uint16_t cs;
	__asm__ volatile("movw %%cs, %0" : "=r"(cs));
	if ((cs & 3) != 3) {
		test_fail("running with cs %#x", cs);
		raw1(SYS_exit_group, 1);
	}
	/* With I/O rights this would work and the process exit 1 below. */
	__asm__ volatile("outb %%al, $0x80" :: "a"(0));
	test_fail("outb worked after rt_sigreturn with IOPL 3");
	raw1(SYS_exit_group, 1);
}

/* A valid frame that returns to landing on landing_stack. */
static void build_frame(void)
{
	memset(&forged, 0, sizeof forged);
	for (int i = 0; i < 15; i++)
		forged.uc_mcontext.gregs[reg_index[i]] = (greg_t)(0x1111111111111111ULL * (i + 1) + i);
	forged.uc_mcontext.gregs[REG_RIP] = (greg_t)landing;
	forged.uc_mcontext.gregs[REG_RSP] = (greg_t)(landing_stack + sizeof landing_stack - 8);
	forged.uc_mcontext.gregs[REG_EFL] = (greg_t)(FL_CF | FL_ZF | FL_DF | FL_IF | 0x2);
	forged.uc_mcontext.gregs[REG_CSGSFS] = 0x33;   /* ignored: the kernel forces its own */
	__asm__ volatile("fxsave %0" : "=m"(forged_fpu));
	memset(forged_fpu + 464, 0, 48);   /* no extended-state marker */
	uint32_t mxcsr = 0x3f80;
	memcpy(forged_fpu + 24, &mxcsr, 4);
	memset(forged_fpu + 160, 0xa5, 16);   /* xmm0 */
	forged.uc_mcontext.fpregs = (fpregset_t)forged_fpu;
	uint64_t mask = (1UL << (SIGUSR2 - 1)) | (1UL << (SIGKILL - 1)) | (1UL << (SIGSTOP - 1));
	memcpy(&forged.uc_sigmask, &mask, sizeof mask);
}

static int forge(const char *mode)
{
	build_frame();
	greg_t *g = forged.uc_mcontext.gregs;
	if (strcmp(mode, "forged-rip") == 0) {
		g[REG_RIP] = (greg_t)KERNEL_IMAGE_ADDR;
	} else if (strcmp(mode, "forged-hole-rip") == 0) {
		g[REG_RIP] = (greg_t)NONCANONICAL_ADDR;
	} else if (strcmp(mode, "forged-rsp") == 0) {
		g[REG_RSP] = (greg_t)KERNEL_IMAGE_ADDR;
	} else if (strcmp(mode, "forged-mxcsr") == 0) {
		uint32_t mxcsr = 0xffff1f80u;
		memcpy(forged_fpu + 24, &mxcsr, 4);
	} else if (strcmp(mode, "forged-fpstate") == 0) {
		forged.uc_mcontext.fpregs = (fpregset_t)KERNEL_IMAGE_ADDR;
	} else if (strcmp(mode, "forged-unmapped") == 0) {
		__asm__ volatile("mov %0, %%rsp\n\t"
		                 "mov $15, %%eax\n\t"
		                 "syscall\n\t"
		                 EXIT_1_WITHOUT_STACK
		                 :: "r"(UNMAPPED_ADDR + 0x800) : "rax", "memory");
	} else if (strcmp(mode, "forged-privilege") == 0) {
		g[REG_RIP] = (greg_t)landing_privileged;
		g[REG_EFL] = (greg_t)(FL_IOPL | FL_NT | FL_IF | 0x2);
		g[REG_CSGSFS] = (greg_t)(0x08 | (0x10ULL << 48));   /* kernel cs and ss */
	} else if (strcmp(mode, "forged-restore") == 0) {
		g[REG_EFL] |= (greg_t)(FL_IOPL | FL_NT);   /* dropped */
	} else if (strcmp(mode, "forged-nofpu") == 0) {
		forged.uc_mcontext.fpregs = NULL;
		expect_clean_fpu = 1;
	} else {
		test_fail("unknown mode \"%s\"", mode);
		return 2;
	}
	forged_sigreturn();
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		const char *mode = argv[1];
		if (strcmp(mode, "unmapped-stack") == 0)
			return unmapped_stack();
		if (strcmp(mode, "no-restorer") == 0)
			return raw_handler((unsigned long)handler, 0);
		if (strcmp(mode, "kernel-handler") == 0)
			return raw_handler(KERNEL_IMAGE_ADDR, SA_RESTORER);
		if (strcmp(mode, "noncanonical-handler") == 0)
			return raw_handler(NONCANONICAL_ADDR, SA_RESTORER);
		return forge(mode);
	}
	check_sigaction();
	check_sigprocmask();
	check_other_calls();
	return test_exit_code();
}
