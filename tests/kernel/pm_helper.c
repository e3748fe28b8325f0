/*
 * pm_helper: the helper module of the process-manager tests (not a test
 * itself). It makes PM_FORK and PM_EXEC requests to the test, which plays
 * the process manager, and checks what fork made of its memory and
 * registers; its modes are listed in pm_test.h.
 *
 * A forked child resumes inside the callsync as a copy of the caller, with
 * return value 0, so both sides come back from the same call: they tell
 * each other apart by getpid(). The child has no ICA (the ICA window is not
 * copied) and must not touch the control ICA.
 */
#define _GNU_SOURCE
#define TEST_NAME "pm_helper"
#include "test_check.h"
#include "pm_test.h"

#include <stdlib.h>
#include <sys/mman.h>

#define PAGE 4096u
#define DATA_PAGES 128        /* written before the fork: shared, then copied */
#define REG_MAGIC 0x5a5a000000000000ull
#define ARCH_GET_FS 0x1003

/* ------------------------------------------------------------ calls */

/* The registers a fork must hand to the child as they were: callee-saved,
 * loaded with REG_MAGIC + 1..6 around the system call. */
struct call_regs {
	uint64_t rax, rbx, rbp, r12, r13, r14, r15;
};

/* long pm_call_regs(long nr, void *ctl, struct call_regs *out): callsync
 * with the registers above; out receives them after the call (in a forked
 * child too, which resumes here on a copy of this stack). */
long pm_call_regs(long nr, void *ctl, struct call_regs *out);
__asm__(".text\n"
        ".globl pm_call_regs\n"
        ".type pm_call_regs, @function\n"
        "pm_call_regs:\n"
        "	push %rbx\n"
        "	push %rbp\n"
        "	push %r12\n"
        "	push %r13\n"
        "	push %r14\n"
        "	push %r15\n"
        "	push %rdx\n"
        "	mov %rdi, %rax\n"
        "	mov %rsi, %rdi\n"
        "	movabs $0x5a5a000000000001, %rbx\n"
        "	movabs $0x5a5a000000000002, %rbp\n"
        "	movabs $0x5a5a000000000003, %r12\n"
        "	movabs $0x5a5a000000000004, %r13\n"
        "	movabs $0x5a5a000000000005, %r14\n"
        "	movabs $0x5a5a000000000006, %r15\n"
        "	syscall\n"
        "	pop %rcx\n"
        "	mov %rax, 0(%rcx)\n"
        "	mov %rbx, 8(%rcx)\n"
        "	mov %rbp, 16(%rcx)\n"
        "	mov %r12, 24(%rcx)\n"
        "	mov %r13, 32(%rcx)\n"
        "	mov %r14, 40(%rcx)\n"
        "	mov %r15, 48(%rcx)\n"
        "	pop %r15\n"
        "	pop %r14\n"
        "	pop %r13\n"
        "	pop %r12\n"
        "	pop %rbp\n"
        "	pop %rbx\n"
        "	ret\n");

/* long pm_call_new_stack(long nr, void *ctl, void (*child)(uint64_t rsp)):
 * callsync; a child resuming on another stack calls child(its rsp) there
 * (it does not return); the caller returns the system call's result. */
long pm_call_new_stack(long nr, void *ctl, void (*child)(uint64_t rsp));
__asm__(".text\n"
        ".globl pm_call_new_stack\n"
        ".type pm_call_new_stack, @function\n"
        "pm_call_new_stack:\n"
        "	push %rbx\n"
        "	push %r12\n"
        "	mov %rdx, %r12\n"
        "	mov %rsp, %rbx\n"
        "	mov %rdi, %rax\n"
        "	mov %rsi, %rdi\n"
        "	syscall\n"
        "	cmp %rsp, %rbx\n"
        "	je 1f\n"
        "	mov %rsp, %rdi\n"
        "	and $-16, %rsp\n"
        "	call *%r12\n"
        "	ud2\n"
        "1:	pop %r12\n"
        "	pop %rbx\n"
        "	ret\n");

static struct myrmex_ctl_header *ctl;

