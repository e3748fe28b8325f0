/*
 * The line discipline (line.h): input processing as the termios says
 * (canonical editing or raw bytes, echo, signal characters), the ring of
 * input that reads take from, and output processing. Columns are assumed to
 * be one per character, as on a plain serial terminal.
 */
#include "line.h"

#include <string.h>

#define CH_BS  0x08
#define CH_TAB 0x09
#define CH_LF  0x0a
#define CH_CR  0x0d
#define CH_ESC 0x1b
#define CH_DEL 0x7f

#define NO_END (-1)   /* complete_line: the line ends without a character (VEOF) */

void line_default_termios(struct console_termios *t)
{
	static const uint8_t cc[CONSOLE_NCCS] = {
		[CONSOLE_VINTR] = 0x03,    /* Ctrl-C */
		[CONSOLE_VQUIT] = 0x1c,    /* Ctrl-\ */
		[CONSOLE_VERASE] = CH_DEL,
		[CONSOLE_VKILL] = 0x15,    /* Ctrl-U */
		[CONSOLE_VEOF] = 0x04,     /* Ctrl-D */
		[CONSOLE_VMIN] = 1,
		[CONSOLE_VSTART] = 0x11,   /* Ctrl-Q */
		[CONSOLE_VSTOP] = 0x13,    /* Ctrl-S */
		[CONSOLE_VSUSP] = 0x1a,    /* Ctrl-Z */
		[CONSOLE_VREPRINT] = 0x12, /* Ctrl-R */
		[CONSOLE_VDISCARD] = 0x0f, /* Ctrl-O */
		[CONSOLE_VWERASE] = 0x17,  /* Ctrl-W */
		[CONSOLE_VLNEXT] = 0x16,   /* Ctrl-V */
	};
	memset(t, 0, sizeof(*t));
	t->c_iflag = CONSOLE_ICRNL | CONSOLE_IXON;
	t->c_oflag = CONSOLE_OPOST | CONSOLE_ONLCR;
	t->c_cflag = CONSOLE_B38400 | CONSOLE_CS8 | CONSOLE_CREAD | CONSOLE_HUPCL;
	t->c_lflag = CONSOLE_ISIG | CONSOLE_ICANON | CONSOLE_ECHO | CONSOLE_ECHOE | CONSOLE_ECHOK |
	             CONSOLE_ECHOCTL | CONSOLE_ECHOKE | CONSOLE_IEXTEN;
	memcpy(t->c_cc, cc, sizeof(cc));
}

void line_init(struct line_disc *l, line_out_fn out, void *out_ctx)
{
	memset(l, 0, sizeof(*l));
	line_default_termios(&l->tio);
	l->out = out;
	l->out_ctx = out_ctx;
}

static bool lflag(const struct line_disc *l, uint32_t flag)
{
	return (l->tio.c_lflag & flag) != 0;
}

static bool iflag(const struct line_disc *l, uint32_t flag)
{
	return (l->tio.c_iflag & flag) != 0;
}

/* c is the special character c_cc[index], which is enabled (not 0). */
static bool is_char(const struct line_disc *l, unsigned index, uint8_t c)
{
	return l->tio.c_cc[index] != 0 && l->tio.c_cc[index] == c;
}

/* ---------------------------------------------------------- output */

/* n bytes as they are; in pieces, since the sink counts in unsigned. */
static void emit(struct line_disc *l, const char *s, uint64_t n)
{
	while (l->out && n > 0) {
		unsigned piece = n > (1u << 30) ? 1u << 30 : (unsigned)n;
		l->out(s, piece, l->out_ctx);
		s += piece;
		n -= piece;
	}
}

