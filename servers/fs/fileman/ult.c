/*
 * ult.c - the file manager on user-level threads (fsconf.h: ult; paper
 * 003's MTFS). One kernel thread runs a scheduler loop around get(): a
 * request goes to a free user-level thread, which runs it on its own
 * stack (server_serve_one, the reply at once); a thread's disk call is made
 * asynchronously underneath (ult_call) and the thread is parked until the
 * scheduler's get() brings the call's result, while other threads run. A
 * thread waiting for a condition (lock.h's fm_wait: a busy chunk, the
 * gate) is parked until fm_wake_all. Threads switch only there, so the
 * kernel never sees more than the one thread, and the lock (lock.h) is
 * never contended: it is let go at each switch and taken again after.
 *
 * Requests that find every thread busy wait in a small queue of their own.
 */
#include "fileman.h"
#include "fsconf.h"
#include "lock.h"

#include <errno.h>
#include <stdlib.h>

#define ULT_THREADS 16u
#define ULT_STACK (256u * 1024)
#define ULT_BACKLOG 64u

struct ult {
	void *sp;                       /* saved stack pointer while switched out */
	uint8_t *stack;
	bool busy;                      /* serving rq */
	bool runnable;                  /* to be resumed by the scheduler */
	bool cond;                      /* parked in fm_wait */
	uint64_t call;                  /* parked on the result for this control ICA (address) */
	struct server_request rq;
};

static struct ult threads[ULT_THREADS];
static struct ult *current;         /* NULL: the scheduler runs */
static void *sched_sp;
static const struct server *served;
static struct myrmex_delivery backlog[ULT_BACKLOG];
static unsigned backlog_head, backlog_count;

/* Saves the callee-saved registers on the current stack, stores the stack
 * pointer at *save, switches to stack `to` and restores its registers
 * (the port's C ABI: the rest the caller saves). A new thread's stack
 * holds ULT_SAVED zero registers, then ult_main where the switch returns
 * to, then ULT_PAD words (ult_make). */
void ult_switch(void **save, void *to);
#if defined(__x86_64__)
/* x86-64 System V: rbx, rbp, r12-r15; the return address on the stack, and
 * a slot so that ult_main starts as if called (rsp = 8 mod 16). */
#define ULT_SAVED 6
#define ULT_PAD 1
__asm__(".text\n"
        ".globl ult_switch\n"
        ".type ult_switch,@function\n"
        "ult_switch:\n"
        "\tpushq %rbp\n\tpushq %rbx\n\tpushq %r12\n\tpushq %r13\n\tpushq %r14\n\tpushq %r15\n"
        "\tmovq %rsp, (%rdi)\n"
        "\tmovq %rsi, %rsp\n"
        "\tpopq %r15\n\tpopq %r14\n\tpopq %r13\n\tpopq %r12\n\tpopq %rbx\n\tpopq %rbp\n"
        "\tret\n"
        ".size ult_switch, .-ult_switch\n");
#elif defined(__sh__)
/* SH-4 (GCC's SH ABI): r8-r14 and pr, pr pushed first so that it is
 * popped last (the word above the seven registers); save in r4, to in r5. */
#define ULT_SAVED 7
#define ULT_PAD 0
__asm__(".text\n"
        ".align 2\n"
        ".globl ult_switch\n"
        ".type ult_switch,@function\n"
        "ult_switch:\n"
        "\tsts.l pr,@-r15\n"
        "\tmov.l r14,@-r15\n\tmov.l r13,@-r15\n\tmov.l r12,@-r15\n\tmov.l r11,@-r15\n"
        "\tmov.l r10,@-r15\n\tmov.l r9,@-r15\n\tmov.l r8,@-r15\n"
        "\tmov.l r15,@r4\n"
        "\tmov r5,r15\n"
        "\tmov.l @r15+,r8\n\tmov.l @r15+,r9\n\tmov.l @r15+,r10\n\tmov.l @r15+,r11\n"
        "\tmov.l @r15+,r12\n\tmov.l @r15+,r13\n\tmov.l @r15+,r14\n"
        "\tlds.l @r15+,pr\n"
        "\trts\n"
        "\tnop\n"
        ".size ult_switch, .-ult_switch\n");
#else
#error "ult.c: no ult_switch for this machine"
#endif

bool ult_active(void)
{
	return current != NULL;
}

/* Back to the scheduler; returns when the scheduler resumes us. */
static void to_scheduler(void)
{
	struct ult *me = current;
	ult_switch(&me->sp, sched_sp);
}

