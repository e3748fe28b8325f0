/*
 * t_signal_fault [mode]: handlers for the signals of faults.
 *
 * Without a mode: a SIGSEGV handler gets si_addr and si_code for a read of
 * an unmapped page (SEGV_MAPERR) and a write to a read-only one
 * (SEGV_ACCERR) and leaves with siglongjmp, again and again (the mask comes
 * back each time); a handler that makes the page writable with mprotect and
 * returns lets the faulting write run again and succeed; SIGILL (ud2),
 * SIGFPE (divide by zero) and SIGTRAP (int3) reach their handlers with the
 * faulting instruction in the context; a stack overflow is handled on the
 * alternate stack.
 *
 * Modes that must die with SIGSEGV (the test table checks it):
 *   no-handler       a null read without a handler
 *   blocked          a null read with a handler while SIGSEGV is blocked
 *   fault-in-handler the SIGSEGV handler faults itself
 *   overflow         a stack overflow with a handler but no alternate stack
 */
#define _GNU_SOURCE
#define TEST_NAME "t_signal_fault"
#include "test_check.h"

#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#define PAGE 4096L
#define UNMAPPED_ADDR 0x1000UL   /* below every mapping (USER_BASE on Myrmex) */

static sigjmp_buf jump_back;
static volatile int got_signo, got_code, handler_runs;
static volatile uintptr_t got_addr, got_rip;

static void note_fault(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	handler_runs++;
	got_signo = sig;
	got_code = si->si_code;
	got_addr = (uintptr_t)si->si_addr;
	got_rip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
}

static void jump_handler(int sig, siginfo_t *si, void *uc)
{
	note_fault(sig, si, uc);
	siglongjmp(jump_back, 1);
}

static void install(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	sigemptyset(&sa.sa_mask);
	CHECK_EQ(sigaction(sig, &sa, NULL), 0);
}

static void read_at(uintptr_t addr)
{
	unsigned long value;
	__asm__ volatile("mov (%1), %0" : "=r"(value) : "r"(addr) : "memory");
}

static void write_at(uintptr_t addr)
{
	__asm__ volatile("movb $1, (%0)" :: "r"(addr) : "memory");
}

static void check_longjmp(void)
{
	install(SIGSEGV, jump_handler, 0);
	for (int round = 0; round < 3; round++) {
		handler_runs = 0;
		if (sigsetjmp(jump_back, 1) == 0) {
			read_at(UNMAPPED_ADDR + 8);
			test_fail("round %d: the unmapped read went through", round);
		}
		CHECK(handler_runs == 1, "round %d: handler ran %d times", round, (int)handler_runs);
		CHECK(got_signo == SIGSEGV && got_code == SEGV_MAPERR,
		      "round %d: signal %d code %d", round, got_signo, got_code);
		CHECK(got_addr == UNMAPPED_ADDR + 8, "round %d: si_addr %#lx", round,
		      (unsigned long)got_addr);
	}
	char *page = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED) {
		test_fail("mmap failed");
		return;
	}
	if (sigsetjmp(jump_back, 1) == 0) {
		write_at((uintptr_t)page + 100);
		test_fail("a write to a read-only page went through");
	}
	CHECK(got_code == SEGV_ACCERR && got_addr == (uintptr_t)page + 100,
	      "read-only page: code %d addr %#lx", got_code, (unsigned long)got_addr);
	munmap(page, PAGE);
	signal(SIGSEGV, SIG_DFL);
}

static char *fix_page;

static void fix_handler(int sig, siginfo_t *si, void *uc)
{
	note_fault(sig, si, uc);
	if ((char *)si->si_addr >= fix_page && (char *)si->si_addr < fix_page + PAGE)
		mprotect(fix_page, PAGE, PROT_READ | PROT_WRITE);
}

