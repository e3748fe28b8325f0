/*
 * Console output for the kernel (see kernel/printk.h). Output goes straight
 * to the architecture's early console, a line at a time under a lock so that
 * lines from different CPUs do not interleave.
 */
#include <kernel/printk.h>
#include <kernel/arch.h>
#include <kernel/spinlock.h>

static struct spinlock console_lock = SPINLOCK_INIT("console");

static void console_write_locked(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			arch_console_putc('\r');
		arch_console_putc(s[i]);
	}
}

void console_write(const char *s, size_t n)
{
	spin_lock(&console_lock);
	console_write_locked(s, n);
	spin_unlock(&console_lock);
}

void vprintk(const char *fmt, va_list ap)
{
	char buf[512];
	int n = kvsnprintf(buf, sizeof(buf), fmt, ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	console_write(buf, (size_t)n);
}

void printk(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintk(fmt, ap);
	va_end(ap);
}