void line_write(struct line_disc *l, const char *s, uint64_t n)
{
	bool post = (l->tio.c_oflag & CONSOLE_OPOST) != 0;
	bool nl_crnl = post && (l->tio.c_oflag & CONSOLE_ONLCR);
	bool cr_nl = post && (l->tio.c_oflag & CONSOLE_OCRNL);
	uint64_t sent = 0;   /* s[0..sent) is out */
	for (uint64_t i = 0; i < n; i++) {
		bool nl = s[i] == '\n' && nl_crnl, cr = s[i] == '\r' && cr_nl;
		if (!nl && !cr)
			continue;
		emit(l, s + sent, i - sent);
		emit(l, nl ? "\r\n" : "\n", nl ? 2 : 1);
		sent = i + 1;
	}
	emit(l, s + sent, n - sent);
}

/* Echo goes through output processing, as on Linux. */
static void echo(struct line_disc *l, const char *s, unsigned n)
{
	line_write(l, s, n);
}

/* c as typed: with ECHOCTL a control character other than tab and newline
 * shows as ^X (DEL as ^?). */
static void echo_char(struct line_disc *l, uint8_t c)
{
	bool control = (c < 0x20 || c == CH_DEL) && c != CH_TAB && c != CH_LF;
	if (control && lflag(l, CONSOLE_ECHOCTL)) {
		char s[2] = { '^', (char)(c ^ 0x40) };
		echo(l, s, 2);
	} else {
		echo(l, (const char *)&c, 1);
	}
}

static void echo_bell(struct line_disc *l)
{
	echo(l, "\a", 1);
}

/* ---------------------------------------------------------- the ring */

static unsigned slot(const struct line_disc *l, unsigned i)
{
	return (l->ready_start + i) % LINE_READY_MAX;
}

static bool ring_put(struct line_disc *l, char c, uint8_t mark)
{
	if (l->ready_len == LINE_READY_MAX)
		return false;
	unsigned s = slot(l, l->ready_len++);
	l->ready[s] = c;
	l->marks[s] = mark;
	if (mark)
		l->ready_lines++;
	if (mark & LINE_MARK_EOF)
		l->ready_eofs++;
	return true;
}

/* Takes the oldest slot; returns its mark. */
static uint8_t ring_take(struct line_disc *l, char *c)
{
	unsigned s = l->ready_start;
	uint8_t mark = l->marks[s];
	*c = l->ready[s];
	if (mark)
		l->ready_lines--;
	if (mark & LINE_MARK_EOF)
		l->ready_eofs--;
	l->ready_start = (s + 1) % LINE_READY_MAX;
	l->ready_len--;
	return mark;
}

void line_flush(struct line_disc *l)
{
	l->ready_start = l->ready_len = 0;
	l->ready_lines = l->ready_eofs = 0;
	l->edit_len = 0;
	l->escape = ESC_NONE;
}

/* ---------------------------------------------------------- canonical editing */

/* Drops the last character: a whole UTF-8 sequence (its continuation
 * bytes, 10xxxxxx, and the byte that leads them), one column on screen.
 * typed is the character that asked, echoed without ECHOE. */
static void erase_one(struct line_disc *l, uint8_t typed)
{
	if (l->edit_len == 0)
		return;
	uint8_t c;
	do
		c = (uint8_t)l->edit[--l->edit_len];
	while (l->edit_len > 0 && (c & 0xc0) == 0x80);
	if (!lflag(l, CONSOLE_ECHO))
		return;
	if (lflag(l, CONSOLE_ECHOE))
		echo(l, "\b \b", 3);
	else
		echo_char(l, typed);
}

/* VKILL: erased on screen one character at a time with ECHOK, ECHOKE and
 * ECHOE all on (the default); else the kill character is echoed, and a new
 * line with ECHOK. */
static void kill_line(struct line_disc *l, uint8_t typed)
{
	const uint32_t visual = CONSOLE_ECHOK | CONSOLE_ECHOKE | CONSOLE_ECHOE;
	if (lflag(l, CONSOLE_ECHO) && (l->tio.c_lflag & visual) != visual) {
		l->edit_len = 0;
		echo_char(l, typed);
		if (lflag(l, CONSOLE_ECHOK))
			echo(l, "\n", 1);
		return;
	}
	while (l->edit_len > 0)
		erase_one(l, typed);
}