/* A control ICA with one frame for the process manager: op, arg[0] our tid. */
static struct myrmex_frame *request(uint32_t op)
{
	if (!ctl) {
		long handle = myrmex_ica_alloc(1);
		if (handle < 0) {
			test_fail("ica_alloc: %ld", handle);
			exit(1);
		}
		ctl = myrmex_ica_addr((uint32_t)handle);
	}
	myrmex_ctl_init(ctl);
	struct myrmex_frame *f = myrmex_ctl_push(ctl, 1, MYRMEX_COREID_PM, op);
	f->arg[0] = (uint64_t)raw0(SYS_gettid);
	return f;
}

/* The result's status, or the call's error. */
static long status_of(long call)
{
	if (call < 0)
		return call;
	struct myrmex_frame *r = myrmex_ctl_result(ctl);
	return r ? (long)r->status : -EIO;
}

/* callsync, again while no process manager is registered yet. */
static long call_when_ready(void)
{
	long r = -ESRCH;
	for (int tries = 0; tries < 5000 && r == -ESRCH; tries++) {
		r = myrmex_callsync(ctl);
		if (r == -ESRCH)
			myrmex_sleep_ns(PM_MS);
	}
	return r;
}

static void child_exit(int failures) __attribute__((noreturn));

static void *anon_map(size_t bytes)
{
	long r = myrmex_syscall6(SYS_mmap, 0, (long)bytes, PROT_READ | PROT_WRITE,
	                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return r < 0 ? NULL : (void *)r;
}

/* ------------------------------------------------------------ cow */

static char data_area[DATA_PAGES * PAGE];   /* .bss, written before the fork */
static char untouched[2 * PAGE];            /* .bss, absent at the fork */
static int initialized_word = 1234;         /* .data */
static char kernel_written[PAGE] __attribute__((aligned(PAGE)));   /* the kernel writes it */

struct cow_state {
	char *heap, *anon, *ro, *gone;
	char *shared;   /* MAP_SHARED|MAP_ANONYMOUS, SHARED_BYTES: not copied */
	long pid;
	uint64_t fs;
	struct call_regs regs;
};

static int all_are(const char *p, size_t n, char c)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != c)
			return 0;
	return 1;
}

#define HEAP_BYTES (16 * PAGE)
#define ANON_BYTES (4 * PAGE)
#define SHARED_BYTES (2 * PAGE)

/* The child: a copy of the parent as it was at the fork. */
static void cow_child(const struct cow_state *s, const char *stack_area, size_t stack_size)
{
	int before = *test_failure_count();
	const struct call_regs *r = &s->regs;
	CHECK(r->rax == 0, "child: the call returned %#lx, not 0", (unsigned long)r->rax);
	CHECK(r->rbx == REG_MAGIC + 1 && r->rbp == REG_MAGIC + 2 && r->r12 == REG_MAGIC + 3 &&
	      r->r13 == REG_MAGIC + 4 && r->r14 == REG_MAGIC + 5 && r->r15 == REG_MAGIC + 6,
	      "child: callee-saved registers changed by the fork");
	CHECK(raw0(SYS_getppid) == s->pid, "child: getppid %ld, parent %ld", raw0(SYS_getppid),
	      s->pid);
	CHECK(raw0(SYS_gettid) == raw0(SYS_getpid), "child: tid is not the pid");
	uint64_t fs = 0;
	raw2(SYS_arch_prctl, ARCH_GET_FS, (long)&fs);
	CHECK(fs == s->fs, "child: FS base %#lx, parent's %#lx", (unsigned long)fs,
	      (unsigned long)s->fs);
	/* What the parent wrote after the fork is not here. */
	CHECK(all_are(data_area, sizeof(data_area), 'P'), "child: .bss not as at the fork");
	CHECK(initialized_word == 1234, "child: .data %d", initialized_word);
	CHECK(all_are(s->heap, HEAP_BYTES, 'H'), "child: heap not as at the fork");
	CHECK(all_are(s->anon, ANON_BYTES, 'M'), "child: mmap not as at the fork");
	CHECK(all_are(s->ro, PAGE, 'R'), "child: read-only mapping not as at the fork");
	CHECK(all_are(s->gone, PAGE, 'U'), "child: mapping to unmap not as at the fork");
	CHECK(all_are(stack_area, stack_size, 'S'), "child: stack not as at the fork");
	CHECK(all_are(untouched, sizeof(untouched), 0), "child: untouched .bss not zero");
	CHECK(all_are(kernel_written, PAGE, 'K'), "child: page not as at the fork");
	/* The shared mapping: the parent's write after the fork is here. */
	CHECK(all_are(s->shared, PAGE, 'B'), "child: shared page 1 lacks the parent's write");
	CHECK(all_are(s->shared + PAGE, PAGE, 'A'), "child: shared page 2 not as at the fork");
	memset(s->shared + PAGE, 'c', PAGE);
	CHECK_EQ(raw2(SYS_clock_gettime, 1, (long)(s->shared + PAGE)), 0);   /* the kernel's */
	CHECK_EQ(raw2(SYS_munmap, (long)s->shared, PAGE), 0);
	/* Its own writes, which the parent must not see: the kernel's first, into
	 * a page still shared (a copy-on-write fault in a user copy). */
	CHECK_EQ(raw2(SYS_clock_gettime, 1, (long)kernel_written), 0);
	CHECK(!all_are(kernel_written, 16, 'K'), "child: clock_gettime wrote nothing");
	memset(data_area, 'C', sizeof(data_area));
	initialized_word = 99;
	memset(s->heap, 'C', HEAP_BYTES);
	memset(s->anon, 'C', ANON_BYTES);
	memset((char *)stack_area, 'C', stack_size);
	memset(untouched, 'Z', sizeof(untouched));
	/* A shared read-only page made writable stays copy-on-write. */
	CHECK_EQ(raw3(SYS_mprotect, (long)s->ro, PAGE, PROT_READ | PROT_WRITE), 0);
	memset(s->ro, 'X', PAGE);
	CHECK_EQ(raw2(SYS_munmap, (long)s->gone, PAGE), 0);
	CHECK(all_are(data_area, sizeof(data_area), 'C'), "child: its own writes did not stick");
	child_exit(*test_failure_count() - before);
}

