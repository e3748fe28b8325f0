/*
 * The console's line discipline: turns the bytes typed on the serial port
 * into lines (cooked input, include/myrmex/console.h) and says what to echo.
 * Pure code with no system calls, so the host unit tests run it
 * (tests/unit/test_console_line.c). One structure per console; not
 * thread-safe (the server is one thread).
 */
#ifndef CONSOLE_LINE_H
#define CONSOLE_LINE_H

#include <stdbool.h>
#include <stdint.h>

#define LINE_EDIT_MAX  1024u   /* the line being typed, its '\n' included */
#define LINE_READY_MAX 4096u   /* completed lines waiting for reads */

/* Where echo goes: n bytes, '\n' meaning a new line. */
typedef void (*line_echo_fn)(const char *s, unsigned n, void *ctx);

enum line_escape { ESC_NONE, ESC_START, ESC_CSI, ESC_SS3 };

struct line_disc {
	char edit[LINE_EDIT_MAX];      /* the line being typed, without its end */
	unsigned edit_len;
	/* Completed lines, each ending with '\n', oldest first, in a ring: so
	 * whenever ready_len > 0 a '\n' lies ahead and a read can end there. */
	char ready[LINE_READY_MAX];
	unsigned ready_start, ready_len;
	enum line_escape escape;       /* inside an escape sequence being dropped */
	uint64_t dropped;              /* bytes refused: line full, no room for it */
	line_echo_fn echo;
	void *echo_ctx;
};

void line_init(struct line_disc *l, line_echo_fn echo, void *echo_ctx);
/* One byte typed: edits the line, echoes, completes it on CR or LF. */
void line_input(struct line_disc *l, uint8_t c);
/* Completed input waits (a whole line, or the rest of one). */
bool line_has_input(const struct line_disc *l);
/* Moves at most max bytes of completed input to out, stopping after the
 * first '\n'. Returns how many (0 when none waits). */
unsigned line_take(struct line_disc *l, char *out, unsigned max);

#endif
