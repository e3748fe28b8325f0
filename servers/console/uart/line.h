/*
 * The console's line discipline: turns the bytes typed on the serial port
 * into input for reads as the termios says (canonical lines or raw bytes,
 * include/myrmex/console.h), says what to echo, which signal a typed byte
 * asks for, and processes output. Pure code with no system calls, so the
 * host unit tests run it (tests/unit/test_console_line.c). One structure
 * per console; not thread-safe (the server is one thread).
 */
#ifndef CONSOLE_LINE_H
#define CONSOLE_LINE_H

#include <stdbool.h>
#include <stdint.h>
#include <myrmex/console.h>

#define LINE_EDIT_MAX  1024u   /* the line being typed, its end included */
#define LINE_READY_MAX 4096u   /* input waiting for reads */

/* Where echo and output go: n bytes, exactly as they go on the wire. */
typedef void (*line_out_fn)(const char *s, unsigned n, void *ctx);

enum line_escape { ESC_NONE, ESC_START, ESC_CSI, ESC_SS3 };

/* What a typed byte asks of the server beyond the input it made: send a
 * signal to the foreground group and interrupt the waiting reads. */
enum line_event { LINE_EVENT_NONE, LINE_EVENT_SIGINT, LINE_EVENT_SIGQUIT, LINE_EVENT_SIGTSTP };

/* Marks of the ring's slots. */
#define LINE_MARK_END 1u   /* the last byte of a line: a canonical read stops after it */
#define LINE_MARK_EOF 2u   /* no byte: an end of file, which a read takes alone (0 bytes) */

struct line_disc {
	struct console_termios tio;
	char edit[LINE_EDIT_MAX];      /* the line being typed (canonical), without its end */
	unsigned edit_len;
	/* Input waiting for reads, oldest first, in a ring. With ICANON only
	 * whole lines, the last slot of each marked; without, bytes, unmarked. */
	char ready[LINE_READY_MAX];
	uint8_t marks[LINE_READY_MAX];
	unsigned ready_start, ready_len;
	unsigned ready_lines;          /* marked slots (END or EOF) */
	unsigned ready_eofs;           /* slots marked EOF */
	enum line_escape escape;       /* inside an escape sequence being dropped */
	uint64_t dropped;              /* bytes refused: line or ring full */
	line_out_fn out;
	void *out_ctx;
};

/* Linux's default termios (cooked, echo, signals, ONLCR). */
void line_default_termios(struct console_termios *t);
/* An empty discipline with the default termios; echo and output go to out
 * (may be NULL: nothing is shown). */
void line_init(struct line_disc *l, line_out_fn out, void *out_ctx);
/* One byte typed: edits, echoes, makes input. Returns the signal it asks for. */
enum line_event line_input(struct line_disc *l, uint8_t c);
/* A read of max (>= 1) bytes would be answered now. */
bool line_can_read(const struct line_disc *l, unsigned max);
/* Moves at most max bytes of input to out: with ICANON at most one line (or
 * an end of file: 0); without, whatever waits. Call when line_can_read. */
unsigned line_read(struct line_disc *l, char *out, unsigned max);
/* poll's POLLIN: a complete line or end of file (ICANON), max(VMIN, 1)
 * bytes (without). */
bool line_poll_in(const struct line_disc *l);
/* FIONREAD: the bytes reads could take now. */
unsigned line_unread(const struct line_disc *l);
/* Discards the unread input and the line being typed. */
void line_flush(struct line_disc *l);
/* New settings; switching ICANON moves input as console.h says. */
void line_set_termios(struct line_disc *l, const struct console_termios *t);
/* Output: n bytes through OPOST processing to out. */
void line_write(struct line_disc *l, const char *s, uint64_t n);

#endif
