/*
 * The SH-4 test programs' whole runtime (they link no C library): system
 * calls through trapa with Linux's SH convention (number in r3, arguments
 * in r4..r7, r0, r1, result in r0), the few SH Linux numbers they use, the
 * native Myrmex calls (include/myrmex), and printing to the console.
 */
#ifndef SH4_USER_H
#define SH4_USER_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <myrmex/syscall.h>
#include <myrmex/ica.h>

#define SH_NR_EXIT      1
#define SH_NR_WRITE     4
#define SH_NR_GETPID    20
#define SH_NR_WAIT4     114
#define SH_NR_SCHED_YIELD 158
#define SH_NR_EXIT_GROUP 252

#define EFAULT 14
#define EINVAL 22
#define ENOSPC 28

static inline long sys6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r3 __asm__("r3") = nr;
	register long r4 __asm__("r4") = a;
	register long r5 __asm__("r5") = b;
	register long r6 __asm__("r6") = c;
	register long r7 __asm__("r7") = d;
	register long r0 __asm__("r0") = e;
	register long r1 __asm__("r1") = f;
	__asm__ volatile("trapa #0x16"
	                 : "+r"(r0)
	                 : "r"(r3), "r"(r4), "r"(r5), "r"(r6), "r"(r7), "r"(r1)
	                 : "memory", "t");
	return r0;
}

#define sys0(nr) sys6((nr), 0, 0, 0, 0, 0, 0)
#define sys1(nr, a) sys6((nr), (long)(a), 0, 0, 0, 0, 0)
#define sys2(nr, a, b) sys6((nr), (long)(a), (long)(b), 0, 0, 0, 0)
#define sys3(nr, a, b, c) sys6((nr), (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define sys5(nr, a, b, c, d, e) sys6((nr), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)

static inline size_t u_strlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

static inline void u_puts(const char *s)
{
	sys3(SH_NR_WRITE, 1, s, u_strlen(s));
}

/* Prints a number in decimal (negative ones with a sign). */
static inline void u_putnum(long v)
{
	char buf[16];
	int n = 0;
	unsigned long u = v < 0 ? -(unsigned long)v : (unsigned long)v;
	do {
		buf[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		buf[n++] = '-';
	char out[17];
	for (int i = 0; i < n; i++)
		out[i] = buf[n - 1 - i];
	out[n] = '\0';
	u_puts(out);
}

__attribute__((noreturn)) static inline void u_exit(int code)
{
	sys1(SH_NR_EXIT_GROUP, code);
	for (;;)
		;
}

/* A check: prints the failure and counts it. */
static int u_failures __attribute__((unused));
#define U_CHECK(cond, what) \
	do { \
		if (!(cond)) { \
			u_puts("FAIL: " what "\n"); \
			u_failures++; \
		} \
	} while (0)

#endif