static int mode_cow(void)
{
	static struct cow_state s;
	char stack_area[2 * PAGE];
	memset(data_area, 'P', sizeof(data_area));
	memset(kernel_written, 'K', sizeof(kernel_written));
	memset(stack_area, 'S', sizeof(stack_area));
	s.heap = malloc(HEAP_BYTES);
	s.anon = anon_map(ANON_BYTES);
	s.ro = anon_map(PAGE);
	s.gone = anon_map(PAGE);
	long sh = myrmex_syscall6(SYS_mmap, 0, SHARED_BYTES, PROT_READ | PROT_WRITE,
	                          MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	s.shared = sh < 0 ? NULL : (char *)sh;
	if (!s.heap || !s.anon || !s.ro || !s.gone || !s.shared) {
		test_fail("cow: memory for the test");
		return 1;
	}
	memset(s.heap, 'H', HEAP_BYTES);
	memset(s.anon, 'M', ANON_BYTES);
	memset(s.ro, 'R', PAGE);
	memset(s.gone, 'U', PAGE);
	memset(s.shared, 'A', SHARED_BYTES);
	CHECK_EQ(raw3(SYS_mprotect, (long)s.ro, PAGE, PROT_READ), 0);
	s.pid = raw0(SYS_getpid);
	raw2(SYS_arch_prctl, ARCH_GET_FS, (long)&s.fs);

	request(PM_FORK);
	long r = pm_call_regs(MYRMEX_SYS_CALLSYNC, ctl, &s.regs);
	if (raw0(SYS_getpid) != s.pid)
		cow_child(&s, stack_area, sizeof(stack_area));
	long child = status_of(r);
	if (child <= 0) {
		test_fail("cow: PM_FORK gave %ld (call %ld)", child, r);
		return 1;
	}
	CHECK(s.regs.rbx == REG_MAGIC + 1 && s.regs.r15 == REG_MAGIC + 6,
	      "parent: callee-saved registers changed");
	/* The parent writes first; then the child starts and looks. */
	memset(data_area, 'Q', sizeof(data_area));
	memset(s.heap, 'Q', HEAP_BYTES);
	memset(s.anon, 'Q', ANON_BYTES);
	memset(stack_area, 'Q', sizeof(stack_area));
	memset(s.shared, 'B', PAGE);
	initialized_word = 5678;
	struct myrmex_frame *f = request(PM_T_START);
	f->arg[0] = (uint64_t)child;
	CHECK_EQ(status_of(myrmex_callsync(ctl)), 0);
	pm_expect_exit(child, PM_CHILD_OK, "the forked child");
	/* None of the child's writes reached us. */
	CHECK(all_are(data_area, sizeof(data_area), 'Q'), "parent: .bss changed by the child");
	CHECK(initialized_word == 5678, "parent: .data %d", initialized_word);
	CHECK(all_are(s.heap, HEAP_BYTES, 'Q'), "parent: heap changed by the child");
	CHECK(all_are(s.anon, ANON_BYTES, 'Q'), "parent: mmap changed by the child");
	CHECK(all_are(s.ro, PAGE, 'R'), "parent: read-only mapping changed by the child");
	CHECK(all_are(s.gone, PAGE, 'U'), "parent: the child's munmap took our page");
	CHECK(all_are(stack_area, sizeof(stack_area), 'Q'), "parent: stack changed by the child");
	CHECK(all_are(untouched, sizeof(untouched), 0), "parent: untouched .bss not zero");
	CHECK(all_are(kernel_written, PAGE, 'K'), "parent: the child's clock_gettime reached us");
	/* The shared mapping: the child's writes (its own and the kernel's) are
	 * here, and its munmap left our page. */
	CHECK(all_are(s.shared, PAGE, 'B'), "parent: shared page 1 lost by the child's munmap");
	CHECK(!all_are(s.shared + PAGE, 16, 'c') && all_are(s.shared + PAGE + 16, PAGE - 16, 'c'),
	      "parent: shared page 2 lacks the child's writes");
	CHECK_EQ(raw2(SYS_munmap, (long)s.shared, SHARED_BYTES), 0);
	/* Our copy-on-write pages are writable again, and still read-only where
	 * the region says so. */
	memset(s.anon, 'W', ANON_BYTES);
	CHECK(all_are(s.anon, ANON_BYTES, 'W'), "parent: writing after the child ended");
	CHECK_EQ(raw3(SYS_mprotect, (long)s.ro, PAGE, PROT_READ | PROT_WRITE), 0);
	s.ro[0] = 'w';
	CHECK_EQ(raw4(SYS_wait4, -1, 0, WNOHANG, 0), -ECHILD);
	return test_exit_code();
}

/* ------------------------------------------------------------ block */

static char sp_stack[4 * PAGE] __attribute__((aligned(16)));

static void child_on_new_stack(uint64_t rsp)
{
	int ok = rsp > (uint64_t)sp_stack && rsp <= (uint64_t)sp_stack + sizeof(sp_stack);
	if (!ok)
		test_fail("child: rsp %#lx, not on the stack given (%p)", (unsigned long)rsp,
		          (void *)sp_stack);
	child_exit(!ok);
}

/* Gives back most of the stack region's commitment: the 7 MiB below the
 * 256 KiB under the stack pointer. Then the test's many forks of this
 * process fit in the memory budget, and the limit they meet is PROC_MAX. */
static void slim_stack(void)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0) & ~(uintptr_t)(PAGE - 1);
	uintptr_t keep = 256u * 1024u, drop = 7u * 1024u * 1024u;
	CHECK_EQ(raw2(SYS_munmap, (long)(sp - keep - drop), (long)drop), 0);
}

