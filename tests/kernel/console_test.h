/*
 * console_test.h - what the console tests (t_console, t_console_tty) share:
 * calls to the console server (include/myrmex/console.h) with a control
 * and a data ICA, typed input from the host, and a barrier. Header only;
 * include after test_check.h and ipc_test.h.
 *
 * Input comes from the host: a line "CONSOLE-TYPE <hex>" on the console
 * makes the test runner type those bytes into the guest's serial port
 * (docs/testing.md). They arrive when they arrive: a test that must know
 * they are all in waits for what they complete (a line, a read's result).
 */
#ifndef CONSOLE_TEST_H
#define CONSOLE_TEST_H

#include <errno.h>
#include <stdint.h>
#include <myrmex/console.h>

#define PAGE 4096u

struct call {
	uint32_t ctl, data;           /* handles */
	struct myrmex_ctl_header *h;
};

static inline int call_init(struct call *c, uint32_t data_pages)
{
	struct myrmex_ctl_header *h = ipc_new_ctl(&c->ctl);
	long d = myrmex_ica_alloc(data_pages);
	if (!h || d < 0) {
		test_fail("cannot allocate the ICAs of a call: %ld", d);
		return -1;
	}
	c->h = h;
	c->data = (uint32_t)d;
	return 0;
}

static inline void call_free(struct call *c)
{
	CHECK_EQ(myrmex_ica_free(c->data), 0);
	CHECK_EQ(myrmex_ica_free(c->ctl), 0);
}

static inline char *call_bytes(const struct call *c)
{
	return myrmex_ica_addr(c->data);
}

/* A fresh frame: target, opcode, arg[1] = length, the data ICA if
 * with_data; returns it for more arguments. */
static inline struct myrmex_frame *call_prepare(struct call *c, uint32_t target, uint32_t opcode,
                                                uint64_t length, int with_data)
{
	myrmex_ctl_init(c->h);
	struct myrmex_frame *f = myrmex_ctl_push(c->h, 1, target, opcode);
	f->arg[0] = 3;   /* a descriptor, as the file manager passes on: ignored */
	f->arg[1] = length;
	if (with_data) {
		f->ndata = 1;
		f->data[0] = c->data;
	}
	return f;
}

/* callsync, retrying while the server is not registered yet; the result's
 * status, or the call's own error. */
static inline int64_t call_sync(struct call *c)
{
	long r = ipc_call_when_ready(c->h, 1);
	if (r < 0)
		return r;
	struct myrmex_frame *res = myrmex_ctl_result(c->h);
	return res ? res->status : INT64_MIN;
}

/* The data ICA came back with the result. */
static inline void check_data_back(const struct call *c, const char *what)
{
	struct myrmex_frame *res = myrmex_ctl_result(c->h);
	CHECK(res && res->ndata == 1 && res->data[0] == c->data,
	      "%s: the data ICA did not come back (ndata %u)", what, res ? res->ndata : 0);
}

static inline int64_t console_write(struct call *c, const char *text, size_t len)
{
	memcpy(call_bytes(c), text, len);
	call_prepare(c, MYRMEX_COREID_CONSOLE, CONSOLE_WRITE, len, 1);
	return call_sync(c);
}

static inline int64_t console_read(struct call *c, uint64_t max)
{
	memset(call_bytes(c), 0, PAGE);
	call_prepare(c, MYRMEX_COREID_CONSOLE, CONSOLE_READ, max, 1);
	return call_sync(c);
}

/* Asks the host to type bytes into the serial port: one line on the kernel
 * console (one write), which the test runner answers. The runner sees it
 * only at the start of a line: after echo that left the cursor inside one
 * (a line ended with Ctrl-D), write a '\n' first. */
static inline void type_input(const char *bytes, size_t len)
{
	char line[600];
	/* On a line of its own: the echo of what was typed before may have
	 * left the console mid-line ("partial^C": a signal character's echo
	 * ends no line, as on Linux). */
	size_t n = (size_t)snprintf(line, sizeof line, "\nCONSOLE-TYPE ");
	for (size_t i = 0; i < len && n + 3 < sizeof line; i++)
		n += (size_t)snprintf(line + n, sizeof line - n, "%02x", (unsigned char)bytes[i]);
	line[n++] = '\n';
	test_write_all(1, line, n);
}
#define TYPE(literal) type_input(literal, sizeof(literal) - 1)

/* Returns once the server has taken every request made before: it takes
 * them in order, so an empty write that comes back comes after them. Reads
 * made with callasync are then surely waiting before input is typed (the
 * server looks at interrupts before requests). */
static inline void console_barrier(void)
{
	struct call c;
	if (call_init(&c, 1) < 0)
		return;
	CHECK_EQ(console_write(&c, "", 0), 0);
	call_free(&c);
}

/* A read of at most max bytes gives exactly want (len bytes). */
static inline void expect_read_bytes(struct call *c, uint64_t max, const char *want, size_t len,
                                     const char *what)
{
	int64_t got = console_read(c, max);
	CHECK(got == (int64_t)len && memcmp(call_bytes(c), want, len) == 0,
	      "%s: read %lld bytes \"%.*s\", expected %zu \"%.*s\"", what, (long long)got,
	      got > 0 && got < 200 ? (int)got : 0, call_bytes(c), len, (int)len, want);
	check_data_back(c, what);
}

static inline void expect_read(struct call *c, uint64_t max, const char *want, const char *what)
{
	expect_read_bytes(c, max, want, strlen(want), what);
}

#endif