static void check_fixup(void)
{
	fix_page = mmap(NULL, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (fix_page == MAP_FAILED) {
		test_fail("mmap failed");
		return;
	}
	install(SIGSEGV, fix_handler, 0);
	handler_runs = 0;
	volatile char *p = fix_page + 7;
	*p = 42;   /* faults once; runs again after the handler */
	CHECK(handler_runs == 1, "fixup: handler ran %d times", (int)handler_runs);
	CHECK(*p == 42, "fixup: the byte is %d after the retried write", *p);
	CHECK(got_addr == (uintptr_t)fix_page + 7, "fixup: si_addr %#lx",
	      (unsigned long)got_addr);
	munmap(fix_page, PAGE);
	signal(SIGSEGV, SIG_DFL);
}

/* The instructions that fault, with labels for their addresses. */
extern char ud_insn[], div_insn[], int3_after[];
#define ONCE __attribute__((noinline, noclone))   /* the labels must exist once */
ONCE static void do_ud(void) { __asm__ volatile("ud_insn: ud2"); }
ONCE static void do_div(void)
{
	__asm__ volatile("xor %%edx, %%edx\n xor %%ecx, %%ecx\n mov $1, %%eax\n"
	                 "div_insn: div %%ecx" ::: "rax", "rcx", "rdx");
}
ONCE static void do_int3(void) { __asm__ volatile("int3\n int3_after: nop"); }

static void check_other_faults(void)
{
	install(SIGILL, jump_handler, 0);
	if (sigsetjmp(jump_back, 1) == 0)
		do_ud();
	CHECK(got_signo == SIGILL && got_code == ILL_ILLOPN, "ud2: signal %d code %d", got_signo,
	      got_code);
	CHECK(got_rip == (uintptr_t)ud_insn && got_addr == (uintptr_t)ud_insn,
	      "ud2: rip %#lx addr %#lx, instruction at %p", (unsigned long)got_rip,
	      (unsigned long)got_addr, (void *)ud_insn);

	install(SIGFPE, jump_handler, 0);
	if (sigsetjmp(jump_back, 1) == 0)
		do_div();
	CHECK(got_signo == SIGFPE && got_code == FPE_INTDIV, "div: signal %d code %d", got_signo,
	      got_code);
	CHECK(got_rip == (uintptr_t)div_insn, "div: rip %#lx, instruction at %p",
	      (unsigned long)got_rip, (void *)div_insn);

	/* A trap: the context points after the instruction; returning goes on. */
	install(SIGTRAP, note_fault, 0);
	handler_runs = 0;
	do_int3();
	CHECK(handler_runs == 1 && got_signo == SIGTRAP, "int3: runs %d signal %d",
	      (int)handler_runs, got_signo);
	CHECK(got_rip == (uintptr_t)int3_after, "int3: rip %#lx, expected %p",
	      (unsigned long)got_rip, (void *)int3_after);
	signal(SIGILL, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGTRAP, SIG_DFL);
}

static volatile int stop_recursion;   /* never set: the compiler cannot know */

static int recurse(volatile char *caller_frame)
{
	volatile char frame[512];
	if (stop_recursion)
		return 0;
	frame[0] = (char)(caller_frame ? caller_frame[0] + 1 : 0);
	return recurse(frame) + frame[1];
}

#define ALT_SIZE (64 * 1024)

static void check_overflow_on_altstack(void)
{
	char *alt = mmap(NULL, ALT_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (alt == MAP_FAILED) {
		test_fail("mmap failed");
		return;
	}
	stack_t ss = { .ss_sp = alt, .ss_flags = 0, .ss_size = ALT_SIZE };
	CHECK_EQ(sigaltstack(&ss, NULL), 0);
	install(SIGSEGV, jump_handler, SA_ONSTACK);
	handler_runs = 0;
	if (sigsetjmp(jump_back, 1) == 0) {
		recurse(NULL);
		test_fail("the recursion ended");
	}
	CHECK(handler_runs == 1 && got_signo == SIGSEGV, "overflow: runs %d signal %d",
	      (int)handler_runs, got_signo);
	signal(SIGSEGV, SIG_DFL);
	stack_t off = { .ss_sp = NULL, .ss_flags = SS_DISABLE, .ss_size = 0 };
	sigaltstack(&off, NULL);
	munmap(alt, ALT_SIZE);
}

/* ------------------------------------------------------------ modes that die */

static void fault_again(int sig, siginfo_t *si, void *uc)
{
	note_fault(sig, si, uc);
	read_at(UNMAPPED_ADDR);   /* SIGSEGV is blocked in here: death */
}

static int die(const char *mode)
{
	if (strcmp(mode, "no-handler") == 0) {
		read_at(UNMAPPED_ADDR);
	} else if (strcmp(mode, "blocked") == 0) {
		install(SIGSEGV, jump_handler, 0);
		sigset_t set;
		sigemptyset(&set);
		sigaddset(&set, SIGSEGV);
		sigprocmask(SIG_BLOCK, &set, NULL);
		if (sigsetjmp(jump_back, 1) == 0)
			read_at(UNMAPPED_ADDR);
		test_fail("the handler of a blocked SIGSEGV ran");
	} else if (strcmp(mode, "fault-in-handler") == 0) {
		install(SIGSEGV, fault_again, 0);
		read_at(UNMAPPED_ADDR);
	} else if (strcmp(mode, "overflow") == 0) {
		install(SIGSEGV, jump_handler, 0);   /* no alternate stack: no room for it */
		if (sigsetjmp(jump_back, 1) == 0)
			recurse(NULL);
		test_fail("the overflow's handler ran on the overflowed stack");
	} else {
		test_fail("unknown mode \"%s\"", mode);
		return 2;
	}
	return 1;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		return die(argv[1]);
	check_longjmp();
	check_fixup();
	check_other_faults();
	check_overflow_on_altstack();
	return test_exit_code();
}
