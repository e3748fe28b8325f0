/*
 * Fatal kernel errors. panic() prints the cause, the registers (of the trap
 * frame when there is one) and a symbolized backtrace, then stops QEMU with
 * exit code PANIC_EXIT_CODE. KASSERT checks an invariant that must hold.
 */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

#include <kernel/types.h>

#define PANIC_EXIT_CODE 0x7f

struct trapframe;

NORETURN void panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
NORETURN void panic_trap(const struct trapframe *tf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define KASSERT(cond) \
	do { if (!(cond)) panic("assertion failed: %s (%s:%d)", #cond, __FILE__, __LINE__); } while (0)

#endif