/* VWERASE: the blanks before the cursor, then the word before them. */
static void erase_word(struct line_disc *l, uint8_t typed)
{
	while (l->edit_len > 0 && (l->edit[l->edit_len - 1] == ' ' || l->edit[l->edit_len - 1] == '\t'))
		erase_one(l, typed);
	while (l->edit_len > 0 && l->edit[l->edit_len - 1] != ' ' && l->edit[l->edit_len - 1] != '\t')
		erase_one(l, typed);
}

/* Moves the edited line to the ring, followed by end (or by nothing: NO_END,
 * and then an empty line is an end of file), its last slot marked. A line
 * that does not fit stays being edited (refused with a bell) until reads
 * make room. Returns whether it moved. */
static bool complete_line(struct line_disc *l, int end)
{
	unsigned need = l->edit_len + (end != NO_END);
	if (need == 0)
		need = 1;   /* the end-of-file slot */
	if (need > LINE_READY_MAX - l->ready_len) {
		l->dropped++;
		echo_bell(l);
		return false;
	}
	if (l->edit_len == 0 && end == NO_END) {
		ring_put(l, 0, LINE_MARK_EOF);
		return true;
	}
	for (unsigned i = 0; i < l->edit_len; i++) {
		bool last = i + 1 == l->edit_len && end == NO_END;
		ring_put(l, l->edit[i], last ? LINE_MARK_END : 0);
	}
	if (end != NO_END)
		ring_put(l, (char)end, LINE_MARK_END);
	l->edit_len = 0;
	return true;
}

/* Escape sequences (arrow and function keys: ESC [ params final, ESC O x,
 * ESC x) are dropped whole in canonical mode. Returns true when c was part
 * of one. */
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

static void canonical_input(struct line_disc *l, uint8_t c)
{
	if (in_escape(l, c))
		return;
	if (c == CH_BS || is_char(l, CONSOLE_VERASE, c)) {
		erase_one(l, c);
		return;
	}
	if (is_char(l, CONSOLE_VKILL, c)) {
		kill_line(l, c);
		return;
	}
	if (lflag(l, CONSOLE_IEXTEN) && is_char(l, CONSOLE_VWERASE, c)) {
		erase_word(l, c);
		return;
	}
	if (c == CH_LF || is_char(l, CONSOLE_VEOL, c) || is_char(l, CONSOLE_VEOL2, c)) {
		if (!complete_line(l, c))
			return;
		if (lflag(l, CONSOLE_ECHO))
			echo_char(l, c);
		else if (c == CH_LF && lflag(l, CONSOLE_ECHONL))
			echo(l, "\n", 1);
		return;
	}
	if (is_char(l, CONSOLE_VEOF, c)) {
		complete_line(l, NO_END);   /* nothing echoed */
		return;
	}
	if ((c < 0x20 && c != CH_TAB) || c == CH_DEL)
		return;   /* other control characters mean nothing here */
	if (l->edit_len == LINE_EDIT_MAX - 1) {   /* keep room for the line end */
		l->dropped++;
		echo_bell(l);
		return;
	}
	l->edit[l->edit_len++] = (char)c;
	if (lflag(l, CONSOLE_ECHO))
		echo(l, (const char *)&c, 1);
}

/* ---------------------------------------------------------- input */

static void raw_input(struct line_disc *l, uint8_t c)
{
	if (!ring_put(l, (char)c, 0)) {
		l->dropped++;
		return;
	}
	if (lflag(l, CONSOLE_ECHO))
		echo_char(l, c);
	else if (c == CH_LF && lflag(l, CONSOLE_ECHONL))
		echo(l, "\n", 1);
}

/* VINTR, VQUIT or VSUSP with ISIG: echoed as ^C and no more, as Linux's
 * n_tty (the shell starts the next line). */
static enum line_event signal_char(struct line_disc *l, uint8_t c, enum line_event event)
{
	if (!lflag(l, CONSOLE_NOFLSH))
		line_flush(l);
	if (lflag(l, CONSOLE_ECHO))
		echo_char(l, c);
	return event;
}