static int mode_block(int new_stack)
{
	long me = raw0(SYS_getpid);
	slim_stack();
	struct myrmex_frame *f = request(PM_FORK);
	long r;
	if (new_stack) {
		f->arg[1] = (uint64_t)(uintptr_t)(sp_stack + sizeof(sp_stack));
		for (r = -ESRCH; r == -ESRCH;) {
			r = pm_call_new_stack(MYRMEX_SYS_CALLSYNC, ctl, child_on_new_stack);
			if (r == -ESRCH)
				myrmex_sleep_ns(PM_MS);
		}
	} else {
		r = call_when_ready();
	}
	if (raw0(SYS_getpid) != me)
		child_exit(0);
	long child = status_of(r);
	if (child > 0)
		pm_expect_exit(child, PM_CHILD_OK, "the forked child");
	/* Discarded and abandoned children leave nothing to wait for. */
	CHECK_EQ(raw4(SYS_wait4, -1, 0, WNOHANG, 0), -ECHILD);
	return test_exit_code();
}

/* ------------------------------------------------------------ others */

static int mode_notpm(void)
{
	struct myrmex_exec how;
	memset(&how, 0, sizeof(how));
	CHECK_EQ(myrmex_proc_fork((int)raw0(SYS_gettid), 0), -EPERM);
	CHECK_EQ(myrmex_proc_start((int)raw0(SYS_getpid), 0), -EPERM);
	CHECK_EQ(myrmex_proc_exec((int)raw0(SYS_gettid), &how), -EPERM);
	return test_exit_code();
}