/* A thread's life: serve what it was given, then wait for the next. */
static void ult_main(void)
{
	for (;;) {
		struct ult *me = current;
		server_serve_one(served, &me->rq);
		me->busy = false;
		to_scheduler();
	}
}

static int ult_make(struct ult *t)
{
	t->stack = malloc(ULT_STACK);
	if (!t->stack)
		return -ENOMEM;
	/* ult_switch's frame: the saved registers, then ult_main where it
	 * returns to, then the padding (ULT_SAVED, ULT_PAD above). */
	uintptr_t *top = (uintptr_t *)(void *)(((uintptr_t)t->stack + ULT_STACK) & ~(uintptr_t)15);
	for (int i = 0; i < ULT_PAD; i++)
		*--top = 0;
	*--top = (uintptr_t)ult_main;
	for (int i = 0; i < ULT_SAVED; i++)
		*--top = 0;
	t->sp = top;
	return 0;
}

static void resume(struct ult *t)
{
	t->runnable = false;
	current = t;
	ult_switch(&sched_sp, t->sp);
	current = NULL;
}

static bool start_request(const struct myrmex_delivery *d)
{
	for (unsigned i = 0; i < ULT_THREADS; i++) {
		struct ult *t = &threads[i];
		if (t->busy || !t->stack)
			continue;
		t->busy = true;
		t->rq.d = *d;
		resume(t);
		return true;
	}
	return false;
}

/* Runs every thread that can go on, and the requests waiting for one. */
static void run_ready(void)
{
	bool ran;
	do {
		ran = false;
		for (unsigned i = 0; i < ULT_THREADS; i++)
			if (threads[i].runnable) {
				resume(&threads[i]);
				ran = true;
			}
		while (backlog_count && start_request(&backlog[backlog_head])) {
			backlog_head = (backlog_head + 1) % ULT_BACKLOG;
			backlog_count--;
			ran = true;
		}
	} while (ran);
}

static void deliver(const struct myrmex_delivery *d)
{
	if (d->kind == MYRMEX_DELIVERY_REQUEST) {
		if (backlog_count || !start_request(d)) {
			if (backlog_count == ULT_BACKLOG) {
				/* Cannot happen with the kernel's queue limits below
				 * ours; answered rather than lost. */
				myrmex_reply(FM_NAME, d, -EAGAIN);
				return;
			}
			backlog[(backlog_head + backlog_count++) % ULT_BACKLOG] = *d;
		}
		return;
	}
	if (d->kind == MYRMEX_DELIVERY_RESULT)
		for (unsigned i = 0; i < ULT_THREADS; i++)
			if (threads[i].call && threads[i].call == d->control) {
				threads[i].call = 0;
				threads[i].runnable = true;
				return;
			}
	/* A result of our own calls (a packet socket's receive, socket.c):
	 * the server's result callback takes the lock itself (table.c's
	 * result_locked); taking it here too would spin on it forever. */
	server_deliver_other(served, d);
}

long ult_call(struct myrmex_ctl_header *h)
{
	/* An asynchronous forward may ask for direct return (the kernel
	 * refuses only a synchronous one): the result would go past us to
	 * the caller. Refused here as callsync is (the header is ours to
	 * read: the request was claimed first, diskio.c). */
	if (h->flags & MYRMEX_CTL_DIRECT_RETURN)
		return -EINVAL;
	long r = myrmex_callasync(h);
	if (r < 0)
		return r;
	current->call = (uint64_t)(uintptr_t)h;
	to_scheduler();
	return 0;   /* the result is in h (myrmex_ctl_result), as after callsync */
}

void ult_park(void)
{
	current->cond = true;
	to_scheduler();
}

void ult_wake_all(void)
{
	for (unsigned i = 0; i < ULT_THREADS; i++)
		if (threads[i].cond) {
			threads[i].cond = false;
			threads[i].runnable = true;
		}
}

__attribute__((noreturn)) void ult_serve(const struct server *s)
{
	served = s;
	unsigned made = 0;
	for (unsigned i = 0; i < ULT_THREADS; i++)
		if (ult_make(&threads[i]) == 0)
			made++;
	fm_log("ult: %u user-level threads serve", made);
	for (;;) {
		run_ready();
		struct myrmex_delivery d;
		long r = myrmex_get(NULL, &d);
		if (r < 0) {
			fm_log("get: %ld", r);
			myrmex_sleep_ns(1000000);
			continue;
		}
		deliver(&d);
	}
}