enum line_event line_input(struct line_disc *l, uint8_t c)
{
	if (iflag(l, CONSOLE_ISTRIP))
		c &= 0x7f;
	if (iflag(l, CONSOLE_IXON) && (is_char(l, CONSOLE_VSTART, c) || is_char(l, CONSOLE_VSTOP, c)))
		return LINE_EVENT_NONE;   /* flow control: swallowed, output never stops */
	if (lflag(l, CONSOLE_ISIG)) {
		if (is_char(l, CONSOLE_VINTR, c))
			return signal_char(l, c, LINE_EVENT_SIGINT);
		if (is_char(l, CONSOLE_VQUIT, c))
			return signal_char(l, c, LINE_EVENT_SIGQUIT);
		if (is_char(l, CONSOLE_VSUSP, c))
			return signal_char(l, c, LINE_EVENT_SIGTSTP);
	}
	if (c == CH_CR) {
		if (iflag(l, CONSOLE_IGNCR))
			return LINE_EVENT_NONE;
		if (iflag(l, CONSOLE_ICRNL))
			c = CH_LF;
	} else if (c == CH_LF && iflag(l, CONSOLE_INLCR)) {
		c = CH_CR;
	}
	if (lflag(l, CONSOLE_ICANON))
		canonical_input(l, c);
	else
		raw_input(l, c);
	return LINE_EVENT_NONE;
}

/* ---------------------------------------------------------- reads */

static unsigned vmin(const struct line_disc *l)
{
	return l->tio.c_cc[CONSOLE_VMIN];
}

bool line_can_read(const struct line_disc *l, unsigned max)
{
	if (lflag(l, CONSOLE_ICANON))
		return l->ready_lines > 0;
	unsigned need = vmin(l) < max ? vmin(l) : max;
	return l->ready_len >= need;
}

unsigned line_read(struct line_disc *l, char *out, unsigned max)
{
	bool canonical = lflag(l, CONSOLE_ICANON);
	unsigned n = 0;
	while (n < max && l->ready_len > 0) {
		if (l->marks[l->ready_start] & LINE_MARK_EOF) {
			if (n == 0)
				ring_take(l, &(char){ 0 });   /* the end of file, alone */
			break;
		}
		uint8_t mark = ring_take(l, &out[n++]);
		if (canonical && (mark & LINE_MARK_END))
			break;
	}
	return n;
}

bool line_poll_in(const struct line_disc *l)
{
	if (lflag(l, CONSOLE_ICANON))
		return l->ready_lines > 0;
	return l->ready_len > 0 && l->ready_len >= vmin(l);
}

unsigned line_unread(const struct line_disc *l)
{
	return l->ready_len - l->ready_eofs;
}

/* ---------------------------------------------------------- settings */

/* ICANON off: ends of file go, marks go, the line being typed is readable. */
static void to_raw(struct line_disc *l)
{
	unsigned kept = 0;
	for (unsigned i = 0; i < l->ready_len; i++) {
		unsigned from = slot(l, i);
		if (l->marks[from] & LINE_MARK_EOF)
			continue;
		unsigned to = slot(l, kept++);
		l->ready[to] = l->ready[from];
		l->marks[to] = 0;
	}
	l->ready_len = kept;
	l->ready_lines = l->ready_eofs = 0;
	for (unsigned i = 0; i < l->edit_len; i++)
		if (!ring_put(l, l->edit[i], 0))
			l->dropped++;
	l->edit_len = 0;
}

/* ICANON on: whatever waits unread is one line. */
static void to_canonical(struct line_disc *l)
{
	if (l->ready_len == 0)
		return;
	unsigned last = slot(l, l->ready_len - 1);
	l->marks[last] = LINE_MARK_END;
	l->ready_lines = 1;
}

void line_set_termios(struct line_disc *l, const struct console_termios *t)
{
	bool was = lflag(l, CONSOLE_ICANON);
	l->tio = *t;
	bool now = lflag(l, CONSOLE_ICANON);
	l->escape = ESC_NONE;
	if (was && !now)
		to_raw(l);
	else if (!was && now)
		to_canonical(l);
}