/* A short-lived process manager that forks and walks away. */
static int mode_abandon_pm(void)
{
	long r = myrmex_registserver(MYRMEX_COREID_PM);
	if (r != 0) {
		test_fail("abandon-pm: registserver: %ld", r);
		return 1;
	}
	struct myrmex_delivery d;
	struct myrmex_frame *f = pm_take(&d);
	if (!f || d.opcode != PM_FORK)
		return 1;
	for (int i = 0; i < PM_ABANDON_FORKS; i++) {
		long pid = myrmex_proc_fork((int)f->arg[0], 0);
		CHECK(pid > 0, "abandon-pm: proc_fork #%d: %ld", i, pid);
	}
	return test_exit_code();   /* unanswered, unstarted: the kernel cleans up */
}

static int mode_exec(void)
{
	static char pattern[8 * PAGE];
	memset(pattern, 'E', sizeof(pattern));
	long me = raw0(SYS_getpid);
	request(PM_EXEC);
	long first = status_of(call_when_ready());
	/* The failed exec left us as we were. */
	CHECK(first < 0, "exec: the first PM_EXEC gave %ld, expected an error", first);
	CHECK(raw0(SYS_getpid) == me, "exec: pid changed");
	CHECK(all_are(pattern, sizeof(pattern), 'E'), "exec: memory changed by a failed exec");
	request(PM_EXEC);
	long second = status_of(myrmex_callsync(ctl));
	test_fail("exec: the second PM_EXEC came back: %ld", second);
	return PM_EXEC_RETURNED;
}

/* ------------------------------------------------------------ exec-threads */

static volatile int started, never;

static void spinner(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&started, 1, __ATOMIC_RELEASE);
	for (;;)
		__asm__ volatile("pause");
}

static void sleeper(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&started, 1, __ATOMIC_RELEASE);
	for (;;)
		myrmex_futex_wait(&never, 0, -1);
}

static void holder(void *arg)
{
	(void)arg;
	long handle = myrmex_ica_alloc(1);
	struct myrmex_ctl_header *h =
		handle < 0 ? NULL : myrmex_ctl_init(myrmex_ica_addr((uint32_t)handle));
	struct myrmex_frame *f = h ? myrmex_ctl_push(h, 1, MYRMEX_COREID_PM, PM_T_HOLD) : NULL;
	if (f)
		f->arg[0] = (uint64_t)raw0(SYS_gettid);
	__atomic_add_fetch(&started, 1, __ATOMIC_RELEASE);
	if (f)
		myrmex_callsync(h);
	for (;;)
		myrmex_futex_wait(&never, 0, -1);
}

static int mode_exec_threads(void)
{
	static struct myrmex_thread threads[3];
	void (*fns[3])(void *) = { spinner, sleeper, holder };
	for (int i = 0; i < 3; i++)
		if (myrmex_thread_create(&threads[i], fns[i], NULL, 0) < 0)
			test_fail("exec-threads: thread %d", i);
	while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) < 3)
		raw0(SYS_sched_yield);
	request(PM_EXEC);
	long r = status_of(call_when_ready());
	test_fail("exec-threads: PM_EXEC came back: %ld", r);
	return PM_EXEC_RETURNED;
}

/* ------------------------------------------------------------ main */

static void child_exit(int failures)
{
	raw1(SYS_exit_group, failures ? 10 + failures : PM_CHILD_OK);
	for (;;)
		;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "cow") == 0)
		return mode_cow();
	if (strcmp(mode, "block") == 0)
		return mode_block(0);
	if (strcmp(mode, "block-sp") == 0)
		return mode_block(1);
	if (strcmp(mode, "notpm") == 0)
		return mode_notpm();
	if (strcmp(mode, "abandon-pm") == 0)
		return mode_abandon_pm();
	if (strcmp(mode, "exec") == 0)
		return mode_exec();
	if (strcmp(mode, "exec-threads") == 0)
		return mode_exec_threads();
	test_fail("unknown mode \"%s\"", mode);
	return 2;
}
