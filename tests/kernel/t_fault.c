/*
 * t_fault <kind>: does one forbidden thing so that the kernel kills the
 * process with the matching signal (the test init checks the wait status).
 * If the forbidden thing does not kill it, the program exits 1. A few kinds
 * are helpers for other tests (spin, sleep) or must survive (hostile-rsp).
 *
 *   kind                  what it does                                signal
 *   null-read/-write      access address 0                            SEGV
 *   kernel-read/-write    access the kernel image (0xffffffff80100000) SEGV
 *   physmap-read/-write   access the kernel's map of physical memory  SEGV
 *   exec-nx               call a writable, non-executable page (ret)  SEGV
 *   exec-kernel           call into the kernel image                  SEGV
 *   noncanonical          read 0x0000800000000000 (#GP)               SEGV
 *   privileged            hlt in user mode (#GP)                      SEGV
 *   port-io               outb to the isa-debug-exit port (#GP)       SEGV
 *   read-cr3              mov from %cr3 (#GP)                         SEGV
 *   soft-int              int $14, int $32: kernel vectors (#GP)      SEGV
 *   ud                    ud2 (#UD)                                   ILL
 *   divide                integer divide by zero (#DE)                FPE
 *   int3                  breakpoint (#BP)                            TRAP
 *   stack-overflow        unbounded recursion                         SEGV
 *   write-readonly        write a page made read-only with mprotect   SEGV
 *   write-text            write the program's own code                SEGV
 *   write-rodata          write a string literal                      SEGV
 *   kernel-stack-syscall  syscall with %rsp in the kernel, then push  SEGV
 *   sysret-noncanonical   syscall as the last instruction below the
 *                         canonical hole (return to 0x800000000000)  SEGV
 *   thread-bad-stack      a thread started on an unmapped stack kills
 *                         the process while main sleeps               SEGV
 *   hostile-rsp           system calls and timer interrupts while
 *                         %rsp points into the kernel; exits 0        (exit 0)
 *   spin                  loops forever (for kill tests)              -
 *   sleep                 sleeps forever (for kill tests)             -
 */
#define _GNU_SOURCE
#define TEST_NAME "t_fault"
#include "test_check.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <sys/mman.h>

#define KERNEL_IMAGE_ADDR 0xffffffff80100000UL
#define PHYSMAP_ADDR      0xffff800000100000UL
#define NONCANONICAL_ADDR 0x0000800000000000UL
#define LAST_USER_PAGE    0x00007ffffffff000UL
#define UNMAPPED_LOW_ADDR 0x1000UL
#define PAGE 4096L
#define NS_PER_MS 1000000ULL

static void read_at(uintptr_t addr)
{
	unsigned long value;
	__asm__ volatile("mov (%1), %0" : "=r"(value) : "r"(addr) : "memory");
}

static void write_at(uintptr_t addr)
{
	__asm__ volatile("movb $0x5a, (%0)" : : "r"(addr) : "memory");
}

static void call_at(uintptr_t addr)
{
	/* The callee may be anything: treat every caller-saved register as lost. */
	__asm__ volatile("call *%0"
	                 : "+r"(addr)
	                 :
	                 : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11",
	                   "memory", "cc");
}

static void null_read(void) { read_at(0); }
static void null_write(void) { write_at(0); }
static void kernel_read(void) { read_at(KERNEL_IMAGE_ADDR); }
static void kernel_write(void) { write_at(KERNEL_IMAGE_ADDR); }
static void physmap_read(void) { read_at(PHYSMAP_ADDR); }
static void physmap_write(void) { write_at(PHYSMAP_ADDR); }
static void exec_kernel(void) { call_at(KERNEL_IMAGE_ADDR); }
static void noncanonical(void) { read_at(NONCANONICAL_ADDR); }

static void exec_nx(void)
{
	long page = myrmex_syscall6(SYS_mmap, 0, PAGE, PROT_READ | PROT_WRITE,
	                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page < 0) {
		test_fail("mmap: %ld", page);
		return;
	}
	*(volatile unsigned char *)page = 0xc3; /* ret */
	call_at((uintptr_t)page);
}

static void privileged(void) { __asm__ volatile("hlt"); }

static void port_io(void)
{
	/* Would stop QEMU if user mode had I/O permission. */
	__asm__ volatile("outb %%al, $0xf4" : : "a"(0));
}

