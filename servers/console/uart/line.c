/*
 * The line discipline (line.h): editing the line being typed, echo, and the
 * ring of completed lines that reads take from. Columns are assumed to be
 * one per character, as on a plain serial terminal.
 */
#include "line.h"

#include <string.h>

#define CH_CTRL_U 0x15
#define CH_BS     0x08
#define CH_TAB    0x09
#define CH_LF     0x0a
#define CH_CR     0x0d
#define CH_ESC    0x1b
#define CH_DEL    0x7f

static void echo(struct line_disc *l, const char *s, unsigned n)
{
	if (l->echo)
		l->echo(s, n, l->echo_ctx);
}

void line_init(struct line_disc *l, line_echo_fn echo_fn, void *echo_ctx)
{
	memset(l, 0, sizeof(*l));
	l->echo = echo_fn;
	l->echo_ctx = echo_ctx;
}

/* Drops the last character: a whole UTF-8 sequence (its continuation
 * bytes, 10xxxxxx, and the byte that leads them), one column on screen. */
static void erase_one(struct line_disc *l)
{
	if (l->edit_len == 0)
		return;
	uint8_t c;
	do
		c = (uint8_t)l->edit[--l->edit_len];
	while (l->edit_len > 0 && (c & 0xc0) == 0x80);
	echo(l, "\b \b", 3);
}

/* Moves the edited line, with '\n', to the ring. A line that does not fit
 * stays being edited (the line end is refused with a bell) until reads make
 * room. */
static void complete_line(struct line_disc *l)
{
	unsigned need = l->edit_len + 1;
	if (need > LINE_READY_MAX - l->ready_len) {
		l->dropped++;
		echo(l, "\a", 1);
		return;
	}
	for (unsigned i = 0; i < need; i++) {
		char c = i < l->edit_len ? l->edit[i] : '\n';
		l->ready[(l->ready_start + l->ready_len + i) % LINE_READY_MAX] = c;
	}
	l->ready_len += need;
	l->edit_len = 0;
	echo(l, "\n", 1);
}

/* Escape sequences (arrow and function keys: ESC [ params final, ESC O x,
 * ESC x) are dropped whole. Returns true when c was part of one. */
static bool in_escape(struct line_disc *l, uint8_t c)
{
	switch (l->escape) {
	case ESC_NONE:
		if (c != CH_ESC)
			return false;
		l->escape = ESC_START;
		return true;
	case ESC_START:
		l->escape = c == '[' ? ESC_CSI : c == 'O' ? ESC_SS3 : ESC_NONE;
		return true;
	case ESC_SS3:
		l->escape = ESC_NONE;
		return true;
	case ESC_CSI:
		if (c >= 0x40 && c <= 0x7e) {   /* the final byte */
			l->escape = ESC_NONE;
			return true;
		}
		if (c >= 0x20 && c <= 0x3f)     /* parameter and intermediate bytes */
			return true;
		l->escape = ESC_NONE;           /* not a sequence after all: c counts */
		return in_escape(l, c);
	}
	return false;
}

void line_input(struct line_disc *l, uint8_t c)
{
	if (in_escape(l, c))
		return;
	switch (c) {
	case CH_CR:
	case CH_LF:
		complete_line(l);
		return;
	case CH_BS:
	case CH_DEL:
		erase_one(l);
		return;
	case CH_CTRL_U:
		while (l->edit_len > 0)
			erase_one(l);
		return;
	default:
		break;
	}
	if (c < 0x20 && c != CH_TAB)
		return;   /* other control characters mean nothing here */
	if (l->edit_len == LINE_EDIT_MAX - 1) {   /* keep room for the '\n' */
		l->dropped++;
		echo(l, "\a", 1);
		return;
	}
	l->edit[l->edit_len++] = (char)c;
	echo(l, (const char *)&c, 1);
}

bool line_has_input(const struct line_disc *l)
{
	return l->ready_len > 0;
}

unsigned line_take(struct line_disc *l, char *out, unsigned max)
{
	unsigned n = 0;
	while (n < max && l->ready_len > 0) {
		char c = l->ready[l->ready_start];
		l->ready_start = (l->ready_start + 1) % LINE_READY_MAX;
		l->ready_len--;
		out[n++] = c;
		if (c == '\n')
			break;
	}
	return n;
}
