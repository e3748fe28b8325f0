/*
 * Kernel panic: print the cause, the registers and a symbolized backtrace,
 * then stop the machine with a failure status (see kernel/panic.h).
 */
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/ksyms.h>
#include <kernel/arch.h>

static bool panicking;

/* Prints one frame; its symbol is the one holding ip - back. */
static void print_ip(uint64_t ip, uint64_t back)
{
	uint64_t off;
	const char *name = ksyms_lookup(ip - back, &off);
	if (name)
		printk("  [<%016llx>] %s+%#llx\n", (unsigned long long)ip, name,
		       (unsigned long long)(off + back));
	else
		printk("  [<%016llx>] ?\n", (unsigned long long)ip);
}

static void print_frame(uint64_t ip)
{
	print_ip(ip, 0);
}

/* A return address: the call before it may be a function's last
 * instruction (a call of a NORETURN function), so the address itself can
 * lie in the next function. */
static void print_return(uint64_t ip)
{
	print_ip(ip, 1);
}

static NORETURN void panic_finish(const struct trapframe *tf, const char *fmt, va_list ap)
{
	if (panicking)
		arch_poweroff(PANIC_EXIT_CODE);  /* a panic while panicking: just stop */
	panicking = true;
	printk("\nKERNEL PANIC: ");
	vprintk(fmt, ap);
	printk("\n");
	if (tf) {
		arch_tf_dump(tf);
		printk("backtrace (from the trapped context):\n");
		print_frame(arch_tf_ip(tf));
		arch_backtrace(arch_tf_frame_pointer(tf), print_return);
	} else {
		arch_dump_cpu_state();
		printk("backtrace:\n");
		arch_backtrace(0, print_return);
	}
	arch_poweroff(PANIC_EXIT_CODE);
}

void panic(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	panic_finish(NULL, fmt, ap);
}

void panic_trap(const struct trapframe *tf, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	panic_finish(tf, fmt, ap);
}
