/*
 * Kernel console output: printk formats to the early console (COM1).
 * Supported conversions: %d %i %u %x %X %p %s %c %%, with flags '0', '-' and
 * '#' (a 0x prefix for %x and %X, also for zero),
 * a field width, and the length modifiers l, ll and z.
 */
#ifndef KERNEL_PRINTK_H
#define KERNEL_PRINTK_H

#include <stdarg.h>
#include <stddef.h>

void printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vprintk(const char *fmt, va_list ap);
/* Formats into buf (always NUL-terminated when size > 0); returns the length
 * the full output would have. Pure: also built into the host unit tests. */
int ksnprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
/* Writes raw bytes to the console ('\n' becomes "\r\n"). */
void console_write(const char *s, size_t n);

#endif