static void read_cr3(void)
{
	unsigned long cr3;
	__asm__ volatile("mov %%cr3, %0" : "=r"(cr3));
}

static void soft_int(void)
{
	__asm__ volatile("int $14" ::: "memory"); /* the page-fault vector */
	__asm__ volatile("int $32" ::: "memory"); /* the first external interrupt */
}

static void ud(void) { __asm__ volatile("ud2"); }
static void int3(void) { __asm__ volatile("int3"); }

static void divide(void)
{
	volatile unsigned divisor = 0;
	unsigned quotient;
	__asm__ volatile("xor %%edx, %%edx\n\t"
	                 "div %%ecx"
	                 : "=a"(quotient)
	                 : "a"(1u), "c"(divisor)
	                 : "rdx");
	(void)quotient;
}

static volatile int stop_recursion; /* never set: the compiler cannot know */

static int recurse(volatile char *caller_frame)
{
	volatile char frame[512];
	if (stop_recursion)
		return 0;
	frame[0] = (char)(caller_frame ? caller_frame[0] + 1 : 0);
	return recurse(frame) + frame[1];
}

static void stack_overflow(void) { (void)recurse(NULL); }

static void write_readonly(void)
{
	long page = myrmex_syscall6(SYS_mmap, 0, PAGE, PROT_READ | PROT_WRITE,
	                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page < 0) {
		test_fail("mmap: %ld", page);
		return;
	}
	write_at((uintptr_t)page);
	long err = raw3(SYS_mprotect, page, PAGE, PROT_READ);
	if (err != 0) {
		test_fail("mprotect(PROT_READ): %ld", err);
		return;
	}
	write_at((uintptr_t)page);
}

static void write_text(void) { write_at((uintptr_t)write_text); }

static const char read_only_text[] = "string literal in .rodata";

static void write_rodata(void) { write_at((uintptr_t)read_only_text); }

/* Ends the process with exit_group(1) without using the stack: for code
 * that has destroyed %rsp and was not killed as it should have been. */
#define EXIT_1_WITHOUT_STACK "mov $231, %%eax\n\tmov $1, %%edi\n\tsyscall\n\t"

static void kernel_stack_syscall(void)
{
	__asm__ volatile("mov %0, %%rsp\n\t"
	                 "mov $39, %%eax\n\t" /* getpid */
	                 "syscall\n\t"
	                 "push %%rax\n\t"     /* must fault */
	                 EXIT_1_WITHOUT_STACK
	                 :
	                 : "r"(KERNEL_IMAGE_ADDR)
	                 : "rax", "rcx", "rdi", "r11", "memory");
	__builtin_unreachable();
}

/*
 * A syscall instruction in the last two bytes below the canonical hole: its
 * return address is non-canonical. A kernel that returns with sysret there
 * takes a #GP in kernel mode on Intel CPUs; a careful one (or a CPU that
 * faults in user mode) gives the process SIGSEGV. If the last page is
 * already mapped (say, by the initial stack) it is made executable and
 * used; if it cannot be had at all (Linux keeps it out of user space) there
 * is nothing to try, and the program ends with the expected signal itself.
 */
