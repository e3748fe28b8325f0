/*
 * Kernel panic: print the cause, the registers and a symbolized backtrace,
 * then stop the machine with a failure status (see kernel/panic.h).
 */
#include <kernel/panic.h>
#include <kernel/printk.h>
#include <kernel/ksyms.h>
#include <kernel/arch.h>

static bool panicking;

static void print_frame(uint64_t ip)
{
	uint64_t off;
	const char *name = ksyms_lookup(ip, &off);
	if (name)
		printk("  [<%016llx>] %s+%#llx\n", (unsigned long long)ip, name, (unsigned long long)off);
	else
		printk("  [<%016llx>] ?\n", (unsigned long long)ip);
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
		arch_backtrace(arch_tf_frame_pointer(tf), print_frame);
	} else {
		arch_dump_cpu_state();
		printk("backtrace:\n");
		arch_backtrace(0, print_frame);
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
