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
#define SH_NR_KILL      37
#define SH_NR_WAIT4     114
#define SH_NR_SCHED_YIELD 158
#define SH_NR_EXIT_GROUP 252
#define SH_NR_NANOSLEEP 162
#define SH_NR_CLOCK_GETTIME 265

#define EFAULT 14
#define EPIPE 32
#define ECANCELED 125
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

/* The word at address a, as a pointer the optimizer knows nothing about:
 * for the tests that must make the access they write (a misaligned load
 * it would otherwise split into byte loads, a constant address it would
 * warn about as outside any object). */
static inline volatile uint32_t *u_word_at(uintptr_t a)
{
	volatile uint32_t *p = (volatile uint32_t *)a;
	__asm__("" : "+r"(p));
	return p;
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

/* ---- ICAs and calls (include/myrmex/ica.h) ---- */
static inline long u_ica_alloc(uint32_t npages) { return sys1(MYRMEX_SYS_ICA_ALLOC, npages); }
static inline long u_ica_free(uint32_t h) { return sys1(MYRMEX_SYS_ICA_FREE, h); }
static inline long u_ica_detach(uint32_t h) { return sys1(MYRMEX_SYS_ICA_DETACH, h); }
static inline long u_ica_attach(uint32_t h) { return sys1(MYRMEX_SYS_ICA_ATTACH, h); }
static inline long u_callsync(void *p) { return sys1(MYRMEX_SYS_CALLSYNC, p); }
static inline long u_callasync(void *p) { return sys1(MYRMEX_SYS_CALLASYNC, p); }
static inline long u_get(void *p, struct myrmex_delivery *d) { return sys2(MYRMEX_SYS_GET, p, d); }
static inline long u_ret(void *p) { return sys1(MYRMEX_SYS_RET, p); }
static inline long u_claim(void *p) { return sys1(MYRMEX_SYS_CLAIM, p); }

static inline void u_zero(void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((volatile char *)p)[i] = 0;
}

/* A fresh control header in ICA ctl and a first frame calling target. */
static inline struct myrmex_frame *u_ctl_first(void *ctl, uint32_t target, uint32_t opcode)
{
	struct myrmex_ctl_header *h = ctl;
	u_zero(h, sizeof(*h) + sizeof(struct myrmex_frame));
	h->magic = MYRMEX_CTL_MAGIC;
	h->currentp = sizeof(*h);
	struct myrmex_frame *f = (struct myrmex_frame *)((char *)ctl + sizeof(*h));
	f->target = target;
	f->opcode = opcode;
	return f;
}

/* Pushes a frame above the current one (a server forwarding a call). */
static inline struct myrmex_frame *u_ctl_push(void *ctl, uint32_t target, uint32_t opcode)
{
	struct myrmex_ctl_header *h = ctl;
	uint32_t next = h->currentp + sizeof(struct myrmex_frame);
	struct myrmex_frame *f = (struct myrmex_frame *)((char *)ctl + next);
	u_zero(f, sizeof(*f));
	f->prev = h->currentp;
	f->target = target;
	f->opcode = opcode;
	h->currentp = next;
	return f;
}

static inline struct myrmex_frame *u_ctl_result(void *ctl)
{
	struct myrmex_ctl_header *h = ctl;
	return h->resultp ? (struct myrmex_frame *)((char *)ctl + h->resultp) : NULL;
}

/* Opcodes of tests/sh4/sh4_srv.c. */
#define SRV_ECHO        1   /* status = arg[0] + 1 */
#define SRV_FWD         2   /* through the chain; each stage adds 1 to status and arg[1] */
#define SRV_FWD_DIRECT  3   /* the same, but the last stage returns straight to the caller */
#define SRV_DIE         4   /* the server exits without returning */
#define SRV_ECHO_TS     5   /* SRV_ECHO, and arg[2] = the server's clock when get returned */

/* CLOCK_MONOTONIC in nanoseconds: under QEMU's -icount shift=0 one
 * instruction is one nanosecond. */
static inline uint64_t u_now_ns(void)
{
	int32_t ts[2];
	sys2(SH_NR_CLOCK_GETTIME, 1, ts);
	return (uint64_t)ts[0] * 1000000000u + (uint32_t)ts[1];
}

static inline long u_atol(const char *s)
{
	long v = 0;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return v;
}

#endif