static void sysret_noncanonical(void)
{
	long page = myrmex_syscall6(SYS_mmap, LAST_USER_PAGE, PAGE, PROT_READ | PROT_WRITE,
	                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	long prot = PROT_READ | PROT_EXEC;
	if (page == -EEXIST) {
		page = (long)LAST_USER_PAGE;
		prot |= PROT_WRITE; /* it may be our own stack */
		long err = raw3(SYS_mprotect, page, PAGE, PROT_READ | PROT_WRITE);
		if (err != 0) {
			test_note("the last user page is taken and mprotect gave %ld: nothing "
			          "to try", err);
			raw2(SYS_kill, raw0(SYS_getpid), SIGSEGV);
			return;
		}
	} else if (page != (long)LAST_USER_PAGE) {
		test_note("the last user page cannot be mapped (%ld): nothing to try", page);
		raw2(SYS_kill, raw0(SYS_getpid), SIGSEGV);
		return;
	}
	unsigned char *code = (unsigned char *)(page + PAGE - 2);
	code[0] = 0x0f; /* syscall */
	code[1] = 0x05;
	long err = raw3(SYS_mprotect, page, PAGE, prot);
	if (err != 0) {
		test_fail("mprotect(%#lx) of the last page: %ld", prot, err);
		return;
	}
	__asm__ volatile("mov $39, %%eax\n\t" /* getpid */
	                 "jmp *%0"
	                 :
	                 : "r"(code)
	                 : "rax", "rcx", "r11", "memory");
	__builtin_unreachable();
}

/* A thread whose stack pointer is an unmapped address: its first pop faults,
 * which must end the whole process, main included (asleep in nanosleep). */
static void thread_bad_stack(void)
{
	long flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
	             CLONE_SYSVSEM;
	long ret;
	__asm__ volatile("syscall\n\t"
	                 "test %%rax, %%rax\n\t"
	                 "jnz 1f\n\t"
	                 "pop %%rax\n\t" /* the new thread: must fault */
	                 EXIT_1_WITHOUT_STACK
	                 "1:"
	                 : "=a"(ret)
	                 : "0"((long)SYS_clone), "D"(flags), "S"(UNMAPPED_LOW_ADDR), "d"(0)
	                 : "rcx", "r11", "memory");
	if (ret < 0) {
		test_fail("clone: %ld", ret);
		return;
	}
	for (int i = 0; i < 50; i++)
		myrmex_sleep_ns(100 * NS_PER_MS);
}

/*
 * System calls and timer interrupts with %rsp in the kernel image: the
 * kernel must use its own stacks for both and return normally. Ends with
 * exit_group(0) without touching the stack.
 */
static void hostile_rsp(void)
{
	__asm__ volatile("mov %0, %%rsp\n\t"
	                 "mov $2000, %%ebx\n"
	                 "1:\n\t"
	                 "mov $24, %%eax\n\t" /* sched_yield */
	                 "syscall\n\t"
	                 "dec %%ebx\n\t"
	                 "jnz 1b\n\t"
	                 "mov $200000000, %%rdx\n" /* spin through timer ticks */
	                 "2:\n\t"
	                 "dec %%rdx\n\t"
	                 "jnz 2b\n\t"
	                 "mov $231, %%eax\n\t"
	                 "xor %%edi, %%edi\n\t"
	                 "syscall"
	                 :
	                 : "r"(KERNEL_IMAGE_ADDR)
	                 : "rax", "rbx", "rcx", "rdx", "rdi", "r11", "memory");
	__builtin_unreachable();
}

static void spin(void)
{
	for (;;)
		__asm__ volatile("" ::: "memory");
}

static void sleep_forever(void)
{
	for (;;)
		myrmex_sleep_ns(1000 * NS_PER_MS);
}

static const struct {
	const char *kind;
	void (*run)(void);
} kinds[] = {
	{ "null-read", null_read },
	{ "null-write", null_write },
	{ "kernel-read", kernel_read },
	{ "kernel-write", kernel_write },
	{ "physmap-read", physmap_read },
	{ "physmap-write", physmap_write },
	{ "exec-nx", exec_nx },
	{ "exec-kernel", exec_kernel },
	{ "noncanonical", noncanonical },
	{ "privileged", privileged },
	{ "port-io", port_io },
	{ "read-cr3", read_cr3 },
	{ "soft-int", soft_int },
	{ "ud", ud },
	{ "divide", divide },
	{ "int3", int3 },
	{ "stack-overflow", stack_overflow },
	{ "write-readonly", write_readonly },
	{ "write-text", write_text },
	{ "write-rodata", write_rodata },
	{ "kernel-stack-syscall", kernel_stack_syscall },
	{ "sysret-noncanonical", sysret_noncanonical },
	{ "thread-bad-stack", thread_bad_stack },
	{ "hostile-rsp", hostile_rsp },
	{ "spin", spin },
	{ "sleep", sleep_forever },
};

int main(int argc, char **argv)
{
	if (argc != 2) {
		test_fail("usage: t_fault <kind>");
		return 2;
	}
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		if (strcmp(argv[1], kinds[i].kind) == 0) {
			kinds[i].run();
			test_fail("%s: the process survived", argv[1]);
			return 1;
		}
	}
	test_fail("unknown kind \"%s\"", argv[1]);
	return 2;
}
